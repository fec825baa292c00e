/* report/series_table.c: the grid of what the time series show, one per workload: a row per
 * cell (by the axes that vary, in report order) with its peak and p99 write throughput, the
 * longest stall, max Dirty and the busiest member's utilisation (report/series.c). */
#include "report/timeseries.h"

#include <stdio.h>
#include <string.h>

static const char *const heads[] = { "peak MB/s", "p99 MB/s", "stall s", "max Dirty MB",
				     "busiest member" };
#define NHEADS (sizeof heads / sizeof heads[0])

static void series_row(struct grid *g, const struct rcell *c, const char *const *ax, size_t nax)
{
	struct series_figs f;
	char busiest[32], w[256];
	grid_add_row(g);
	size_t row = g->nrows - 1;
	for (size_t a = 0; a < nax; a++) {
		axis_text(c->axes, ax[a], w, sizeof w);
		grid_set(g, row, a, "%s", w);
	}
	if (report_series_cell(c, &f, busiest, sizeof busiest) < 0) {
		for (size_t h = 0; h < NHEADS; h++)
			grid_set(g, row, nax + h, "-");
		return;
	}
	grid_set(g, row, nax, "%.1f", f.peak_mbps);
	grid_set(g, row, nax + 1, "%.1f", f.p99_mbps);
	grid_set(g, row, nax + 2, "%.1f", f.stall_s);
	if (f.stall_s > REPORT_STALL_S)
		g->cls[row * g->ncols + nax + 2] = 'b';
	grid_set(g, row, nax + 3, "%.1f", f.max_dirty_mb);
	if (busiest[0])
		grid_set(g, row, nax + 4, "%s %.0f%%", busiest, f.busiest_util_pct);
	else
		grid_set(g, row, nax + 4, "-");
}

struct grid *report_series_grid(struct rcell **cells, size_t n, const struct report_opts *o,
				const char *workload)
{
	const char *ax[REPORT_MAX_AXES + 8];
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += cells[i]->nser > 0;
	if (!any)
		return NULL;
	size_t nax = report_varying_axes(cells, n, o, ax, sizeof ax / sizeof ax[0]);
	if (nax == 0)
		ax[nax++] = "array";
	char title[300];
	snprintf(title, sizeof title, "%s: inside the cells (time series)", workload);
	struct grid *g = grid_new(title, nax + NHEADS);
	for (size_t a = 0; a < nax; a++)
		grid_set(g, 0, a, "%s", ax[a]);
	for (size_t h = 0; h < NHEADS; h++)
		grid_set(g, 0, nax + h, "%s", heads[h]);
	g->note = strdup("per-interval write throughput of the array or disk; medians over the "
			 "repeats, but the longest stall of any (dirty pages, no write completed); "
			 "busiest member: mean utilisation");
	for (size_t i = 0; i < n; i++)
		if (!cells[i]->missing)
			series_row(g, cells[i], ax, nax);
	return g;
}
