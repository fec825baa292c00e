/* core/figures/series.c: a cell's time series, its bounded table and the figures derived from it
 * (core/figures/series.h). Pure. */
#include "core/figures/series.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per kind of column: the name's suffix (after "NAME:" for a member's), merge rule and
 * decimals in the record. */
static const struct {
	const char *name;
	enum series_kind kind;
	int decimals;
} whats[] = {
	[COL_T] = { "t", SER_TIME, 3 },
	[COL_WRITE] = { "write_mbps", SER_RATE, 2 },
	[COL_READ] = { "read_mbps", SER_RATE, 2 },
	[COL_UTIL] = { "util_pct", SER_RATE, 1 },
	[COL_DIRTY] = { "dirty_mb", SER_LEVEL, 2 },
	[COL_WRITEBACK] = { "writeback_mb", SER_LEVEL, 2 },
	[COL_DIRTIED] = { "dirtied_mbps", SER_RATE, 2 },
	[COL_WRITTEN] = { "written_mbps", SER_RATE, 2 },
	[COL_CPU_USER] = { "cpu_user_pct", SER_RATE, 1 },
	[COL_CPU_SYS] = { "cpu_sys_pct", SER_RATE, 1 },
	[COL_CPU_IOWAIT] = { "cpu_iowait_pct", SER_RATE, 1 },
	[COL_DISK_WRITE] = { "write_mbps", SER_RATE, 2 },
	[COL_DISK_UTIL] = { "util_pct", SER_RATE, 1 },
	[COL_SYNC_PCT] = { "sync_pct", SER_LEVEL, 1 },
	[COL_SYNC_MBPS] = { "sync_mbps", SER_RATE, 2 },
};

static void col(struct series *s, enum series_what w, const char *disk, int d)
{
	if (s->ncols >= SERIES_COLS_MAX)
		return;
	if (disk)
		snprintf(s->name[s->ncols], SERIES_NAME_MAX, "%.20s:%s", disk, whats[w].name);
	else
		snprintf(s->name[s->ncols], SERIES_NAME_MAX, "%s", whats[w].name);
	s->what[s->ncols] = w;
	s->disk[s->ncols++] = d;
}

void series_setup(struct series *s, const char *target, char *const *members, int n, int md,
		  const struct sample *first)
{
	static const enum series_what common[] = {
		COL_T, COL_WRITE, COL_READ, COL_UTIL, COL_DIRTY, COL_WRITEBACK, COL_DIRTIED,
		COL_WRITTEN, COL_CPU_USER, COL_CPU_SYS, COL_CPU_IOWAIT,
	};
	(void)target;
	s->ncols = s->nrows = s->pend_n = 0;
	s->pend_dt = 0;
	s->step = 1;
	s->intervals = 0;
	s->t0 = first->t;
	for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
		col(s, common[i], NULL, 0);
	for (int i = 0; i < n && i + 1 < SAMPLE_DISKS_MAX; i++) {
		col(s, COL_DISK_WRITE, members[i], i + 1);
		col(s, COL_DISK_UTIL, members[i], i + 1);
	}
	if (md) {
		col(s, COL_SYNC_PCT, NULL, 0);
		col(s, COL_SYNC_MBPS, NULL, 0);
	}
	int rows = SERIES_VALUES_MAX / s->ncols;
	if (rows > SERIES_ROWS_MAX)
		rows = SERIES_ROWS_MAX;
	s->rows_max = rows & ~1;
}

static double d64(uint64_t a, uint64_t b) { return b >= a ? (double)(b - a) : 0; }

static double cpu_total(const struct cpustat *c)
{
	return (double)(c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
			c->softirq + c->steal);
}

/* One column's value over the interval a..b of dt seconds. */
static double value(enum series_what w, const struct diskstat *da, const struct diskstat *db,
		    const struct sample *a, const struct sample *b, double dt, long page, double t0)
{
	double ticks = cpu_total(&b->cpu) - cpu_total(&a->cpu);
	switch (w) {
	case COL_T: return b->t - t0;
	case COL_WRITE:
	case COL_DISK_WRITE: return d64(da->wr_sectors, db->wr_sectors) * 512 / dt / 1e6;
	case COL_READ: return d64(da->rd_sectors, db->rd_sectors) * 512 / dt / 1e6;
	case COL_UTIL:
	case COL_DISK_UTIL: return fmin(100, d64(da->io_ticks_ms, db->io_ticks_ms) / 10 / dt);
	case COL_DIRTY: return (double)b->dirty_kb * 1024 / 1e6;
	case COL_WRITEBACK: return (double)b->writeback_kb * 1024 / 1e6;
	case COL_DIRTIED: return d64(a->nr_dirtied, b->nr_dirtied) * (double)page / dt / 1e6;
	case COL_WRITTEN: return d64(a->nr_written, b->nr_written) * (double)page / dt / 1e6;
	case COL_CPU_USER:
		return ticks > 0 ? 100 * (d64(a->cpu.user, b->cpu.user) + d64(a->cpu.nice, b->cpu.nice)) / ticks : 0;
	case COL_CPU_SYS:
		return ticks > 0 ? 100 * (d64(a->cpu.system, b->cpu.system) + d64(a->cpu.irq, b->cpu.irq) +
					  d64(a->cpu.softirq, b->cpu.softirq)) / ticks : 0;
	case COL_CPU_IOWAIT: return ticks > 0 ? 100 * d64(a->cpu.iowait, b->cpu.iowait) / ticks : 0;
	case COL_SYNC_PCT: return b->sync_frac >= 0 ? 100 * b->sync_frac : 0;
	case COL_SYNC_MBPS: return b->sync_frac >= 0 ? b->sync_kbps * 1024 / 1e6 : 0;
	}
	return 0;
}

/* Folds row b (length db) into row a (length da): rates by time, levels by the larger. */
static void merge(const struct series *s, double *a, double da, const double *b, double db)
{
	for (int c = 0; c < s->ncols; c++) {
		switch (whats[s->what[c]].kind) {
		case SER_TIME: a[c] = b[c]; break;
		case SER_LEVEL: a[c] = fmax(a[c], b[c]); break;
		case SER_RATE: a[c] = da + db > 0 ? (a[c] * da + b[c] * db) / (da + db) : 0; break;
		}
	}
}

/* Full: each pair of rows becomes one, and later rows gather twice the periods. */
static void halve(struct series *s)
{
	int n = s->ncols;
	for (int r = 0; r < s->nrows / 2; r++) {
		double *a = &s->v[2 * r * n], *b = &s->v[(2 * r + 1) * n];
		merge(s, a, s->dt[2 * r], b, s->dt[2 * r + 1]);
		memmove(&s->v[r * n], a, (size_t)n * sizeof *a);
		s->dt[r] = s->dt[2 * r] + s->dt[2 * r + 1];
	}
	s->nrows /= 2;
	s->step *= 2;
}

static void push_pending(struct series *s)
{
	if (s->pend_n == 0)
		return;
	if (s->nrows >= s->rows_max)
		halve(s);
	memcpy(&s->v[s->nrows * s->ncols], s->pend, (size_t)s->ncols * sizeof *s->pend);
	s->dt[s->nrows++] = s->pend_dt;
	s->pend_n = 0;
	s->pend_dt = 0;
}

void series_add(struct series *s, const struct sample *prev, const struct sample *cur, long page)
{
	double dt = cur->t - prev->t, row[SERIES_COLS_MAX];
	if (dt < 0.001 || s->ncols == 0)
		return;
	for (int c = 0; c < s->ncols; c++) {
		int d = s->disk[c] < prev->ndisks && s->disk[c] < cur->ndisks ? s->disk[c] : 0;
		row[c] = value(s->what[c], &prev->disk[d], &cur->disk[d], prev, cur, dt, page, s->t0);
	}
	s->intervals++;
	if (s->pend_n == 0)
		memcpy(s->pend, row, (size_t)s->ncols * sizeof *row);
	else
		merge(s, s->pend, s->pend_dt, row, dt);
	s->pend_dt += dt;
	if (++s->pend_n >= s->step)
		push_pending(s);
}

void series_finish(struct series *s)
{
	push_pending(s);
}

void series_json(struct jw *w, const struct series *s)
{
	jw_key(w, "columns");
	jw_arr(w);
	for (int c = 0; c < s->ncols; c++)
		jw_str(w, s->name[c]);
	jw_end_arr(w);
	jw_key(w, "rows");
	jw_arr(w);
	for (int r = 0; r < s->nrows; r++) {
		jw_arr(w);
		for (int c = 0; c < s->ncols; c++)
			jw_double(w, s->v[r * s->ncols + c], whats[s->what[c]].decimals);
		jw_end_arr(w);
	}
	jw_end_arr(w);
}

/* ---------------------------------------------------------------- figures */

static double row_dt(const double *t, size_t i) { return t[i] - (i ? t[i - 1] : 0); }

double series_longest_stall(const double *t, const double *write, const double *dirty,
			    const double *writeback, size_t n, double min_dirty_mb, double *at)
{
	double best = 0, run = 0, start = 0;
	*at = 0;
	double before = 0;
	for (size_t i = 0; i < n; i++) {
		double held = dirty[i] + (writeback ? writeback[i] : 0);
		/* Pages piling up in the cache before writeback starts (below the kernel's
		 * background threshold) are the cache working, not a stall. */
		int rising = held > before + SERIES_STALL_RISE_MB;
		before = held;
		if (held >= min_dirty_mb && write[i] == 0 && !rising) {
			if (run == 0)
				start = i ? t[i - 1] : 0;
			run += row_dt(t, i);
			if (run > best) {
				best = run;
				*at = start;
			}
		} else {
			run = 0;
		}
	}
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void series_figures(const double *t, const double *write, const double *dirty,
		    const double *writeback, const double *const *util, int ndisk, size_t n,
		    struct series_figs *out)
{
	memset(out, 0, sizeof *out);
	out->busiest = -1;
	if (n == 0)
		return;
	double *sorted = malloc(n * sizeof *sorted), total = t[n - 1];
	for (size_t i = 0; i < n; i++) {
		out->written_mb += write[i] * row_dt(t, i);
		out->max_dirty_mb = fmax(out->max_dirty_mb, dirty[i]);
		if (sorted)
			sorted[i] = write[i];
	}
	if (sorted) {
		qsort(sorted, n, sizeof *sorted, cmp_double);
		out->peak_mbps = sorted[n - 1];
		/* nearest rank: the smallest value with at least 99% of rows at or below it */
		size_t rank = (size_t)ceil(0.99 * (double)n);
		out->p99_mbps = sorted[rank ? rank - 1 : 0];
		free(sorted);
	}
	out->stall_s = series_longest_stall(t, write, dirty, writeback, n, SERIES_STALL_DIRTY_MB,
					    &out->stall_at);
	for (int d = 0; d < ndisk; d++) {
		if (!util[d] || total <= 0)
			continue;
		double busy = 0;
		for (size_t i = 0; i < n; i++)
			busy += util[d][i] * row_dt(t, i);
		if (out->busiest < 0 || busy / total > out->busiest_util_pct) {
			out->busiest = d;
			out->busiest_util_pct = busy / total;
		}
	}
}

void series_steady(const double *t, const double *v, size_t n, struct series_steady *out)
{
	memset(out, 0, sizeof *out);
	out->mean = out->range_pct = out->slope_pct = NAN;
	double span = n ? t[n - 1] : 0;
	if (n < SERIES_STEADY_WINDOWS || !(span > 0)) {
		snprintf(out->why, sizeof out->why, "%zu interval%s: too few to judge over %d windows", n,
			 n == 1 ? "" : "s", SERIES_STEADY_WINDOWS);
		return;
	}
	if (span < SERIES_STEADY_MIN_S) {
		snprintf(out->why, sizeof out->why, "a stream of %.1f s: under %.0f s, too short to judge",
			 span, SERIES_STEADY_MIN_S);
		return;
	}
	double w = span / SERIES_STEADY_WINDOWS, m[SERIES_STEADY_WINDOWS] = { 0 };
	for (size_t i = 0; i < n; i++) {
		double a = i ? t[i - 1] : 0, b = t[i];
		for (int k = 0; k < SERIES_STEADY_WINDOWS; k++) {
			double lo = fmax(a, k * w), hi = fmin(b, (k + 1) * w);
			if (hi > lo)
				m[k] += v[i] * (hi - lo) / w;
		}
	}
	const double *last = m + SERIES_STEADY_WINDOWS - SERIES_STEADY_LAST;
	double mean = 0, lo = INFINITY, hi = -INFINITY;
	for (int k = 0; k < SERIES_STEADY_LAST; k++) {
		mean += last[k] / SERIES_STEADY_LAST;
		lo = fmin(lo, last[k]);
		hi = fmax(hi, last[k]);
	}
	out->judged = 1;
	out->mean = mean;
	if (!(mean > 0)) {
		snprintf(out->why, sizeof out->why, "nothing moved in the last %d windows",
			 SERIES_STEADY_LAST);
		return;
	}
	/* least squares over x = 0..LAST-1; the line's excursion is its slope times the span */
	double xm = (SERIES_STEADY_LAST - 1) / 2.0, sxy = 0, sxx = 0;
	for (int k = 0; k < SERIES_STEADY_LAST; k++) {
		sxy += (k - xm) * (last[k] - mean);
		sxx += (k - xm) * (k - xm);
	}
	out->range_pct = (hi - lo) / mean * 100;
	out->slope_pct = fabs(sxy / sxx) * (SERIES_STEADY_LAST - 1) / mean * 100;
	out->steady = out->range_pct <= SERIES_STEADY_RANGE_PCT && out->slope_pct <= SERIES_STEADY_SLOPE_PCT;
	if (!out->steady)
		snprintf(out->why, sizeof out->why, "range %.0f%% of the mean%s, trend %.0f%%%s",
			 out->range_pct, out->range_pct > SERIES_STEADY_RANGE_PCT ? " (over 20%)" : "",
			 out->slope_pct, out->slope_pct > SERIES_STEADY_SLOPE_PCT ? " (over 10%)" : "");
}
