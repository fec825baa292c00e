/* core/figures/reference.c: the reference set's table, and the drift rule. */
#include "core/figures/reference.h"
#include "lib/stats.h"
#include <math.h>

const struct ref_row ref_rows[REF_COUNT] = {
	[REF_CPU] = { "cpu_loop", "Mops/s", "an integer loop (xorshift) of PID 1, one CPU", 0 },
	[REF_MEMCPY] = { "memcpy", "MB/s", "memcpy of 32 MiB, four times over", 0 },
	[REF_RAMDISK] = { "ramdisk_seqwrite", "MB/s",
			  "the seqwrite engine, 16 MiB on ext4 on a brd RAM disk, as a cell runs it", 0 },
	[REF_DISK_READ] = { "disk_read", "MB/s",
			    "4 MiB written with O_DIRECT in the middle of the first taken disk, read back", 1 },
};

void ref_summarize(struct ref_figure *f)
{
	struct summary s;
	f->median = f->rsd_pct = NAN;
	if (f->n <= 0 || stats_summary(f->v, (size_t)f->n, &s) < 0)
		return;
	f->median = s.median;
	f->rsd_pct = s.mean != 0 ? s.stddev / fabs(s.mean) * 100 : NAN;
}

int ref_drift(double start_median, double start_rsd, double end_median, double end_rsd,
	      double *ratio, double *bound_pct)
{
	*ratio = *bound_pct = NAN;
	if (!isfinite(start_median) || !isfinite(end_median) || start_median <= 0)
		return -1;
	double spread = 0;
	if (isfinite(start_rsd) && start_rsd > spread)
		spread = start_rsd;
	if (isfinite(end_rsd) && end_rsd > spread)
		spread = end_rsd;
	*bound_pct = fmax(REF_DRIFT_FLOOR_PCT, REF_DRIFT_SPREAD_X * spread);
	*ratio = end_median / start_median;
	/* as a factor either way: a fall to half is as far as a rise to double, and a bound
	 * past 100% still catches a fall */
	double f = 1 + *bound_pct / 100;
	return *ratio > f || *ratio < 1 / f;
}

int ref_drift_of(int id, double start_median, double start_rsd, double end_median,
		 double end_rsd, double *ratio, double *bound_pct)
{
	int d = ref_drift(start_median, start_rsd, end_median, end_rsd, ratio, bound_pct);
	return d == 1 && ref_rows[id].slower_only && *ratio > 1 ? 0 : d;
}
