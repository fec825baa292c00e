/* core/model/skip.h: the one rule for a cell that cannot run: its array needs more test disks than
 * are at hand. Below the plan, so that the plan's own checks, the commands, `fsmatrix check`
 * and PID 1 all say it in the same words. */
#ifndef FSM_SKIP_H
#define FSM_SKIP_H
#include <stddef.h>

/* Whether a cell on [array NAME] that needs `need` test disks runs with the `have` at hand:
 * 0, or -1 with why it is skipped. gone counts taken disks that vanished since, named in lost
 * ("vdc, vde"). PID 1 records this reason, and `fsmatrix check` and a dry run show it. */
int cell_skip_reason(const char *array, int need, int have, int gone, const char *lost,
		     char *why, size_t len);

#endif
