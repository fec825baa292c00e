/* test_outcome.c: what a run came to (the trailer's "status"), and a cell repetition's test
 * case name, as a LAVA monitor sees them. */
#include "check.h"
#include "core/model/outcome.h"

static const struct {
	int dry, taken, ran;
	const char *want;
} runs[] = {
	{ 0, 3, 54, "ran" },
	{ 0, 3, 1, "ran" },
	/* disks that carried signatures were refused: nothing taken, every cell skipped */
	{ 0, 0, 0, "no-disk" },
	/* disks taken, every cell skipped (the plan's arrays need more) */
	{ 0, 2, 0, "no-cell" },
	/* a dry run is no measurement, whatever it took */
	{ 1, 3, 0, "dry" },
	{ 1, 0, 0, "dry" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
		CHECK_STR(run_outcome_names[run_outcome_of(runs[i].dry, runs[i].taken, runs[i].ran)],
			  runs[i].want);
	char name[128];
	cell_case_name("disk/ext4/defaults/seq", 2, 1, name, sizeof name);
	CHECK_STR(name, "disk/ext4/defaults/seq/rep2");
	cell_case_name("r6d-c16k/xfs/defaults/tree", 3, 2, name, sizeof name);
	CHECK_STR(name, "r6d-c16k/xfs/defaults/tree/rep3/attempt2");
	return check_done("test_outcome");
}
