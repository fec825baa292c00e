/* core/figures/series.h: a cell's time series: rows of numbers under columns named once, each row
 * one interval between two samples (core/figures/sample.h) with counters turned into rates, held in
 * a bounded table that halves its resolution when full; and the figures a report derives
 * from a series (peak and p99 throughput, the longest stall, max Dirty, the busiest
 * member). Pure: cell/sampler.c fills one, the report reads one back from its record.
 *
 * Down-sampling: a series holds at most SERIES_ROWS_MAX rows and SERIES_VALUES_MAX numbers.
 * When it is full, each pair of neighbouring rows becomes one and every later row covers
 * twice as many sampling periods as before ("step" doubles): rates are averaged weighted by
 * time (so bytes still add up), levels keep the larger value (so max Dirty survives), and
 * a row's t is the end of its later interval. */
#ifndef FSM_SERIES_H
#define FSM_SERIES_H
#include <stddef.h>
#include "core/figures/sample.h"
#include "lib/record.h"

#define SERIES_ROWS_MAX 512
#define SERIES_VALUES_MAX 12000
#define SERIES_MIN_ROWS 64
#define SERIES_COLS_MAX (12 + 2 * SAMPLE_DISKS_MAX)
#define SERIES_NAME_MAX 48
/* A stall: intervals in a row in which at least this much was Dirty or under Writeback, no
 * more than SERIES_STALL_RISE_MB more than in the interval before (the pages wait; they are
 * not still being buffered), and the target completed no write. */
#define SERIES_STALL_DIRTY_MB 1.0
#define SERIES_STALL_RISE_MB 0.05

enum series_kind { SER_TIME, SER_RATE, SER_LEVEL };

/* What each column is, so that a merge and a reader know: see series_setup for the list. */
enum series_what {
	COL_T, COL_WRITE, COL_READ, COL_UTIL, COL_DIRTY, COL_WRITEBACK, COL_DIRTIED, COL_WRITTEN,
	COL_CPU_USER, COL_CPU_SYS, COL_CPU_IOWAIT, COL_DISK_WRITE, COL_DISK_UTIL, COL_SYNC_PCT,
	COL_SYNC_MBPS,
};

struct series {
	int ncols;
	char name[SERIES_COLS_MAX][SERIES_NAME_MAX];
	enum series_what what[SERIES_COLS_MAX];
	int disk[SERIES_COLS_MAX];      /* COL_DISK_*: index into the sample's disks */
	int rows_max;                   /* even, from SERIES_ROWS_MAX and SERIES_VALUES_MAX */
	int nrows;
	int step;                       /* sampling periods per row */
	long intervals;                 /* sampling periods seen in all */
	double t0;                      /* the first sample's time */
	double v[SERIES_VALUES_MAX];    /* nrows rows of ncols */
	double dt[SERIES_ROWS_MAX];     /* each row's length, s */
	double pend[SERIES_COLS_MAX];   /* the row being gathered while step > 1 */
	double pend_dt;
	int pend_n;
};

/* Columns for a target and its members (a single disk: members NULL, n 0), with md's sync
 * columns when md. The first sample starts the clock. */
void series_setup(struct series *s, const char *target, char *const *members, int n, int md,
		  const struct sample *first);
/* The interval from prev to cur as a row; page: the page size in bytes. Rows shorter than a
 * millisecond are dropped. */
void series_add(struct series *s, const struct sample *prev, const struct sample *cur,
		long page);
/* Ends the series: a gathered part row becomes the last row. */
void series_finish(struct series *s);
/* "columns":[...],"rows":[[...],...] */
void series_json(struct jw *w, const struct series *s);

/* ---------------------------------------------------------------- figures of a series */
struct series_figs {
	double peak_mbps, p99_mbps;     /* of the target's per-row write throughput */
	double stall_s, stall_at;       /* the longest stall and when it began (s); 0 when none */
	double max_dirty_mb;
	double busiest_util_pct;        /* the member with the highest mean utilisation */
	int busiest;                    /* its index among the disks of the columns, -1 none */
	double written_mb;              /* sum of the target's write rate times each row's length */
};
/* From columns t, write_mbps, dirty_mb, writeback_mb, and per-disk util (util[d] NULL when
 * absent), n rows. The intervals are t[i] - t[i-1], t[-1] being 0. */
void series_figures(const double *t, const double *write, const double *dirty,
		    const double *writeback, const double *const *util, int ndisk, size_t n,
		    struct series_figs *out);
/* Steady state of a throughput over time, after SNIA's Performance Test Specification: the
 * series' span cut into SERIES_STEADY_WINDOWS equal windows of time, each window's mean
 * rate (rows weighted by their overlap with it), and over the last SERIES_STEADY_LAST of
 * them: the range (max - min) within SERIES_STEADY_RANGE_PCT of their mean, and the
 * best-fit line's excursion across them within SERIES_STEADY_SLOPE_PCT of it. */
#define SERIES_STEADY_WINDOWS 10
#define SERIES_STEADY_LAST 5
#define SERIES_STEADY_RANGE_PCT 20.0
#define SERIES_STEADY_SLOPE_PCT 10.0
/* A shorter stream is not judged: its windows (a tenth of it) would be shorter than the
 * writeback bursts of the page cache, a stream of 2.5 s "never steady" by construction. */
#define SERIES_STEADY_MIN_S 10.0
struct series_steady {
	int judged;           /* 0: too short to judge (fewer rows than windows, or a span
	                         under SERIES_STEADY_MIN_S), see why */
	int steady;
	double mean, range_pct, slope_pct;   /* over the last windows */
	char why[120];
};
void series_steady(const double *t, const double *v, size_t n, struct series_steady *out);

/* The longest run of rows with dirty + writeback >= min_dirty_mb, not rising, and write == 0
 * (a stall): its length in seconds (0 when none), and in *at when it began. */
double series_longest_stall(const double *t, const double *write, const double *dirty,
			    const double *writeback, size_t n, double min_dirty_mb, double *at);

#endif
