/* core/figures/changepoint.h: where a figure moved over a series of runs, by Apache Otava's rule
 * (formerly Hunter, MongoDB's signal-processing-algorithms before it): E-divisive means
 * proposes a split, Student's t-test on the two sides keeps it or not. Pure: no I/O.
 *
 * The rule, step by step as otava/analysis.py compute_change_points() does it:
 *  1. split: windows of `window` values, each starting half a window after the one before
 *     (or at the last change point the window before found, when that is further on). In a
 *     window, E-divisive means: the split tau (with an end kappa) maximising
 *       Q = 2/(m+n) sum|X_i - Y_j| - 2m/((m+n)(n-1)) sum_{i<k}|X_i - X_k|
 *                                  - 2n/((m+n)(m-1)) sum_{j<k}|Y_j - Y_k|
 *     over X = x[start..tau), Y = x[tau..kappa) of each stretch between the points found so
 *     far; the best of the stretches is tested (step 3) against the stretch it splits and
 *     kept while p <= the first-pass level (10 x max_p below 0.05, 2 x below 0.5, else
 *     max_p): these are the "weak" change points, the union over windows.
 *  2. merge: every weak point is tested between its neighbours; while one has p >= max_p
 *     (the largest p first), or all pass but the smallest relative change is <= min_magnitude,
 *     that point goes and its two neighbours are tested again.
 *  3. the test: Student's two-sample t-test with pooled variance, two-sided, fed each side's
 *     mean and population standard deviation (ddof 0) as Otava feeds scipy's
 *     ttest_ind_from_stats; p = 1 when both sides hold two values or fewer in all.
 * Where we differ from Otava (docs/host-cli.md says so too): after a merge removal Otava
 * tests again the points at the removed one's index and the one after (the right neighbour
 * and the one beyond it), leaving the left neighbour's p stale, figures of a stretch that no
 * longer exists; we test both neighbours. otava_retest does it Otava's way, which gives
 * Otava's points exactly. Both sides constant: Otava's scipy gives NaN; we give p = 1 when
 * the means are equal and p = 0 when they differ. */
#ifndef FSM_CHANGEPOINT_H
#define FSM_CHANGEPOINT_H
#include <stddef.h>

/* Otava's defaults (otava/series.py AnalysisOptions) */
#define CP_WINDOW 50
#define CP_MAX_P 0.001
#define CP_MIN_MAGNITUDE 0.0
/* a window's E-divisive search holds window^2 doubles */
#define CP_WINDOW_MAX 1000

struct cp_opts {
	size_t window;          /* 2 .. CP_WINDOW_MAX */
	double max_p;           /* 0 < max_p <= 1 */
	double min_magnitude;   /* >= 0: a kept point changes the mean by more than this */
	int otava_retest;       /* after a merge removal, retest as Otava does (see above) */
};

struct cp_point {
	size_t index;              /* the first value after the change, 1 .. n - 1 */
	size_t n_before, n_after;  /* the values tested: from the change point before, to the next */
	double mean_before, mean_after;
	double sd_before, sd_after;   /* population standard deviations (ddof 0), as Otava's */
	double rel_change;         /* mean_after / mean_before - 1; 0 when mean_before is 0 */
	double magnitude;          /* max(|after/before - 1|, |before/after - 1|), Otava's */
	double p;                  /* the t-test's two-sided p-value */
};

/* The change points of x[0..n-1], in index order, into out (room for n). Returns how many,
 * or -1 when o is out of range, a value is not finite or memory runs out. */
long cp_detect(const double *x, size_t n, const struct cp_opts *o, struct cp_point *out);

/* The parts, for the tests. The E-divisive candidate of x[s..e) (e - s >= 2): its tau and
 * Q; -1 on no memory. */
int cp_candidate(const double *x, size_t s, size_t e, size_t *tau, double *q);
/* The t-test of x[s..i) against x[i..e), its figures into *out (index i). */
void cp_test(const double *x, size_t s, size_t i, size_t e, struct cp_point *out);
/* The first-pass level of step 1 for max_p. */
double cp_first_pass_p(double max_p);

#endif
