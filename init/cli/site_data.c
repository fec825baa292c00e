/* cli/site_data.c: what `fsmatrix site` reads of a history: every cell and headline metric
 * as a series (cli/history_show.c's, the same points, groups and change points `history
 * show` finds), its glance (core/figures/trend.h), its limit; every change point with its triage
 * state; the runs. */
#include "cli/site.h"
#include "core/workload/workload_kinds.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <stdlib.h>
#include <string.h>

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

/* Whether some workload's report shows metric in its tables (a headline figure). */
static int headline(const char *metric)
{
	for (size_t k = 0; wl_kinds[k].name; k++)
		for (const struct metric *m = wl_kinds[k].metrics; m->key; m++)
			if (m->report && strcmp(m->key, metric) == 0)
				return 1;
	return 0;
}

/* The series of one row, its glance and its newest point's limit. 0, or 1 after a line. */
static int fill_row(struct site *s, struct site_row *r)
{
	char key[1024];
	snprintf(key, sizeof key, "%s/%s", r->s.cell, r->s.metric);
	sitename(key, r->name, sizeof r->name);
	cell_parts(r->s.cell, &r->parts);
	int rc = history_series(s->h, &r->s, NULL);
	if (rc) {
		fprintf(stderr, "fsmatrix site: unable to read %s: %s\n", s->o->db,
			rc == -1 ? sqlite3_errmsg(s->h) : "out of memory");
		return 1;
	}
	r->nvalues = r->s.n;
	if (r->s.n == 0)
		return 0;
	struct trend_point *tp = malloc(r->s.n * sizeof *tp);
	if (!tp) {
		fprintf(stderr, "fsmatrix site: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < r->s.n; i++)
		tp[i] = (struct trend_point){ r->s.pt[i].mean, r->s.pt[i].group, r->s.pt[i].change };
	trend_of(tp, r->s.n, r->s.cp, &r->t);
	free(tp);
	const struct hpoint *last = &r->s.pt[r->s.n - 1];
	r->limit = history_limit(s->h, last->run, r->s.cell, last->kset, r->s.metric);
	return 0;
}

static int read_rows(struct site *s)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->h, "SELECT cell, metric FROM figures GROUP BY cell, metric "
			       "ORDER BY cell, metric", -1, &st, NULL) != SQLITE_OK)
		return -1;
	size_t cap = 0;
	int rc = 0, step;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (!s->o->all_metrics && !headline(col(st, 1)))
			continue;
		if (s->nrow == cap) {
			cap = cap ? 2 * cap : 64;
			struct site_row *n = realloc(s->row, cap * sizeof *n);
			if (!n) {
				rc = 1;
				break;
			}
			s->row = n;
		}
		struct site_row *r = &s->row[s->nrow++];
		*r = (struct site_row){ .s = { .cell = strdup(col(st, 0)), .metric = strdup(col(st, 1)),
					       .by_kernel = s->o->by_kernel, .opts = s->o->o } };
		rc = !r->s.cell || !r->s.metric ? 1 : fill_row(s, r);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;   /* a damaged file reads as an error, not as the rows before it */
	sqlite3_finalize(st);
	return rc;
}

static int cp_newest_first(const void *a, const void *b)
{
	const struct site_cp *x = a, *y = b;
	const struct hpoint *px = &x->row->s.pt[x->row->s.cp[x->k].index];
	const struct hpoint *py = &y->row->s.pt[y->row->s.cp[y->k].index];
	if (px->time != py->time)
		return px->time > py->time ? -1 : 1;
	int c = strcmp(x->row->s.cell, y->row->s.cell);
	if (c)
		return c;
	c = strcmp(x->row->s.metric, y->row->s.metric);
	return c ? c : x->k < y->k ? -1 : x->k > y->k;
}

/* Every change point of every row, its triage state, newest first. */
static int read_cps(struct site *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nrow; i++)
		n += s->row[i].s.ncp;
	s->cp = calloc(n + 1, sizeof *s->cp);
	if (!s->cp)
		return 1;
	for (size_t i = 0; i < s->nrow; i++) {
		struct site_row *r = &s->row[i];
		for (size_t k = 0; k < r->s.ncp; k++) {
			struct site_cp *c = &s->cp[s->ncp++];
			const struct hpoint *p = &r->s.pt[r->s.cp[k].index];
			char key[1400];
			c->row = r;
			c->k = k;
			c->fixed_by = trend_fixed_by(r->s.cp, r->s.cp_group, r->s.ncp, k,
						     r->s.higher_better);
			history_ack_note(s->h, r->s.cell, r->s.metric, p->run, p->kset, &c->note,
					 &c->ack_time);
			c->state = trend_triage(c->fixed_by, c->note != NULL);
			snprintf(key, sizeof key, "%s/%s/%s@%s", r->s.cell, r->s.metric, p->run, p->kset);
			sitename(key, c->anchor, sizeof c->anchor);
		}
	}
	qsort(s->cp, s->ncp, sizeof *s->cp, cp_newest_first);
	return 0;
}

static int read_runs(struct site *s)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->h, "SELECT r.run, r.time, r.source, (SELECT group_concat(release, "
			       "' ') FROM kernels k WHERE k.run = r.run), (SELECT count(*) FROM figures "
			       "f WHERE f.run = r.run) FROM runs r ORDER BY r.time DESC, r.run DESC",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	size_t cap = 0;
	int rc = 0, step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (s->nrun == cap) {
			cap = cap ? 2 * cap : 64;
			struct site_run *n = realloc(s->run, cap * sizeof *n);
			if (!n) {
				rc = 1;
				break;
			}
			s->run = n;
		}
		struct site_run *r = &s->run[s->nrun++];
		*r = (struct site_run){ .run = strdup(col(st, 0)), .time = sqlite3_column_int64(st, 1),
					.source = strdup(col(st, 2)), .kernels = strdup(col(st, 3)),
					.nfig = sqlite3_column_int(st, 4) };
		sitename(r->run, r->name, sizeof r->name);
		if (r->time > s->newest)
			s->newest = r->time;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

int site_read(struct site *s)
{
	int rc = read_runs(s);
	if (rc == 0)
		rc = read_rows(s);
	if (rc == 0)
		rc = read_cps(s);
	if (rc == -1)
		fprintf(stderr, "fsmatrix site: unable to read %s: %s\n", s->o->db, sqlite3_errmsg(s->h));
	else if (rc)
		fprintf(stderr, "fsmatrix site: unable to read %s: out of memory\n", s->o->db);
	return rc != 0;
}

void site_run_figures(struct site *s, const struct site_run *r, FILE *f)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->h, "SELECT cell, kset, metric, unit, n, mean, stddev, verdict FROM "
			       "figures WHERE run = ?1 ORDER BY cell, kset, metric", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, r->run, -1, SQLITE_STATIC);
	fputs("<table>\n<tr><th>cell</th><th>kernel set</th><th>metric</th><th>n</th><th>mean</th>"
	      "<th>stddev</th><th>verdict</th></tr>\n", f);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char mean[32], sd[32];
		site_num(sqlite3_column_double(st, 5), mean, sizeof mean);
		site_num(sqlite3_column_double(st, 6), sd, sizeof sd);
		fputs("<tr>", f);
		for (int i = 0; i < 3; i++) {
			fputs("<td>", f);
			html_escape(f, col(st, i));
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"num\">%d</td><td class=\"num\">", sqlite3_column_int(st, 4));
		fprintf(f, "%s</td><td class=\"num\">%s</td><td>", sqlite3_column_type(st, 5) ==
			SQLITE_NULL ? "-" : mean, sd);
		html_escape(f, col(st, 7));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	sqlite3_finalize(st);
}

void site_data_free(struct site *s)
{
	for (size_t i = 0; i < s->nrow; i++) {
		free(s->row[i].s.cell);
		free(s->row[i].s.metric);
		s->row[i].s.cell = s->row[i].s.metric = NULL;
		history_series_free(&s->row[i].s);
	}
	for (size_t i = 0; i < s->ncp; i++)
		free(s->cp[i].note);
	for (size_t i = 0; i < s->nrun; i++) {
		free(s->run[i].run);
		free(s->run[i].source);
		free(s->run[i].kernels);
	}
	free(s->row);
	free(s->cp);
	free(s->run);
}
