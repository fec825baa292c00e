/* core/matrix/estimate.h: a model of a run's wall time, cell by cell, for `fsmatrix check`, the
 * shards' split, LAVA's timeouts, and PID 1's plan event and progress line. Pure: the
 * machine (its RAM, its disks' size and speed) is a parameter, so the same model answers for
 * the qemu VM of the tests and for a server of twelve 4 TB disks. docs/plans.md, "Time
 * estimate", gives every formula. */
#ifndef FSM_ESTIMATE_H
#define FSM_ESTIMATE_H
#include <stdint.h>
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/workload/estimate_model.h"


/* One cell's time, in parts. A cell that takes over the array before it (core/matrix/reuse.h)
 * pays no create and no resync; one that takes over the filesystem no mkfs either. */
struct cell_est {
	double create_s;         /* mdadm --create */
	double resync_s;         /* waiting for md's resync (resync = wait) */
	double mkfs_s;           /* mkfs and tune2fs: a constant plus what mkfs writes */
	double workload_s;
	double other_s;          /* mount, drop caches, teardown, and layers_s */
	double layers_s;         /* the device-mapper layers: a thin pool's zeroing, a cache's
	                            warm-up (part of other_s) */
	double durability_s;     /* durability = log-writes: each crash point replayed and
	                            checked under both models (part of other_s) */
	double total_s;
	double mkfs_bytes;       /* what mkfs writes: inode tables and journal, or xfs's log */
	double fs_bytes;         /* the filesystem's size: the array's data capacity */
	double fs_free;          /* its free space after mkfs, the basis of "N% fs" */
	uint64_t size;           /* the workload's size on this machine */
};
void cell_estimate_parts(const struct plan *p, const struct cell *c,
			 const struct estimate_model *m, enum plan_reuse reuse, struct cell_est *e);

/* Seconds for the cell, paying every part of its own (no reuse); *resync_s (may be NULL)
 * gets the part spent waiting for md resync. */
double cell_estimate(const struct plan *p, const struct cell *c,
		     const struct estimate_model *m, double *resync_s);

/* The whole run in its order (matrix_cell 0 .. matrix_count - 1), each cell charged what
 * reuse_from says it pays. */
struct run_est {
	double total_s;          /* as the plan's reuse runs it */
	double total_noreuse_s;  /* reuse = none: every cell creates, resyncs and makes its fs */
	double create_s, resync_s, mkfs_s, workload_s, other_s;   /* total_s's parts */
	int arrays;              /* arrays created (the cells that pay a create) */
	int filesystems;         /* mkfs runs */
	double longest_resync_s; /* one array's resync */
	double longest_cell_s;   /* one cell's time but its resync, against the plan's timeout */
	int longest_resync_cell, longest_cell;   /* their places in the run, from 0 */
};
void run_estimate(const struct plan *p, const struct estimate_model *m, struct run_est *r);

/* Each cell's estimate in the run's order into est[0 .. matrix_count - 1], charged as
 * run_estimate charges it, counting only the cells take says this machine runs (take NULL:
 * every cell; a cell not taken gets 0, and the next is charged against the last taken). */
void run_estimate_cells(const struct plan *p, const struct estimate_model *m,
			int (*take)(int index), double *est);

/* Seconds left in a run: the estimate of the cells still to run, scaled by how long the
 * cells run so far took against their own estimate (elapsed / est_done), so that a machine
 * twice as slow as the model reads twice the estimate. -1 before any cell (est_done 0). */
double eta_seconds(double elapsed_s, double est_done_s, double est_left_s);

/* The cell's workload size on the model's machine (RAM, and the free space its array and
 * filesystem leave): w->size for bytes. */
uint64_t est_workload_size(const struct plan *p, const struct cell *c,
			   const struct estimate_model *m);

#endif
