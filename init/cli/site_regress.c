/* cli/site_regress.c: the site's regressions.html, every change point once, newest first,
 * with its triage state (new; acknowledged, with the note `history ack` kept; fixed by a
 * later change point, core/figures/trend.h), and feed.atom, an Atom feed (RFC 4287) of the new ones
 * that made a figure worse, for a feed reader or a mail bridge. */
#include "cli/site.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <string.h>

/* s as a shell word in single quotes, HTML-escaped. */
static void shell_word(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		char c[2] = { *s, 0 };
		html_escape(f, *s == '\'' ? "'\\''" : c);
	}
	fputc('\'', f);
}

/* What a change point won back: the worse one of its series it fixed, if any. */
static void fixes(FILE *f, const struct site *st, const struct site_cp *c)
{
	for (size_t i = 0; i < st->ncp; i++)
		if (st->cp[i].row == c->row && st->cp[i].fixed_by == (long)c->k) {
			const struct hseries *s = &c->row->s;
			fputs(" (fixes the one at run ", f);
			html_escape(f, s->pt[s->cp[st->cp[i].k].index].run);
			fputs(")", f);
			return;
		}
}

static void state_cell(FILE *f, const struct site *st, const struct site_cp *c)
{
	const struct hseries *s = &c->row->s;
	if (c->state == TRIAGE_FIXED) {
		const struct cp_point *fx = &s->cp[c->fixed_by];
		fprintf(f, "<td class=\"wrap\">fixed at run ");
		html_escape(f, s->pt[fx->index].run);
		fprintf(f, " (%+.1f%%)", 100 * fx->rel_change);
		if (c->note) {
			fputs("; acknowledged: ", f);
			html_escape(f, c->note);
		}
		fputs("</td>", f);
	} else if (c->state == TRIAGE_ACK) {
		char date[32];
		history_date(c->ack_time, date, sizeof date);
		fputs("<td class=\"wrap\">acknowledged: ", f);
		html_escape(f, c->note);
		fprintf(f, " (%s)", date);
		fixes(f, st, c);
		fputs("</td>", f);
	} else {
		fputs("<td class=\"new wrap\">NEW", f);
		fixes(f, st, c);
		fputs("</td>", f);
	}
}

static void cp_row(FILE *f, const struct site *st, const struct site_cp *c)
{
	const struct hseries *s = &c->row->s;
	const struct cp_point *p = &s->cp[c->k];
	const struct hpoint *pt = &s->pt[p->index];
	int worse = trend_worse(p, s->higher_better);
	char date[32], mb[32], ma[32], run[SITENAME_MAX];
	history_date(pt->time, date, sizeof date);
	site_num(p->mean_before, mb, sizeof mb);
	site_num(p->mean_after, ma, sizeof ma);
	fprintf(f, "<tr id=\"cp-%s\">", c->anchor);
	state_cell(f, st, c);
	fprintf(f, "<td>%s</td><td><a href=\"series/%s.html\">", date, c->row->name);
	html_escape(f, s->cell);
	fputs("</a></td><td>", f);
	html_escape(f, s->metric);
	fprintf(f, "</td><td><a href=\"run/%s.html\">", sitename(pt->run, run, sizeof run));
	html_escape(f, pt->run);
	fputs("</a></td><td>", f);
	html_escape(f, pt->kernel);
	if (*pt->kset) {
		fputs(" (", f);
		html_escape(f, pt->kset);
		fputs(")", f);
	}
	fprintf(f, "</td><td class=\"num\">%s &#8594; %s ", mb, ma);
	html_escape(f, s->unit);
	fprintf(f, "</td><td class=\"num %s\">%s %+.1f%%</td><td class=\"num\">%.2g</td>"
		"<td>%c %s</td><td class=\"ack\">", worse ? "worse" : "better", worse ? "&#9660; worse" :
		"&#9650; better", 100 * p->rel_change, p->p, 'A' + s->cp_group[c->k],
		s->group_fp[s->cp_group[c->k]]);
	if (c->state == TRIAGE_NEW) {
		char cell[600];
		snprintf(cell, sizeof cell, "%s%s%s", s->cell, *pt->kset ? "@" : "", pt->kset);
		fputs("<code>fsmatrix history ack ", f);
		shell_word(f, cell);
		fputs(" ", f);
		shell_word(f, s->metric);
		fputs(" ", f);
		shell_word(f, pt->run);
		fputs(" 'NOTE'</code>", f);
	}
	fputs("</td></tr>\n", f);
}

int site_regressions(struct site *s)
{
	char *buf;
	size_t len, n[3] = { 0 };
	FILE *f = site_page(&buf, &len);
	if (!f)
		return site_done(s, "regressions.html", f, &buf, &len);
	for (size_t i = 0; i < s->ncp; i++)
		n[s->cp[i].state]++;
	site_head(f, "fsmatrix: regressions", "");
	fprintf(f, "<h1>Change points</h1>\n<p class=\"note\">Every change point of every series "
		"once, newest first: %zu new, %zu acknowledged, %zu fixed. A change point is where a "
		"cell's figure moved (Apache Otava's rule within each conditions group, as fsmatrix "
		"history show finds them); <em>fixed</em>: a later change point of the same series and "
		"conditions won back at least half of it; <em>acknowledged</em>: kept with a note by "
		"<code>fsmatrix history ack</code>. <a href=\"feed.atom\">Feed</a> of the new ones that "
		"made a figure worse.</p>\n", n[TRIAGE_NEW], n[TRIAGE_ACK], n[TRIAGE_FIXED]);
	if (s->ncp == 0)
		fputs("<p>No change point in any series.</p>\n", f);
	else {
		fputs("<table id=\"regressions\">\n<thead><tr><th>state</th><th>run date (UTC)</th>"
		      "<th>cell</th><th>metric</th><th>first run after</th><th>kernel</th>"
		      "<th>before &#8594; after</th><th>change</th><th>p</th><th>conditions</th>"
		      "<th>acknowledge</th></tr></thead>\n<tbody>\n", f);
		for (size_t i = 0; i < s->ncp; i++)
			cp_row(f, s, &s->cp[i]);
		fputs("</tbody>\n</table>\n", f);
	}
	site_tail(f);
	return site_done(s, "regressions.html", f, &buf, &len);
}

/* Text in XML: escaped, and the control characters XML 1.0 has no place for left out. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		char c[2] = { *s, 0 };
		if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
			html_escape(f, c);
	}
}

static void entry(FILE *f, const struct site *s, const struct site_cp *c)
{
	const struct hseries *h = &c->row->s;
	const struct cp_point *p = &h->cp[c->k];
	const struct hpoint *pt = &h->pt[p->index];
	char when[32], mb[32], ma[32];
	site_rfc3339(pt->time, when, sizeof when);
	site_num(p->mean_before, mb, sizeof mb);
	site_num(p->mean_after, ma, sizeof ma);
	fprintf(f, "<entry>\n<id>tag:fsmatrix,2026:cp/%s</id>\n<title>", c->anchor);
	xml_text(f, h->cell);
	fputs(" ", f);
	xml_text(f, h->metric);
	fprintf(f, " %+.1f%% at run ", 100 * p->rel_change);
	xml_text(f, pt->run);
	fprintf(f, "</title>\n<updated>%s</updated>\n<link href=\"", when);
	xml_text(f, s->o->url ? s->o->url : "");
	fprintf(f, "%sregressions.html#cp-%s\"/>\n<summary>", s->o->url && *s->o->url &&
		s->o->url[strlen(s->o->url) - 1] != '/' ? "/" : "", c->anchor);
	xml_text(f, h->cell);
	fputs(" ", f);
	xml_text(f, h->metric);
	fprintf(f, ": %s to %s ", mb, ma);
	xml_text(f, h->unit);
	fprintf(f, " (%+.1f%%, p %.2g), first in run ", 100 * p->rel_change, p->p);
	xml_text(f, pt->run);
	fputs(" under ", f);
	xml_text(f, pt->kernel);
	fprintf(f, ", conditions %c</summary>\n</entry>\n", 'A' + h->cp_group[c->k]);
}

int site_feed(struct site *s)
{
	char *buf, when[32];
	size_t len;
	FILE *f = site_page(&buf, &len);
	if (!f)
		return site_done(s, "feed.atom", f, &buf, &len);
	site_rfc3339(s->newest, when, sizeof when);
	fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
	      "<title>fsmatrix: new regressions</title>\n<id>tag:fsmatrix,2026:regressions/", f);
	xml_text(f, s->o->url ? s->o->url : "local");
	fprintf(f, "</id>\n<updated>%s</updated>\n<author><name>fsmatrix site</name></author>\n", when);
	for (size_t i = 0; i < s->ncp; i++) {
		const struct site_cp *c = &s->cp[i];
		if (c->state == TRIAGE_NEW && trend_worse(&c->row->s.cp[c->k], c->row->s.higher_better))
			entry(f, s, c);
	}
	fputs("</feed>\n", f);
	return site_done(s, "feed.atom", f, &buf, &len);
}
