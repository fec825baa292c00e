/* core/order.h: the order a run's cells go in. A run is per cells (one repetition of the
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
#include "core/plan.h"

/* Position pos -> its repetition (1-based) and slot. Returns 0, or -1 out of range. */
int order_at(enum plan_order o, uint64_t seed, int per, int repeat, int pos, int *rep, int *slot);

/* (repetition, slot) -> its position, the inverse of order_at. -1 out of range. */
int order_position(enum plan_order o, uint64_t seed, int per, int repeat, int rep, int slot);

/* A seed for a shuffle nobody gave one for, from bytes that differ from run to run (PID 1's
 * random pool) or that every shard of a run shares (its run group). */
uint64_t order_seed_from(const unsigned char *bytes, int n);

#endif
