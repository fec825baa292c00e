/* core/matrix/reuse.h: what a cell takes over from the cell run just before it in the same boot.
 * On disks of terabytes a cell costs what its setup costs (a raid6 of 12 x 4 TB resyncs for
 * hours), so with `reuse = array` (the default) the cells that share an array configuration
 * and a repetition run on one array, created and resynced once, each with its own mkfs; with
 * `reuse = fs` they also share one filesystem per fs section; `reuse = none` creates
 * everything for every cell. The decision is pure and needs only the two cells, so PID 1,
 * `fsmatrix check`'s grouping and its estimate, shards and resume all take the same one.
 * Order (core/matrix/order.h) keeps a group's cells next to each other. */
#ifndef FSM_REUSE_H
#define FSM_REUSE_H
#include "core/matrix/matrix.h"
#include "core/model/plan.h"

/* Whether cells a and b have the same array configuration: array section, chunk, and the
 * value of every tunable that the array or its members keep for its life (md's own, the
 * devices' write cache, whatever must be set before mkfs). Repetitions are not compared. */
int reuse_same_array(const struct plan *p, const struct cell *a, const struct cell *b);

/* What cell c may take over from prev, the cell this boot ran just before it (NULL: none,
 * the boot's first), as far as the plan allows: REUSE_NONE for the first cell of a boot,
 * another repetition, another array configuration, an array that is one raw disk (level
 * none has no array to keep; reuse = fs still keeps its filesystem), or reuse = none;
 * REUSE_FS when reuse = fs and both are on the same fs section; else REUSE_ARRAY. Whether
 * prev left its array in a state fit to take over (it ended ok) is the caller's. */
enum plan_reuse reuse_from(const struct plan *p, const struct cell *prev, const struct cell *c);

/* "none", "array", "fs". */
const char *reuse_name(enum plan_reuse r);

#endif
