/* test_missing.c: what a run lacks, named as `check --shards` numbers cells (cell N of the
 * plan's per repetition, repetition R), and the exit status of report, compare and html. */
#include "check.h"
#include "report/model.h"

#include <stdlib.h>

/* The positions listed (1-based, 0-terminated) of total, named with per cells a repetition. */
static void names(const int *pos, int total, int per, const char *want, int want_count)
{
	char flag[256] = { 0 };
	int count = -1;
	for (; *pos; pos++)
		flag[*pos] = 1;
	char *got = report_cells_reps_text(flag, total, per, &count);
	if (!want)
		CHECK(got == NULL, "got \"%s\", want none", got);
	else if (got)
		CHECK_STR(got, want);
	else
		CHECK(0, "got none, want \"%s\"", want);
	CHECK_INT(count, want_count);
	free(got);
}

static int status_of(const char *source)
{
	struct runset rs = { 0 };
	int rc = report_load(source, &rs);
	for (size_t i = 0; i < rs.n; i++)
		report_model(&rs.run[i]);
	int st = rc ? 1 : report_runs_status(&rs);
	report_free(&rs);
	return st;
}

int main(void)
{
	/* the other shard's cells of the default plan: every repetition of 9 of its 18 cells */
	names((const int[]){ 1, 2, 19, 20, 37, 38, 0 }, 54, 18, "cells 1-2 of 18, repetitions 1-3 of 3", 6);
	/* a run stopped in its second repetition: the rest of it, then all of the third */
	names((const int[]){ 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0 }, 24, 8,
	      "cells 1-5 of 8, repetition 3 of 3; cells 6-8 of 8, repetitions 2-3 of 3", 11);
	/* lost records here and there */
	names((const int[]){ 3, 12, 0 }, 12, 4, "cell 3 of 4, repetition 1 of 3; cell 4 of 4, repetition 3 of 3", 2);
	names((const int[]){ 1, 3, 0 }, 6, 2, "cell 1 of 2, repetitions 1-2 of 3", 2);
	names((const int[]){ 1, 5, 0 }, 6, 2, "cell 1 of 2, repetitions 1, 3 of 3", 2);
	/* one repetition: the cell's number alone */
	names((const int[]){ 4, 5, 6, 7, 8, 0 }, 8, 8, "cells 4-8 of 8", 5);
	/* nothing missing, or no per-repetition count that divides the run */
	names((const int[]){ 0 }, 54, 18, NULL, 0);
	names((const int[]){ 1, 0 }, 10, 4, NULL, 0);
	names((const int[]){ 1, 0 }, 10, 0, NULL, 0);

	/* the precedence: a source not read, incomplete, a cell not ok, clean */
	CHECK_INT(report_status_worse(0, 0), 0);
	CHECK_INT(report_status_worse(0, REPORT_STATUS_FAILED), REPORT_STATUS_FAILED);
	CHECK_INT(report_status_worse(REPORT_STATUS_FAILED, REPORT_STATUS_INCOMPLETE), REPORT_STATUS_INCOMPLETE);
	CHECK_INT(report_status_worse(REPORT_STATUS_INCOMPLETE, 1), 1);
	CHECK_INT(report_status_worse(1, 0), 1);
	/* runs: complete and clean; complete with a cell in error; no trailer; records lost */
	CHECK_INT(status_of("tests/fixtures/report/ignored.jsonl"), 0);
	CHECK_INT(status_of("tests/fixtures/report/run-a.jsonl"), REPORT_STATUS_FAILED);
	CHECK_INT(status_of("tests/fixtures/report/partial.jsonl"), REPORT_STATUS_INCOMPLETE);
	CHECK_INT(status_of("tests/fixtures/report/console-garbled.log"), REPORT_STATUS_INCOMPLETE);
	return check_done("test_missing");
}
