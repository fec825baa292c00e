/* core/figures/limit.h: what the disks could give. The disks' own streaming speed, measured by PID 1
 * before the first cell (pid1/diskspeed.c), read from the completion times of its blocks; and
 * each cell's limit: the MB/s its array could stream at best from those speeds, by the
 * level's table (core/model/level.h), with the rule that gave it. Pure. */
#ifndef FSM_LIMIT_H
#define FSM_LIMIT_H
#include <stddef.h>

/* The share of a measurement's time left out at its start: a device's or a throttle's burst
 * allowance (qemu lets a throttled disk run ahead by a tenth of a second's worth), caches
 * filling. */
#define SPEED_WARM_FRACTION 0.2
#define SPEED_WINDOWS 4

struct speed_fig {
	double mbps;      /* 10^6 bytes a second after the warm-up; NaN: none */
	double rsd_pct;   /* of SPEED_WINDOWS equal windows of that span; NaN under 2 blocks each */
	double bytes;     /* moved in all, the warm-up included */
	double secs;      /* the whole measurement */
};

/* From the completion times t[0..n-1] (seconds from the start, rising) of n blocks of bs
 * bytes each: 0, or -1 with f->mbps NaN when there are too few blocks (under 2). */
int speed_from_blocks(const double *t, int n, double bs, struct speed_fig *f);

#define SPEED_DISKS_MAX 64

/* What PID 1 measured of the taken disks before the first cell: each alone, then all at once
 * (each one's own rate while the others ran too: their sum is what a shared controller or bus
 * lets through). n 0: not measured (disk_speed = off, a dry run). */
struct disk_speeds {
	int n;
	int ms;                            /* the bound of each measurement */
	char name[SPEED_DISKS_MAX][32];
	struct speed_fig write[SPEED_DISKS_MAX], read[SPEED_DISKS_MAX];
	struct speed_fig together_write[SPEED_DISKS_MAX], together_read[SPEED_DISKS_MAX];
};

enum limit_dir { LIMIT_NONE, LIMIT_WRITE, LIMIT_READ };

/* The direction a workload streams in, and the figure (a metric key of its engine) that is
 * set against the limit: seqwrite's mbps, seqread's mbps, a sequential fio job's write_mbps
 * or read_mbps. LIMIT_NONE (metric NULL) for the rest: files, fsync, random or mixed I/O. */
enum limit_dir limit_dir_of(int wl_type, const char *fio_rw, const char **metric);

/* The index of disk name in s, or -1. */
int speeds_find(const struct disk_speeds *s, const char *name);

/* What the n disks names moved at once in dir: the sum of their together figures when they
 * are the very disks measured at once, else NaN. Disks the cell leaves idle took their share
 * of a shared bus or CPU during that measurement, so a cell on fewer disks than were measured
 * at once is held to its members alone. */
double speeds_together(const struct disk_speeds *s, const char *const *names, int n,
		       enum limit_dir dir);

struct limit {
	double mbps;      /* NaN when there is none: rule says why */
	char rule[240];   /* "raid5 of 4, 0 missing: 3 data disks x the slowest member vde
	                     (4.0 MB/s write)" */
};

/* The array's streaming limit in direction dir: level and its shape (devices, missing,
 * layout), the measured speed of each present member in dir (member_mbps[i], names[i]; NaN:
 * not measured), and what all of them moved at once (aggregate_mbps, NaN: not measured).
 * Full-stripe writes and one sequential stream are assumed; the slowest member sets a
 * striped array's pace; members share what they moved at once. 0, or -1 with mbps NaN and
 * the reason in rule. */
int limit_of(int level, int devices, int missing, const char *layout, const double *member_mbps,
	     const char *const *names, int n, double aggregate_mbps, enum limit_dir dir,
	     struct limit *out);

/* The streams of data an array of this shape moves at once in dir, in members' worth: the
 * factor of its limit (raid5 of 4: 3; raid1: 1; raid10 near-2 of 4: 2). */
double limit_streams(int level, int devices, const char *layout, enum limit_dir dir);

#endif
