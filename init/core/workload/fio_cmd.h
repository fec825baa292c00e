/* core/workload/fio_cmd.h: what a `type = fio` workload hands fio, and what fio hands back. Pure:
 * the command line is built from the plan's keys (so `fsmatrix check` prints exactly what a
 * cell runs), job text is screened for options that would reach outside the cell's mount,
 * and fio's --output-format=json is read into per-job, per-direction figures. */
#ifndef FSM_FIO_CMD_H
#define FSM_FIO_CMD_H
#include "core/model/plan.h"
#include "lib/argv.h"
#include "lib/stats.h"
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define FIO_JOBS_MAX 16
#define FIO_NAME_MAX 48

/* fio's argv: `fio --output-format=json /job` when job is not "" (the job file, which the
 * confinement puts at CONFINE_JOB), else `fio --output-format=json --name=NAME --rw=...
 * --size=...` from the inline keys the plan gave, then the words of options. fio runs
 * confined to the cell's mount (lib/confine.h), its working directory, so its files land
 * there and nothing else is in reach. */
void fio_argv(const struct plan_workload *w, const char *job, struct argv *a);

/* Screens a job file's text (job_file 1) or the words of `options` (job_file 0) for what
 * cannot work where fio runs, confined to the cell's mount: a program to run (exec_prerun,
 * ioengine=exec), another file to include, a device's queue to set, an absolute path, a
 * control character, a command-line option fsmatrix sets itself (an abbreviation too, as
 * fio's getopt takes them). A courtesy that names the line, not the defence (confine.h).
 * Returns 0, or -1 with why and *line the job file's line (0 for options). */
int fio_unsafe(const char *text, int job_file, int *line, char *why, size_t len);

/* The inline keys' screen, one rule with a job's and options': ioengine (`ioengine = exec`
 * is refused as `--ioengine=exec` is), then the words of options. Returns 0, or -1 with why
 * and *key the plan key it is about. */
int fio_keys_unsafe(const struct plan_workload *w, const char **key, char *why, size_t len);

/* One direction of one job: NaN where fio did no I/O that way. */
struct fio_dir {
	uint64_t io_bytes, total_ios;
	double mbps;                 /* bw_bytes / 10^6 */
	double iops;
	struct latency clat;         /* completion latency, microseconds (n unused) */
};
/* A direction fio did not run: no bytes, every figure NaN (written null) */
#define FIO_DIR_NONE ((struct fio_dir){ .mbps = NAN, .iops = NAN, \
					.clat = { 0, NAN, NAN, NAN, NAN, NAN, NAN } })

struct fio_job {
	char name[FIO_NAME_MAX];
	int error;                   /* fio's per-job error (an errno), 0 = none */
	double runtime_s;            /* of the job (its longer direction) */
	struct fio_dir read, write;
};

struct fio_out {
	char version[32];            /* "fio-3.33" */
	int njobs;                   /* kept: the first FIO_JOBS_MAX */
	int jobs_total;              /* in the output */
	struct fio_job jobs[FIO_JOBS_MAX];
	/* over every kept job: bandwidth and IOPS summed, latencies of the slowest job */
	struct fio_dir read, write;
};

/* Reads fio's JSON output (anything before the first '{' is skipped: fio may print notes
 * first). Returns 0, or -1 with why. */
int fio_out_parse(const char *text, size_t len, struct fio_out *o, char *why, size_t wlen);

#endif
