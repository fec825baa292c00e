/* cell/cell.h: one cell's lifecycle in PID 1 (cell/cell.c and the files of its steps,
 * sharing cell/ctx.h), its workload in a child bounded by the cell's timeout
 * (cell/workload.c) and the state read around it (cell/state.c). pid1/matrix.c drives them,
 * handing each cell the run environment of cell/env.h: the cell layer sees no pid1 header. */
#ifndef FSM_CELL_CELL_H
#define FSM_CELL_CELL_H
#include "core/matrix/matrix.h"
#include "core/command/mountcheck.h"
#include "core/model/plan.h"
#include "core/matrix/reuse.h"
#include "engines/engine.h"
#include "engines/workload.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/record.h"
#include "cell/env.h"
#include "cell/sampler.h"

#define TEST_MNT "/mnt/test"
#define MD_NAME "md0"
#define METRIC_MAX 12
#define TEARDOWN_MS 120000        /* each teardown command, whatever the cell's deadline */

/* A cell record's status; cell_status_names[] gives each its name in records. */
enum cell_status { CELL_OK, CELL_ERROR, CELL_SKIPPED, CELL_TIMEOUT, CELL_INTERRUPTED, CELL_HUNG };
#define CELL_NSTATUS 6
extern const char *const cell_status_names[CELL_NSTATUS]; /* "ok", "error", "skipped", ... */

/* What the matrix keeps of one (cell, rep) for progress lines and summaries. */
struct cell_result {
	enum cell_status status;
	int nmetric;
	const char *metric_name[METRIC_MAX];
	double metric[METRIC_MAX];
	char headline[400];      /* "41.2 MB/s", or the error, for the progress line */
};

/* What a cell takes over from the cell run before it and leaves standing for the next
 * (core/matrix/reuse.h). The matrix says what it may take and what the next will want; the cell says
 * what it left: what it was asked to keep when it ended ok, else nothing (its teardown was
 * whole). */
struct cell_reuse {
	enum plan_reuse take;    /* in: what the cell before left that this one may take over */
	enum plan_reuse keep;    /* in: what the next cell will take over */
	enum plan_reuse left;    /* out: what this cell left standing */
	int array_by, fs_by;     /* in: the positions (1-based) of the cells that made the array
	                            and the filesystem standing; out: of those it leaves */
};

/* Runs cell c on the taken disks of env that are still present, emits its cell record, and
 * fills r. ru: what it takes over and leaves (NULL: nothing either way). Never fails:
 * whatever goes wrong is the cell's status. */
void cell_run(const struct run_env *env, const struct plan *p, const struct cell *c, int attempt,
	      struct cell_reuse *ru, struct cell_result *r);
/* What a cell cut short (PID 1 stopping: a fatal error, a signal, power-off) changed in its
 * members' devices and has not put back yet, put back now: the write cache. The stop hook's
 * (pid1/fatal.c); nothing when no cell owes anything. */
void cell_put_back_devices(void);
/* Warm-up k of n on cell c's array and filesystem: the cell's whole lifecycle, recorded as a
 * "warmup" record shaped as a cell record, without a time series, for no figure. */
void cell_warmup(const struct run_env *env, const struct plan *p, const struct cell *c, int k,
		 int n, struct cell_result *r);
/* A record for a cell that does not run in this boot: an attempt interrupted by a reboot,
 * or a cell failed after too many of them (pid1/matrix.c). */
void cell_record_status(const struct run_env *env, const struct plan *p, const struct cell *c,
			enum cell_status st, int attempt, const char *error);

/* ------------------------------------------------------------ cell/workload.c */
struct wl_outcome {
	enum wl_type type;
	int timed_out;                  /* killed at the cell's deadline */
	int err;                        /* errno of the first failure, 0 = ok */
	char errmsg[WL_ERR_MAX];
	/* processes the workload left running when it ended ("fio 214, fio 215"), killed with
	 * its cgroup (cell/contain.c); "" when none */
	char killed[160];
	/* the engine's cell result (engines/engine.h), whatever the engine */
	_Alignas(max_align_t) unsigned char res[ENGINE_RES_MAX];
};

/* Runs the workload on TEST_MNT in a child process (its own process group and cgroup), so
 * that a deadline can end it and everything it started: timeout_ms 0 means none. Nothing it
 * started outlives it. drop: sync and drop caches before it (and
 * before each smallfiles pass). archive_dirs: where a relative archive name is looked for.
 * smp, started by the caller (or NULL), samples while it runs and is stopped when it ends.
 * Fills o; returns 0 when it ran clean, else -1. */
int workload_run(const struct plan_workload *w, int drop, int timeout_ms,
		 const char *const *archive_dirs, const char *log_dm, struct wl_outcome *o,
		 struct sampler *smp);
/* The "result" object's fields and the "cpu" object. */
void workload_result_json(struct jw *jw, const struct wl_outcome *o);
void workload_cpu_json(struct jw *jw, const struct wl_outcome *o);
double workload_figure(const struct wl_outcome *o, const char *key);   /* NaN: none */
/* Numeric figures for summaries and the headline for the progress line. */
void workload_metrics(const struct wl_outcome *o, struct cell_result *r);

/* ------------------------------------------------------------ cell/contain.c */
/* The workloads' cgroup, made under the mounted cgroup2 root: 0, or -1 when there is none
 * (no cgroup2, or a kernel before 5.14 without cgroup.kill). */
int contain_ready(void);
/* The calling process joins it (a workload's child, before it starts anything). */
int contain_join(void);
/* Kills whatever is left in it and waits up to wait_ms for all of it to be gone, reaping the
 * killed. left gets who was there ("fio 214, fio 215"). 0 when it was empty, 1 when what was
 * left is gone, -1 when something is still there (stuck in the kernel) or it cannot be
 * killed. */
int contain_end(char *left, size_t len, int wait_ms);

/* ------------------------------------------------------------ cell/state.c */
void probe_queue_json(struct jw *w, const char *target, char *const *members, int nmembers);
void probe_md_json(struct jw *w, const char *md);
void probe_df_json(struct jw *w, const char *key, const char *mnt);
int probe_mount_line(const char *mnt, char *buf, size_t len);
int disk_present(const char *name);
int kmsg_open(void);
int kmsg_collect(int fd, struct kmsg_line *out, int max);
void kmsg_last(const struct kmsg_line *lines, int n, const char *const *words, char *out,
	       size_t len);

#endif
