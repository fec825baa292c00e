/* core/figures/verdict.h: whether a cell's figure can be trusted over its repeats. PID 1 writes it
 * into the summary record ("verdict", docs/records.md), the report computes the same from the
 * cell records, and `fsmatrix compare` tests a difference only between stable figures.
 * Pure: no I/O.
 *
 * A figure is stable when it has at least VERDICT_MIN_N repeats, their relative standard
 * deviation (sample stddev / mean) is at most VERDICT_RSD_PCT and their range (max - min)
 * over the median at most VERDICT_RANGE_PCT. Otherwise it is unstable, for the first reason
 * that holds:
 *   "too few repeats: 2 of 3"     fewer than VERDICT_MIN_N repeats (nothing else is judged)
 *   "an outlier: repeat 1 at 0.61x the median"
 *                                 the range is over its limit, one repeat is more than twice
 *                                 as far from the median as any other, and without it the
 *                                 others meet both limits (RSD, and range over their own
 *                                 median): that repeat alone breaks the range rule
 *   "spread: RSD 7.1%"            the RSD is over its limit
 *   "spread: range 23.0%"         only the range is over its limit */
#ifndef FSM_VERDICT_H
#define FSM_VERDICT_H
#include <stddef.h>
#include "core/workload/workload_kinds.h"
#include "lib/record.h"
#include "lib/stats.h"

#define VERDICT_MIN_N 3
#define VERDICT_RSD_PCT 5.0
#define VERDICT_RANGE_PCT 20.0

struct fig_verdict {
	int stable;
	size_t n;
	double rsd_pct;      /* 100 * stddev / mean; NaN when n < 2, inf when the mean is 0 */
	double range_pct;    /* 100 * (max - min) / median; NaN when n < 2, inf when the median is 0 */
	int outlier_rep;     /* the repeat named an outlier, 0 when none */
	double outlier_x;    /* its value over the median */
	char reason[96];     /* "" when stable */
};

/* The verdict on x[0..n-1], the figures of repeats rep[0..n-1] (NULL: 1..n), in any order. */
void verdict_of(const double *x, const int *rep, size_t n, struct fig_verdict *out);

/* The verdict on a cell's main figure: the first of the kind's report columns
 * (wl_kind_column) of which c holds a usable figure, or with none, the first column. Returns
 * that metric's key, or NULL (and an unstable verdict on no figures) when the kind has none
 * (k NULL: the first metric of c with a figure). */
const char *verdict_cell(const struct stats_cell *c, const struct wl_kind *k, struct fig_verdict *out);

/* The level a cell's detectable change is worked out at: one two-sided test. A comparison of
 * many metrics (compare, Holm) tests the first at a stricter level and sees less. */
#define VERDICT_DETECT_ALPHA 0.05

/* The smallest change, as % of the figure, that a comparison of this figure against another
 * run with the same spread and repeats would call significant at alpha (two-sided) with 80%
 * power: (t_{1-alpha/2,df} + t_{0.8,df}) x sqrt(2/n) x RSD, df = 2n - 2. NaN when n < 2 or
 * the RSD is not defined; 0 for repeats all alike. */
double verdict_mde_pct(const struct fig_verdict *v, double alpha);

/* repeat = auto: whether a cell's repetitions so far end it before repeat_max. stable: its
 * figure is (with detect = N%, and a change of N% detectable); ok_reps and failed_reps: its
 * repetitions that ended ok, and error or timeout. "stable" when stable; "failing" when
 * VERDICT_FAIL_STOP or more repetitions failed and none was ok (a cell that always fails is
 * given up as a stable one is, rather than failing up to repeat_max: one ok repetition
 * keeps it going, its failures then intermittent); NULL to go on. */
#define VERDICT_FAIL_STOP 2
const char *verdict_auto_stop(int stable, int ok_reps, int failed_reps);

/* The summary record's "verdict": {"metric", "stable", "n", "rsd_pct", "range_pct",
 * "reason"}; the percentages at 2 decimals (null when not defined), "reason" null when
 * stable. */
void jw_verdict(struct jw *w, const char *metric, const struct fig_verdict *v);

#endif
