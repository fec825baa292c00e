/* cell/env.h: what a cell may use of the boot that runs it, built by PID 1
 * (pid1/matrix.c) and handed down read-only: the run's id, the disks a cell may write, what
 * the command line asks of cells, and the services of PID 1 a cell calls, as a table of
 * operations (as main hands pid1/fatal.c its stop hooks). A cell reads nothing else of PID 1. */
#ifndef FSM_CELL_ENV_H
#define FSM_CELL_ENV_H
#include "lib/record.h"

struct plan;
struct cell;
struct disk_speeds;

struct cell_ops {
	void (*say)(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* a console line */
	void (*emit)(struct jw *w);               /* a finished record */
	/* stops the machine: what a cell about to write a disk not taken calls */
	void (*fatal)(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
	void (*pet)(void);                        /* the watchdog: each step is a sign of life */
	void (*reap)(void);                       /* orphans the tools of a step left */
	void (*load_modules)(const struct plan *p, const struct cell *c); /* md and fs, before it */
	/* a cell declared hung (cell/hang.c, from its watcher process): PID 1 writes no record
	 * and pets no more, and the watchdog is re-armed to at most reboot_s; returns the
	 * seconds it was armed to, or -1 when there is no watchdog */
	int (*hung)(int reboot_s);
};

struct run_env {
	const char *run_id;
	const char *fingerprint;           /* the header's conditions.fingerprint, NULL if none */
	const char *const *taken;          /* the disks a cell may write, in the order selection
	                                      gave them; NULL ends it */
	const char *const *archive_dirs;   /* where a plan's archive named without a path is
	                                      looked for (engines/engine.h); NULL ends it */
	const char *kernel;                /* fsmatrix.kernel=: the kernel set booted, the
	                                      records' axes.kernel; NULL = not given */
	const struct disk_speeds *speeds;  /* the taken disks' own speed (core/figures/limit.h), what
	                                      each cell's limit is computed from; NULL: none */
	int dry;                           /* fsmatrix.dry: every cell is recorded skipped */
	int debug_hang;                    /* fsmatrix.debug_hang=N: cell N hangs, attempt 1 */
	int debug_suspend;                 /* fsmatrix.debug_suspend=N: from cell N on, a cell's
	                                      top layer is suspended before its workload,
	                                      attempt 1 */
	int hang_s;                        /* fsmatrix.hang=: -1 auto, 0 off, or seconds */
	const struct cell_ops *ops;
};

#endif
