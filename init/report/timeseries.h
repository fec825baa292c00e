/* report/timeseries.h: each cell's time series as the report shows them: loaded with the
 * run (report/series.c), its figures and stalls, its table (report/series_table.c) and its
 * charts (report/svg_series.c). */
#ifndef FSM_REPORT_TIMESERIES_H
#define FSM_REPORT_TIMESERIES_H
#include "report/grid.h"

/* report/series.c: each cell's time series. Attaches to every cell the series records of
 * its ok repeats with their figures (called by report_model). */
void report_series_attach(struct rrun *r);
/* A series record (or a cell record) of the run r being read: the series is reduced to what
 * the report shows and appended to r->series; the cell record, when ok, is noted so that
 * the series of its cell that come after it drop their rows. rec stays the caller's; its
 * rows are in it, or in rows (report/lean.h) when not NULL. Without charts no series keeps
 * the columns of a chart. */
struct series_rows;
void report_series_take(struct rrun *r, json_t *rec, const struct series_rows *rows, int charts);
void report_series_note_cell(struct rrun *r, json_t *rec);
void report_series_free(struct rseries *s, size_t n);

/* The cell's figures over its repeats: the median of each, but the longest stall of any.
 * Returns 0, or -1 when the cell has no series. busiest gets the busiest member's name. */
int report_series_cell(const struct rcell *c, struct series_figs *out, char *busiest, size_t len);
/* Stalls longer than REPORT_STALL_S, one line each, for Problems. Returns how many. */
#define REPORT_STALL_S 1.0
int report_series_problems(const struct rcell *c, void (*line)(void *ctx, const char *s), void *ctx);
/* report/series_table.c: one grid per workload of the derived figures, or NULL when no
 * cell of it has a series. */
struct grid *report_series_grid(struct rcell **cells, size_t n, const struct report_opts *o,
				const char *workload);

/* report/svg_series.c: inline SVG of time series, for the cells of one workload: a small chart
 * per cell with a series (write throughput over time, Dirty and Writeback, a bar per member's
 * utilisation), then one chart per group of cells that differ only in their mount options,
 * their write throughput overlaid. */
void svg_series_charts(FILE *f, struct rcell **cells, size_t n, const char *workload);

#endif
