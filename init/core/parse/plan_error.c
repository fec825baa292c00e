/* core/parse/plan_error.c: the plan's error lines. Validation runs after parsing, so its errors are
 * added last and sorted into place. */
#include "core/parse/plan_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plan_add_error(struct plan *p, int line, const char *fmt, ...)
{
	if (p->nerrors++ >= PLAN_ERRORS_MAX)
		return;
	char e[PLAN_ERROR_LEN];   /* not straight into p: p->file is one of the arguments */
	int n = snprintf(e, sizeof e, "%s:%d: ", p->file, line);
	if (n < 0 || n >= PLAN_ERROR_LEN)
		n = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e + n, sizeof e - (size_t)n, fmt, ap);
	va_end(ap);
	memcpy(p->errors[p->nerrors - 1], e, sizeof e);
}

/* The line number back out of "FILE:LINE: ...": FILE itself may hold colons. */
static long error_line(const struct plan *p, int i)
{
	return strtol(p->errors[i] + strlen(p->file) + 1, NULL, 10);
}

/* Insertion sort: stable and at most PLAN_ERRORS_MAX rows. */
void plan_sort_errors(struct plan *p)
{
	int n = p->nerrors < PLAN_ERRORS_MAX ? p->nerrors : PLAN_ERRORS_MAX;
	char tmp[PLAN_ERROR_LEN];

	for (int i = 1; i < n; i++) {
		long li = error_line(p, i);
		int j = i;
		while (j > 0 && error_line(p, j - 1) > li)
			j--;
		if (j == i)
			continue;
		memcpy(tmp, p->errors[i], sizeof tmp);
		memmove(p->errors[j + 1], p->errors[j], (size_t)(i - j) * sizeof tmp);
		memcpy(p->errors[j], tmp, sizeof tmp);
	}
}

const char *plan_echo(const char *s, struct plan_echo *e)
{
	size_t n = strlen(s);
	if (n <= PLAN_ECHO_MAX) {
		memcpy(e->s, s, n + 1);
		return e->s;
	}
	n = PLAN_ECHO_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)   /* s[n] continues a character */
		n--;
	memcpy(e->s, s, n);
	memcpy(e->s + n, "...", 4);
	return e->s;
}
