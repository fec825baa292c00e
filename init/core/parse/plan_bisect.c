/* core/parse/plan_bisect.c: a plan's [bisect] section (core/model/plan.h's struct plan_bisect): its keys,
 * and what makes it a search PID 1 can run: the ends among the kernels and in order, a cell
 * of the plan and a metric of its workload, repeat = auto. Its errors are the plan's
 * FILE:LINE lines, given before any disk is written. */
#include "core/parse/plan_keys.h"
#include "core/matrix/bisect.h"
#include "core/matrix/matrix.h"
#include "core/parse/plan_error.h"

#include <stdio.h>
#include <string.h>

static const struct choice directions[] = {
	{ "lower-is-worse", BISECT_LOWER_IS_WORSE }, { "higher-is-worse", BISECT_HIGHER_IS_WORSE },
	{ NULL, 0 },
};

#define G(f) offsetof(struct plan, f)
const struct key bisect_keys[] = {
	{ "kernels", K_KERNELS, G(kernels), 0, 0, NULL, NULL, 0,
	  .help = "the kernel sets searched, in order from the good end to the bad one (`k1, k2, "
	  "k3`); given here or in `[global]`, once "
	  "([below](#bisecting-a-slowdown-over-kernels))" },
	{ "good", K_NAME, G(bisect.good), 0, 0, NULL, NULL, 0,
	  .help = "the set known good, one of `kernels` (required)" },
	{ "bad", K_NAME, G(bisect.bad), 0, 0, NULL, NULL, 0,
	  .help = "the set known bad, one of `kernels`, after `good` (required)" },
	{ "cell", K_STR, G(bisect.cell), 0, 0, NULL, NULL, 0,
	  .help = "the cell that defines \"slower\", its id without the `@kernel` "
	  "(`disk/ext4/defaults/seq`); may be left out when the plan has one cell" },
	{ "metric", K_NAME, G(bisect.metric), 0, 0, NULL, NULL, 0,
	  .help = "the figure of that cell's workload compared (`mbps`; required)" },
	{ "min_change", K_PCT, G(bisect.min_change_pct), 0, 0, NULL, NULL, 0,
	  .help = "the ends must differ by this % of the good end's figure too, besides "
	  "significantly (`5%`)" },
	{ "direction", K_CHOICE, G(bisect.direction), 0, 0, directions,
	  "expected lower-is-worse or higher-is-worse", 0,
	  .help = "`lower-is-worse` or `higher-is-worse` (the metric's own: a rate's lower, a "
	  "time's or latency's higher)" },
	{ .name = NULL },
};
_Static_assert(sizeof bisect_keys / sizeof bisect_keys[0] - 1 <= PLAN_KEYS_MAX,
	       "bisect_keys fit in key_line[]");

/* The line of [bisect]'s key, or of the section when it was not given. */
static int line_of(const struct plan *p, const char *key)
{
	int l = p->bisect.key_line[key_index(bisect_keys, key)];
	return l > 0 ? l : l < 0 ? -l : p->bisect.line;
}

static int given(const struct plan *p, const char *key)
{
	return p->bisect.key_line[key_index(bisect_keys, key)] > 0;
}

int plan_bisect_line(const struct plan *p, const char *key)
{
	int i = key_index(bisect_keys, key);
	return i >= 0 && p->bisect.key_line[i] > 0 ? p->bisect.key_line[i] : 0;
}

void plan_bisect_defaults(struct plan *p)
{
	int ri = key_index(global_keys, "repeat");
	/* each probe runs until its figure is stable: repeat = auto unless the plan says */
	if (p->bisect.line && p->key_line[ri] == 0)
		p->repeat_auto = 1;
	/* a significant change too small to matter is not chased: a figure steady to 1%
	 * makes a 1% drift between two boots significant */
	if (p->bisect.line && !given(p, "min_change"))
		p->bisect.min_change_pct = BISECT_MIN_CHANGE_PCT;
}

static int kernel_index(const struct plan *p, const char *name)
{
	for (int k = 0; k < p->nkernels; k++)
		if (strcmp(p->kernels[k], name) == 0)
			return k;
	return -1;
}

/* good and bad: two sets of the list, the good one first. */
static void check_ends(struct plan *p)
{
	struct plan_bisect *b = &p->bisect;
	const char *const ends[2] = { "good", "bad" };
	int *at[2] = { &b->good_k, &b->bad_k };
	for (int e = 0; e < 2; e++) {
		const char *name = e ? b->bad : b->good;
		*at[e] = -1;
		if (!given(p, ends[e])) {
			if (b->key_line[key_index(bisect_keys, ends[e])] == 0)
				plan_add_error(p, b->line, "[bisect]: \"%s\" is required: the kernel set "
					       "known to be %s", ends[e], ends[e]);
			continue;
		}
		if ((*at[e] = kernel_index(p, name)) < 0 && p->nkernels)
			plan_add_error(p, line_of(p, ends[e]), "[bisect]: %s = %s is not one of the "
				       "kernels (%s%s)", ends[e], name, p->kernels[0],
				       p->nkernels > 1 ? ", ..." : "");
	}
	if (b->good_k < 0 || b->bad_k < 0)
		return;
	if (b->good_k == b->bad_k)
		plan_add_error(p, line_of(p, "bad"), "[bisect]: good and bad are the same set (%s): "
			       "a search needs two ends", b->bad);
	else if (b->good_k > b->bad_k)
		plan_add_error(p, line_of(p, "good"), "[bisect]: good = %s comes after bad = %s in "
			       "kernels: the list runs from the good end to the bad one", b->good,
			       b->bad);
}

/* The kernel list: given once, at least two sets, their cells one repetition at a time. */
static void check_list(struct plan *p)
{
	int gi = key_index(global_keys, "kernels"), ri = key_index(global_keys, "repeat");
	int bl = p->bisect.key_line[key_index(bisect_keys, "kernels")];
	if (p->key_line[gi] && bl)
		plan_add_error(p, bl < 0 ? -bl : bl, "[bisect]: kernels is given in [global] too "
			       "(line %d): name the sets once", p->key_line[gi] < 0 ? -p->key_line[gi]
			       : p->key_line[gi]);
	else if (!p->key_line[gi] && !bl)
		plan_add_error(p, p->bisect.line, "[bisect]: \"kernels\" is required: the kernel sets "
			       "in order, from the good end to the bad one");
	else if (p->nkernels < 2 && p->key_line[gi] >= 0 && bl >= 0)
		plan_add_error(p, line_of(p, "kernels"), "[bisect]: kernels names %d set: a search "
			       "needs at least two", p->nkernels);
	if (p->key_line[ri] > 0 && !p->repeat_auto)
		plan_add_error(p, p->key_line[ri], "[global]: a [bisect] plan runs each probe until "
			       "its figure is stable: repeat = auto (or no repeat), not %d", p->repeat);
	if (p->repeat_auto && p->repeat_max > BISECT_REPS_MAX)
		plan_add_error(p, p->key_line[key_index(global_keys, "repeat_max")], "[global]: a "
			       "[bisect] plan takes repeat_max up to %d (repeat_max = %d)",
			       BISECT_REPS_MAX, p->repeat_max);
	if (p->order == ORDER_SEQUENTIAL)
		plan_add_error(p, p->key_line[key_index(global_keys, "order")], "[global]: a "
			       "[bisect] plan needs order = interleave or shuffle");
}

/* The cell's id without the "@kernel" the kernels add. */
static void base_id(const char *id, char *out, size_t len)
{
	size_t n = strcspn(id, "@");
	if (n >= len)
		n = len - 1;
	memcpy(out, id, n);
	out[n] = '\0';
}

/* cell: one of the plan's cells (the only one may go unnamed); metric: one of its
 * workload's, which also gives the direction unless the plan says. */
static void check_cell(struct plan *p)
{
	struct plan_bisect *b = &p->bisect;
	struct cell c;
	char id[CELL_ID_MAX];
	int per = matrix_per_rep(p);
	b->slot = -1;
	for (int s = 0; s < per && b->slot < 0; s++) {
		if (matrix_slot_cell(p, s, 1, &c) < 0)
			return;
		base_id(c.id, id, sizeof id);
		if (given(p, "cell") ? strcmp(id, b->cell) == 0 : per == 1)
			b->slot = s;
	}
	if (b->slot < 0) {
		matrix_slot_cell(p, 0, 1, &c);
		base_id(c.id, id, sizeof id);
		if (given(p, "cell"))
			plan_add_error(p, line_of(p, "cell"), "[bisect]: cell = %s is not a cell of "
				       "this plan (such as %s)", b->cell, id);
		else
			plan_add_error(p, b->line, "[bisect]: \"cell\" is required: the plan has %d "
				       "cells (such as %s)", per, id);
		return;
	}
	matrix_slot_cell(p, b->slot, 1, &c);
	base_id(c.id, b->cell, sizeof b->cell);
	const struct wl_kind *wk = wl_kind_of(p->workloads[c.workload].type);
	const struct metric *m = NULL;
	char list[200] = "";
	for (int i = 0; wk && wk->metrics[i].key; i++) {
		if (strcmp(wk->metrics[i].key, b->metric) == 0)
			m = &wk->metrics[i];
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
			 wk->metrics[i].key);
	}
	if (!given(p, "metric"))
		plan_add_error(p, b->line, "[bisect]: \"metric\" is required: one of %s", list);
	else if (!m)
		plan_add_error(p, line_of(p, "metric"), "[bisect]: metric = %s: the cell %s (%s) "
			       "has no such metric (its metrics: %s)", b->metric, b->cell,
			       wk ? wk->name : "?", list);
	else
		b->lower_is_worse = b->direction == BISECT_DIR_METRIC ? m->higher_better
				    : b->direction == BISECT_LOWER_IS_WORSE;
}

void plan_bisect_check(struct plan *p)
{
	if (!p->bisect.line)
		return;
	check_list(p);
	check_ends(p);
	/* the cells exist only in a plan that is right otherwise */
	if (!p->nerrors)
		check_cell(p);
}
