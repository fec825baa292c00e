/* report/svg.c: a grouped bar chart as inline SVG, with no script and no fetches: bars
 * are medians, whiskers span min..max over repeats, cells without figures are marked. */
#include "report/grid.h"
#include "report/svg.h"

#include <math.h>
#include <string.h>

static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };
#define NPAL (sizeof palette / sizeof palette[0])

/* A round step that gives about five ticks: 1, 2 or 5 times a power of ten. */
static double nice_step(double max)
{
	if (!(max > 0))
		return 1;
	double raw = max / 5, p = pow(10, floor(log10(raw)));
	double f = raw / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static size_t index_of(char (*names)[128], size_t *n, const char *s, size_t max)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	if (*n == max)
		return max - 1;
	snprintf(names[*n], 128, "%s", s);
	return (*n)++;
}

static int metric_of(const struct rcell *c, const struct metric *m)
{
	for (size_t i = 0; i < c->nm; i++)
		if (strcmp(c->m[i]->key, m->key) == 0)
			return c->has[i] ? (int)i : -1;
	return -1;
}

/* Where everything goes: the chart's fixed margins and what the items make of them. */
struct frame {
	int bw, gap, left, right, topm, plot_h;   /* bar width, cluster gap, margins, plot height */
	int cluster_w, plot_w, per_row, legend_h, width, height;
	double ymax, step;
	size_t nc, ns;                           /* clusters and series */
};

static void frame_size(struct frame *fr, double top)
{
	*fr = (struct frame){ .bw = 26, .gap = 28, .left = 70, .right = 20, .topm = 40, .plot_h = 240,
			      .nc = fr->nc, .ns = fr->ns };
	fr->step = nice_step(top * 1.05);
	fr->ymax = fr->step * ceil(top * 1.05 / fr->step);
	if (!(fr->ymax > 0))
		fr->ymax = 1;
	fr->cluster_w = (int)fr->ns * fr->bw + fr->gap;
	if (fr->nc && (int)fr->nc * fr->cluster_w < 360)
		fr->cluster_w = 360 / (int)fr->nc;   /* few bars: spread the clusters over a readable width */
	fr->plot_w = (int)fr->nc * fr->cluster_w;
	if (fr->plot_w < 360)
		fr->plot_w = 360;
	/* As many 200-pixel legend entries to a row as the chart is wide, so none is clipped. */
	fr->per_row = (fr->plot_w + fr->right) / 200 > 0 ? (fr->plot_w + fr->right) / 200 : 1;
	fr->legend_h = fr->ns > 1 ? 18 * (((int)fr->ns + fr->per_row - 1) / fr->per_row) + 10 : 0;
	fr->width = fr->left + fr->plot_w + fr->right;
	fr->height = fr->topm + fr->plot_h + 50 + fr->legend_h;
}

/* y axis: gridlines with values, and the unit */
static void svg_yaxis(FILE *f, const struct frame *fr, const struct metric *m)
{
	for (double y = 0; y <= fr->ymax + fr->step / 2; y += fr->step) {
		double py = fr->topm + fr->plot_h - y / fr->ymax * fr->plot_h;
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
			"<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g</text>\n",
			fr->left, fr->left + fr->plot_w, py, py, fr->left - 6, py + 4, y);
	}
	fprintf(f, "<text transform=\"translate(16 %d) rotate(-90)\" class=\"axis\" text-anchor=\"middle\">",
		fr->topm + fr->plot_h / 2);
	html_escape(f, m->label);
	if (*m->unit && strcmp(m->unit, m->label)) {
		fputs(" (", f);
		html_escape(f, m->unit);
		fputs(")", f);
	}
	fputs("</text>\n", f);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"axisline\"/>\n", fr->left,
		fr->left + fr->plot_w, fr->topm + fr->plot_h, fr->topm + fr->plot_h);
}

/* Patterns' ids are unique in the page: a chart's number, then its series. */
static unsigned chart_no;

/* A hatched fill in a series' colour, for the bars of figures not stable over their
 * repeats: stripes of the colour on a pale wash of it. */
static void svg_hatch(FILE *f, size_t si)
{
	const char *col = palette[si % NPAL];
	fprintf(f, "<pattern id=\"hatch%u-%zu\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"%s\" "
		"fill-opacity=\"0.3\"/><rect width=\"3\" height=\"6\" fill=\"%s\"/></pattern>\n",
		chart_no, si, col, col);
}

/* One bar with its whisker at x, or a cross saying why there are no figures. A figure not
 * stable over its repeats is drawn hatched, the reason in its tooltip. */
static void svg_bar(FILE *f, const struct frame *fr, const struct rcell *c, const struct metric *m,
		    double x, size_t si)
{
	int k = metric_of(c, m), bw = fr->bw, base = fr->topm + fr->plot_h;
	if (k < 0) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"nofig\" text-anchor=\"middle\">&#215;"
			"<title>", x + bw / 2.0, base - 4);
		html_escape(f, c->id);
		fprintf(f, ": %s</title></text>\n", c->missing ? "missing" : c->status);
		return;
	}
	const struct summary *s = &c->st[k];
	double h = s->median / fr->ymax * fr->plot_h;
	char fill[32];
	if (c->vd[k].stable)
		snprintf(fill, sizeof fill, "%s", palette[si % NPAL]);
	else
		snprintf(fill, sizeof fill, "url(#hatch%u-%zu)", chart_no, si);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>",
		x + 1, base - h, bw - 2, h, fill);
	html_escape(f, c->id);
	fprintf(f, ": median %.*f, min %.*f, max %.*f, n %zu", m->decimals + 1,
		s->median, m->decimals + 1, s->min, m->decimals + 1, s->max, s->n);
	if (!c->vd[k].stable) {
		fputs("; not stable: ", f);
		html_escape(f, c->vd[k].reason);
	}
	fputs("</title></rect>\n", f);
	if (s->n >= 2) {
		double y1 = base - s->min / fr->ymax * fr->plot_h;
		double y2 = base - s->max / fr->ymax * fr->plot_h;
		double cx = x + bw / 2.0;
		fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" class=\"whisker\"/>\n",
			cx, y1, y2, cx - 5, y1, cx + 5, cx - 5, y2, cx + 5);
	}
}

/* x axis: cluster names and the axis they are values of; the legend when bars differ */
static void svg_xaxis_legend(FILE *f, const struct frame *fr, char clusters[][128],
			     char series[][128], const char *xlabel)
{
	for (size_t ci = 0; ci < fr->nc; ci++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">",
			fr->left + ci * fr->cluster_w + fr->cluster_w / 2.0, fr->topm + fr->plot_h + 16);
		html_escape(f, clusters[ci]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">",
		fr->left + fr->plot_w / 2.0, fr->topm + fr->plot_h + 36);
	html_escape(f, xlabel);
	fputs("</text>\n", f);
	if (fr->ns > 1)
		for (size_t si = 0; si < fr->ns; si++) {
			int lx = fr->left + (int)si % fr->per_row * 200;
			int ly = fr->topm + fr->plot_h + 50 + (int)si / fr->per_row * 18;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"%d\" class=\"tick\">", lx, ly, palette[si % NPAL], lx + 16, ly + 10);
			html_escape(f, series[si]);
			fputs("</text>\n", f);
		}
}

void svg_chart(FILE *f, const struct chart_item *it, size_t n, const struct metric *m,
	       const char *title, const char *xlabel)
{
	static char clusters[64][128], series[16][128];
	struct frame fr = { 0 };
	double top = 0;
	int nofig = 0, hatched[16] = { 0 }, nhatched = 0;
	chart_no++;
	for (size_t i = 0; i < n; i++) {
		index_of(clusters, &fr.nc, it[i].cluster, 64);
		size_t si = index_of(series, &fr.ns, it[i].series, 16);
		int k = metric_of(it[i].c, m);
		nofig += k < 0;
		if (k >= 0 && it[i].c->st[k].max > top)
			top = it[i].c->st[k].max;
		if (k >= 0 && !it[i].c->vd[k].stable && !hatched[si]++)
			nhatched++;
	}
	frame_size(&fr, top);
	if (nhatched) {   /* room for a line saying what the hatching means */
		fr.topm += 14;
		fr.height += 14;
	}

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", fr.width, fr.height, fr.width, fr.height);
	html_escape(f, title);
	fputs("\">\n<text x=\"4\" y=\"16\" class=\"title\">", f);
	html_escape(f, title);
	fprintf(f, "</text>\n<text x=\"4\" y=\"32\" class=\"sub\">bar: median; whisker: min to max over "
		"repeats; %s is better%s</text>\n", m->higher_better ? "higher" : "lower",
		nofig ? "; &#215;: no figures (error, skipped or missing)" : "");
	if (nhatched) {
		fputs("<text x=\"4\" y=\"46\" class=\"sub\">hatched: not stable over its repeats "
		      "(the bar's tooltip says why)</text>\n<defs>\n", f);
		for (size_t si = 0; si < fr.ns; si++)
			if (hatched[si])
				svg_hatch(f, si);
		fputs("</defs>\n", f);
	}
	svg_yaxis(f, &fr, m);
	for (size_t i = 0; i < n; i++) {
		size_t ci = index_of(clusters, &fr.nc, it[i].cluster, 64);
		size_t si = index_of(series, &fr.ns, it[i].series, 16);
		double x = fr.left + (double)ci * fr.cluster_w + (fr.cluster_w - (double)fr.ns * fr.bw) / 2 +
			   (double)si * fr.bw;
		svg_bar(f, &fr, it[i].c, m, x, si);
	}
	svg_xaxis_legend(f, &fr, clusters, series, xlabel);
	fputs("</svg>\n", f);
}
