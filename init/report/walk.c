/* report/walk.c: one run's report in its order, for every format: Findings and the limits
 * table, the machine, its conditions, each workload's tables (and, for a format that draws
 * them, its charts), the verdicts, the problems. The text, markdown and HTML reports differ
 * only in how they write a section's title, a line and a table (struct report_sink); what
 * comes in which order, and which cells and metrics each table holds, is decided here once. */
#include "report/timeseries.h"
#include "report/sections.h"

#include <stdlib.h>
#include <string.h>

/* A section's lines, its opening written before the first line only when the section
 * says nothing unless it has one (the verdicts). */
struct lines_ctx {
	const struct report_sink *s;
	void *ctx;
	enum report_section sec;
	int lazy, any;
};

static void section_line(void *p, const char *text)
{
	struct lines_ctx *l = p;
	if (l->lazy && !l->any)
		l->s->begin(l->ctx, l->sec, NULL);
	l->any = 1;
	l->s->line(l->ctx, l->sec, text);
}

typedef void (*lines_fn)(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			 void *ctx);

static void section(const struct report_sink *s, void *ctx, enum report_section sec, int lazy,
		    const struct rrun *r, const struct report_opts *o, lines_fn lines)
{
	struct lines_ctx l = { s, ctx, sec, lazy, 0 };
	if (!lazy)
		s->begin(ctx, sec, NULL);
	lines(r, o, section_line, &l);
	if (!lazy || l.any)
		s->end(ctx, sec);
}

/* The header, the conditions and a bisection take no options. */
static void bisect_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			 void *ctx)
{
	(void)o;
	report_bisect_lines(r, line, ctx);
}

static void header_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			 void *ctx)
{
	(void)o;
	report_header_lines(r, line, ctx);
}

static void conditions_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			     void *ctx)
{
	(void)o;
	report_conditions_lines(r, line, ctx);
}

/* Whether no cell of the n measures metric key, the workload never doing it (every ok repeat
 * null there: a write stream's read figures), while some cell ran: no table of it, every
 * entry of which would be n/a. */
static int never_measured(struct rcell **cells, size_t n, const char *key)
{
	int ran = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cells[i]->ok)
			continue;
		if (!report_never_measured(cells[i], key))
			return 0;
		ran = 1;
	}
	return ran;
}

/* One workload: the metrics of the first cell that has any (error cells have none), else
 * its kind's, less those it never measures; a table per metric, then its series. */
static void workload(const struct report_sink *s, void *ctx, const struct rrun *r,
		     const struct report_opts *o, const char *wl, struct rcell **cells)
{
	size_t n = report_cells_of(r, o, wl, cells, r->ncells);
	const struct rcell *with = NULL;
	for (size_t i = 0; i < n && !with; i++)
		if (cells[i]->nm)
			with = cells[i];
	const struct metric *ms[REPORT_MAX_METRICS];
	size_t nm = 0;
	if (!with)
		nm = report_metrics(cells[0]->wtype, NULL, ms, REPORT_MAX_METRICS);
	for (size_t m = 0; with && m < with->nm; m++)
		if (!never_measured(cells, n, with->m[m]->key))
			ms[nm++] = with->m[m];
	s->workload(ctx, wl, cells, n, ms, nm);
	for (size_t m = 0; m < nm; m++) {
		struct grid *g = report_pivot(cells, n, o, ms[m], wl);
		s->grid(ctx, g);
		grid_free(g);
	}
	if (nm && s->series)
		s->series(ctx, wl, cells, n);
	struct grid *sg = nm ? report_series_grid(cells, n, o, wl) : NULL;
	if (sg)
		s->grid(ctx, sg);
	grid_free(sg);
}

void report_walk(const struct rrun *r, const struct report_opts *o, const struct report_sink *s,
		 void *ctx)
{
	s->begin(ctx, RSEC_RUN, r->id);
	section(s, ctx, RSEC_BISECT, 1, r, o, bisect_lines);
	section(s, ctx, RSEC_FINDINGS, 0, r, o, report_findings_lines);
	struct grid *lg = report_limits_grid(r, o);
	s->limits(ctx, lg);
	grid_free(lg);
	section(s, ctx, RSEC_MACHINE, 0, r, o, header_lines);
	section(s, ctx, RSEC_CONDITIONS, 0, r, o, conditions_lines);
	const char *wl[256];
	size_t nw = report_workloads(r, o, wl, 256);
	struct rcell **cells = malloc((r->ncells + 1) * sizeof *cells);
	for (size_t w = 0; cells && w < nw; w++)
		workload(s, ctx, r, o, wl[w], cells);
	free(cells);
	section(s, ctx, RSEC_DURABILITY, 1, r, o, report_durability_lines);
	section(s, ctx, RSEC_VERDICTS, 1, r, o, report_verdict_lines);
	section(s, ctx, RSEC_PROBLEMS, 0, r, o, report_problem_lines);
	s->end(ctx, RSEC_RUN);
}
