/* plan_text.h: a plan from a string, for the unit programs that build their cases as plan
 * text: parsed as a file named file would be, its first error on stderr when it does not
 * parse (the case's own text is then the thing to read). */
#ifndef FSM_PLAN_TEXT_H
#define FSM_PLAN_TEXT_H
#include <stdio.h>
#include <string.h>
#include "core/parse/plan_parse.h"

static inline int plan_text(const char *file, const char *text, struct plan *p)
{
	int rc = plan_parse(file, text, strlen(text), p);
	if (rc)
		fprintf(stderr, "%s\n", p->errors[0]);
	return rc;
}
#endif
