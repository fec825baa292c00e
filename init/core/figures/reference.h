/* core/figures/reference.h: the reference set PID 1 measures at the start and the end of every boot
 * (pid1/reference.c), to tell the machine's noise floor and whether it drifted during the
 * run: a CPU loop, a memory copy, the run's own seqwrite engine on a RAM disk, and a read of
 * the first taken disk. The table of figures, their summary over repeats, and the rule that
 * judges a drift. Pure. */
#ifndef FSM_REFERENCE_H
#define FSM_REFERENCE_H
#include <stddef.h>

enum ref_id { REF_CPU, REF_MEMCPY, REF_RAMDISK, REF_DISK_READ, REF_COUNT };

struct ref_row {
	const char *name;   /* the record's key */
	const char *unit;
	const char *what;   /* for the docs and the report */
	int slower_only;    /* only a fall is a drift: a disk read up at the end is a cache
	                       warmed by the cells (the host's, under qemu with a writeback cache,
	                       or the disk's own), not the machine changing under the run */
};
extern const struct ref_row ref_rows[REF_COUNT];

#define REF_REPEATS 3
/* A drift is judged against at least this change, whatever the spread: a reference that
 * repeats within 1% still moves by a few % from boot to boot. */
#define REF_DRIFT_FLOOR_PCT 10.0
/* ... and against this many times the larger of the two phases' relative spreads. */
#define REF_DRIFT_SPREAD_X 4.0

struct ref_figure {
	int n;                       /* repeats measured */
	double v[REF_REPEATS];
	double median, rsd_pct;      /* NaN until ref_summarize, and with n == 0 */
	char why[160];               /* n == 0: why it could not be measured */
};

/* The median and the relative standard deviation (%) of f's repeats. */
void ref_summarize(struct ref_figure *f);
/* Whether a figure moved from start to end by more than its bound b = max(REF_DRIFT_FLOOR_PCT,
 * REF_DRIFT_SPREAD_X x the larger RSD), as a factor either way: end / start above 1 + b or
 * below 1 / (1 + b). *ratio = end / start (medians), *bound_pct b. 1 drifted, 0 not, -1
 * cannot tell (a side unmeasured, or a start of 0). */
int ref_drift(double start_median, double start_rsd, double end_median, double end_rsd,
	      double *ratio, double *bound_pct);
/* The same for row id of the table, which may count only a fall (slower_only). */
int ref_drift_of(int id, double start_median, double start_rsd, double end_median,
		 double end_rsd, double *ratio, double *bound_pct);

#endif
