/* core/matrix/shard.h: a plan's cells split over machines (fsmatrix.shard=K/N). The unit of the
 * split is a cell of one repetition (matrix_per_rep), so every repetition of a cell, and its
 * summary, stay on one machine; with reuse (core/matrix/reuse.h), the cells that share an array
 * configuration, so that each array is made on one machine. The split is longest-processing-time-first over the cells'
 * estimates (cell_estimate): deterministic, the same on every machine and on the host.
 * Every shard of one run shares a run group, derived from the plan, the scale and N, by which
 * the report merges them. Pure. */
#ifndef FSM_SHARD_H
#define FSM_SHARD_H
#include <stddef.h>
#include "core/model/plan.h"

struct estimate_model;   /* core/workload/estimate_model.h */

#define SHARD_MAX 1000

/* Splits ncells cells of est[i] seconds each over n shards: owner[i] gets 0..n-1. The
 * longest cell first (ties: the earlier cell) goes to the shard with the least estimated
 * time so far (ties: the lower shard). Returns 0, or -1 when n < 1 or out of memory. */
int shard_split(const double *est, int ncells, int n, int *owner);

/* The split of a plan's cells (owner has matrix_per_rep(p) entries, indexed by a cell's
 * slot), and each shard's estimated time over every repetition in load[0..n) (may be
 * NULL). Returns 0 or -1. */
int shard_plan(const struct plan *p, const struct estimate_model *m, int n, int *owner,
	       double *load);

/* The run group every shard of one run shares: the sha256 (hex) of
 * "<plan sha256>\n<scale, 4 decimals>\n<N>\n". */
void shard_run_group(const char *plan_sha256, double scale, int n, char hex[65]);

#endif
