/* fuzz.h: what every harness in tests/fuzz/ shares. A broken invariant aborts, so libFuzzer
 * saves the input that broke it, the same as for a sanitizer report. */
#ifndef FSM_FUZZ_H
#define FSM_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: invariant broken: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

/* The error-line rule: a parser that fails says so in one non-empty line. */
static inline void fuzz_one_line(const char *msg, size_t cap)
{
	size_t n = strnlen(msg, cap);
	FUZZ_ASSERT(n > 0, "empty error message");
	FUZZ_ASSERT(n < cap, "error message not terminated");
	FUZZ_ASSERT(memchr(msg, '\n', n) == NULL, "error message spans lines: \"%s\"", msg);
}

/* The input as a NUL-terminated string, cut at its first NUL: what a C caller sees. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
#endif
