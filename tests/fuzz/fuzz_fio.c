/* fuzz_fio.c: what a fio workload reads from outside: fio's JSON output (fio_out_parse) and a
 * user's job file or options (fio_unsafe), on any bytes. Invariants: a failure says why in
 * one line; a success keeps at most FIO_JOBS_MAX jobs with terminated names, counts at least
 * as many in all, and sums into the run's figures no less than any job's. */
#include "fuzz.h"
#include "core/workload/fio_cmd.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fio_out o;
	char why[256] = "";
	char *text = fuzz_cstr(data, size);
	if (fio_out_parse(text, strlen(text), &o, why, sizeof why) != 0) {
		fuzz_one_line(why, sizeof why);
		FUZZ_ASSERT(why[0], "a failure without a reason");
	} else {
		FUZZ_ASSERT(o.njobs >= 1 && o.njobs <= FIO_JOBS_MAX && o.jobs_total >= o.njobs,
			    "jobs %d of %d", o.njobs, o.jobs_total);
		FUZZ_ASSERT(memchr(o.version, '\0', sizeof o.version), "version not terminated");
		for (int i = 0; i < o.njobs; i++) {
			FUZZ_ASSERT(memchr(o.jobs[i].name, '\0', sizeof o.jobs[i].name), "name %d", i);
			FUZZ_ASSERT(o.read.total_ios >= o.jobs[i].read.total_ios, "read ios sum");
		}
	}
	for (int job_file = 0; job_file <= 1; job_file++) {
		why[0] = '\0';
		int line;
		if (fio_unsafe(text, job_file, &line, why, sizeof why) != 0) {
			fuzz_one_line(why, sizeof why);
			FUZZ_ASSERT(why[0], "refused without a reason");
		}
	}
	free(text);
	return 0;
}
