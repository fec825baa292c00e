/* cli/report.c: `fsmatrix report SOURCE...`: the header, one table per workload and
 * metric, and the cells that gave no figures, as text, markdown, CSV or JSON. */
#include "cli/cli.h"
#include "report/timeseries.h"
#include "report/sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char host_report_usage[] =
	"usage: fsmatrix report [--format text|md|csv|json] [--by AXES] [--where AXIS=VALUE]... SOURCE...\n"
	"  SOURCE     a .jsonl results file, a console log, a run directory of qemu/run, a\n"
	"             mounted results partition or its FAT image\n"
	"  --by AXES  group and sort by these axes, comma-separated (array, fs, mount, ...)\n"
	"  --where AXIS=VALUE   only the cells whose AXIS has VALUE (repeatable: all must hold)\n"
	"  exit status: 0 complete with every cell ok; 3 incomplete (no trailer, a shard or cell\n"
	"  missing); 4 complete with a cell not ok (error, timeout, skipped); 1 a source not read;\n"
	"  2 a usage error. 3 goes before 4\n";

/* An axis named by an option must be one a cell has: a typo would otherwise group by nothing
 * or filter everything out without a word. */
static int unknown_axis(const char *cmd, const char *opt, const char *axis)
{
	char known[256];
	size_t k = 0;
	for (size_t i = 0; i < report_naxes && k < sizeof known; i++)
		k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? ", " : "", report_axes[i]);
	if (k < sizeof known)
		snprintf(known + k, sizeof known - k, ", or a kernel tunable's name (stripe_cache_size, "
			 "scheduler, ...), kernel");
	host_usage_error(cmd, "%s: unknown axis \"%s\" (known: %s)", opt, axis, known);
	return -1;
}

int report_args(int argc, char **argv, struct report_opts *o, const char **sources, size_t *nsrc,
		const char **outfile)
{
	static const char *const valued[] = { "--format", "--by", "--where", "--group-by", "-o" };
	*nsrc = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;
		size_t v;
		for (v = 0; v < sizeof valued / sizeof valued[0] && strcmp(a, valued[v]); v++)
			;
		if (v < sizeof valued / sizeof valued[0] && !val) {
			host_usage_error(argv[0], "%s wants a value", a);
			return -1;
		}
		if (strcmp(a, "--format") == 0)
			o->format = val;
		else if (strcmp(a, "--by") == 0) {
			size_t from = o->nby;
			if (report_opts_axes(o, val) != 0) {
				host_usage_error(argv[0], "--by: more than %d axes", REPORT_MAX_AXES);
				return -1;
			}
			for (size_t k = from; k < o->nby; k++)
				if (!report_axis_known(o->by[k]))
					return unknown_axis(argv[0], "--by", o->by[k]);
		} else if (strcmp(a, "--where") == 0) {
			if (report_opts_where(o, val) != 0) {
				host_usage_error(argv[0], "--where wants AXIS=VALUE, not \"%s\"", val);
				return -1;
			}
			if (!report_axis_known(o->where_axis[o->nwhere - 1]))
				return unknown_axis(argv[0], "--where", o->where_axis[o->nwhere - 1]);
		} else if (strcmp(a, "--group-by") == 0) {
			if (!report_axis_known(val))
				return unknown_axis(argv[0], "--group-by", val);
			o->group_by = val;
		}
		else if (strcmp(a, "--across-conditions") == 0 &&
			 (strcmp(argv[0], "compare") == 0 || strcmp(argv[0], "html") == 0)) {
			o->across_conditions = 1;
			takes = 0;
		} else if (strcmp(a, "--across-workloads") == 0 &&
			   (strcmp(argv[0], "compare") == 0 || strcmp(argv[0], "html") == 0)) {
			o->across_workloads = 1;
			takes = 0;
		} else if (strcmp(a, "--across-definitions") == 0 &&
			   (strcmp(argv[0], "compare") == 0 || strcmp(argv[0], "html") == 0)) {
			o->across_definitions = 1;
			takes = 0;
		} else if (strcmp(a, "--vs") == 0 && strcmp(argv[0], "compare") == 0) {
			if (o->vs_at || !*nsrc) {
				host_usage_error(argv[0], "--vs %s", o->vs_at ? "given twice" :
						 "wants A's sources before it");
				return -1;
			}
			o->vs_at = *nsrc;
			takes = 0;
		} else if (strcmp(a, "-o") == 0 && outfile)
			*outfile = val;
		else if (a[0] == '-' && a[1]) {
			host_usage_error(argv[0], "unknown option \"%s\"", a);
			return -1;
		} else {
			takes = 0;
			if (*nsrc == REPORT_MAX_SOURCES) {
				host_usage_error(argv[0], "more than %d sources", REPORT_MAX_SOURCES);
				return -1;
			}
			sources[(*nsrc)++] = a;
		}
		i += takes;
	}
	return 0;
}

/* JSON export of a run set (the model, not the raw records), at the end of this file. */
static json_t *report_json(const struct runset *rs, const struct report_opts *o);

static void print_line(void *ctx, const char *s)
{
	fprintf((FILE *)ctx, "%s\n", s);
}

static void md_line(void *ctx, const char *s)
{
	while (*s == ' ')
		s++;
	fprintf((FILE *)ctx, "- %s\n", s);
}

static void md_header_line(void *ctx, const char *s)
{
	/* header lines are "  key  value": a markdown list with the key in bold reads better;
	 * the "Run" line is the section's title already */
	size_t k;
	const char *v;
	if (!(s = header_kv(s, &k, &v)))
		return;
	if (k && *v)
		fprintf((FILE *)ctx, "- **%.*s** %s\n", (int)k, s, v);
	else
		fprintf((FILE *)ctx, "- %s\n", s);
}

/* The text and markdown reports: how each part of report/walk.c's order is written. */
struct text_sink {
	FILE *f;
	int md;
};

static void text_begin(void *ctx, enum report_section sec, const char *title)
{
	struct text_sink *t = ctx;
	static const char *const heads[][2] = {
		[RSEC_RUN] = { "", "" },
		[RSEC_FINDINGS] = { "Findings\n", "### Findings\n\n" },
		[RSEC_MACHINE] = { "", "" },
		[RSEC_CONDITIONS] = { "\nConditions\n", "\n### Conditions\n\n" },
		[RSEC_VERDICTS] = { "Verdicts\n", "### Verdicts\n\n" },
		[RSEC_PROBLEMS] = { "Problems\n", "### Problems\n\n" },
		[RSEC_BISECT] = { "", "### Bisection\n\n" },
		[RSEC_DURABILITY] = { "Durability: what a power cut costs\n",
				      "### Durability: what a power cut costs\n\n" },
	};
	if (sec == RSEC_RUN && t->md)
		fprintf(t->f, "## Run %s\n\n", title);
	fputs(heads[sec][t->md], t->f);
}

static void text_end(void *ctx, enum report_section sec)
{
	struct text_sink *t = ctx;
	/* Findings end after the limits table, the machine runs on into its conditions */
	if (sec != RSEC_RUN && sec != RSEC_FINDINGS && sec != RSEC_MACHINE)
		fputs("\n", t->f);
}

static void text_line(void *ctx, enum report_section sec, const char *s)
{
	struct text_sink *t = ctx;
	int kv = sec == RSEC_MACHINE || sec == RSEC_CONDITIONS;
	if (!t->md)
		print_line(t->f, s);
	else
		(kv ? md_header_line : md_line)(t->f, s);
}

static void text_grid(void *ctx, struct grid *g)
{
	struct text_sink *t = ctx;
	if (t->md)
		render_md(t->f, g);
	else {
		render_text(t->f, g);
		fputs("\n", t->f);
	}
}

static void text_limits(void *ctx, struct grid *g)
{
	struct text_sink *t = ctx;
	if (g && t->md)
		render_md(t->f, g);
	else if (g) {
		fputs("\n", t->f);
		render_text(t->f, g);
	}
	fputs("\n", t->f);
}

static void text_workload(void *ctx, const char *name, struct rcell **cells, size_t n,
			  const struct metric **ms, size_t nm)
{
	struct text_sink *t = ctx;
	(void)cells, (void)n, (void)ms;
	if (!nm)
		fprintf(t->f, t->md ? "### %s\n\nno figures: every cell failed\n\n"
				    : "%s\nno figures: every cell failed\n\n", name);
}

static const struct report_sink text_sink = {
	.begin = text_begin, .end = text_end, .line = text_line, .limits = text_limits,
	.workload = text_workload, .grid = text_grid, .series = NULL,
};

static void report_run(FILE *f, const struct rrun *r, const struct report_opts *o, int md)
{
	struct text_sink t = { f, md };
	report_walk(r, o, &text_sink, &t);
}

/* Several runs that are not shards of one run group are reported one after the other,
 * never merged: said on stderr, a line each, so that a results directory holding older runs
 * beside the one looked for (an abandoned run, a run of another shard or plan) is not read
 * as one run. */
static void say_runs(const struct runset *rs)
{
	if (rs->n < 2)
		return;
	fprintf(stderr, "fsmatrix: the sources hold %zu runs that are not shards of one run group: "
		"each is reported on its own, in turn\n", rs->n);
	for (size_t i = 0; i < rs->n; i++) {
		const struct rrun *r = &rs->run[i];
		json_t *sh = json_object_get(r->header, "shard");
		char shard[64] = "";
		if (json_is_object(sh))   /* merged (report_merge_shards): the group's shards */
			snprintf(shard, sizeof shard, ", shards of run group %.12s",
				 json_string_value(json_object_get(r->header, "run_group")) ?: "?");
		fprintf(stderr, "fsmatrix:   run %s from %s: %s%s\n", r->id, r->source,
			r->trailer ? "complete" : "incomplete", shard);
	}
}

int host_cmd_report(int argc, char **argv)
{
	struct report_opts o = { .format = "text" };
	const char *src[REPORT_MAX_SOURCES];
	size_t nsrc;
	if (report_args(argc, argv, &o, src, &nsrc, NULL) != 0)
		return 2;
	if (nsrc == 0)
		return host_usage_error("report", "no SOURCE given");
	static const char *const formats[] = { "text", "md", "csv", "json" };
	size_t fi;
	for (fi = 0; fi < 4 && strcmp(formats[fi], o.format); fi++)
		;
	if (fi == 4)
		return host_usage_error("report", "unknown format \"%s\" (text, md, csv or json)",
					o.format);
	struct runset rs = { .no_charts = 1 };
	int rc = report_load_all(src, nsrc, &rs);
	if (rs.n == 0)
		return 1;
	say_runs(&rs);
	if (report_where_check("report", &rs, &o)) {
		report_free(&rs);
		return 1;
	}
	if (fi == 2) {
		struct grid *g = report_flat(&rs, &o);
		render_csv(stdout, g, 1);
		grid_free(g);
	} else if (fi == 3) {
		json_t *j = report_json(&rs, &o);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputs("\n", stdout);
		json_decref(j);
	} else {
		for (size_t i = 0; i < rs.n; i++)
			report_run(stdout, &rs.run[i], &o, fi == 1);
	}
	rc = report_status_worse(rc, report_runs_status(&rs));
	report_free(&rs);
	return rc;
}

/* JSON export: the model (cells with statistics), not the raw records, which the .jsonl
 * already holds. */
/* A verdict in the summary record's shape (core/figures/verdict.c writes the record's), the
 * percentages at its 2 decimals; "metric" only for the cell's own. */
static json_t *verdict_json(const char *metric, const struct fig_verdict *v)
{
	json_t *o = json_object();
	if (metric)
		json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "stable", json_boolean(v->stable));
	json_object_set_new(o, "n", json_integer((json_int_t)v->n));
	json_object_set_new(o, "rsd_pct", isfinite(v->rsd_pct) ? json_real(round(v->rsd_pct * 100) / 100)
		: json_null());
	json_object_set_new(o, "range_pct", isfinite(v->range_pct)
		? json_real(round(v->range_pct * 100) / 100) : json_null());
	json_object_set_new(o, "reason", v->stable ? json_null() : json_string(v->reason));
	return o;
}

static json_t *stats_json(const struct summary *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "min", json_real(s->min));
	json_object_set_new(o, "median", json_real(s->median));
	json_object_set_new(o, "mean", json_real(s->mean));
	json_object_set_new(o, "max", json_real(s->max));
	json_object_set_new(o, "stddev", json_real(s->stddev));
	json_object_set_new(o, "cv", s->cv == s->cv ? json_real(s->cv) : json_null());
	return o;
}

/* "series": the figures of the cell's time series (report/series.c), when it has any. */
static void cell_series_json(json_t *jc, const struct rcell *c)
{
	struct series_figs f;
	char busiest[32];
	if (report_series_cell(c, &f, busiest, sizeof busiest) < 0)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)c->nser));
	json_object_set_new(o, "peak_mbps", json_real(f.peak_mbps));
	json_object_set_new(o, "p99_mbps", json_real(f.p99_mbps));
	json_object_set_new(o, "stall_s", json_real(f.stall_s));
	json_object_set_new(o, "stall_at_s", json_real(f.stall_at));
	json_object_set_new(o, "max_dirty_mb", json_real(f.max_dirty_mb));
	json_object_set_new(o, "busiest_member", busiest[0] ? json_string(busiest) : json_null());
	json_object_set_new(o, "busiest_util_pct", json_real(f.busiest_util_pct));
	json_object_set_new(o, "written_mb", json_real(f.written_mb));
	/* how many repeats could be judged for steady state, and how many were steady */
	int judged = 0, steady = 0;
	for (size_t i = 0; i < c->nser; i++) {
		judged += c->ser[i].steady.judged;
		steady += c->ser[i].steady.steady;
	}
	json_object_set_new(o, "steady_judged", json_integer(judged));
	json_object_set_new(o, "steady", json_integer(steady));
	json_object_set_new(jc, "series", o);
}

static json_t *report_json(const struct runset *rs, const struct report_opts *o)
{
	json_t *runs = json_array();
	for (size_t r = 0; r < rs->n; r++) {
		const struct rrun *run = &rs->run[r];
		json_t *jr = json_object();
		json_object_set_new(jr, "run", json_string(run->id));
		json_object_set_new(jr, "source", json_string(run->source));
		json_object_set(jr, "header", run->header ? run->header : json_null());
		json_object_set(jr, "trailer", run->trailer ? run->trailer : json_null());
		json_object_set_new(jr, "complete", json_boolean(run->trailer != NULL));
		json_object_set_new(jr, "planned", json_integer(run->total));
		json_t *rej = json_object();
		json_object_set_new(rej, "bad_checksum", json_integer(run->rejected_crc));
		json_object_set_new(rej, "truncated", json_integer(run->rejected_trunc));
		json_object_set_new(rej, "not_json", json_integer(run->rejected_json));
		json_object_set_new(rej, "too_long", json_integer(run->rejected_long));
		if (run->rejected_figure)
			json_object_set_new(rej, "impossible_figure", json_integer(run->rejected_figure));
		json_object_set_new(jr, "rejected", rej);
		json_object_set_new(jr, "missing_positions",
				    run->missing_idx ? json_string(run->missing_idx) : json_null());
		json_object_set_new(jr, "lost_positions",
				    run->lost_idx ? json_string(run->lost_idx) : json_null());
		json_object_set_new(jr, "missing_cells",
				    run->missing_cells ? json_string(run->missing_cells) : json_null());
		json_object_set_new(jr, "lost_cells",
				    run->lost_cells ? json_string(run->lost_cells) : json_null());
		json_object_set_new(jr, "status", json_integer(report_run_status(run)));
		json_t *cells = json_array();
		struct rcell **cs = malloc((run->ncells + 1) * sizeof *cs);
		size_t n = report_cells_of(run, o, NULL, cs, run->ncells);
		for (size_t i = 0; i < n; i++) {
			const struct rcell *c = cs[i];
			json_t *jc = json_object();
			json_object_set_new(jc, "cell", json_string(c->id));
			json_object_set(jc, "axes", c->axes);
			json_object_set_new(jc, "status", json_string(c->status));
			json_object_set_new(jc, "reps", json_integer(c->reps));
			json_object_set_new(jc, "seen", json_integer(c->seen));
			json_object_set_new(jc, "ok", json_integer(c->ok));
			json_t *errs = json_array(), *rec;
			size_t k;
			json_array_foreach(c->bad, k, rec) {
				json_t *e = json_object();
				json_object_set(e, "rep", json_object_get(rec, "rep") ?: json_null());
				json_object_set(e, "status", json_object_get(rec, "status") ?: json_null());
				json_object_set(e, "error", json_object_get(rec, "error") ?: json_null());
				json_array_append_new(errs, e);
			}
			json_object_set_new(jc, "problems", errs);
			if (json_array_size(c->ignored))
				json_object_set(jc, "mount_ignored", c->ignored);
			json_t *ms = json_object();
			for (size_t m = 0; m < c->nm; m++)
				if (c->has[m]) {
					json_t *st = stats_json(&c->st[m]);
					json_object_set_new(st, "verdict", verdict_json(NULL, &c->vd[m]));
					json_object_set_new(ms, c->m[m]->key, st);
				}
			json_object_set_new(jc, "metrics", ms);
			if (c->verdict_metric && !c->missing)
				json_object_set_new(jc, "verdict", verdict_json(c->verdict_metric, &c->verdict));
			cell_series_json(jc, c);
			json_array_append_new(cells, jc);
		}
		free(cs);
		json_object_set_new(jr, "cells", cells);
		json_array_append_new(runs, jr);
	}
	json_t *top = json_object();
	json_object_set_new(top, "v", json_integer(1));
	json_object_set_new(top, "runs", runs);
	return top;
}
