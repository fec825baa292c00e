/* cli/compare.c: `fsmatrix compare A B`, and `compare --by kernel RUN`: the two sides loaded
 * (the shards of each merged, or one run's kernels as two views), judged by report/compare.c,
 * printed as lines and one grid per workload. */
#include "cli/cli.h"
#include "report/sections.h"
#include "report/compare.h"

#include <stdlib.h>
#include <string.h>

static void print_line(void *ctx, const char *s)
{
	fprintf((FILE *)ctx, "%s\n", s);
}

const char host_compare_usage[] =
	"usage: fsmatrix compare [--format text|md] [--by AXES] [--where AXIS=VALUE]... [--across-conditions]\n"
	"                        [--across-workloads] [--across-definitions] A B\n"
	"       fsmatrix compare [OPTIONS] A1 A2... --vs B1 B2...\n"
	"       fsmatrix compare [--format text|md] --by kernel RUN\n"
	"  A, B   two sources (as for fsmatrix report); the first run of each is compared\n"
	"         (more sources: the shards of a run merge, and they must make two runs)\n"
	"  --vs   the runs before it are A's boots, those after B's (boots of one plan a side):\n"
	"         each run's mean one observation, so the test weighs the spread between boots\n"
	"  RUN    one run under two kernels (kernels = in its plan): the first kernel's cells are\n"
	"         A, the second's B, each cell against itself under the other kernel\n"
	"  every metric: medians, B/A, change; where both sides are stable over 3 or more repeats,\n"
	"  Welch's t-test and a 95% confidence interval of the change\n"
	"  --across-conditions  test also when the runs' conditions fingerprints differ (by\n"
	"         default no difference is called significant then; what differs is listed)\n"	"  --across-workloads  test also the cells whose workloads differ (size, bs, the fio\n"
	"         command...: by default those cells are not tested; what differs is listed)\n"
	"  --across-definitions  test also the cells whose definitions differ (mkfs and mount\n"
	"         options, tunables, layers, drop_caches, the plan: by default not tested; every\n"
	"         difference, and the runs' kernels and plans, are listed before the tests)\n"
	"  exit status as fsmatrix report's: 3 a run incomplete, 4 a cell not ok (after the output)\n";

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

/* A and B, then the grids of each workload either has. Returns the exit status of the two. */
static int compare_print(const struct rrun *a, const struct rrun *b, const struct report_opts *o)
{
	int md = strcmp(o->format, "md") == 0;
	if (md)
		fputs("## Comparison\n\n", stdout);
	struct comparison *cmp = compare_new(a, b, o);
	compare_lines(cmp, print_line, stdout);
	fputs("\n", stdout);
	const char *wl[256];
	size_t nw = report_workloads(a, o, wl, 256);
	const char *wb[256];
	size_t nwb = report_workloads(b, o, wb, 256);
	for (size_t i = 0; i < nwb && nw < 256; i++) {
		size_t j;
		for (j = 0; j < nw && strcmp(wl[j], wb[i]); j++)
			;
		if (j == nw)
			wl[nw++] = wb[i];
	}
	for (size_t w = 0; w < nw; w++) {
		struct grid *g = compare_grid(cmp, wl[w]);
		if (md)
			render_md(stdout, g);
		else {
			render_text(stdout, g);
			fputs("\n", stdout);
		}
		grid_free(g);
	}
	compare_free(cmp);
	/* a side that did not finish, or holds cells not ok, is said in the status too */
	return report_status_worse(report_run_status(a), report_run_status(b));
}

/* compare --by kernel RUN: the run's first two kernels as A and B (report/split.c). */
static int compare_kernels(const char *src, struct report_opts *o)
{
	struct runset rs = { .no_charts = 1 };
	const char *k[8];
	int rc = 1;
	if (report_load(src, &rs) != 0 || report_merge_shards(&rs, 0) < 0)
		goto out;
	if (rs.n > 1)
		fprintf(stderr, "fsmatrix: %s holds several runs; comparing the kernels of the first\n", src);
	struct rrun *r = &rs.run[0];
	report_model(r);
	size_t nk = report_split_kernels(r, k, 8);
	if (nk != 2) {
		fprintf(stderr, "fsmatrix: compare --by kernel: run %s in %s has %zu kernel%s in its "
			"cell ids, not two (a plan's kernels = A, B)\n", r->id, src, nk, nk == 1 ? "" : "s");
		goto out;
	}
	/* kernel is no axis within a side: each side is one kernel's */
	o->nby = 0;
	struct rrun a, b;
	if (report_split_view(r, k[0], &a) < 0 || report_split_view(r, k[1], &b) < 0) {
		fprintf(stderr, "fsmatrix: compare: out of memory\n");
		goto out;
	}
	if (report_where_check("compare", &(struct runset){ .run = (struct rrun[]){ a, b }, .n = 2 }, o) == 0)
		rc = compare_print(&a, &b, o);
	report_split_free(&a);
	report_split_free(&b);
out:
	report_free(&rs);
	return rc;
}

/* compare A1 A2... --vs B1 B2...: each side's sources loaded and their shards merged, the
 * runs of each side pooled into one view (report/boots.c). */
static int compare_boots(const char *const *src, size_t nsrc, struct report_opts *o)
{
	struct runset rs[2] = { { .no_charts = 1 }, { .no_charts = 1 } };
	struct rrun view[2] = { { 0 } };
	size_t from[3] = { 0, o->vs_at, nsrc };
	char msg[400];
	int rc = 1, pooled = 0;
	if (nsrc == o->vs_at) {
		host_usage_error("compare", "--vs wants B's sources after it");
		return 2;
	}
	for (int s = 0; s < 2; s++) {
		for (size_t i = from[s]; i < from[s + 1]; i++)
			if (report_load(src[i], &rs[s]) != 0)
				goto out;
		if (report_merge_shards(&rs[s], 0) < 0)
			goto out;
		for (size_t i = 0; i < rs[s].n; i++)
			report_model(&rs[s].run[i]);
	}
	for (int s = 0; s < 2; s++, pooled++)
		if (report_pool_view(rs[s].run, rs[s].n, &view[s], msg, sizeof msg) != 0) {
			fprintf(stderr, "fsmatrix: compare: %c: %s\n", "AB"[s], msg);
			goto out;
		}
	struct runset both = { .run = view, .n = 2 };
	if (report_where_check("compare", &both, o) == 0)
		rc = compare_print(&view[0], &view[1], o);
out:
	while (pooled--)
		report_pool_free(&view[pooled]);
	report_free(&rs[0]);
	report_free(&rs[1]);
	return rc;
}

int host_cmd_compare(int argc, char **argv)
{
	struct report_opts o = { .format = "text" };
	const char *src[REPORT_MAX_SOURCES];
	size_t nsrc = 0;
	if (report_args(argc, argv, &o, src, &nsrc, NULL) != 0)
		return 2;
	if (strcmp(o.format, "text") && strcmp(o.format, "md"))
		return host_usage_error("compare", "unknown format \"%s\" (text or md)", o.format);
	if (nsrc == 1 && o.nby == 1 && strcmp(o.by[0], "kernel") == 0)
		return compare_kernels(src[0], &o);
	if (o.vs_at)
		return compare_boots(src, nsrc, &o);
	if (nsrc < 2)
		return host_usage_error("compare", "expected two sources, A and B, not %zu", nsrc);
	struct runset ra = { .no_charts = 1 }, rb = { .no_charts = 1 };
	if (load_sides(src, nsrc, &ra, &rb) != 0)
		return 1;
	struct rrun *a = &ra.run[0], *b = &rb.run[0];
	report_model(a);
	report_model(b);
	struct runset both = { .run = (struct rrun[]){ *a, *b }, .n = 2 };
	if (report_where_check("compare", &both, &o)) {
		report_free(&ra);
		report_free(&rb);
		return 1;
	}
	int rc = compare_print(a, b, &o);
	report_free(&ra);
	report_free(&rb);
	return rc;
}
