/* report/compare.c: two runs judged cell by cell, for `fsmatrix compare` and `fsmatrix html`
 * (cli/compare.c, cli/html.c). For every metric, the ratio
 * B/A and the change of medians. Where both sides are stable over 3 or more repeats
 * (core/figures/verdict.h), Welch's t-test, the effect with its confidence interval, and a verdict
 * that knows which way is better (MB/s up, times down); where a side is not, no test, and
 * the verdict says which side and why: a difference between figures that do not hold still
 * from one repeat to the next would be a difference in noise. */
#include "report/sections.h"
#include "report/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.05

enum outcome { V_NONE, V_FASTER, V_SLOWER, V_SAME, V_UNTESTED, V_ONLY_A, V_ONLY_B, V_FAILED };
static const char *const outcome_text[] = {
	[V_NONE] = "",
	[V_FASTER] = "faster",
	[V_SLOWER] = "slower",
	[V_SAME] = "no significant difference",
	[V_UNTESTED] = "not tested",
	[V_ONLY_A] = "only in A",
	[V_ONLY_B] = "only in B",
	[V_FAILED] = "no figures",
};

static const char legend_unstable[] =
	"~: not stable over its repeats (3 or more, RSD within 5% and range within 20% of the "
	"median): not tested, the verdict says why";
static const char legend_ci[] =
	"95% CI: of the difference of means B - A, as % of A's median, from Welch's t with "
	"Welch-Satterthwaite degrees of freedom (each row's own interval)";

/* One metric of one cell, on both sides. */
struct row {
	const char *id;                /* the cell's */
	const struct rcell *a, *b;     /* NULL: the cell is only on the other side */
	const struct metric *m;        /* NULL: neither side has metrics (every repeat failed) */
	enum outcome v;
	double ratio, change;          /* of medians; NaN when A's median is 0 */
	int tested;                    /* Welch's test ran: both sides stable */
	double p;                      /* its two-sided p; NaN when not tested or undefined */
	double p_holm;                 /* p adjusted for the comparison's many tests */
	double df, se;                 /* Welch's degrees of freedom, and its standard error */
	double mde;                    /* the smallest change it could see, % of A's median */
	double ci_lo, ci_hi;           /* 95% CI of mean(B) - mean(A), % of A's median */
	char why[400];                 /* not tested: which side, and why */
};

struct comparison {
	const struct rrun *a, *b;
	const struct report_opts *o;
	struct row *rows;              /* in the order of the cells of both runs */
	size_t n;
	size_t *by_id;                 /* rows' indexes sorted by cell id, for compare_grid */
	int count[V_FAILED + 1];
	int only[2];                   /* cells only in A, only in B */
	size_t tests;                  /* rows tested: Holm's m */
	char cond[8][REPORT_COND_LINE];  /* what differs between A's and B's conditions */
	int ncond;
	char work[8][REPORT_COND_LINE];  /* "stream: size 64m / 48m": what differs in a workload */
	int nwork, work_more;            /* its lines; cells whose difference found no line free */
	int work_untested;               /* metrics not tested for that alone */
	struct compare_defs defs;        /* what differs in the cells' definitions */
	int def_untested;                /* metrics not tested for that */
	char legend_holm[256], legend_mde[400];
};


/* "A: an outlier: repeat 1 at 0.61x the median; B: too few repeats: 2 of 3" */
static void why_untested(const struct fig_verdict *va, const struct fig_verdict *vb, char *out,
			 size_t len)
{
	size_t k = 0;
	out[0] = '\0';
	if (!va->stable)
		k += (size_t)snprintf(out, len, "A: %s", va->reason);
	if (!vb->stable && k < len)
		snprintf(out + k, len - k, "%sB: %s", k ? "; " : "", vb->reason);
}

static void judge(struct row *r)
{
	int ia = report_metric_index(r->a, r->m->key), ib = report_metric_index(r->b, r->m->key);
	if (ia < 0 || ib < 0) {
		r->v = V_FAILED;
		return;
	}
	const struct summary *sa = &r->a->st[ia], *sb = &r->b->st[ib];
	double base = fabs(sa->median);
	if (base != 0) {
		r->ratio = sb->median / sa->median;
		r->change = (sb->median - sa->median) / base * 100;
	}
	const struct fig_verdict *va = &r->a->vd[ia], *vb = &r->b->vd[ib];
	struct welch w;
	const struct stats_cell *fa = &r->a->fig, *fb = &r->b->fig;
	if (!va->stable || !vb->stable ||
	    stats_welch(fa->v[ia], fa->nv[ia], fb->v[ib], fb->nv[ib], &w) != 0) {
		r->v = V_UNTESTED;
		why_untested(va, vb, r->why, sizeof r->why);
		return;
	}
	r->tested = 1;
	r->p = w.p;
	r->df = w.df;
	/* the effect: the difference of means, and t_{0.975} of Welch's df times its standard
	 * error either side; none at all when neither side varied */
	double d = sb->mean - sa->mean;
	double se = sqrt(sa->stddev * sa->stddev / (double)sa->n + sb->stddev * sb->stddev / (double)sb->n);
	double half = se > 0 ? stats_t_upper(ALPHA / 2, w.df) * se : 0;
	r->se = se;
	if (base != 0) {
		r->ci_lo = (d - half) / base * 100;
		r->ci_hi = (d + half) / base * 100;
	}
	r->v = V_SAME;   /* until Holm's correction says otherwise (holm) */
}

/* Figures measured under different conditions (another write cache, kernel, governor)
 * differ by those conditions as much as by the cell's own options: no test, unless the
 * user asks for one (--across-conditions). */
static void untest(struct row *r, const char *why)
{
	r->tested = 0;
	r->v = V_UNTESTED;
	r->p = r->df = r->se = r->ci_lo = r->ci_hi = NAN;
	snprintf(r->why, sizeof r->why, "%s", why);
}

/* Cells of one id that ran different workloads (report_workload_differs) differ by the
 * workload: every metric of theirs is left untested, unless --across-workloads. Each
 * difference is said once above the tables. */
static void note_workload(struct comparison *c, const char *workload, const char *what)
{
	char line[REPORT_COND_LINE];
	snprintf(line, sizeof line, "%s: %s", workload, what);
	for (int i = 0; i < c->nwork; i++)
		if (strcmp(c->work[i], line) == 0)
			return;
	if (c->nwork < 8)
		memcpy(c->work[c->nwork++], line, sizeof line);
	else
		c->work_more++;
}

/* Holm-Bonferroni over every tested row of the comparison, whatever its workload: a row is
 * significant when its adjusted p is under ALPHA. A p that is NaN (both sides identical and
 * constant) counts as 1. The direction comes from the means, which the test compares. */
static void holm(struct comparison *c)
{
	double *p = malloc((c->n + 1) * sizeof *p), *adj = malloc((c->n + 1) * sizeof *adj);
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].tested)
			p[m++] = c->rows[i].p;
	stats_holm(p, m, adj);
	c->tests = m;
	m = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct row *r = &c->rows[i];
		if (!r->tested)
			continue;
		r->p_holm = adj[m++];
		if (!(r->p_holm < ALPHA))
			continue;
		int ia = report_metric_index(r->a, r->m->key), ib = report_metric_index(r->b, r->m->key);
		double da = r->a->st[ia].mean, db = r->b->st[ib].mean;
		int better = r->m->higher_better ? db > da : db < da;
		r->v = better ? V_FASTER : V_SLOWER;
	}
	free(p);
	free(adj);
	/* What a row could have seen: a real change of the MDE would come out significant 80% of
	 * the time. Holm's procedure tests the smallest p at alpha / m, and a change of one metric
	 * among unchanged ones would have the smallest p: so alpha / m, the strictest level. */
	double level = ALPHA / (double)(c->tests ? c->tests : 1);
	for (size_t i = 0; i < c->n; i++) {
		struct row *r = &c->rows[i];
		int ia = r->tested ? report_metric_index(r->a, r->m->key) : -1;
		double base = ia >= 0 ? fabs(r->a->st[ia].median) : 0;
		if (!r->tested || base == 0)
			continue;
		r->mde = r->se > 0 ? (stats_t_upper(level / 2, r->df) + stats_t_upper(0.2, r->df)) *
				     r->se / base * 100 : 0;
	}
	snprintf(c->legend_mde, sizeof c->legend_mde, "MDE: the smallest change this row would "
		 "call significant with 80%% power, as %% of A's median: (t_{1-a/2,df} + t_{0.8,df}) "
		 "x sqrt(sA^2/nA + sB^2/nB), a = %g / %zu (Holm's strictest level), df "
		 "Welch-Satterthwaite's; a smaller change can hide under no significant difference",
		 ALPHA, c->tests);
	snprintf(c->legend_holm, sizeof c->legend_holm, "p (Holm): p adjusted by Holm-Bonferroni "
		 "over the %zu tests of this comparison (every workload's); significant when under %g",
		 c->tests, ALPHA);
}

/* The cells of one workload (NULL: all) in both runs: A's in order, then those only B has;
 * *out malloc'd. */
static size_t union_cells(const struct rrun *a, const struct rrun *b, const struct report_opts *o,
			  const char *workload, struct rcell ***out)
{
	struct rcell **v = malloc((a->ncells + b->ncells + 1) * sizeof *v);
	size_t na = report_cells_of(a, o, workload, v, a->ncells), n = na;
	size_t nb = report_cells_of(b, o, workload, v + na, b->ncells);
	for (size_t i = 0; i < nb; i++)   /* n <= na + i: nothing unread is overwritten */
		if (!report_cell_by_id(a, v[na + i]->id))
			v[n++] = v[na + i];
	*out = v;
	return n;
}

/* The metrics a cell is compared on: those of a side that has any, else its type's. */
static size_t metrics_of(const struct rcell *ca, const struct rcell *cb, const struct rcell *cell,
			 const struct metric **ms)
{
	const struct rcell *any = ca && ca->nm ? ca : cb && cb->nm ? cb : cell;
	if (any->nm) {
		memcpy(ms, any->m, any->nm * sizeof *ms);
		return any->nm;
	}
	return report_metrics(any->wtype, NULL, ms, REPORT_MAX_METRICS);
}

static const struct comparison *sort_ctx;

static int cmp_by_id(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int d = strcmp(sort_ctx->rows[i].id, sort_ctx->rows[j].id);
	return d ? d : (i > j) - (i < j);
}

struct comparison *compare_new(const struct rrun *a, const struct rrun *b, const struct report_opts *o)
{
	struct comparison *c = calloc(1, sizeof *c);
	struct rcell **cells;
	size_t n = union_cells(a, b, o, NULL, &cells);
	c->a = a;
	c->b = b;
	c->o = o;
	c->rows = calloc(n * REPORT_MAX_METRICS + 1, sizeof *c->rows);
	c->ncond = report_conditions_diff(a, b, c->cond, 8);
	for (size_t i = 0; i < n; i++) {
		const struct rcell *ca = report_cell_by_id(a, cells[i]->id), *cb = report_cell_by_id(b, cells[i]->id);
		const struct metric *ms[REPORT_MAX_METRICS];
		size_t nm = metrics_of(ca, cb, cells[i], ms);
		char wd[REPORT_COND_LINE - 64] = "", why[REPORT_COND_LINE];
		int wdiff = ca && cb && report_workload_differs(ca, cb, wd, sizeof wd);
		if (wdiff)
			note_workload(c, cells[i]->workload, wd);
		int ddiff = ca && cb && compare_cell_defs(&c->defs, a, ca, b, cb);
		snprintf(why, sizeof why, "the workloads differ (%s)", wd);
		if (!ca || !cb)
			c->only[ca ? 0 : 1]++;
		for (size_t m = 0; m < (nm ? nm : 1); m++) {
			struct row *r = &c->rows[c->n++];
			*r = (struct row){ .id = cells[i]->id, .a = ca, .b = cb, .m = nm ? ms[m] : NULL,
					   .ratio = NAN, .change = NAN, .p = NAN, .p_holm = NAN,
					   .df = NAN, .se = NAN, .mde = NAN, .ci_lo = NAN, .ci_hi = NAN };
			if (!ca || !cb)
				r->v = ca ? V_ONLY_A : V_ONLY_B;
			else if (!r->m)
				r->v = V_FAILED;
			else {
				judge(r);
				if (c->ncond && !o->across_conditions && r->tested)
					untest(r, "conditions differ (above)");
				if (wdiff && !o->across_workloads && r->v != V_FAILED) {
					untest(r, why);
					c->work_untested++;
				} else if (ddiff && !o->across_definitions && r->v != V_FAILED) {
					untest(r, "the definitions differ (above)");
					c->def_untested++;
				}
			}
		}
	}
	holm(c);
	/* a cell on one side only is counted once, as a cell */
	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].a && c->rows[i].b)
			c->count[c->rows[i].v]++;
	free(cells);
	c->by_id = malloc((c->n + 1) * sizeof *c->by_id);
	for (size_t i = 0; i < c->n; i++)
		c->by_id[i] = i;
	sort_ctx = c;
	qsort(c->by_id, c->n, sizeof *c->by_id, cmp_by_id);
	sort_ctx = NULL;
	return c;
}

void compare_free(struct comparison *c)
{
	if (!c)
		return;
	free(c->rows);
	free(c->by_id);
	free(c);
}

/* The first of the rows of cell id, and how many there are. */
static const struct row *rows_of(const struct comparison *c, const char *id, size_t *count)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(c->rows[c->by_id[mid]].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*count = 0;
	if (lo == c->n || strcmp(c->rows[c->by_id[lo]].id, id) != 0)
		return NULL;
	const struct row *first = &c->rows[c->by_id[lo]];
	while (lo + *count < c->n && strcmp(c->rows[c->by_id[lo + *count]].id, id) == 0)
		(*count)++;
	return first;
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

static void pct_text(double x, char *out, size_t len)
{
	snprintf(out, len, "%+.1f%%", fabs(x) < 0.05 ? 0.0 : x);
}

/* Columns after the axes: what each holds. */
enum { C_METRIC, C_A, C_B, C_RATIO, C_CHANGE, C_CI, C_P, C_HOLM, C_MDE, C_VERDICT, C_COUNT };

static void fill_row(struct grid *g, size_t row, size_t nl, const struct comparison *c,
		     const struct row *r)
{
	char buf[512], lo[32], hi[32];
	if (!r->m) {
		grid_set(g, row, nl + C_A, "%s", r->a ? r->a->status : "-");
		grid_set(g, row, nl + C_B, "%s", r->b ? r->b->status : "-");
		grid_set(g, row, nl + C_VERDICT, "%s", outcome_text[r->v]);
		return;
	}
	grid_set(g, row, nl + C_METRIC, "%s", r->m->label);
	size_t mi = side_text(r->a, r->m, buf, sizeof buf);
	grid_set(g, row, nl + C_A, "%s", buf);
	report_grid_marks(g, row, nl + C_A, r->a, mi);
	mi = side_text(r->b, r->m, buf, sizeof buf);
	grid_set(g, row, nl + C_B, "%s", buf);
	report_grid_marks(g, row, nl + C_B, r->b, mi);
	if (!isnan(r->ratio)) {
		grid_set(g, row, nl + C_RATIO, "%.3f", r->ratio);
		pct_text(r->change, buf, sizeof buf);
		grid_set(g, row, nl + C_CHANGE, "%s", buf);
	}
	if (r->tested && !isnan(r->ci_lo)) {
		pct_text(r->ci_lo, lo, sizeof lo);
		pct_text(r->ci_hi, hi, sizeof hi);
		if (strcmp(lo, hi) == 0)
			grid_set(g, row, nl + C_CI, "%s", lo);
		else
			grid_set(g, row, nl + C_CI, "%s to %s", lo, hi);
		grid_legend(g, legend_ci);
	}
	if (!isnan(r->p))
		grid_set(g, row, nl + C_P, r->p < 0.0001 ? "<0.0001" : "%.4f", r->p);
	if (r->tested) {
		grid_set(g, row, nl + C_HOLM, r->p_holm < 0.0001 ? "<0.0001" : "%.4f", r->p_holm);
		grid_legend(g, c->legend_holm);
	}
	if (!isnan(r->mde)) {
		grid_set(g, row, nl + C_MDE, "%.1f%%", r->mde);
		grid_legend(g, c->legend_mde);
	}
	if (r->v == V_UNTESTED)
		grid_set(g, row, nl + C_VERDICT, "%s: %s", outcome_text[r->v], r->why);
	else
		grid_set(g, row, nl + C_VERDICT, "%s", outcome_text[r->v]);
	g->cls[row * g->ncols + nl + C_VERDICT] = r->v == V_FASTER ? 'g' : r->v == V_SLOWER ? 'b'
		: r->v == V_FAILED ? 'e' : r->v == V_ONLY_A || r->v == V_ONLY_B ? 'm' : 0;
}

struct grid *compare_grid(const struct comparison *c, const char *workload)
{
	struct rcell **cells;
	size_t n = union_cells(c->a, c->b, c->o, workload, &cells);
	const char *v[32];
	size_t nv = report_varying_axes(cells, n, c->o, v, 32);
	size_t nl = nv ? nv : 1;
	struct grid *g = grid_new(workload, nl + C_COUNT);
	char buf[256];

	for (size_t i = 0; i < nv; i++)
		grid_set(g, 0, i, "%s", v[i]);
	if (!nv)
		grid_set(g, 0, 0, "cell");
	static const char *const heads[C_COUNT] = { "metric", "A", "B", "B/A", "change", "95% CI",
						    "p", "p (Holm)", "MDE", "verdict" };
	for (size_t i = 0; i < C_COUNT; i++)
		grid_set(g, 0, nl + i, "%s", heads[i]);
	g->note = strdup(c->a->boots > 1 || c->b->boots > 1
		? "median of the runs' means ±stddev between runs; B/A and change of medians; p: Welch's t-test, two-sided"
		: "median ±stddev; B/A and change of medians; p: Welch's t-test, two-sided");

	for (size_t i = 0; i < n; i++) {
		size_t nr;
		const struct row *first = rows_of(c, cells[i]->id, &nr);
		for (size_t k = 0; first && k < nr; k++) {
			grid_add_row(g);
			size_t row = g->nrows - 1;
			for (size_t x = 0; x < nv; x++) {
				axis_text(cells[i]->axes, v[x], buf, sizeof buf);
				grid_set(g, row, x, "%s", buf);
			}
			if (!nv)
				grid_set(g, row, 0, "%s", cells[i]->id);
			fill_row(g, row, nl, c, first + k);   /* a cell's rows are made one after another */
		}
	}
	/* in a comparison the verdict column, not a Verdicts section, says why */
	for (size_t i = 0; i < g->nlegend; i++)
		if (g->legend[i] == report_legend_unstable)
			g->legend[i] = legend_unstable;
	free(cells);
	return g;
}

/* One side's answer as text: "at 77% of its limit (24.0 MB/s), read-modify-write: members
 * read 20% of what they wrote ...". */
static void side_answer(const struct cell_answer *x, char *out, size_t len)
{
	size_t n = 0;
	if (x && x->limit > 0)
		n = (size_t)snprintf(out, len, "at %.0f%% of its limit (%.1f MB/s)", 100 * x->efficiency,
				     x->limit);
	else
		n = (size_t)snprintf(out, len, "no limit");
	if (x && x->kind && n < len)
		snprintf(out + n, len - n, ", %s: %s", x->kind, x->evidence ? x->evidence : "");
}

/* The row of a significant difference on a cell's main streaming figure (its limit's metric,
 * else its first), or NULL. */
static const struct row *significant(const struct comparison *c, const char *id, const char *metric)
{
	size_t n;
	const struct row *rs = rows_of(c, id, &n), *first = NULL;
	for (size_t i = 0; i < n; i++) {
		if (rs[i].v != V_FASTER && rs[i].v != V_SLOWER)
			continue;
		if (metric && rs[i].m && strcmp(rs[i].m->key, metric) == 0)
			return &rs[i];
		if (!first)
			first = &rs[i];
	}
	return first;
}

/* Each cell with a limit or a bottleneck on a side: both sides' efficiency and what held them
 * back, and for a significant difference, that it is one: what differs in the bottleneck
 * and its evidence is the first place to look for why. */
static void why_lines(const struct comparison *c, void (*line)(void *ctx, const char *s), void *ctx)
{
	struct cell_answer *aa = report_answers(c->a), *ab = report_answers(c->b);
	char sa[600], sb[600], buf[1400];
	for (size_t i = 0; aa && ab && i < c->a->ncells; i++) {
		const struct rcell *ca = &c->a->cells[i], *cb = report_cell_by_id(c->b, ca->id);
		const struct cell_answer *xa = &aa[i], *xb = cb ? &ab[cb - c->b->cells] : NULL;
		if (!cb || !report_cell_selected(c->o, ca) || (!xa->rule && !xa->kind && !xb->rule && !xb->kind))
			continue;
		side_answer(xa, sa, sizeof sa);
		side_answer(xb, sb, sizeof sb);
		const struct row *r = significant(c, ca->id, xa->metric ? xa->metric : xb->metric);
		if (r)
			snprintf(buf, sizeof buf, "why %s: B %s (%+.1f%% %s); A %s; B %s", ca->id,
				 outcome_text[r->v], r->change, r->m ? r->m->label : "", sa, sb);
		else
			snprintf(buf, sizeof buf, "limits %s: A %s; B %s", ca->id, sa, sb);
		line(ctx, buf);
	}
	free(aa);
	free(ab);
}

/* What differs in the workloads of cells of one id, each difference once (note_workload). */
static void workload_lines(const struct comparison *c, void (*line)(void *ctx, const char *s), void *ctx)
{
	char buf[REPORT_COND_LINE + 32];
	for (int i = 0; i < c->nwork; i++) {
		snprintf(buf, sizeof buf, "workloads differ: %s", c->work[i]);
		line(ctx, buf);
	}
	if (c->work_more) {
		snprintf(buf, sizeof buf, "workloads differ: and in %d more cell%s", c->work_more,
			 c->work_more == 1 ? "" : "s");
		line(ctx, buf);
	}
	if (c->nwork)
		line(ctx, c->o->across_workloads
			  ? "Tested across different workloads (--across-workloads): a difference may come "
			    "from the workloads as much as from the cells' options."
			  : "No difference is called significant between cells whose workloads differ: "
			    "the figures would differ by the workload too (--across-workloads tests anyway).");
}

void compare_lines(const struct comparison *c, void (*line)(void *ctx, const char *s), void *ctx)
{
	char buf[1024];
	const int *count = c->count;
	snprintf(buf, sizeof buf, "A: run%s %s (from %s)", c->a->boots > 1 ? "s" : "", c->a->id, c->a->source);
	line(ctx, buf);
	snprintf(buf, sizeof buf, "B: run%s %s (from %s)", c->b->boots > 1 ? "s" : "", c->b->id, c->b->source);
	line(ctx, buf);
	int across = c->ncond && !c->o->across_conditions;
	snprintf(buf, sizeof buf, "metrics: %d faster, %d slower, %d no significant difference, "
		 "%d not tested (%s), %d without figures on a side; cells only in A: %d, only in B: %d",
		 count[V_FASTER], count[V_SLOWER], count[V_SAME], count[V_UNTESTED],
		 across ? "the runs' conditions differ" : c->def_untested
			? "the workloads or definitions differ, or a side not stable or with fewer than 3 repeats"
			: c->work_untested
			? "the workloads differ, or a side not stable or with fewer than 3 repeats"
			: "a side not stable, or with fewer than 3 repeats",
		 count[V_FAILED], c->only[0], c->only[1]);
	line(ctx, buf);
	for (int i = 0; i < c->ncond; i++) {
		snprintf(buf, sizeof buf, "conditions differ: %s", c->cond[i]);
		line(ctx, buf);
	}
	if (c->ncond)
		line(ctx, c->o->across_conditions
			  ? "Tested across different conditions (--across-conditions): a difference may "
			    "come from the conditions as much as from the cells' options."
			  : "No difference is called significant across different conditions: the "
			    "figures would differ by them too (--across-conditions tests anyway).");
	workload_lines(c, line, ctx);
	compare_defs_lines(&c->defs, c->a, c->b, c->o->across_definitions, line, ctx);
	/* a run whose machine drifted under it measured the drift too, in the cells it names */
	report_drift_lines(c->a, "note: in A, ", line, ctx);
	report_drift_lines(c->b, "note: in B, ", line, ctx);
	/* each test at ALPHA alone would call ALPHA of the unchanged metrics different */
	if (c->tests) {
		snprintf(buf, sizeof buf, "tests: %zu by Welch's t-test at alpha %g, corrected by "
			 "Holm-Bonferroni; uncorrected, %.2f false positive%s would be expected among "
			 "them by chance alone (%zu x %g) if nothing had changed", c->tests, ALPHA,
			 (double)c->tests * ALPHA, (double)c->tests * ALPHA == 1 ? "" : "s",
			 c->tests, ALPHA);
		line(ctx, buf);
		report_spread_text(c->a, c->b, buf, sizeof buf);
		line(ctx, buf);
	}
	int unstable = count[V_UNTESTED] - c->work_untested - c->def_untested;
	if (across || !unstable)
		;   /* said above, or nothing else is untested */
	else if (!count[V_FASTER] && !count[V_SLOWER] && !count[V_SAME])
		line(ctx, "No difference is tested: every metric has a side that is not stable over its "
			  "repeats or has fewer than 3 of them (repeat = 3 or more in the plan); the "
			  "verdict column says which side and why.");
	else
		line(ctx, "Metrics with a side not stable over its repeats, or with fewer than 3 of them, "
			  "are not tested: the verdict column says which side and why.");
	/* a side that measured without an option it asked for compares something else */
	char why[512];
	struct rcell **cells;
	size_t n = union_cells(c->a, c->b, c->o, NULL, &cells);
	for (size_t i = 0; i < n; i++) {
		const struct rcell *side[2] = { report_cell_by_id(c->a, cells[i]->id), report_cell_by_id(c->b, cells[i]->id) };
		for (int k = 0; k < 2; k++)
			if (side[k] && report_ignored_text(side[k], why, sizeof why)) {
				snprintf(buf, sizeof buf, "note: in %c, %s: %s", "AB"[k], cells[i]->id, why);
				line(ctx, buf);
			}
		if (side[0] && side[1] && report_array_differs(side[0], side[1], why, sizeof why)) {
			snprintf(buf, sizeof buf, "note: %s: %s", cells[i]->id, why);
			line(ctx, buf);
		}
	}
	free(cells);
	why_lines(c, line, ctx);
}
