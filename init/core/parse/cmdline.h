/* core/parse/cmdline.h: the fsmatrix.* kernel parameters, parsed once from /proc/cmdline.
 * Pure: no I/O, so the host unit tests run the exact parser PID 1 runs. */
#ifndef FSM_CMDLINE_H
#define FSM_CMDLINE_H
#include <stddef.h>
#include "core/model/conditions.h"

#define CMDLINE_VALUE_MAX 512
#define CMDLINE_SHELL_NOW 2
#define CMDLINE_WATCHDOG_AUTO (-1)

struct cmdline {
	char disks[CMDLINE_VALUE_MAX]; /* fsmatrix.disks=  ("" = not given: nothing destructive) */
	char wipe[CMDLINE_VALUE_MAX];  /* fsmatrix.wipe=   named disks whose signatures may be destroyed */
	char plan[CMDLINE_VALUE_MAX];  /* fsmatrix.plan=   plan name or path ("" = default lookup) */
	char plan_sha256[65];          /* fsmatrix.plan_sha256= the sha256 (hex) the plan must
	                                  have, else /init refuses to run ("" = not given) */
	int dry;                       /* fsmatrix.dry=0|1 */
	int shell;                     /* fsmatrix.shell=0|1|now: 1, a fatal error drops to a
	                                  shell; now (CMDLINE_SHELL_NOW), also a shell once the
	                                  disks and the plan are shown, instead of the run */
	double scale;                  /* fsmatrix.scale= sizes multiplier, default 1.0 */
	int settle_ms;                 /* fsmatrix.settle= max wait for block devices, default 10000 */
	int debug;                     /* fsmatrix.debug=0|1 */
	int watchdog_s;                /* fsmatrix.watchdog=auto|0|SECONDS: the watchdog's
	                                  timeout; auto (CMDLINE_WATCHDOG_AUTO, the default)
	                                  derives it from the cell timeout, 0 leaves it off */
	int debug_hang;                /* fsmatrix.debug_hang=N: cell N's first attempt hangs
	                                  PID 1 in the kernel (a frozen filesystem), for the
	                                  watchdog test; 0 = never */
	int hang_s;                    /* fsmatrix.hang=auto|0|SECONDS: how long a task of a cell
	                                  may sit in D state with no I/O before the cell is
	                                  declared hung (core/figures/hang.h); auto (-1, the default)
	                                  derives it from the cell timeout, 0 leaves it off */
	int debug_suspend;             /* fsmatrix.debug_suspend=N: the first attempt of cell
	                                  N and of each later cell with layers suspends its top
	                                  device-mapper layer before the workload (the hang
	                                  test); 0 = never */
	int shard_k, shard_n;          /* fsmatrix.shard=K/N: run only shard K (1..N) of the
	                                  plan's cells (core/matrix/shard.h); 0/0 = every cell */
	unsigned long long seed;       /* fsmatrix.seed=N: the seed of order = shuffle, over the
	                                  plan's (seed_given: it was given) */
	int seed_given;
	char controls[COND_COUNT][COND_VALUE_MAX]; /* fsmatrix.governor=, turbo=, cstates=, thp=,
	                                  swap=, nmi_watchdog=, clocksource=: the machine's
	                                  controls (core/model/conditions.h); "" = not given */
	char kernel[32];               /* fsmatrix.kernel=NAME: the kernel set this boot runs
	                                  (make kernels), the records' axes.kernel; "" = not
	                                  given */
	char raw[4096];                /* the whole command line, for the run header */
};

/* Parses a kernel command line. Parameters not starting with "fsmatrix." are ignored;
 * an unknown fsmatrix.* key or a bad value is an error. Returns 0, or -1 with a one-line
 * message in err naming the parameter, e.g. "fsmatrix.dry=maybe: expected 0 or 1". */
int cmdline_parse(const char *text, struct cmdline *out, char *err, size_t errlen);

/* The i-th (from 0) fsmatrix.* parameter as docs/kernel-parameters.md and `fsmatrix keys
 * kernel` show it: its key after "fsmatrix.", what follows it ("=NAME"), and its help
 * (markdown). Returns 0, or -1 past the last. */
int cmdline_param_doc(int i, const char **key, const char **form, const char **help);

#endif
