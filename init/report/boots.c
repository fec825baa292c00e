/* report/boots.c: several runs of one plan (several boots) as one side of `fsmatrix compare`,
 * each run one observation. The repeats inside one boot share that boot's page cache state,
 * disk placement and host load; two boots of one plan differ by more than those repeats show,
 * so a test on the repeats of one boot a side calls unchanged figures different. A test on the
 * runs' means has the spread between boots in it.
 *
 * The view's cell holds, metric by metric, each run's mean of its repeats (the repeat number
 * of each is the run's place on the side, 1 to n). Its figure is stable when 2 or more runs
 * have it and every run's own figure is stable; there is no rule on how far the runs' means
 * may spread: that spread is what the test is to weigh, and a large one shows in its MDE. The
 * view borrows everything else (axes, records, header, limits) from the first run, and is
 * freed by report_pool_free, before the runs. */
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *plan_sha(const struct rrun *r)
{
	return json_string_value(json_object_get(json_object_get(r->header, "plan"), "sha256"));
}


/* "a, b, c" of each run's field (id or source) into a new string. */
static char *joined(const struct rrun *runs, size_t n, int sources)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(sources ? runs[i].source : runs[i].id) + 2;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, sources ? runs[i].source : runs[i].id);
	}
	return s;
}

/* Metric m of cell c (a copy of the first run's) from each run's mean. */
static void pool_metric(const struct rrun *runs, size_t n, struct rcell *c, size_t m)
{
	const char *key = c->m[m]->key;
	struct fig_verdict *vd = &c->vd[m];
	const char *why = NULL;
	size_t k = 0, unstable_at = 0;
	for (size_t j = 0; j < n; j++) {
		const struct rcell *cj = report_cell_by_id(&runs[j], c->id);
		int ix = report_metric_index(cj, key);
		if (ix < 0)
			continue;
		if (!cj->vd[ix].stable && !why) {
			why = cj->vd[ix].reason;
			unstable_at = j;
		}
		stats_cell_add_rep(&c->fig, key, cj->st[ix].mean, (int)j + 1);
		k++;
	}
	if (!k)
		stats_cell_add(&c->fig, key, NAN);   /* the metric's place, with no figure */
	c->has[m] = stats_cell_summary(&c->fig, m, &c->st[m]) == 0;
	*vd = (struct fig_verdict){ .n = k, .rsd_pct = NAN, .range_pct = NAN };
	if (k >= 2 && c->st[m].mean != 0)
		vd->rsd_pct = 100 * c->st[m].stddev / fabs(c->st[m].mean);
	if (k < 2)
		snprintf(vd->reason, sizeof vd->reason, "too few runs with figures: %zu of 2", k);
	else if (why)
		snprintf(vd->reason, sizeof vd->reason, "run %zu of the side: %s", unstable_at + 1, why);
	else
		vd->stable = 1;
}

int report_pool_view(const struct rrun *runs, size_t n, struct rrun *view, char *msg, size_t mlen)
{
	memset(view, 0, sizeof *view);
	for (size_t i = 1; i < n; i++) {
		const char *s0 = plan_sha(&runs[0]), *si = plan_sha(&runs[i]);
		if (s0 && si && strcmp(s0, si) != 0) {
			snprintf(msg, mlen, "runs %s and %s are of different plans (sha256 %.12s and "
				 "%.12s): the runs of a side must be boots of one plan", runs[0].id,
				 runs[i].id, s0, si);
			return -1;
		}
	}
	*view = runs[0];
	view->boots = (int)n;
	view->cells = calloc(runs[0].ncells + 1, sizeof *view->cells);
	view->id = joined(runs, n, 0);
	view->source = joined(runs, n, 1);
	if (!view->cells || !view->id || !view->source) {
		snprintf(msg, mlen, "out of memory");
		return -1;
	}
	/* the cells in the first run's order and at its indexes: its cell_ix serves the view */
	for (size_t i = 0; i < runs[0].ncells; i++) {
		struct rcell *c = &view->cells[i];
		*c = runs[0].cells[i];
		memset(&c->fig, 0, sizeof c->fig);
		c->reps = (int)n;   /* a figure's "n of" counts runs */
		for (size_t m = 0; m < c->nm; m++)
			pool_metric(runs, n, c, m);
		int main = c->verdict_metric ? report_metric_index(c, c->verdict_metric) : -1;
		if (main >= 0)
			c->verdict = c->vd[main];
	}
	return 0;
}

void report_pool_free(struct rrun *view)
{
	for (size_t i = 0; view->cells && i < view->ncells; i++)
		stats_cell_free(&view->cells[i].fig);
	free(view->cells);
	free(view->id);
	free(view->source);
	memset(view, 0, sizeof *view);
}

void report_spread_text(const struct rrun *a, const struct rrun *b, char *out, size_t len)
{
	if (a->boots > 1 || b->boots > 1)
		snprintf(out, len, "spread: between boots: %d run%s in A, %d in B, each run's mean of "
			 "its repeats one observation: what differs from one boot to the next is in the "
			 "test (a side needs 2 or more runs)", a->boots ? a->boots : 1,
			 a->boots > 1 ? "s" : "", b->boots ? b->boots : 1);
	else if (a->interleaved)
		snprintf(out, len, "spread: the repeats of one run, the kernels taking turns in it: what "
			 "drifts over the run weighs on both sides alike");
	else
		snprintf(out, len, "spread: the repeats within one boot a side, which understate how "
			 "much two boots differ; to test between boots, give several runs a side: "
			 "compare A1 A2 A3 --vs B1 B2 B3");
}
