/* cli/history_html.c: `fsmatrix history show --html FILE`: one self-contained page (inline
 * CSS and SVG, no script, nothing fetched) with the series as a chart, each run's mean with
 * a whisker of its standard deviation, each stretch between change points at its mean, the
 * change points marked, and the table of runs. */
#include "cli/history.h"
#include "report/sitename.h"
#include "report/grid.h"

#include <math.h>
#include <string.h>
#include <time.h>

const char history_html_style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}"
	"h1{font-size:1.5em}table{border-collapse:collapse;margin:.4em 0 1em}"
	"th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;white-space:nowrap}"
	"th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.change td{border-top:2px solid #c00}.note{color:#555}"
	"svg.chart{border:1px solid #ddd;background:#fff}svg .tick{font-size:11px;fill:#333}"
	"svg .axis{font-size:12px;fill:#222}svg .grid{stroke:#e5e5e5}svg .axisline{stroke:#444}"
	"svg .cp{stroke:#c00;stroke-dasharray:4 3}svg .cplabel{font-size:11px;fill:#c00}"
	"svg .level{stroke-width:2;stroke-opacity:.5}";

/* one colour per conditions group, as report/svg.c's palette */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };
#define NPAL (sizeof palette / sizeof palette[0])

void history_date(long long t, char *out, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (t <= 0 || !gmtime_r(&tt, &tm) || strftime(out, len, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(out, len, "-");
}

struct frame {
	double lo, hi, step;
	int left, top, plot_w, plot_h, dx;
};

static double fx(const struct frame *fr, size_t i)
{
	return fr->left + fr->dx / 2.0 + (double)i * fr->dx;
}

static double fy(const struct frame *fr, double v)
{
	return fr->top + fr->plot_h - (v - fr->lo) / (fr->hi - fr->lo) * fr->plot_h;
}

/* The y range: every mean and whisker, on round ticks (1, 2 or 5 times a power of ten). */
static void frame_of(const struct hseries *s, struct frame *fr)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < s->n; i++) {
		lo = fmin(lo, s->pt[i].mean - s->pt[i].stddev);
		hi = fmax(hi, s->pt[i].mean + s->pt[i].stddev);
	}
	if (!(hi > lo)) {
		lo -= 1;
		hi += 1;
	}
	double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), f = raw / p;
	fr->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
	fr->lo = fr->step * floor(lo / fr->step);
	fr->hi = fr->step * ceil(hi / fr->step);
	fr->left = 70;
	fr->top = 30;
	fr->plot_h = 260;
	fr->dx = s->n && 720 / (int)s->n > 8 ? (720 / (int)s->n < 40 ? 720 / (int)s->n : 40) : 8;
	fr->plot_w = fr->dx * (int)(s->n ? s->n : 1);
}

static void axes(FILE *f, const struct hseries *s, const struct frame *fr)
{
	for (double y = fr->lo; y <= fr->hi + fr->step / 2; y += fr->step)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" "
			"y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g</text>\n", fr->left,
			fr->left + fr->plot_w, fy(fr, y), fy(fr, y), fr->left - 6, fy(fr, y) + 4, y);
	fprintf(f, "<text transform=\"translate(16 %d) rotate(-90)\" class=\"axis\" "
		"text-anchor=\"middle\">", fr->top + fr->plot_h / 2);
	html_escape(f, s->label);
	fputs(" (", f);
	html_escape(f, s->unit);
	fputs(")</text>\n", f);
	int base = fr->top + fr->plot_h, every = 1 + (int)s->n / 20;
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"axisline\"/>\n", fr->left,
		fr->left + fr->plot_w, base, base);
	for (size_t i = 0; i < s->n; i += (size_t)every)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%zu</text>\n",
			fx(fr, i), base + 16, i + 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">run, by %s (the "
		"table's #)</text>\n", fr->left + fr->plot_w / 2, base + 36,
		s->by_kernel ? "kernel version" : "date");
}

/* Each group's stretches between its change points, a line at each stretch's mean. */
static void levels(FILE *f, const struct hseries *s, const struct frame *fr)
{
	for (int g = 0; g < s->ngroups; g++) {
		double sum = 0;
		size_t k = 0, first = 0, last = 0;
		for (size_t i = 0; i <= s->n; i++) {
			int end = i == s->n || (s->pt[i].group == g && s->pt[i].change);
			if (end && k) {
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"level\" "
					"stroke=\"%s\"/>\n", fx(fr, first) - fr->dx / 3.0,
					fx(fr, last) + fr->dx / 3.0, fy(fr, sum / (double)k),
					fy(fr, sum / (double)k), palette[g % NPAL]);
				sum = 0;
				k = 0;
			}
			if (i == s->n || s->pt[i].group != g)
				continue;
			if (k == 0)
				first = i;
			last = i;
			sum += s->pt[i].mean;
			k++;
		}
	}
}

/* With s->run_href, a point (or a row's run) links to its run's page: the link's start
 * (open) or its end. */
static void run_link(FILE *f, const struct hseries *s, const struct hpoint *p, int open)
{
	char name[SITENAME_MAX];
	if (!s->run_href)
		return;
	if (!open) {
		fputs("</a>", f);
		return;
	}
	sitename(p->run, name, sizeof name);
	fputs("<a href=\"", f);
	html_escape(f, s->run_href);
	fprintf(f, "%s.html\">", name);
}

static void points(FILE *f, const struct hseries *s, const struct frame *fr)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct hpoint *p = &s->pt[i];
		const char *c = palette[p->group % NPAL];
		double x = fx(fr, i);
		run_link(f, s, p, 1);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", x, x,
			fy(fr, p->mean - p->stddev), fy(fr, p->mean + p->stddev), c);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>#%zu ", x,
			fy(fr, p->mean), c, i + 1);
		html_escape(f, p->run);
		fputs(" ", f);
		html_escape(f, p->kernel);
		fprintf(f, ": %g ±%g over %d (%c; ", p->mean, p->stddev, p->n, 'A' + p->group);
		html_escape(f, p->verdict);
		fputs(")</title></circle>", f);
		run_link(f, s, p, 0);
		fputs("\n", f);
	}
	for (size_t j = 0; j < s->ncp; j++) {
		const struct cp_point *c = &s->cp[j];
		double x = fx(fr, c->index) - fr->dx / 2.0;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"cp\"/><text x=\"%.1f\" "
			"y=\"%d\" class=\"cplabel\">%+.1f%% p %.2g</text>\n", x, x, fr->top,
			fr->top + fr->plot_h, x + 3, fr->top - 6 + (int)(j % 2) * 12,
			100 * c->rel_change, c->p);
	}
}

static void table(FILE *f, const struct hseries *s)
{
	fputs("<table>\n<tr><th>#</th><th>run</th><th>date (UTC)</th><th>kernel</th><th>n</th>"
	      "<th>mean</th><th>stddev</th><th>change</th><th>p</th><th>cond</th><th>verdict</th></tr>\n", f);
	for (size_t i = 0; i < s->n; i++) {
		const struct hpoint *p = &s->pt[i];
		char date[32];
		history_date(p->time, date, sizeof date);
		fprintf(f, "<tr%s><td class=\"num\">%zu</td><td>", p->change ? " class=\"change\"" : "", i + 1);
		run_link(f, s, p, 1);
		html_escape(f, p->run);
		run_link(f, s, p, 0);
		fprintf(f, "</td><td>%s</td><td>", date);
		html_escape(f, p->kernel);
		if (*p->kset) {
			fputs(" (", f);
			html_escape(f, p->kset);
			fputs(")", f);
		}
		fprintf(f, "</td><td class=\"num\">%d</td><td class=\"num\">%g</td><td class=\"num\">%g</td>",
			p->n, p->mean, p->stddev);
		if (p->change)
			fprintf(f, "<td class=\"num\">%+.1f%%</td><td class=\"num\">%.2g</td>",
				100 * s->cp[p->change - 1].rel_change, s->cp[p->change - 1].p);
		else
			fputs("<td></td><td></td>", f);
		fprintf(f, "<td>%c</td><td>", 'A' + p->group);
		html_escape(f, p->verdict);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

void history_html(FILE *f, const struct hseries *s, const char *db)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
		"fsmatrix history</title>\n<style>%s</style>\n</head>\n<body>\n", history_html_style);
	history_html_body(f, s, db);
	fputs("</body>\n</html>\n", f);
}

void history_html_body(FILE *f, const struct hseries *s, const char *db)
{
	struct frame fr;
	frame_of(s, &fr);
	fputs("<h1>", f);
	html_escape(f, s->cell);
	fputs(" ", f);
	html_escape(f, s->metric);
	fprintf(f, "</h1>\n<p class=\"note\">%zu point%s (a run under one kernel set each) by %s from ",
		s->n, s->n == 1 ? "" : "s",
		s->by_kernel ? "kernel version" : "date");
	html_escape(f, db);
	fprintf(f, "; dots: each run's mean, whiskers ±1 standard deviation over its repeats; lines: "
		"the mean of each stretch between change points (red: E-divisive means with Student's "
		"t-test as Apache Otava, window %zu, p %g); colours: conditions groups; the y axis "
		"does not start at 0</p>\n", s->opts.window, s->opts.max_p);
	fprintf(f, "<svg class=\"chart\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		fr.left + fr.plot_w + 20, fr.top + fr.plot_h + 50);
	axes(f, s, &fr);
	levels(f, s, &fr);
	points(f, s, &fr);
	fputs("</svg>\n<p class=\"note\">conditions:", f);
	for (int g = 0; g < s->ngroups; g++) {
		fprintf(f, "%s <span style=\"color:%s\">&#9679;</span> %c fingerprint %s", g ? ";" : "",
			palette[g % NPAL], 'A' + g, s->group_fp[g]);
		if (*s->group_why[g]) {
			fputs(strcmp(s->group_fp[g], "none") ? ", differs from A: " : ", ", f);
			html_escape(f, s->group_why[g]);
		}
	}
	fputs("</p>\n", f);
	table(f, s);
}
