/* core/model/outcome.c: a run and its cells as test cases (core/model/outcome.h). */
#include "core/model/outcome.h"

#include <stdio.h>

const char *const run_outcome_names[4] = {
	[RUN_RAN] = "ran", [RUN_DRY] = "dry", [RUN_NO_DISK] = "no-disk", [RUN_NO_CELL] = "no-cell",
};

enum run_outcome run_outcome_of(int dry, int disks_taken, int cells_ran)
{
	if (dry)
		return RUN_DRY;
	if (disks_taken <= 0)
		return RUN_NO_DISK;
	return cells_ran > 0 ? RUN_RAN : RUN_NO_CELL;
}

void cell_case_name(const char *id, int rep, int attempt, char *out, size_t len)
{
	if (attempt > 1)
		snprintf(out, len, "%s/rep%d/attempt%d", id, rep, attempt);
	else
		snprintf(out, len, "%s/rep%d", id, rep);
}
