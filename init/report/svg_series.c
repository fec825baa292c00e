/* report/svg_series.c: time series as inline SVG, no script: a small chart per cell (its
 * first ok repeat's series: the target's write throughput, Dirty and Writeback over time, a
 * bar per member for its mean utilisation), and per group of cells that differ only in
 * their mount options, one chart of their write throughput overlaid, where modes part
 * ways. */
#include "report/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };
#define NPAL (sizeof palette / sizeof palette[0])

/* A plot area and its scales. */
struct area {
	double x, y, w, h;        /* pixels */
	double xmax, ymax;        /* data at the right and top edges */
};

/* A round top for an axis: 1, 2 or 5 times a power of ten, at least max. */
static double nice_top(double max)
{
	if (!(max > 0))
		return 1;
	double p = pow(10, floor(log10(max)));
	double f = max / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static double max_of(const double *v, size_t n)
{
	double m = 0;
	for (size_t i = 0; v && i < n; i++)
		m = fmax(m, v[i]);
	return m;
}

static void polyline(FILE *f, const struct area *a, const double *t, const double *y, size_t n,
		     const char *color, const char *title)
{
	if (!t || !y || !n)
		return;
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", a->x + t[i] / a->xmax * a->w,
			a->y + a->h - fmin(y[i], a->ymax) / a->ymax * a->h);
	fputs("\"><title>", f);
	html_escape(f, title);
	fputs("</title></polyline>\n", f);
}

/* The frame of an area: its base line, and the top value and unit at the left. */
static void area_frame(FILE *f, const struct area *a, const char *unit)
{
	fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" class=\"axisline\"/>"
		"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" class=\"grid\"/>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" text-anchor=\"end\">%g</text>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" text-anchor=\"end\">0</text>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" text-anchor=\"end\">",
		a->x, a->x + a->w, a->y + a->h, a->y + a->h, a->x, a->x + a->w, a->y, a->y,
		a->x - 4, a->y + 4, a->ymax, a->x - 4, a->y + a->h, a->x - 4, a->y + a->h / 2 + 4);
	html_escape(f, unit);
	fputs("</text>\n", f);
}

static void time_axis(FILE *f, const struct area *a, double y)
{
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">0</text>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" text-anchor=\"end\">%.1f s</text>\n",
		a->x, y, a->x + a->w, y, a->xmax);
}

/* One bar per member: its utilisation over the whole series. */
static void member_bars(FILE *f, const struct rchart *ch, double x0, double y0, double h)
{
	for (size_t m = 0; m < ch->nm; m++) {
		double pct = ch->busy[m], bh = fmin(pct, 100) / 100 * h;
		double x = x0 + (double)m * 22;
		/* the outline is 100%: the bar reads as a share of it */
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"16\" height=\"%.0f\" fill=\"none\" "
			"class=\"grid\" stroke=\"#ccc\"/>", x, y0, h);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"16\" height=\"%.1f\" fill=\"#59a14f\">"
			"<title>%s: %.0f%% busy</title></rect><text x=\"%.0f\" y=\"%.0f\" class=\"tick\" "
			"text-anchor=\"middle\">%s</text>\n", x, y0 + h - bh, bh, ch->name[m], pct,
			x + 8, y0 + h + 14, ch->name[m]);
	}
}

/* A cell's chart: write MB/s above, Dirty and Writeback below, members' bars at the right. */
static void cell_chart(FILE *f, const struct rcell *c)
{
	const struct rseries *s = &c->ser[0];
	const struct rchart *ch = s->chart;
	if (!ch)
		return;
	size_t n = ch->n;
	const double *t = ch->t, *w = ch->w, *d = ch->d, *wb = ch->wb;
	double tmax = t[n - 1] > 0 ? t[n - 1] : 1;
	struct area top = { 60, 44, 300, 96, tmax, nice_top(max_of(w, n)) };
	struct area low = { 60, 166, 300, 56, tmax, nice_top(fmax(max_of(d, n), max_of(wb, n))) };
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart series\" width=\"470\" "
	      "height=\"250\" viewBox=\"0 0 470 250\" role=\"img\" aria-label=\"", f);
	html_escape(f, c->id);
	fputs("\">\n<text x=\"4\" y=\"16\" class=\"title\">", f);
	html_escape(f, c->id);
	fprintf(f, "</text>\n<text x=\"4\" y=\"32\" class=\"sub\">rep %d: write MB/s; Dirty "
		"(orange) and Writeback (red) MB; bars: members' utilisation</text>\n", s->rep);
	area_frame(f, &top, "MB/s");
	polyline(f, &top, t, w, n, palette[0], "write MB/s");
	area_frame(f, &low, "MB");
	polyline(f, &low, t, d, n, palette[1], "Dirty MB");
	polyline(f, &low, t, wb, n, palette[3], "Writeback MB");
	time_axis(f, &low, low.y + low.h + 14);
	member_bars(f, ch, 380, 44, 178);
	fputs("</svg>\n", f);
}

/* The cells of one group (same axes but the mount) overlaid: write MB/s over time. */
static void overlay_chart(FILE *f, struct rcell **g, size_t ng, const char *title)
{
	double tmax = 0, ymax = 0;
	for (size_t i = 0; i < ng; i++) {
		const struct rchart *ch = g[i]->ser[0].chart;
		if (ch) {
			tmax = fmax(tmax, max_of(ch->t, ch->n));
			ymax = fmax(ymax, max_of(ch->w, ch->n));
		}
	}
	struct area a = { 60, 44, 440, 160, tmax > 0 ? tmax : 1, nice_top(ymax) };
	int height = 250 + 18 * (int)ng;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart overlay\" width=\"520\" "
		"height=\"%d\" viewBox=\"0 0 520 %d\" role=\"img\" aria-label=\"", height, height);
	html_escape(f, title);
	fputs("\">\n<text x=\"4\" y=\"16\" class=\"title\">", f);
	html_escape(f, title);
	fputs("</text>\n<text x=\"4\" y=\"32\" class=\"sub\">write MB/s of the array or disk over "
	      "time, first ok repeat of each mount</text>\n", f);
	area_frame(f, &a, "MB/s");
	time_axis(f, &a, a.y + a.h + 14);
	for (size_t i = 0; i < ng; i++) {
		const struct rchart *ch = g[i]->ser[0].chart;
		char mount[256];
		axis_text(g[i]->axes, "mount", mount, sizeof mount);
		if (ch)
			polyline(f, &a, ch->t, ch->w, ch->n, palette[i % NPAL], mount);
		double ly = a.y + a.h + 34 + 18 * (double)i;
		fprintf(f, "<rect x=\"60\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"78\" y=\"%.0f\" class=\"tick\">", ly - 10, palette[i % NPAL], ly);
		html_escape(f, mount);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* What a cell's group is: every axis but the mount. */
static void group_key(const struct rcell *c, char *out, size_t len)
{
	static const char *const axes[] = { "array", "chunk", "fs" };
	char w[128];
	size_t k = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof axes / sizeof axes[0] && k < len; i++) {
		axis_text(c->axes, axes[i], w, sizeof w);
		if (w[0])
			k += (size_t)snprintf(out + k, len - k, "%s%s", k ? "/" : "", w);
	}
}

void svg_series_charts(FILE *f, struct rcell **cells, size_t n, const char *workload)
{
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += cells[i]->nser > 0;
	if (!any)
		return;
	fputs("<h4>Inside the cells: time series</h4>\n<div class=\"charts\">\n", f);
	for (size_t i = 0; i < n; i++)
		if (cells[i]->nser)
			cell_chart(f, cells[i]);
	fputs("</div>\n<div class=\"charts\">\n", f);
	/* The groups in order of their first cell, each cell's group found through a hash of
	 * the group keys: next[i] is the cell after i in its group, first[] each group's first. */
	struct rcell **g = malloc(n * sizeof *g);
	size_t *next = malloc(n * sizeof *next), *last = malloc(n * sizeof *last);
	size_t *first = malloc(n * sizeof *first), ngroups = 0;
	char (*key)[400] = malloc(n * sizeof *key);
	json_t *groups = json_object();   /* key -> group number */
	for (size_t i = 0; i < n; i++) {
		next[i] = (size_t)-1;
		if (!cells[i]->nser)
			continue;
		group_key(cells[i], key[i], sizeof key[i]);
		json_t *x = json_object_get(groups, key[i]);
		if (!x) {
			json_object_set_new_nocheck(groups, key[i], json_integer((json_int_t)ngroups));
			first[ngroups] = last[ngroups] = i;
			ngroups++;
			continue;
		}
		size_t k = (size_t)json_integer_value(x);
		next[last[k]] = i;
		last[k] = i;
	}
	for (size_t k = 0; k < ngroups; k++) {
		size_t ng = 0;
		for (size_t i = first[k]; i != (size_t)-1; i = next[i])
			g[ng++] = cells[i];
		if (ng < 2)
			continue;
		char title[600];
		snprintf(title, sizeof title, "%s on %s: write throughput by mount", workload,
			 key[first[k]]);
		overlay_chart(f, g, ng, title);
	}
	json_decref(groups);
	free(key), free(first), free(last), free(next), free(g);
	fputs("</div>\n", f);
}
