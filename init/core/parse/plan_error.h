/* core/parse/plan_error.h: the plan's error list, for the parser and the whole-plan checks beside it:
 * one "FILE:LINE: message" line per error, kept in line order. Pure. */
#ifndef FSM_PLAN_ERROR_H
#define FSM_PLAN_ERROR_H
#include "core/model/plan.h"

/* Adds "FILE:LINE: message" (counted even past PLAN_ERRORS_MAX, kept up to it). */
__attribute__((format(printf, 3, 4)))
void plan_add_error(struct plan *p, int line, const char *fmt, ...);

/* An echoed value is cut to this many bytes and an ellipsis, so that the reason, which
 * comes before it, always fits in PLAN_ERROR_LEN. */
#define PLAN_ECHO_MAX 40
struct plan_echo { char s[PLAN_ECHO_MAX + 4]; };

/* s, or its first PLAN_ECHO_MAX bytes and "..." (never half a UTF-8 character), in e. */
const char *plan_echo(const char *s, struct plan_echo *e);

/* Puts the kept errors in line order; errors of one line keep their order. */
void plan_sort_errors(struct plan *p);

#endif
