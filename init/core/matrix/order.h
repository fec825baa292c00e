/* core/matrix/order.h: the order a run's cells go in. A run is per cells (one repetition of the
 * plan's matrix, each numbered by its slot 0..per-1 in the plan's own order: array, chunk,
 * fs, mount line, workload) times repeat. Its positions 0..per*repeat-1 map to (repetition,
 * slot) and back:
 *   interleave  repetition-major: every cell once, then again (slot = pos % per);
 *   sequential  each cell's repetitions back to back (slot = pos / repeat);
 *   shuffle     repetition-major, the slots of each repetition permuted by a key drawn from
 *               the seed and the repetition, so that no cell is always first after a boot
 *               and no two cells always neighbours.
 * Both directions are O(1) and allocate nothing, so a resumed boot, a shard and `fsmatrix
 * check` each find position N's cell from the plan and the seed alone. Pure. */
#ifndef FSM_ORDER_H
#define FSM_ORDER_H
#include <stdint.h>
#include "core/model/plan.h"

/* A run's order. With reuse (core/matrix/reuse.h) a shuffle keeps each array variant's cells
 * together, so that they can share its array: block consecutive slots of the plan's order
 * are one variant's; the shuffle permutes the blocks, and within each block its cells, or
 * with reuse = fs the runs of one filesystem (nrun of them, run[k] slots each, in the
 * plan's order) and the cells within each run. */
struct order_shape {
	enum plan_order o;
	uint64_t seed;
	int per, repeat;
	int block;                   /* 0 or 1: every slot on its own */
	int nrun;                    /* 0: the cells of a block each on its own */
	int run[PLAN_SECTIONS_MAX];
};

/* A flat shape: no blocks. */
struct order_shape order_flat(enum plan_order o, uint64_t seed, int per, int repeat);

/* Position pos -> its repetition (1-based) and slot. Returns 0, or -1 out of range (or a
 * shape whose blocks and runs do not tile per). */
int order_at(const struct order_shape *s, int pos, int *rep, int *slot);

/* (repetition, slot) -> its position, the inverse of order_at. -1 out of range. */
int order_position(const struct order_shape *s, int rep, int slot);

/* A seed for a shuffle nobody gave one for, from bytes that differ from run to run (PID 1's
 * random pool) or that every shard of a run shares (its run group). */
uint64_t order_seed_from(const unsigned char *bytes, int n);

#endif
