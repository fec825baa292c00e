/* check.h: the whole unit-test framework. Each tests/unit/test_*.c is one program whose
 * cases are rows of a table; CHECK records a failure with file:line and goes on, and
 * check_done() prints "<program>: N checks, N failed" and gives the exit status: a program
 * that ran no check at all fails too (a table left empty, a loop that never ran). */
#ifndef FSM_CHECK_H
#define FSM_CHECK_H
#include <stdio.h>
#include <string.h>

static int check_count, check_failed;

#define CHECK(cond, ...) do { \
	check_count++; \
	if (!(cond)) { \
		check_failed++; \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define CHECK_STR(got, want) CHECK(strcmp((got), (want)) == 0, "got \"%s\", want \"%s\"", (got), (want))
#define CHECK_INT(got, want) CHECK((long long)(got) == (long long)(want), "got %lld, want %lld", \
				   (long long)(got), (long long)(want))

static inline int check_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failed);
	if (check_count == 0)
		fprintf(stderr, "%s: no check ran: a test that asserts nothing cannot fail\n", name);
	return check_failed || check_count == 0 ? 1 : 0;
}
#endif
