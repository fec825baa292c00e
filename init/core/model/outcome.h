/* core/model/outcome.h: a run and its cells as test cases. Records that carry "case" (a cell
 * record, the trailer, a fatal event) are what a console monitor, such as the LAVA job of
 * `fsmatrix lava`, makes a test case of, with the record's "status" as its result. Pure. */
#ifndef FSM_OUTCOME_H
#define FSM_OUTCOME_H
#include <stddef.h>

/* What a run came to, as the trailer's "status": only RUN_RAN is a run that measured
 * something; the rest are failures of the run as a whole, whatever its cells say. */
enum run_outcome { RUN_RAN, RUN_DRY, RUN_NO_DISK, RUN_NO_CELL };
extern const char *const run_outcome_names[4];   /* "ran", "dry", "no-disk", "no-cell" */
/* The test case of the run as a whole (the trailer's and a fatal event's "case"). */
#define RUN_CASE "run"
/* The status a fatal event gives that case. */
#define RUN_FATAL "fatal"

/* In that order: a dry run wrote nothing; a run that took no disk had nothing to write;
 * one that took disks but ran no cell (every cell skipped, or none planned for it) measured
 * nothing. cells_ran counts the cells that ran to an end: ok, error or timeout. */
enum run_outcome run_outcome_of(int dry, int disks_taken, int cells_ran);

/* A cell repetition's test case, unique in a run: "ID/repR", and "/attemptA" after the
 * first attempt (a reboot cut the earlier ones short). */
void cell_case_name(const char *id, int rep, int attempt, char *out, size_t len);

#endif
