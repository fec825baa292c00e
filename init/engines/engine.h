/* engines/engine.h: the workload engines as a table of operations, as fio's ioengine_ops: one
 * row per engine with what PID 1 needs to run it in a cell and write its figures, and what
 * `fsmatrix workload` needs to run it on a host path. What plans, `fsmatrix check` and the
 * report know of an engine (its keys, metrics with units and direction, estimate and
 * description) is its row in core/workload/workload_kinds.c, which this row names by type.
 *
 * A new engine is one file in engines/ that defines its struct engine, and its address in
 * engines[] (engine.c); plus its row in core/workload/workload_kinds.c and its name in enum wl_type. */
#ifndef FSM_ENGINE_H
#define FSM_ENGINE_H
#include "core/model/plan.h"
#include "core/workload/workload_kinds.h"
#include "engines/workload.h"
#include "lib/record.h"
#include "lib/stats.h"
#include <stddef.h>
#include <stdint.h>

/* The most an engine's cell result may take: PID 1 keeps one, and a workload child sends it
 * through a pipe. */
#define ENGINE_RES_MAX (16 << 10)

/* What PID 1 decides for one cell and hands to the engine. */
struct engine_cell_env {
	const char *dir;                  /* the filesystem under test, mounted */
	const char *const *archive_dirs;  /* where a relative archive name is looked for, in
	                                     order ("" is /); NULL ends the list */
	int drop;                         /* sync and drop caches before (before each pass) */
	int timeout_ms;                   /* what is left of the cell's time, 0 = none */
	const char *log_dm;               /* the dm-log-writes device under the filesystem, by
	                                     its dm name, for the durability engine's marks;
	                                     NULL when the cell is not logged */
};

/* A figure of a cell result: a double at offset off. The metrics of the engine's row in
 * core/workload/workload_kinds.c name them. */
struct engine_figure {
	const char *key;
	size_t off;
};

/* What each operand of `fsmatrix workload NAME ...` is: a file to write, a directory to
 * write in, or a file to read. */
enum engine_role { ROLE_FILE, ROLE_DIR, ROLE_READ };

/* The options of `fsmatrix workload`, as parsed by cli/workload.c. */
struct engine_host {
	const char *cmd;            /* "workload seqwrite", for messages */
	struct plan_workload w;     /* size, bs, files, seed, passes: the plan's keys */
	int direct, zero, keep, no_sync, drop, list;
	const char *tar;            /* --tar PROGRAM, NULL = "tar" */
};

struct engine {
	const char *name;           /* `fsmatrix workload NAME`, and a plan's type for cells */
	enum wl_type type;          /* its row in core/workload/workload_kinds.c; for a host-only
	                               command, the row whose plan keys its options are */
	/* ---- in a cell of /init; cell is NULL for a command only the host CLI has */
	size_t res_size;            /* of its cell result, at most ENGINE_RES_MAX */
	/* Runs the workload into res (res_size bytes, zeroed); on failure sets *err to the errno
	 * and msg (WL_ERR_MAX bytes) to what failed. */
	void (*cell)(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		     int *err, char *msg);
	void (*cell_json)(struct jw *jw, const void *res);   /* the record's "result" fields */
	const struct wl_cpu *(*cpu)(const void *res);
	const struct engine_figure *figures;                 /* key NULL ends it */
	void (*headline)(const void *res, char *buf, size_t len);  /* for the progress line */
	/* ---- `fsmatrix workload NAME` */
	uint64_t host_size;         /* default --size, 0 = none */
	int nargs;
	enum engine_role role[2];
	const char *operands;       /* "ARCHIVE and DIR", for the message when they are missing */
	/* Its line of the usage (cli/workload.c): the options after [--size host_size], and a
	 * note on what it does, or NULL. */
	const char *options;
	const char *about;
	/* Runs it: a record line on stdout, a summary on stderr. Returns the exit status. */
	int (*host)(const struct engine_host *h, char *const *operands);
};

/* Every engine, host-only commands included; NULL ends it. */
extern const struct engine *const engines[];

/* The engine `fsmatrix workload NAME` runs, or NULL. */
const struct engine *engine_named(const char *name);
/* The engine that runs a plan's workload type in a cell, or NULL. */
const struct engine *engine_of(enum wl_type type);
/* The figure key of a cell result, or NaN when the engine has none of that name. */
double engine_figure(const struct engine *e, const void *res, const char *key);

/* A user's file named in a plan (a tar archive, a fio job file): as given when absolute,
 * else from the first of dirs (NULL-terminated, "" is /) that has it, into out. Returns 0,
 * or -1 (out then holds file as given). */
int engine_find_file(const char *file, const char *const *dirs, char *out, size_t len);
/* "/results/fsmatrix, /plans and /": where engine_find_file looked, for messages. */
void engine_dirs_text(const char *const *dirs, char *buf, size_t len);

/* sync and drop caches when drop is set; on failure sets err and msg. Returns 0 or -1. */
int engine_drop(int drop, int *err, char *msg);
/* The host's --drop-caches: a warning, not a failure, when it cannot be done. */
void engine_host_drop(const struct engine_host *h);
/* One "workload" record line on stdout: workload NAME, then fields(res). Returns 0 or -1. */
int engine_emit(const char *name, void (*fields)(struct jw *, const void *), const void *res);
/* A latency's six figures as a record writes them, PREFIX_mean_us, PREFIX_p50_us, _p90_us,
 * _p99_us, _p999_us and _max_us (fio's "clat", fsync's "lat"), null where NaN: the one
 * spelling of these keys the report, the docs and the figure tables share. */
void engine_latency_json(struct jw *w, const char *prefix, const struct latency *l);

#endif
