/* report/verdicts.c: the Verdicts section of a report: how many cells are stable on their
 * main figure, and for each figure marked "~", why (core/figures/verdict.h). Cells whose plan asked
 * for fewer repeats than a verdict needs are counted on one line rather than listed: a run of
 * single repeats would otherwise list every cell. */
#include "report/model.h"

#include <stdio.h>
#include <string.h>

/* Whether every figure of c has too few repeats, and as many: "too few repeats: 2 of 3" is
 * then said once for the cell. */
static const char *one_reason(const struct rcell *c)
{
	const char *r = NULL;
	for (size_t m = 0; m < c->nm; m++) {
		if (!c->has[m])
			continue;
		if (c->vd[m].n >= VERDICT_MIN_N || (r && strcmp(r, c->vd[m].reason) != 0))
			return NULL;
		r = c->vd[m].reason;
	}
	return r;
}

static int any_unstable(const struct rcell *c)
{
	for (size_t m = 0; m < c->nm; m++)
		if (c->has[m] && !c->vd[m].stable)
			return 1;
	return 0;
}

/* A cell the plan ran fewer times than a verdict needs: none of its figures can be stable. */
static int planned_few(const struct rcell *c)
{
	return c->reps < VERDICT_MIN_N && c->seen == c->reps;
}

void report_verdict_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line, void *ctx)
{
	int cells = 0, stable = 0, few = 0, few_lo = 0, few_hi = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c) || !c->ok || !c->nm)
			continue;
		cells++;
		stable += c->verdict.stable;
		if (planned_few(c) && any_unstable(c)) {
			few++;
			few_lo = !few_lo || c->reps < few_lo ? c->reps : few_lo;
			few_hi = c->reps > few_hi ? c->reps : few_hi;
		}
	}
	if (!cells)
		return;
	char rule[160], reps[32];
	snprintf(rule, sizeof rule, "%d or more repeats, RSD within %g%%, range within %g%% of the "
		 "median", VERDICT_MIN_N, VERDICT_RSD_PCT, VERDICT_RANGE_PCT);
	snprintf(reps, sizeof reps, few_lo == few_hi ? "%d" : "%d-%d", few_lo, few_hi);
	if (few == cells) {
		report_line(line, ctx, "  every cell ran %s repeat%s, as planned: too few for any figure to be "
		    "called stable (%s)", reps, few_hi == 1 ? "" : "s", rule);
		return;
	}
	if (stable == cells)
		report_line(line, ctx, "  all %d cell%s stable on their main figure (%s)", cells,
		    cells == 1 ? "" : "s", rule);
	else
		report_line(line, ctx, "  %d of %d cell%s stable on their main figure (%s); the figures marked ~:",
		    stable, cells, cells == 1 ? "" : "s", rule);
	if (few)
		report_line(line, ctx, "  %d cell%s ran %s repeat%s, as planned: too few for any of %s figures "
		    "to be called stable", few, few == 1 ? "" : "s", reps, few_hi == 1 ? "" : "s",
		    few == 1 ? "its" : "their");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c) || !c->ok || !any_unstable(c) || planned_few(c))
			continue;
		const char *same = one_reason(c);
		if (same) {
			report_line(line, ctx, "  %s: %s", c->id, same);
			continue;
		}
		char buf[1500];
		size_t k = 0;
		buf[0] = '\0';
		for (size_t m = 0; m < c->nm && k < sizeof buf; m++)
			if (c->has[m] && !c->vd[m].stable)
				k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s: %s", k ? "; " : "",
						      c->m[m]->label, c->vd[m].reason);
		report_line(line, ctx, "  %s: %s", c->id, buf);
	}
}
