/* cli/site_series.c: the site's series/NAME.html, one per cell and metric: the chart and
 * table of `history show --html` (cli/history_html.c, the same code), each point linking to
 * its run's page, then the series' change points with their triage state. */
#include "cli/site.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <string.h>

static void cp_list(FILE *f, const struct site *s, const struct site_row *r)
{
	size_t n = 0;
	for (size_t i = 0; i < s->ncp; i++)
		n += s->cp[i].row == r;
	if (n == 0)
		return;
	fputs("<h2>Change points</h2>\n<ul>\n", f);
	for (size_t i = 0; i < s->ncp; i++) {
		const struct site_cp *c = &s->cp[i];
		if (c->row != r)
			continue;
		const struct cp_point *p = &r->s.cp[c->k];
		fprintf(f, "<li><a href=\"../regressions.html#cp-%s\">%s %+.1f%% at run ", c->anchor,
			trend_worse(p, r->s.higher_better) ? "&#9660; worse" : "&#9650; better",
			100 * p->rel_change);
		html_escape(f, r->s.pt[p->index].run);
		fprintf(f, "</a>: %s", triage_names[c->state]);
		if (c->note) {
			fputs(" (", f);
			html_escape(f, c->note);
			fputs(")", f);
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static int page(struct site *s, struct site_row *r)
{
	char rel[SITENAME_MAX + 16], title[1200], *buf;
	size_t len;
	snprintf(rel, sizeof rel, "series/%s.html", r->name);
	snprintf(title, sizeof title, "fsmatrix: %s %s", r->s.cell, r->s.metric);
	FILE *f = site_page(&buf, &len);
	if (!f)
		return site_done(s, rel, f, &buf, &len);
	site_head(f, title, "../");
	if (r->nvalues == 0) {
		fputs("<h1>", f);
		html_escape(f, r->s.cell);
		fputs(" ", f);
		html_escape(f, r->s.metric);
		fputs("</h1>\n<p>No values: no run of the history holds a figure of this metric for "
		      "this cell.</p>\n", f);
	} else {
		r->s.run_href = "../run/";
		history_html_body(f, &r->s, s->o->db_name);
		r->s.run_href = NULL;
		cp_list(f, s, r);
	}
	site_tail(f);
	return site_done(s, rel, f, &buf, &len);
}

int site_series(struct site *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->nrow; i++)
		rc |= page(s, &s->row[i]);
	return rc;
}
