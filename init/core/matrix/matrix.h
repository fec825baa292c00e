/* core/matrix/matrix.h: a plan expanded into cells. A cell is one array (at one chunk and one value of
 * each tunable it lists) x one fs x one of
 * its mount lines x one workload x one repetition, run on a freshly created array and
 * filesystem. Cells are addressed by index, so nothing is allocated and a resumed run can
 * find cell N again from the plan alone. Pure. */
#ifndef FSM_MATRIX_H
#define FSM_MATRIX_H
#include <stdint.h>
#include "core/model/plan.h"

#define CELL_ID_MAX 512

struct cell {
	int index;               /* 0 .. matrix_count()-1, the order cells run in */
	int rep;                 /* 1 .. repeat; not part of the id */
	int slot;                /* 0 .. matrix_per_rep()-1: which cell of a repetition, in the
	                            plan's own order whatever order they run in */
	int array, fs, mount, workload;  /* indexes into the plan's sections and mount lines */
	int kernel;              /* with kernels = (core/matrix/kernels.h): the kernel set the cell runs
	                            under, an index into the plan's kernels, named in the id after
	                            an '@'; -1: the kernel booted, not part of the id */
	uint64_t chunk;          /* bytes; 0 when the array gives none */
	int stack;               /* with layers = : the index of its stack in the array's
	                            list, its layer names in the id ("md5+luks/..."); -1: none */
	unsigned tun_given;      /* bit per core/model/tunable.h row the array sets */
	long long tun[TUN_COUNT];  /* the value of each row set, for this cell */
	char id[CELL_ID_MAX];    /* "md6-c16k/ext3/data=ordered,barrier=1,commit=4/untar";
	                            a tunable the array lists several values of adds its own
	                            part after the chunk: "md5-c64k-scs4096/ext4/defaults/seq" */
};

/* Cells in one repetition, and in the whole run (every repetition under every kernel). */
int matrix_per_rep(const struct plan *p);
int matrix_count(const struct plan *p);

/* Fills cell number index: position index of the run in the plan's order (core/matrix/order.h),
 * whose slots count array, chunk, its tunables in core/model/tunable.c's order, fs, mount line,
 * workload (workload fastest). With the default order, interleave, the repetition is
 * outermost. Returns 0, or -1 if index is out of range. */
int matrix_cell(const struct plan *p, int index, struct cell *c);

/* Whether two [array] sections give cells one id: a name and another's name with its chunk
 * or tunable part ([array a] at chunk 64k and [array a-c64k] both give "a-c64k/..."). The
 * first pair found: their indexes and the shared part. 1, or 0 when every id is unique
 * (names of fs, mount lines and workloads hold no '/', so only the array part can clash). */
int matrix_id_clash(const struct plan *p, int *first, int *second, char *part, size_t len);

/* The shape of the plan's order (core/matrix/order.h): with order = shuffle and reuse, the blocks
 * and runs it keeps together. */
struct order_shape;
void matrix_order_shape(const struct plan *p, struct order_shape *s);

/* Fills repetition rep (1-based) of the cell in slot, with its position as index (under the
 * plan's first kernel, when it names kernels). Returns 0, or -1 out of range. */
int matrix_slot_cell(const struct plan *p, int slot, int rep, struct cell *c);
/* The same under the plan's kernel (index) kernel: a bisection's probe. */
int matrix_kernel_cell(const struct plan *p, int slot, int rep, int kernel, struct cell *c);

#endif
