/* report/contrasts.c: the statements of Findings that set cells of one run against each other.
 * Cells that differ only by their filesystem and mount options (the same array, workload,
 * tunables and kernel) answer "which filesystem, which options, on this array": in each such
 * group the best and the worst cell on their main figure are set against each other with
 * Welch's t-test over their repeats, corrected by Holm-Bonferroni over every group's test, as
 * compare does between runs. A pair with a side not stable over its repeats is not tested
 * and says why; a pair whose cells were held back by different things says what each was. */
#include "report/sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.05
#define SHOWN_MAX 8   /* "the few statements a run supports": the rest are counted */

struct contrast {
	size_t best, worst;    /* indexes into the run's cells */
	int ib, iw;            /* the main figure's metric index in each */
	const struct metric *m;
	double change;         /* best over worst, % of worst's median, by the metric's direction */
	int tested;
	double p, p_holm;
};

static int figure_of(const struct rcell *c, const char *key)
{
	for (size_t i = 0; key && i < c->nm; i++)
		if (strcmp(c->m[i]->key, key) == 0)
			return c->has[i] ? (int)i : -1;
	return -1;
}

/* The array a cell ran on as its id names it: with its layer stack ("r10+luks"), which is
 * part of the array, not of the filesystem. */
static const char *array_of(const struct rcell *c, char *buf, size_t len)
{
	char b[128], l[128];
	const char *a = report_cell_axis(c, "array", b, sizeof b);
	axis_text(c->axes, "layers", l, sizeof l);
	snprintf(buf, len, "%s%s%s", a, *l && strcmp(l, "none") ? "+" : "",
		 *l && strcmp(l, "none") ? l : "");
	return buf;
}

/* The group a cell belongs to: every axis it has but its filesystem and mount options, and
 * its layer stack. */
static void group_key(const struct rcell *c, char *out, size_t len)
{
	char l[128];
	axis_text(c->axes, "layers", l, sizeof l);
	size_t k = (size_t)snprintf(out, len, "%s\x1f", l);
	for (size_t a = 0; c->axis && c->axis[a] && k < len; a++) {
		const char *name = a < report_naxes ? report_axes[a] : "";
		if (!strcmp(name, "fs") || !strcmp(name, "fstype") || !strcmp(name, "mount"))
			continue;
		k += (size_t)snprintf(out + k, len - k, "%s\x1f", c->axis[a]);
	}
}

/* Better: by the metric's direction, over the medians. */
static int better(const struct metric *m, double x, double y)
{
	return m->higher_better ? x > y : x < y;
}

/* The group's contrast: its best and worst cell on the first member's main figure. 0 when the
 * group has fewer than two cells with that figure. */
static int contrast_of(const struct rrun *r, json_t *members, struct contrast *out)
{
	const struct rcell *first = &r->cells[json_integer_value(json_array_get(members, 0))];
	const char *key = first->verdict_metric;
	size_t i, n = 0;
	json_t *v;
	json_array_foreach(members, i, v) {
		size_t ci = (size_t)json_integer_value(v);
		int ix = figure_of(&r->cells[ci], key);
		if (ix < 0)
			continue;
		double x = r->cells[ci].st[ix].median;
		if (!n++) {
			*out = (struct contrast){ .best = ci, .worst = ci, .ib = ix, .iw = ix,
						  .m = r->cells[ci].m[ix], .p = NAN, .p_holm = NAN };
			continue;
		}
		if (better(out->m, x, r->cells[out->best].st[out->ib].median))
			out->best = ci, out->ib = ix;
		if (better(out->m, r->cells[out->worst].st[out->iw].median, x))
			out->worst = ci, out->iw = ix;
	}
	/* all alike: any other cell is the pair's other side */
	json_array_foreach(members, i, v)
		if (out->best == out->worst && (size_t)json_integer_value(v) != out->best &&
		    figure_of(&r->cells[json_integer_value(v)], key) >= 0) {
			out->worst = (size_t)json_integer_value(v);
			out->iw = figure_of(&r->cells[out->worst], key);
		}
	if (n < 2)
		return 0;
	const struct rcell *b = &r->cells[out->best], *w = &r->cells[out->worst];
	double mb = b->st[out->ib].median, mw = w->st[out->iw].median;
	out->change = mw != 0 ? fabs(mb - mw) / fabs(mw) * 100 : NAN;
	struct welch t;
	if (b->vd[out->ib].stable && w->vd[out->iw].stable &&
	    stats_welch(b->fig.v[out->ib], b->fig.nv[out->ib], w->fig.v[out->iw], w->fig.nv[out->iw],
			&t) == 0) {
		out->tested = 1;
		out->p = t.p;
	}
	return 1;
}

/* "ext4/defaults": what tells a cell from the others of its group. */
static void label(const struct rcell *c, char *out, size_t len)
{
	char b1[128], b2[128];
	const char *fs = report_cell_axis(c, "fs", b1, sizeof b1);
	snprintf(out, len, "%s/%s", fs, report_cell_axis(c, "mount", b2, sizeof b2));
}

static void say(const struct rrun *r, const struct contrast *x, size_t npairs,
		const struct cell_answer *ans, report_line_fn line, void *ctx)
{
	const struct rcell *b = &r->cells[x->best], *w = &r->cells[x->worst];
	char lb[256], lw[256], buf[256], test[400], why[1200] = "";
	label(b, lb, sizeof lb);
	label(w, lw, sizeof lw);
	const char *arr = array_of(b, buf, sizeof buf);
	const char *word = x->m->higher_better ? "faster than" : "quicker than";
	if (!x->tested)
		snprintf(test, sizeof test, "not tested: %s not stable over its repeats",
			 !b->vd[x->ib].stable ? lb : lw);
	else if (x->p_holm < 0.0001)
		snprintf(test, sizeof test, "Welch p < 0.0001 after Holm over %zu pair%s", npairs,
			 npairs == 1 ? "" : "s");
	else
		snprintf(test, sizeof test, "Welch p %.4f, %.4f after Holm over %zu pair%s", x->p,
			 x->p_holm, npairs, npairs == 1 ? "" : "s");
	if (ans && ans[x->best].kind && ans[x->worst].kind && strcmp(ans[x->best].kind, ans[x->worst].kind))
		snprintf(why, sizeof why, "; %s held back by %s, %s by %s: %s", lb, ans[x->best].kind,
			 lw, ans[x->worst].kind, ans[x->worst].evidence ? ans[x->worst].evidence : "");
	int significant = x->tested && x->p_holm < ALPHA;
	report_line(line, ctx, "  on %s (%s): %s %s %s: %s %.*f vs %.*f (%.0f%%; %s)%s", arr,
		    b->workload, lb, significant ? word : x->tested ? "no significant difference from"
		    : "vs", lw, x->m->label, x->m->decimals, b->st[x->ib].median, x->m->decimals,
		    w->st[x->iw].median, x->change, test, why);
}

static int by_weight(const void *p, const void *q)
{
	const struct contrast *x = p, *y = q;
	int sx = x->tested && x->p_holm < ALPHA, sy = y->tested && y->p_holm < ALPHA;
	if (sx != sy)
		return sy - sx;
	if (y->change != x->change)
		return (y->change > x->change) - (y->change < x->change);
	return (x->best > y->best) - (x->best < y->best);
}

void report_contrast_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			   void *ctx)
{
	json_t *groups = json_object();
	char key[2048];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c) || !c->ok || !c->verdict_metric)
			continue;
		group_key(c, key, sizeof key);
		json_t *g = json_object_get(groups, key);
		if (!g)
			json_object_set_new(groups, key, g = json_array());
		json_array_append_new(g, json_integer((json_int_t)i));
	}
	struct contrast *x = calloc(json_object_size(groups) + 1, sizeof *x);
	double *p = calloc(json_object_size(groups) + 1, sizeof *p), *adj = calloc(json_object_size(groups) + 1, sizeof *adj);
	size_t n = 0, m = 0;
	const char *k;
	json_t *members;
	json_object_foreach(groups, k, members)
		if (x && json_array_size(members) > 1 && contrast_of(r, members, &x[n]))
			n++;
	for (size_t i = 0; p && adj && i < n; i++)
		if (x[i].tested)
			p[m++] = x[i].p;
	if (p && adj)
		stats_holm(p, m, adj);
	for (size_t i = 0, j = 0; p && adj && i < n; i++)
		if (x[i].tested)
			x[i].p_holm = adj[j++];
	if (x)
		qsort(x, n, sizeof *x, by_weight);
	struct cell_answer *ans = n ? report_answers(r) : NULL;
	for (size_t i = 0; i < n && i < SHOWN_MAX; i++)
		say(r, &x[i], m, ans, line, ctx);
	if (n > SHOWN_MAX)
		report_line(line, ctx, "  and %zu more such pairs (report --where array=NAME narrows them)",
			    n - SHOWN_MAX);
	free(ans);
	free(x);
	free(p);
	free(adj);
	json_decref(groups);
}
