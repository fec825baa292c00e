/* core/figures/sample.h: one sample of the kernel's cheap counters while a cell's workload runs:
 * /proc/meminfo (Dirty, Writeback), /proc/vmstat (pages dirtied and written), /proc/stat's
 * cpu line, /sys/block/NAME/stat of the target and of every member, and md's
 * sync_completed and sync_speed while it resyncs. Pure: the parsers read text that
 * cell/sampler.c read from the files, so the host tests run them on fixture text. */
#ifndef FSM_SAMPLE_H
#define FSM_SAMPLE_H
#include <stdint.h>
#include "core/model/plan.h"

#define SAMPLE_DISKS_MAX (PLAN_DEVICES_MAX + 1)   /* the target, then each member */

/* /sys/block/NAME/stat: the fields the series uses (Documentation/block/stat.rst). */
struct diskstat {
	uint64_t rd_sectors;      /* field 3: 512-byte sectors read */
	uint64_t wr_ios;          /* field 5: writes completed */
	uint64_t wr_sectors;      /* field 7: 512-byte sectors written (counted on completion) */
	uint64_t io_ticks_ms;     /* field 10: ms the device had I/O in flight */
};

/* /proc/stat's aggregate "cpu" line, in clock ticks. */
struct cpustat {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct sample {
	double t;                       /* monotonic seconds */
	uint64_t dirty_kb, writeback_kb;    /* /proc/meminfo, KiB */
	uint64_t nr_dirtied, nr_written;    /* /proc/vmstat, pages since boot */
	uint64_t nr_dirty, nr_writeback, nr_dirty_threshold;  /* /proc/vmstat, pages now: what
	                                   balance_dirty_pages weighs writers against */
	struct cpustat cpu;
	int ndisks;
	struct diskstat disk[SAMPLE_DISKS_MAX];
	double sync_frac;               /* md sync_completed as a fraction, -1: none running */
	double sync_kbps;               /* md sync_speed, KiB/s, 0 when none */
};

/* Each returns 0, or -1 when the text lacks what is read from it (the fields it did read
 * are set). */
int sample_parse_meminfo(const char *text, struct sample *s);   /* Dirty:, Writeback: */
int sample_parse_vmstat(const char *text, struct sample *s);    /* nr_dirtied, nr_written */
int sample_parse_cpu(const char *text, struct cpustat *c);      /* the "cpu " line */
int sample_parse_diskstat(const char *text, struct diskstat *d);
/* md/sync_completed: "DONE / TOTAL" (sectors) gives DONE/TOTAL; "none", "delayed" or
 * anything else gives -1. */
double sample_parse_sync_completed(const char *text);
/* /proc/loadavg's fourth field, running/total: the tasks runnable now (the reader
 * included), or -1. */
int sample_parse_loadavg_running(const char *text);

#endif
