/* lib/stats.h: summary statistics of repeated measurements and Welch's t-test, for the
 * per-cell summary records (repeat > 1), the report's figures and comparing two runs.
 * Pure: no I/O. */
#ifndef FSM_STATS_H
#define FSM_STATS_H
#include <stddef.h>

struct summary {
	size_t n;
	double min, median, mean, max;
	double stddev;   /* sample standard deviation (n - 1); 0 when n == 1 */
	double cv;       /* stddev / mean; NaN when the mean is 0 */
};

/* Summarises x[0..n-1] (x is not modified). Returns -1 when n == 0. */
int stats_summary(const double *x, size_t n, struct summary *out);

/* One cell's figures over its repetitions, metric by metric in the order first given. PID 1
 * fills one from the figures it measured and writes its summary record from it; the report
 * fills one from the cell records' figures and shows it. Both read it through
 * stats_cell_summary, so that the two cannot count or average differently. */
#define STATS_CELL_METRICS 24
struct stats_cell {
	size_t nmetric;
	const char *name[STATS_CELL_METRICS];   /* kept by pointer, not copied */
	double *v[STATS_CELL_METRICS];          /* the usable figures, in the order given */
	int *rep[STATS_CELL_METRICS];           /* the repeat each of them is from */
	size_t nv[STATS_CELL_METRICS];
	int unusable[STATS_CELL_METRICS];       /* figures given as NaN: not measured */
};

/* Adds one repetition's figure of metric name. A NaN figure (not measured, or not a number
 * in a record) is counted as unusable and left out of the statistics. Returns the metric's
 * index, or -1 when the table is full or memory runs out (the figure is then dropped). */
int stats_cell_add(struct stats_cell *c, const char *name, double v);
/* The same, with the repeat (1-based) the figure is from, so that a verdict can name it
 * (core/figures/verdict.h). stats_cell_add counts repeats itself: the figure of the metric's k-th
 * add, unusable ones included, is of repeat k. */
int stats_cell_add_rep(struct stats_cell *c, const char *name, double v, int rep);
/* The summary of metric m over its usable figures. Returns -1 when it has none. */
int stats_cell_summary(const struct stats_cell *c, size_t m, struct summary *out);
/* Frees the figures and empties c. */
void stats_cell_free(struct stats_cell *c);

/* Latency percentiles of one run's many samples (fsync's appends), nearest rank: pN is the
 * smallest sample that at least N% of the samples do not exceed, as fio's clat percentiles
 * (which fio reads off a histogram instead, within its bucket width). */
struct latency {
	size_t n;
	double mean, p50, p90, p99, p999, max;
};

/* Sorts x[0..n-1] in place and fills out. Returns -1 (out all NaN, n 0) when n == 0. */
int stats_latency(double *x, size_t n, struct latency *out);
/* A latency's six figures, each as the offset of its double in struct latency and its name
 * in a record's key ("p99" in "lat_p99_us"), in the order records write them
 * (engines/engine.c's engine_latency_json). */
struct latency_field {
	const char *name;
	size_t off;
};
#define LATENCY_FIELDS 6
extern const struct latency_field latency_fields[LATENCY_FIELDS];
/* The nearest-rank percentile p (0 < p <= 100) of sorted[0..n-1], n > 0. */
double stats_rank(const double *sorted, size_t n, double p);

struct welch {
	double t;        /* (mean_a - mean_b) / sqrt(var_a/na + var_b/nb) */
	double df;       /* Welch–Satterthwaite degrees of freedom */
	double p;        /* two-sided p-value */
};

/* Welch's unequal-variance t-test, as scipy's ttest_ind(a, b, equal_var=False).
 * Needs at least 2 values on each side; returns -1 otherwise. When both variances are 0
 * the test is undefined: t and p are NaN (or t = ±inf, p = 0 when the means differ). */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out);

/* The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1;
 * NaN outside that domain. */
double stats_betai(double a, double b, double x);

/* Two-sided p-value of Student's t distribution with df degrees of freedom. */
double stats_t_p2(double t, double df);
/* The upper quantile of Student's t: the t with P(T > t) = q, for 0 < q < 1 and df > 0 (a
 * Welch df need not be whole); NaN outside that domain. t_{1-alpha/2} is stats_t_upper(alpha/2). */
double stats_t_upper(double q, double df);

/* Holm-Bonferroni: adj[i] is p[i]'s adjusted p-value among the m tests (p in any order; adj
 * must not be p): the running maximum, over the p-values sorted ascending, of (m - k) p_(k)
 * (k from 0), capped at 1. Test i is rejected at level alpha when adj[i] < alpha, which is
 * Holm's step-down procedure. A NaN p-value counts as 1. */
void stats_holm(const double *p, size_t m, double *adj);

#endif
