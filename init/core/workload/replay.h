/* core/workload/replay.h: what to replay of a dm-log-writes log (core/workload/logwrites.h) for each crash
 * point, under two models of the disk's write cache:
 *
 *   pessimistic  the cache is volatile and lost whole: a write survives only once a flush
 *                the filesystem issued after it completed has completed, or when it was
 *                written FUA (dm-log-writes' own order);
 *   optimistic   the disk has no cache: every write completed before the point survives.
 *
 * The target logs a plain write only when a flush covers it, so a log alone cannot say
 * which writes had completed before a mark. The durability engine therefore brackets each
 * mark: a mark "fsmpre.N", a flush of its own (the instrument's), then the mark "fsm.N" (N
 * operations acknowledged): the instrument's flush brings every completed write into the log
 * before the point (the optimistic model's view), and the pessimistic model does not count
 * it as a flush: the writes it carried wait for the filesystem's next flush (or are lost at
 * a point before it). In a bracket with more than one flush, the last is taken as the
 * instrument's (a flush of the filesystem that completes between the instrument's and the
 * mark is rare; the plan counts such brackets).
 *
 * The crash points are the engine's "fsm.N" marks; a log with none (another workload under
 * the log) has one after each flush and FUA write of the filesystem, for consistency checks
 * only. All of them up to a bound, else that many evenly spread, the last always among them.
 * Each model's plan is one list of steps, each applying a log entry or checking a point,
 * whose replays add up: a replayer applies the steps in order to one volume and checks a
 * snapshot at each point. Pure. */
#ifndef FSM_REPLAY_H
#define FSM_REPLAY_H
#include "core/model/plan.h"
#include "core/workload/logwrites.h"
#include <stddef.h>
#include <stdint.h>

enum replay_model { REPLAY_PESSIMISTIC, REPLAY_OPTIMISTIC, REPLAY_MODELS };
extern const char *const replay_model_names[REPLAY_MODELS];

#define REPLAY_MARK_POINT "fsm."       /* fsm.N: N operations acknowledged */
#define REPLAY_MARK_PRE "fsmpre."      /* fsmpre.N: the instrument's flush follows */

enum replay_step_kind { REPLAY_APPLY, REPLAY_POINT };

struct replay_step {
	uint32_t kind;              /* enum replay_step_kind */
	uint32_t idx;               /* APPLY: the log entry; POINT: the point */
};

struct replay_point {
	size_t entry;               /* the crash comes just after this log entry */
	int mark;                   /* the mark's index in the log's marks, or -1 */
	uint64_t acked;             /* fsm.N: the operations acknowledged (N) */
};

struct replay_plan {
	size_t candidates;          /* crash points before the bound */
	size_t npoints;
	struct replay_point *points;
	size_t nsteps[REPLAY_MODELS], cap[REPLAY_MODELS];
	struct replay_step *steps[REPLAY_MODELS];
	uint64_t fs_flushes, instrument_flushes, fuas;
	uint64_t ambiguous;         /* brackets holding more than one flush */
};

/* fsm.N into *acked: 1, or 0 for any other name. */
int replay_mark_acked(const char *name, uint64_t *acked);

/* The points (at most bound, 0 = every one) and each model's steps for log. 0, or -1 with
 * err (out of memory). replay_plan_free releases it. */
int replay_plan_build(const struct lw_log *log, size_t bound, struct replay_plan *p, char *err,
		      size_t len);
void replay_plan_free(struct replay_plan *p);

/* The candidate index of the j-th of bound points spread over m candidates (the last one
 * always taken): what replay_plan_build samples. */
size_t replay_sample(size_t j, size_t m, size_t bound);

/* The log-writes device a cell's filesystem sits on, above every layer (fsm-0 .. fsm-3), and
 * its table: "0 SECTORS log-writes DEV LOGDEV", SECTORS "<sectors>" when 0 (unknown, as in
 * `check`). */
#define REPLAY_LW_DM "fsm-8-lw"
void replay_lw_table(uint64_t sectors, const char *dev, const char *logdev, char *buf,
		     size_t len);

/* The crash points a cell of workload w checks at most: a durability workload marks once
 * per operation and once before the first, others are bounded by their flushes. */
unsigned replay_points_for(const struct plan_workload *w, int bound);

/* Seconds the check of points crash points takes under both models: per point and model
 * a snapshot, a mount with journal recovery, the verification, an unmount and fsck -n, as
 * measured under qemu TCG (docs/performance.md). */
#define REPLAY_POINT_S 0.7
double replay_check_s(unsigned points);

#endif
