/* engines/fio.c: a `type = fio` workload: fio itself (the image's static fio 3.33), run in
 * the cell's mount with --output-format=json, from a job file or from the plan's inline
 * keys. Its JSON is read into per-job, per-direction bandwidth, IOPS and completion latency
 * (core/workload/fio_cmd.c); fio's own message becomes the cell's error when it fails. */
#include "core/workload/fio_cmd.h"
#include "engines/engine.h"
#include "engines/workload.h"
#include "lib/confine.h"
#include "lib/file.h"
#include "lib/run.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIO_JOB_TEXT_MAX 4096
#define FIO_OUT_CAP (4u << 20)

struct fio_res {
	char job_path[PLAN_STR_MAX];      /* the job file found, "" for inline keys */
	char job[FIO_JOB_TEXT_MAX];       /* its text (cut at FIO_JOB_TEXT_MAX - 1 bytes) */
	char command[1024];               /* the command line, as `fsmatrix check` shows it */
	int status;                       /* fio's exit status */
	double time_s;                    /* fio from exec to exit */
	struct fio_out out;
	struct wl_cpu cpu;
	int err;
	char errmsg[WL_ERR_MAX];
};
_Static_assert(sizeof(struct fio_res) <= ENGINE_RES_MAX, "a cell result fits");

/* The line of fio's stderr that says what went wrong: its first "fio: " line, else its
 * last line. */
static void fio_message(const char *err, char *out, size_t len)
{
	const char *best = NULL, *last = NULL;
	for (const char *s = err; *s;) {
		size_t n = strcspn(s, "\n");
		if (n && !best && strncmp(s, "fio: ", 5) == 0)
			best = s;
		if (n)
			last = s;
		s += n;
		s += *s == '\n';
	}
	const char *l = best ? best : last;
	snprintf(out, len, "%.*s", l ? (int)strcspn(l, "\n") : 0, l ? l : "");
}

/* With nothing on stderr, the first job's error in fio's JSON, if it got that far: "job
 * rand: No space left on device" (fio's per-job error is an errno). */
static void job_error(const char *out, size_t len, char *line, size_t llen)
{
	static struct fio_out o;
	char why[128];
	if (fio_out_parse(out, len, &o, why, sizeof why) < 0)
		return;
	for (int i = 0; i < o.njobs; i++)
		if (o.jobs[i].error) {
			snprintf(line, llen, "job %s: %s", o.jobs[i].name, strerror(o.jobs[i].error));
			return;
		}
}

/* Runs fio with argv confined to dir (lib/confine.h): whatever its job says, fio reaches
 * nothing but dir, where its relative files land. Fills r from its JSON. Returns 0 or -1. */
static int fio_run(const char *dir, struct argv *a, int timeout_ms, struct fio_res *r)
{
	char prog[4096];
	struct confine c = { .work = dir, .prog = prog, .job = r->job_path[0] ? r->job_path : NULL };
	struct run_opts ro = { .timeout_ms = timeout_ms, .out_cap = FIO_OUT_CAP,
			       .setup = confine_setup, .setup_arg = &c, .path = CONFINE_PROG };
	struct run_result rr;
	char why[256];
	argv_join(a, r->command, sizeof r->command);
	if (confine_which(a->v[0], prog, sizeof prog) < 0)
		return wl_fail(&r->err, r->errmsg, ENOENT, "find %s in PATH", a->v[0]);
	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s();
	int rc = run_argv(a->v, &ro, &rr);
	r->time_s = mono_s() - t0;
	wl_cpu_end(&cpu, &r->cpu);
	int e = errno;
	if (rc < 0)
		return wl_fail(&r->err, r->errmsg, e, "run fio");
	r->status = rr.status;
	if (rr.status != 0) {
		char line[256];
		fio_message(rr.err, line, sizeof line);
		if (!line[0])
			job_error(rr.out, rr.outlen, line, sizeof line);
		r->err = rr.timed_out ? ETIMEDOUT : WL_ETOOL;
		snprintf(r->errmsg, WL_ERR_MAX, "fio exited %d%s%s", rr.status, line[0] ? ": " : "",
			 line);
	} else if (fio_out_parse(rr.out, rr.outlen, &r->out, why, sizeof why) < 0) {
		r->err = EIO;
		snprintf(r->errmsg, WL_ERR_MAX, "unable to read fio's output: %s", why);
	}
	run_free(&rr);
	return r->err ? -1 : 0;
}

/* The job file's text into r, screened; or the inline keys' options screened. */
static int prepare(const struct plan_workload *w, const char *const *dirs, struct fio_res *r)
{
	char why[256];
	int line;
	if (!w->job[0]) {
		const char *key;
		if (fio_keys_unsafe(w, &key, why, sizeof why) < 0) {
			r->err = EINVAL;
			snprintf(r->errmsg, WL_ERR_MAX, "refusing fio %s: %s", key, why);
			return -1;
		}
		return 0;
	}
	if (engine_find_file(w->job, dirs, r->job_path, sizeof r->job_path) < 0) {
		char where[512];
		engine_dirs_text(dirs, where, sizeof where);
		return wl_fail(&r->err, r->errmsg, ENOENT, "find the fio job %s (looked in %s)",
			       w->job, where);
	}
	size_t len;
	char *text = file_read(r->job_path, 1 << 20, &len);
	if (!text)
		return wl_fail(&r->err, r->errmsg, errno, "read the fio job %s", r->job_path);
	snprintf(r->job, sizeof r->job, "%s", text);
	int bad = fio_unsafe(text, 1, &line, why, sizeof why);
	free(text);
	if (bad) {
		r->err = EINVAL;
		snprintf(r->errmsg, WL_ERR_MAX, "refusing the fio job %.90s:%d: %.190s", r->job_path,
			 line, why);
		return -1;
	}
	return 0;
}

static void dir_json(struct jw *w, const char *key, const struct fio_dir *d)
{
	jw_key(w, key);
	jw_obj(w);
	jw_kint(w, "io_bytes", (long long)d->io_bytes);
	jw_kint(w, "total_ios", (long long)d->total_ios);
	jw_kdouble(w, "mbps", d->mbps, 2);
	jw_kdouble(w, "iops", d->iops, 1);
	engine_latency_json(w, "clat", &d->clat);
	jw_end_obj(w);
}

static void fields(struct jw *w, const void *res)
{
	const struct fio_res *r = res;
	for (int d = 0; d < 2; d++) {
		const struct fio_dir *x = d ? &r->out.write : &r->out.read;
		const char *dir = d ? "write" : "read";
		char k[32];
		snprintf(k, sizeof k, "%s_mbps", dir);
		jw_kdouble(w, k, x->mbps, 2);
		snprintf(k, sizeof k, "%s_iops", dir);
		jw_kdouble(w, k, x->iops, 1);
		snprintf(k, sizeof k, "%s_clat", dir);
		engine_latency_json(w, k, &x->clat);
	}
	jw_kstr(w, "fio_version", r->out.version);
	jw_kstr(w, "command", r->command);
	jw_kstr(w, "job_file", r->job_path);
	jw_kstr(w, "job", r->job);
	jw_kint(w, "status", r->status);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kint(w, "jobs_total", r->out.jobs_total);
	jw_key(w, "jobs");
	jw_arr(w);
	for (int i = 0; i < r->out.njobs; i++) {
		const struct fio_job *j = &r->out.jobs[i];
		jw_obj(w);
		jw_kstr(w, "name", j->name);
		jw_kint(w, "error", j->error);
		jw_kdouble(w, "runtime_s", j->runtime_s, 3);
		dir_json(w, "read", &j->read);
		dir_json(w, "write", &j->write);
		jw_end_obj(w);
	}
	jw_end_arr(w);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct fio_res *r = res;
	struct argv a;
	r->out.read = r->out.write = FIO_DIR_NONE;
	if (prepare(w, env->archive_dirs, r) == 0 && engine_drop(env->drop, &r->err, r->errmsg) == 0) {
		fio_argv(w, r->job_path, &a);
		fio_run(env->dir, &a, env->timeout_ms, r);
	}
	if (r->err) {
		*err = r->err;
		memcpy(msg, r->errmsg, WL_ERR_MAX);
	}
}

static const struct wl_cpu *cpu(const void *res) { return &((const struct fio_res *)res)->cpu; }

static void headline(const void *res, char *buf, size_t len)
{
	const struct fio_res *r = res;
	int n = 0;
	buf[0] = '\0';
	if (!isnan(r->out.read.iops))
		n = snprintf(buf, len, "read %.1f MB/s %.0f IOPS p99 %.0f us", r->out.read.mbps,
			     r->out.read.iops, r->out.read.clat.p99);
	if (!isnan(r->out.write.iops) && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%swrite %.1f MB/s %.0f IOPS p99 %.0f us",
			 n ? "; " : "", r->out.write.mbps, r->out.write.iops, r->out.write.clat.p99);
}

/* `fsmatrix workload fio JOB DIR`: the job file run in DIR. */
static int host(const struct engine_host *h, char *const *operands)
{
	static struct fio_res r;
	static const char *const here[] = { "", NULL };
	struct plan_workload w = h->w;
	struct argv a;
	char dir[4096];
	snprintf(w.job, sizeof w.job, "%s", operands[0]);
	if (mkdir(operands[1], 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fsmatrix: unable to create directory %s: %s\n", operands[1],
			strerror(errno));
		return 1;
	}
	/* the job's path as given must still name it once fio runs in DIR */
	if (!realpath(operands[0], r.job_path) || !realpath(operands[1], dir)) {
		fprintf(stderr, "fsmatrix: unable to resolve %s: %s\n", operands[0], strerror(errno));
		return 1;
	}
	snprintf(w.job, sizeof w.job, "%s", r.job_path);
	int rc = -1;
	engine_host_drop(h);
	if (prepare(&w, here, &r) == 0) {
		fio_argv(&w, r.job_path, &a);
		rc = fio_run(dir, &a, 0, &r);
	}
	engine_emit("fio", fields, &r);
	if (r.err)
		fprintf(stderr, "fsmatrix: %s\n", r.errmsg);
	return rc < 0 ? 1 : 0;
}

/* Where the report finds each figure: the run's totals over its jobs (out.read, out.write) */
#define DIR_FIGS(d) \
	{ #d "_mbps", offsetof(struct fio_res, out.d.mbps) }, \
	{ #d "_iops", offsetof(struct fio_res, out.d.iops) }, \
	{ #d "_clat_mean_us", offsetof(struct fio_res, out.d.clat.mean) }, \
	{ #d "_clat_p50_us", offsetof(struct fio_res, out.d.clat.p50) }, \
	{ #d "_clat_p90_us", offsetof(struct fio_res, out.d.clat.p90) }, \
	{ #d "_clat_p99_us", offsetof(struct fio_res, out.d.clat.p99) }, \
	{ #d "_clat_p999_us", offsetof(struct fio_res, out.d.clat.p999) }, \
	{ #d "_clat_max_us", offsetof(struct fio_res, out.d.clat.max) }
static const struct engine_figure figures[] = { DIR_FIGS(read), DIR_FIGS(write), { NULL, 0 } };

const struct engine engine_fio = {
	.name = "fio", .type = WL_FIO,
	.res_size = sizeof(struct fio_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 0, .nargs = 2, .role = { ROLE_READ, ROLE_DIR }, .operands = "JOB and DIR",
	.options = "[--drop-caches]", .about = "fio runs the job file JOB in DIR.",
	.host = host,
};
