/* core/parse/plan_size.h: how big a plan's matrix may get. A plan is refused past MATRIX_CELLS_MAX
 * cells, counting repetitions (a run estimated past a day is only warned about: cellshow.h).
 * Both PID 1 and `fsmatrix check` parse through plan_parse, which applies the limit. */
#ifndef FSM_PLAN_SIZE_H
#define FSM_PLAN_SIZE_H
#include <stddef.h>
#include "core/model/plan.h"

/* Ten thousand cells is more than a day of benchmarking even at a few seconds a cell (md
 * create, mkfs, a workload, teardown; real figures are minutes), a few tens of MB of
 * records on the results partition, and every cell is listed by `fsmatrix check` and in a
 * dry run's plan event. Past that a plan is a typo or a generated product of axes, and
 * counting it in int would overflow near 2^31. */
#define MATRIX_CELLS_MAX 10000

/* Adds an error at line when the matrix has more than MATRIX_CELLS_MAX cells, naming the
 * factors. Counts in 64 bits, so no plan the parser accepts overflows it. */
void plan_check_size(struct plan *p, int line);

#endif
