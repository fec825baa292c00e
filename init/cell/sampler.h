/* cell/sampler.h: the time series of a cell (core/figures/series.h), sampled by PID 1 at a fixed
 * period while the workload's child runs and syncs: PID 1 only waits then, and its poll
 * timeout becomes the time to the next sample (cell/workload.c). */
#ifndef FSM_CELL_SAMPLER_H
#define FSM_CELL_SAMPLER_H
#include "core/figures/series.h"

struct run_env;

enum { SF_MEMINFO, SF_VMSTAT, SF_STAT, SF_SYNC_DONE, SF_SYNC_SPEED, SF_FIXED };

struct sampler {
	int period_ms;                  /* 0: off */
	long long next_ms;              /* CLOCK_MONOTONIC of the next sample */
	int fd[SF_FIXED + SAMPLE_DISKS_MAX];   /* the fixed files, then each disk's stat */
	int ndisks;
	long page;
	struct sample prev, cur;
	struct series ser;
	long samples;                   /* taken, the first included */
	double cpu_s, wall_s;           /* PID 1's CPU time in the sampler, and the span */
	double started;
	/* what the bottleneck is judged from (core/figures/bottleneck.h): the first sample, md's own
	 * thread's CPU time at the start and the end, the time writers sat at the dirty limit */
	struct sample first;
	char md_thread[32];
	int md_pid;
	double md_cpu0, md_cpu1;
	double dirty_limited_s;
};

struct bn_input;
/* The figures of the span sampled for the bottleneck rules: each member's (or the one
 * disk's) counters, md's thread, the machine's CPU, the dirty limit; names[] the members
 * (NULL: the target alone). 0, or -1 when the sampler did not run. */
int sampler_bottleneck_input(const struct sampler *s, const char *target, char *const *names,
			     int n, struct bn_input *in);

/* Opens the counters of target and its members (n of them, NULL for a single disk) and
 * takes the first sample. period_ms 0 leaves the sampler off. */
void sampler_start(struct sampler *s, int period_ms, const char *target, char *const *members,
		   int n, int md);
/* How long a wait of want_ms (-1 = forever) may last before the next sample is due. */
int sampler_wait_ms(const struct sampler *s, int want_ms);
/* Takes a sample when one is due. */
void sampler_tick(struct sampler *s);
/* The last sample, then closes the files. */
void sampler_stop(struct sampler *s);
/* The series record of a cell, when the sampler ran, emitted through env. */
void sampler_emit(const struct sampler *s, const struct run_env *env, const char *cell, int rep,
		  int index, int attempt, const char *target, char *const *members, int n);

#endif
