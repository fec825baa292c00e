/* core/figures/bottleneck.h: what held a cell back, judged from what was counted while its workload
 * ran (cell/sampler.c: each member's block counters, md's own thread's CPU time, the
 * machine's and the workload's CPU, how long the writers sat at the dirty limit). One kind
 * and the evidence that named it, or "none clear" with the figures looked at. Pure: the
 * rules run on the host over recorded figures. */
#ifndef FSM_BOTTLENECK_H
#define FSM_BOTTLENECK_H
#include <stddef.h>

#define BN_MEMBERS_MAX 32

/* The thresholds the rules use, in one place (docs/reports.md lists them). */
#define BN_BUSY_PCT 90.0          /* a member, a thread or the machine at a CPU's worth */
#define BN_RMW_PCT 10.0           /* members read this much of what they wrote: partial stripes */
#define BN_SMALL_FRACTION 0.25    /* mean write request under this share of the chunk */
#define BN_SMALL_BYTES 65536.0    /* ... and under 64 KiB */
#define BN_DIRTY_PCT 50.0         /* of the time with Dirty + Writeback at the writers' limit */
#define BN_AT_LIMIT 0.9           /* the figure at this share of what the members gave alone */
#define BN_BEYOND_LIMIT 1.5       /* ... and at this share, the limit no longer holds */

struct bn_member {
	char name[32];
	double util_pct;      /* of the time with I/O in flight */
	double read_mb, write_mb;
	double write_ios;     /* write requests completed */
};

struct bn_input {
	double secs;                    /* the span counted */
	int write_only;                 /* the workload writes and reads nothing itself */
	int parity;                     /* the level computes parity (raid4/5/6) */
	double chunk_bytes;             /* 0: no striping */
	int nmembers;
	struct bn_member m[BN_MEMBERS_MAX];
	char md_thread[32];             /* "md0_raid5"; "" when the level has none */
	double md_thread_pct;           /* its CPU time, % of one CPU; NaN: not read */
	double harness_pct;             /* the workload's own CPU, % of one CPU; NaN: unknown */
	double machine_pct;             /* CPU busy (not idle, not iowait), % of all CPUs */
	double dirty_limited_pct;       /* % of the span at the writers' dirty limit; NaN */
	double efficiency;              /* the figure over the cell's limit (core/figures/limit.h); NaN */
};

struct bottleneck {
	const char *kind;      /* disks, read-modify-write, md-thread, harness, cpu,
	                          small-requests, dirty-limit, none clear; NULL: not judged */
	char evidence[320];
};

/* Judges in, the first rule that holds, in this order: read-modify-write (a write-only
 * workload on parity whose members read >= BN_RMW_PCT of what they wrote), stale-limit (the
 * figure at >= BN_BEYOND_LIMIT of what the members gave alone when measured: they changed
 * speed since, an SSD's cache, a throttle lifted, and the limit no longer holds; never the
 * disks named as what held the cell back on the strength of it), disks (the figure
 * at >= BN_AT_LIMIT of what the members gave alone, or a member busy >= BN_BUSY_PCT of the
 * time: the busiest named, with the others; a throttled or idle-between-requests disk can
 * be the limit without being busy all the time, as the guest counts it), md-thread (md's
 * thread at >= BN_BUSY_PCT of a CPU), harness (the workload itself at a CPU), cpu (the
 * machine's CPUs at >= BN_BUSY_PCT), small-requests, dirty-limit; else none clear. */
void bottleneck_judge(const struct bn_input *in, struct bottleneck *out);

#endif
