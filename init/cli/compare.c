/* cli/compare.c: `fsmatrix compare A B`: two runs cell by cell. For every metric, the ratio
 * B/A and the change, and Welch's t-test where both sides have repeats, with a verdict that
 * knows which way is better (MB/s up, times down). */
#include "cli/cli.h"
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.05

enum verdict { V_NONE, V_FASTER, V_SLOWER, V_SAME, V_NOREPS, V_ONLY_A, V_ONLY_B, V_FAILED };
static const char *const verdict_text[] = {
	[V_NONE] = "",
	[V_FASTER] = "faster",
	[V_SLOWER] = "slower",
	[V_SAME] = "no significant difference",
	[V_NOREPS] = "no significance (1 run)",
	[V_ONLY_A] = "only in A",
	[V_ONLY_B] = "only in B",
	[V_FAILED] = "no figures",
};

static const struct rcell *find(const struct rrun *r, const char *id)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (strcmp(r->cells[i].id, id) == 0)
			return &r->cells[i];
	return NULL;
}

static int metric_index(const struct rcell *c, const char *key)
{
	for (size_t i = 0; c && i < c->nm; i++)
		if (strcmp(c->m[i]->key, key) == 0)
			return c->has[i] ? (int)i : -1;
	return -1;
}

struct cmp {
	enum verdict v;
	double ratio, change, p;  /* NaN when not computed */
};

static struct cmp compare_metric(const struct rcell *a, const struct rcell *b, const struct metric *m)
{
	struct cmp r = { V_NONE, NAN, NAN, NAN };
	if (!a) {
		r.v = V_ONLY_B;
		return r;
	}
	if (!b) {
		r.v = V_ONLY_A;
		return r;
	}
	int ia = metric_index(a, m->key), ib = metric_index(b, m->key);
	if (ia < 0 || ib < 0) {
		r.v = V_FAILED;
		return r;
	}
	double ma = a->st[ia].median, mb = b->st[ib].median;
	if (ma != 0) {
		r.ratio = mb / ma;
		r.change = (mb - ma) / ma * 100;
	}
	struct welch w;
	const struct stats_cell *fa = &a->fig, *fb = &b->fig;
	if (fa->nv[ia] < 2 || fb->nv[ib] < 2 ||
	    stats_welch(fa->v[ia], fa->nv[ia], fb->v[ib], fb->nv[ib], &w) != 0) {
		r.v = V_NOREPS;
		return r;
	}
	r.p = w.p;
	if (!(w.p < ALPHA)) {   /* NaN (identical values on both sides) is no difference */
		r.v = V_SAME;
		return r;
	}
	/* the test compares means; the direction comes from them too */
	double da = a->st[ia].mean, db = b->st[ib].mean;
	int better = m->higher_better ? db > da : db < da;
	r.v = better ? V_FASTER : V_SLOWER;
	return r;
}

/* The cells of one workload in both runs: A's in order, then those only B has. */
static size_t union_cells(const struct rrun *a, const struct rrun *b, const struct report_opts *o,
			  const char *workload, struct rcell **out, size_t max)
{
	size_t n = report_cells_of(a, o, workload, out, max);
	struct rcell *bc[4096];
	size_t nb = report_cells_of(b, o, workload, bc, 4096);
	for (size_t i = 0; i < nb && n < max; i++)
		if (!find(a, bc[i]->id))
			out[n++] = bc[i];
	return n;
}

/* A side's entry for metric m; returns the metric's index in c (c->nm: none). */
static size_t side_text(const struct rcell *c, const struct metric *m, char *out, size_t len)
{
	if (!c) {
		snprintf(out, len, "%s", "-");
		return 0;
	}
	size_t mi;
	for (mi = 0; mi < c->nm && strcmp(c->m[mi]->key, m->key); mi++)
		;
	report_cell_text(c, mi, out, len);
	return mi;
}

struct grid *compare_grid(const struct rrun *a, const struct rrun *b, const struct report_opts *o,
			  const char *workload)
{
	struct rcell *cells[4096];
	size_t n = union_cells(a, b, o, workload, cells, 4096);
	const char *v[32];
	size_t nv = report_varying_axes(cells, n, o, v, 32);
	size_t nl = nv ? nv : 1;
	struct grid *g = grid_new(workload, nl + 7);
	char buf[256];

	for (size_t i = 0; i < nv; i++)
		grid_set(g, 0, i, "%s", v[i]);
	if (!nv)
		grid_set(g, 0, 0, "cell");
	static const char *const heads[] = { "metric", "A", "B", "B/A", "change", "p", "verdict" };
	for (size_t i = 0; i < 7; i++)
		grid_set(g, 0, nl + i, "%s", heads[i]);
	g->note = strdup("median ±stddev; B/A and change of medians; p: Welch's t-test, two-sided");

	for (size_t i = 0; i < n; i++) {
		const struct rcell *ca = find(a, cells[i]->id), *cb = find(b, cells[i]->id);
		const struct rcell *any = ca && ca->nm ? ca : cb && cb->nm ? cb : cells[i];
		const struct metric *ms[REPORT_MAX_METRICS];
		size_t nm = any->nm;
		memcpy(ms, any->m, nm * sizeof *ms);
		if (nm == 0)
			nm = report_metrics(any->wtype, NULL, ms, REPORT_MAX_METRICS);
		for (size_t m = 0; m < (nm ? nm : 1); m++) {
			grid_add_row(g);
			size_t row = g->nrows - 1;
			for (size_t k = 0; k < nv; k++) {
				axis_text(cells[i]->axes, v[k], buf, sizeof buf);
				grid_set(g, row, k, "%s", buf);
			}
			if (!nv)
				grid_set(g, row, 0, "%s", cells[i]->id);
			if (!nm) {
				grid_set(g, row, nl + 1, "%s", ca ? ca->status : "-");
				grid_set(g, row, nl + 2, "%s", cb ? cb->status : "-");
				grid_set(g, row, nl + 6, "%s", verdict_text[!ca ? V_ONLY_B : !cb ? V_ONLY_A : V_FAILED]);
				continue;
			}
			grid_set(g, row, nl, "%s", ms[m]->label);
			size_t mi = side_text(ca, ms[m], buf, sizeof buf);
			grid_set(g, row, nl + 1, "%s", buf);
			report_grid_marks(g, row, nl + 1, ca, mi);
			mi = side_text(cb, ms[m], buf, sizeof buf);
			grid_set(g, row, nl + 2, "%s", buf);
			report_grid_marks(g, row, nl + 2, cb, mi);
			struct cmp c = compare_metric(ca, cb, ms[m]);
			if (!isnan(c.ratio)) {
				grid_set(g, row, nl + 3, "%.3f", c.ratio);
				grid_set(g, row, nl + 4, "%+.1f%%", c.change);
			}
			if (!isnan(c.p))
				grid_set(g, row, nl + 5, c.p < 0.0001 ? "<0.0001" : "%.4f", c.p);
			grid_set(g, row, nl + 6, "%s", verdict_text[c.v]);
			g->cls[row * g->ncols + nl + 6] = c.v == V_FASTER ? 'g' : c.v == V_SLOWER ? 'b'
				: c.v == V_FAILED ? 'e' : c.v == V_ONLY_A || c.v == V_ONLY_B ? 'm' : 0;
		}
	}
	return g;
}

void compare_lines(const struct rrun *a, const struct rrun *b, const struct report_opts *o,
		   void (*line)(void *ctx, const char *s), void *ctx)
{
	char buf[1024];
	int count[V_FAILED + 1] = { 0 };
	snprintf(buf, sizeof buf, "A: run %s (from %s)", a->id, a->source);
	line(ctx, buf);
	snprintf(buf, sizeof buf, "B: run %s (from %s)", b->id, b->source);
	line(ctx, buf);

	struct rcell *cells[4096];
	size_t n = union_cells(a, b, o, NULL, cells, 4096);
	for (size_t i = 0; i < n; i++) {
		const struct rcell *ca = find(a, cells[i]->id), *cb = find(b, cells[i]->id);
		if (!ca || !cb) {
			count[ca ? V_ONLY_A : V_ONLY_B]++;
			continue;
		}
		for (size_t m = 0; m < ca->nm; m++)
			count[compare_metric(ca, cb, ca->m[m]).v]++;
		if (!ca->nm)
			count[V_FAILED]++;
	}
	snprintf(buf, sizeof buf, "metrics: %d faster, %d slower, %d no significant difference at 95%%, "
		 "%d without repeats on both sides, %d without figures on a side; cells only in A: %d, "
		 "only in B: %d", count[V_FASTER], count[V_SLOWER], count[V_SAME], count[V_NOREPS],
		 count[V_FAILED], count[V_ONLY_A], count[V_ONLY_B]);
	line(ctx, buf);
	if (count[V_NOREPS] && !count[V_FASTER] && !count[V_SLOWER] && !count[V_SAME])
		line(ctx, "With a single run per side, no significance can be claimed: repeat cells "
			  "(repeat = 3 or more in the plan) to test a difference.");
	else if (count[V_NOREPS])
		line(ctx, "Metrics with a single run on either side carry no significance verdict.");
	/* a side that measured without an option it asked for compares something else */
	char why[512];
	for (size_t i = 0; i < n; i++) {
		const struct rcell *side[2] = { find(a, cells[i]->id), find(b, cells[i]->id) };
		for (int k = 0; k < 2; k++)
			if (side[k] && report_ignored_text(side[k], why, sizeof why)) {
				snprintf(buf, sizeof buf, "note: in %c, %s: %s", "AB"[k], cells[i]->id, why);
				line(ctx, buf);
			}
	}
}

static void print_line(void *ctx, const char *s)
{
	fprintf((FILE *)ctx, "%s\n", s);
}

const char host_compare_usage[] =
	"usage: fsmatrix compare [--format text|md] [--by AXES] [--where AXIS=VALUE]... A B\n"
	"  A, B   two sources (as for fsmatrix report); the first run of each is compared\n"
	"         (more sources: the shards of a run merge, and they must make two runs)\n"
	"  every metric: medians, B/A, change, and Welch's t-test where both sides have repeats\n";

/* A and B: the first run of each of two sources, or, from more sources (the shards of
 * either side), the two runs they make once shards are merged. Returns 0, or 1 after a line
 * on stderr. */
static int load_sides(const char *const *src, size_t nsrc, struct runset *ra, struct runset *rb)
{
	if (nsrc == 2) {
		if (report_load(src[0], ra) != 0 || report_load(src[1], rb) != 0 ||
		    report_merge_shards(ra, 0) < 0 || report_merge_shards(rb, 0) < 0)
			return 1;
		if (ra->n > 1 || rb->n > 1)
			fprintf(stderr, "fsmatrix: a source holds several runs; comparing the first of each\n");
		return 0;
	}
	for (size_t i = 0; i < nsrc; i++)
		if (report_load(src[i], ra) != 0)
			return 1;
	if (report_merge_shards(ra, 0) < 0)
		return 1;
	if (ra->n != 2) {
		fprintf(stderr, "fsmatrix: compare: the %zu sources make %zu runs once shards are "
			"merged, not two (A and B)\n", nsrc, ra->n);
		return 1;
	}
	/* the second run moves to B's set */
	rb->run = malloc(sizeof *rb->run);
	rb->run[0] = ra->run[1];
	rb->n = 1;
	ra->n = 1;
	return 0;
}

int host_cmd_compare(int argc, char **argv)
{
	struct report_opts o = { .format = "text" };
	const char *src[REPORT_MAX_SOURCES];
	size_t nsrc = 0;
	if (report_args(argc, argv, &o, src, &nsrc, NULL) != 0)
		return 2;
	if (nsrc < 2)
		return host_usage_error("compare", "expected two sources, A and B, not %zu", nsrc);
	if (strcmp(o.format, "text") && strcmp(o.format, "md"))
		return host_usage_error("compare", "unknown format \"%s\" (text or md)", o.format);
	struct runset ra = { 0 }, rb = { 0 };
	if (load_sides(src, nsrc, &ra, &rb) != 0)
		return 1;
	struct rrun *a = &ra.run[0], *b = &rb.run[0];
	report_model(a);
	report_model(b);
	struct runset both = { (struct rrun[]){ *a, *b }, 2 };
	if (report_where_check("compare", &both, &o)) {
		report_free(&ra);
		report_free(&rb);
		return 1;
	}
	int md = strcmp(o.format, "md") == 0;
	if (md)
		fputs("## Comparison\n\n", stdout);
	compare_lines(a, b, &o, print_line, stdout);
	fputs("\n", stdout);
	const char *wl[256];
	size_t nw = report_workloads(a, &o, wl, 256);
	const char *wb[256];
	size_t nwb = report_workloads(b, &o, wb, 256);
	for (size_t i = 0; i < nwb && nw < 256; i++) {
		size_t j;
		for (j = 0; j < nw && strcmp(wl[j], wb[i]); j++)
			;
		if (j == nw)
			wl[nw++] = wb[i];
	}
	for (size_t w = 0; w < nw; w++) {
		struct grid *g = compare_grid(a, b, &o, wl[w]);
		if (md)
			render_md(stdout, g);
		else {
			render_text(stdout, g);
			fputs("\n", stdout);
		}
		grid_free(g);
	}
	report_free(&ra);
	report_free(&rb);
	return 0;
}
