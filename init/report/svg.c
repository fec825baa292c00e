/* report/svg.c: a grouped bar chart as inline SVG, with no script and no fetches: bars
 * are medians, whiskers span min..max over repeats, cells without figures are marked. */
#include "report/report.h"

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

void svg_chart(FILE *f, const struct chart_item *it, size_t n, const struct metric *m,
	       const char *title, const char *xlabel)
{
	static char clusters[64][128], series[16][128];
	size_t nc = 0, ns = 0;
	double top = 0;
	int nofig = 0;
	for (size_t i = 0; i < n; i++) {
		index_of(clusters, &nc, it[i].cluster, 64);
		index_of(series, &ns, it[i].series, 16);
		int k = metric_of(it[i].c, m);
		nofig += k < 0;
		if (k >= 0 && it[i].c->st[k].max > top)
			top = it[i].c->st[k].max;
	}
	double step = nice_step(top * 1.05);
	double ymax = step * ceil(top * 1.05 / step);
	if (!(ymax > 0))
		ymax = 1;

	const int bw = 26, gap = 28, left = 70, right = 20, topm = 40, plot_h = 240;
	int cluster_w = (int)ns * bw + gap;
	if (nc && (int)nc * cluster_w < 360)
		cluster_w = 360 / (int)nc;   /* few bars: spread the clusters over a readable width */
	int plot_w = (int)nc * cluster_w;
	if (plot_w < 360)
		plot_w = 360;
	/* As many 200-pixel legend entries to a row as the chart is wide, so none is clipped. */
	int per_row = (plot_w + right) / 200 > 0 ? (plot_w + right) / 200 : 1;
	int legend_h = ns > 1 ? 18 * (((int)ns + per_row - 1) / per_row) + 10 : 0;
	int width = left + plot_w + right, height = topm + plot_h + 50 + legend_h;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", width, height, width, height);
	html_escape(f, title);
	fputs("\">\n<text x=\"4\" y=\"16\" class=\"title\">", f);
	html_escape(f, title);
	fprintf(f, "</text>\n<text x=\"4\" y=\"32\" class=\"sub\">bar: median; whisker: min to max over "
		"repeats; %s is better%s</text>\n", m->higher_better ? "higher" : "lower",
		nofig ? "; &#215;: no figures (error, skipped or missing)" : "");

	/* y axis: gridlines with values, and the unit */
	for (double y = 0; y <= ymax + step / 2; y += step) {
		double py = topm + plot_h - y / ymax * plot_h;
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
			"<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g</text>\n",
			left, left + plot_w, py, py, left - 6, py + 4, y);
	}
	fprintf(f, "<text transform=\"translate(16 %d) rotate(-90)\" class=\"axis\" text-anchor=\"middle\">",
		topm + plot_h / 2);
	html_escape(f, m->label);
	if (*m->unit && strcmp(m->unit, m->label)) {
		fputs(" (", f);
		html_escape(f, m->unit);
		fputs(")", f);
	}
	fputs("</text>\n", f);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"axisline\"/>\n", left,
		left + plot_w, topm + plot_h, topm + plot_h);

	/* bars */
	for (size_t i = 0; i < n; i++) {
		size_t ci = index_of(clusters, &nc, it[i].cluster, 64);
		size_t si = index_of(series, &ns, it[i].series, 16);
		double x = left + (double)ci * cluster_w + (cluster_w - (double)ns * bw) / 2 + (double)si * bw;
		int k = metric_of(it[i].c, m);
		if (k < 0) {
			/* no figures: say why where the bar would be */
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"nofig\" text-anchor=\"middle\">&#215;"
				"<title>", x + bw / 2.0, topm + plot_h - 4);
			html_escape(f, it[i].c->id);
			fprintf(f, ": %s</title></text>\n", it[i].c->missing ? "missing" : it[i].c->status);
			continue;
		}
		const struct summary *s = &it[i].c->st[k];
		double h = s->median / ymax * plot_h;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>",
			x + 1, topm + plot_h - h, bw - 2, h, palette[si % NPAL]);
		html_escape(f, it[i].c->id);
		fprintf(f, ": median %.*f, min %.*f, max %.*f, n %zu</title></rect>\n", m->decimals + 1,
			s->median, m->decimals + 1, s->min, m->decimals + 1, s->max, s->n);
		if (s->n >= 2) {
			double y1 = topm + plot_h - s->min / ymax * plot_h;
			double y2 = topm + plot_h - s->max / ymax * plot_h;
			double cx = x + bw / 2.0;
			fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" class=\"whisker\"/>\n",
				cx, y1, y2, cx - 5, y1, cx + 5, cx - 5, y2, cx + 5);
		}
	}

	/* x axis: cluster names and the axis they are values of */
	for (size_t ci = 0; ci < nc; ci++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">",
			left + ci * cluster_w + cluster_w / 2.0, topm + plot_h + 16);
		html_escape(f, clusters[ci]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">", left + plot_w / 2.0,
		topm + plot_h + 36);
	html_escape(f, xlabel);
	fputs("</text>\n", f);

	/* legend, when bars in a cluster differ */
	if (ns > 1)
		for (size_t si = 0; si < ns; si++) {
			int lx = left + (int)si % per_row * 200, ly = topm + plot_h + 50 + (int)si / per_row * 18;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"%d\" class=\"tick\">", lx, ly, palette[si % NPAL], lx + 16, ly + 10);
			html_escape(f, series[si]);
			fputs("</text>\n", f);
		}
	fputs("</svg>\n", f);
}
