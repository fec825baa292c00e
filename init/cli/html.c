/* cli/html.c: `fsmatrix html SOURCE... -o FILE`: one self-contained page (inline CSS and
 * SVG, no script, nothing fetched) with each run's header, charts and tables, and a
 * comparison of the first two runs when there are two or more. */
#include "cli/cli.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <errno.h>
#include <string.h>

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}"
	"h1{font-size:1.6em}h2{border-bottom:2px solid #ccc;margin-top:2em}h3{margin:1.2em 0 .2em}"
	"table{border-collapse:collapse;margin:.4em 0 1em}"
	"th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;white-space:nowrap}"
	"th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"td.error{background:#fde2e2}td.missing{background:#eee;color:#777}"
	"td.better{background:#dff3df}td.worse{background:#fde2e2}td.ignored{background:#fff3cd}"
	"td.unstable{background:#f1ecf7;font-style:italic}"
	"table.kv th{background:none;border:0;text-align:right;color:#555}"
	"table.kv td{border:0;white-space:normal;overflow-wrap:anywhere}"
	".note{color:#555;margin:0}.charts{display:flex;flex-wrap:wrap;gap:16px}"
	"svg.chart{border:1px solid #ddd;background:#fff}"
	"svg .title{font-weight:bold;font-size:13px}svg .sub{font-size:11px;fill:#555}"
	"svg .tick{font-size:11px;fill:#333}svg .axis{font-size:12px;fill:#222}"
	"svg .grid{stroke:#e5e5e5}svg .axisline{stroke:#444}"
	"svg .whisker{stroke:#222;stroke-width:1.2;fill:none}svg .nofig{fill:#c00;font-size:14px}"
	"ul.problems li{font-family:monospace}";

static void kv_line(void *ctx, const char *s)
{
	FILE *f = ctx;
	size_t k;
	const char *v;
	if (!(s = header_kv(s, &k, &v)))
		return;
	/* the key may come from a record too (a control's name): escaped like the value */
	char key[128];
	snprintf(key, sizeof key, "%.*s", (int)(k < sizeof key ? k : sizeof key - 1), s);
	fputs("<tr><th>", f);
	html_escape(f, key);
	fputs("</th><td>", f);
	html_escape(f, v);
	fputs("</td></tr>\n", f);
}

static void li_line(void *ctx, const char *s)
{
	FILE *f = ctx;
	while (*s == ' ')
		s++;
	fputs("<li>", f);
	html_escape(f, s);
	fputs("</li>\n", f);
}

static void p_line(void *ctx, const char *s)
{
	FILE *f = ctx;
	fputs("<p>", f);
	html_escape(f, s);
	fputs("</p>\n", f);
}

/* The label of a cell along some axes, "ext4/noatime". */
static void label(const struct rcell *c, const char **axes, size_t n, const char *skip, char *out,
		  size_t len)
{
	size_t k = 0;
	char w[128];
	out[0] = 0;
	for (size_t i = 0; i < n && k < len; i++) {
		if (skip && strcmp(axes[i], skip) == 0)
			continue;
		axis_text(c->axes, axes[i], w, sizeof w);
		if (!w[0])
			continue;   /* e.g. no chunk on a raw disk: "disk/ext4", not "disk//ext4" */
		k += (size_t)snprintf(out + k, len - k, "%s%s", k ? "/" : "", w);
	}
}

static size_t metrics_of(struct rcell **cells, size_t n, const struct metric **ms)
{
	for (size_t i = 0; i < n; i++)
		if (cells[i]->nm) {
			memcpy(ms, cells[i]->m, cells[i]->nm * sizeof *ms);
			return cells[i]->nm;
		}
	return 0;
}

/* A Findings line as a list item, its leading blanks dropped (they indent the text report). */
static void finding_item(void *ctx, const char *s)
{
	FILE *f = ctx;
	fputs("<li>", f);
	html_escape(f, s + strspn(s, " "));
	fputs("</li>\n", f);
}

/* The page being written, and its options (the charts' --group-by). */
struct html_ctx {
	FILE *f;
	const struct report_opts *o;
};

/* How each part of report/walk.c's order is written in HTML. */
static void html_begin(void *ctx, enum report_section sec, const char *title)
{
	FILE *f = ((struct html_ctx *)ctx)->f;
	static const char *const heads[] = {
		[RSEC_RUN] = "<section>\n<h2>Run ",
		[RSEC_FINDINGS] = "<h3>Findings</h3>\n<ul class=\"findings\">\n",
		[RSEC_MACHINE] = "<h3>Machine</h3>\n<table class=\"kv\">\n",
		[RSEC_CONDITIONS] = "<h3>Conditions</h3>\n<table class=\"kv\">\n",
		[RSEC_VERDICTS] = "<h3>Verdicts</h3>\n<ul class=\"problems\">\n",
		[RSEC_PROBLEMS] = "<h3>Problems</h3>\n<ul class=\"problems\">\n",
		[RSEC_BISECT] = "<h3>Bisection</h3>\n<ul class=\"problems\">\n",
		[RSEC_DURABILITY] = "<h3>Durability: what a power cut costs</h3>\n<ul class=\"problems\">\n",
	};
	fputs(heads[sec], f);
	if (sec == RSEC_RUN) {
		html_escape(f, title);
		fputs("</h2>\n", f);
	}
}

static void html_end(void *ctx, enum report_section sec)
{
	static const char *const tails[] = {
		[RSEC_RUN] = "</section>\n", [RSEC_FINDINGS] = "</ul>\n",
		[RSEC_MACHINE] = "</table>\n", [RSEC_CONDITIONS] = "</table>\n",
		[RSEC_VERDICTS] = "</ul>\n", [RSEC_PROBLEMS] = "</ul>\n", [RSEC_BISECT] = "</ul>\n",
		[RSEC_DURABILITY] = "</ul>\n",
	};
	fputs(tails[sec], ((struct html_ctx *)ctx)->f);
}

static void html_line(void *ctx, enum report_section sec, const char *s)
{
	FILE *f = ((struct html_ctx *)ctx)->f;
	if (sec == RSEC_MACHINE || sec == RSEC_CONDITIONS)
		kv_line(f, s);
	else if (sec == RSEC_FINDINGS)
		finding_item(f, s);
	else
		li_line(f, s);
}

static void html_grid(void *ctx, struct grid *g)
{
	if (g)
		render_html_table(((struct html_ctx *)ctx)->f, g);
}

/* A workload's heading and a chart of each metric, its cells clustered by the --group-by
 * axis (else the last that varies) and coloured by the others. */
static void html_workload(void *ctx, const char *wl, struct rcell **cells, size_t n,
			  const struct metric **ms, size_t nm)
{
	FILE *f = ((struct html_ctx *)ctx)->f;
	const struct report_opts *o = ((struct html_ctx *)ctx)->o;
	struct chart_item *items = malloc((n + 1) * sizeof *items);
	const char *v[32];
	size_t nv = report_varying_axes(cells, n, o, v, 32);
	const char *g = NULL;
	for (size_t i = 0; i < nv && o->group_by; i++)
		if (strcmp(v[i], o->group_by) == 0)
			g = v[i];
	if (!g && nv)
		g = v[nv - 1];
	for (size_t i = 0; items && i < n; i++) {
		items[i].c = cells[i];
		if (g)
			axis_text(cells[i]->axes, g, items[i].cluster, sizeof items[i].cluster);
		else
			snprintf(items[i].cluster, sizeof items[i].cluster, "%s", cells[i]->id);
		label(cells[i], v, nv, g, items[i].series, sizeof items[i].series);
		if (!items[i].series[0])
			snprintf(items[i].series, sizeof items[i].series, "%s", wl);
	}
	fputs("<h3>", f);
	html_escape(f, wl);
	fputs("</h3>\n<div class=\"charts\">\n", f);
	for (size_t m = 0; items && m < nm; m++) {
		char title[256];
		snprintf(title, sizeof title, "%s: %s", wl, ms[m]->label);
		svg_chart(f, items, n, ms[m], title, g ? g : "cell");
	}
	fputs("</div>\n", f);
	free(items);
}

static void html_series(void *ctx, const char *wl, struct rcell **cells, size_t n)
{
	svg_series_charts(((struct html_ctx *)ctx)->f, cells, n, wl);
}

static const struct report_sink html_sink = {
	.begin = html_begin, .end = html_end, .line = html_line, .limits = html_grid,
	.workload = html_workload, .grid = html_grid, .series = html_series,
};

static void run_section(FILE *f, const struct rrun *r, const struct report_opts *o)
{
	struct html_ctx h = { f, o };
	report_walk(r, o, &html_sink, &h);
}

static void compare_section(FILE *f, const struct rrun *a, const struct rrun *b,
			    const struct report_opts *o)
{
	fputs("<section>\n<h2>Comparison: A ", f);
	html_escape(f, a->id);
	fputs(" and B ", f);
	html_escape(f, b->id);
	fputs("</h2>\n", f);
	struct comparison *cmp = compare_new(a, b, o);
	compare_lines(cmp, p_line, f);
	const char *wl[256];
	size_t nw = report_workloads(a, o, wl, 256);
	struct rcell **ca = malloc((a->ncells + 1) * sizeof *ca), **cb = malloc((b->ncells + 1) * sizeof *cb);
	struct chart_item *items = malloc((a->ncells + b->ncells + 1) * sizeof *items);
	for (size_t w = 0; w < nw; w++) {
		size_t na = report_cells_of(a, o, wl[w], ca, a->ncells);
		size_t nb = report_cells_of(b, o, wl[w], cb, b->ncells);
		const char *v[32];
		size_t nv = report_varying_axes(ca, na, o, v, 32);
		size_t n = 0;
		/* B's cells by id (a run's ids are its own: one each) */
		json_t *bix = json_object();
		for (size_t j = 0; j < nb; j++)
			json_object_set_new_nocheck(bix, cb[j]->id, json_integer((json_int_t)j));
		/* clusters: A's cells; bars: A then B */
		for (size_t i = 0; i < na; i++) {
			items[n].c = ca[i];
			label(ca[i], v, nv, NULL, items[n].cluster, sizeof items[n].cluster);
			snprintf(items[n++].series, sizeof items[0].series, "A %s", a->id);
			json_t *j = json_object_get(bix, ca[i]->id);
			if (j) {
				items[n].c = cb[json_integer_value(j)];
				memcpy(items[n].cluster, items[n - 1].cluster, sizeof items[n].cluster);
				snprintf(items[n++].series, sizeof items[0].series, "B %s", b->id);
			}
		}
		json_decref(bix);
		fputs("<h3>", f);
		html_escape(f, wl[w]);
		fputs("</h3>\n<div class=\"charts\">\n", f);
		const struct metric *ms[REPORT_MAX_METRICS];
		size_t nm = metrics_of(ca, na, ms);
		char xl[256];
		xl[0] = 0;
		size_t k = 0;
		for (size_t i = 0; i < nv; i++)
			k += (size_t)snprintf(xl + k, sizeof xl - k, "%s%s", i ? "/" : "", v[i]);
		for (size_t m = 0; m < nm; m++) {
			char title[256];
			snprintf(title, sizeof title, "%s: %s, A against B", wl[w], ms[m]->label);
			svg_chart(f, items, n, ms[m], title, nv ? xl : "cell");
		}
		fputs("</div>\n", f);
		struct grid *g = compare_grid(cmp, wl[w]);
		render_html_table(f, g);
		grid_free(g);
	}
	free(items);
	free(cb);
	free(ca);
	compare_free(cmp);
	fputs("</section>\n", f);
}

void html_report(FILE *f, const struct runset *rs, const struct report_opts *o, const char *nav)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>fsmatrix report</title>\n<style>%s</style>\n</head>\n<body>\n%s"
		"<h1>fsmatrix report</h1>\n", style, nav ? nav : "");
	if (rs->n >= 2)
		compare_section(f, &rs->run[0], &rs->run[1], o);
	for (size_t i = 0; i < rs->n; i++)
		run_section(f, &rs->run[i], o);
	fputs("</body>\n</html>\n", f);
}

const char host_html_usage[] =
	"usage: fsmatrix html SOURCE... -o FILE [--group-by AXIS] [--by AXES] [--where AXIS=VALUE]...\n"
	"  one self-contained page (inline CSS and SVG): each run's header, charts and tables,\n"
	"  and with two or more runs a comparison of the first two\n"
	"  --group-by AXIS   the axis along the charts' x axis (default: the last that varies)\n"
	"  exit status as fsmatrix report's: 3 a run incomplete, 4 a cell not ok (after the output)\n";

int host_cmd_html(int argc, char **argv)
{
	struct report_opts o = { .format = "html" };
	const char *src[REPORT_MAX_SOURCES], *out = NULL;
	size_t nsrc;
	if (report_args(argc, argv, &o, src, &nsrc, &out) != 0)
		return 2;
	if (nsrc == 0)
		return host_usage_error("html", "no SOURCE given");
	if (!out)
		return host_usage_error("html", "no output file given (-o FILE)");
	if (host_check_operand("html", out, ROLE_FILE) < 0)
		return 2;
	if (host_out_not_source("html", out, src, nsrc) < 0)
		return 2;
	struct runset rs = { 0 };
	int rc = report_load_all(src, nsrc, &rs);
	if (rs.n == 0)
		return 1;
	if (report_where_check("html", &rs, &o)) {
		report_free(&rs);
		return 1;
	}
	FILE *f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "fsmatrix: unable to write %s: %s\n", out, strerror(errno));
		report_free(&rs);
		return 1;
	}
	html_report(f, &rs, &o, NULL);
	if (fclose(f) != 0) {
		fprintf(stderr, "fsmatrix: unable to write %s: %s\n", out, strerror(errno));
		rc = 1;
	}
	rc = report_status_worse(rc, report_runs_status(&rs));
	report_free(&rs);
	return rc;
}
