/* engines/fio.c: a `type = fio` workload: fio itself (the image's static fio 3.33), run in
 * the cell's mount with --output-format=json, from a job file or from the plan's inline
 * keys. Its JSON is read into per-job, per-direction bandwidth, IOPS and completion latency
 * (core/fio_cmd.c); fio's own message becomes the cell's error when it fails. */
#include "core/fio_cmd.h"
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
	/* the run's figures (out.read/out.write), where the report finds them */
	double read_mbps, read_iops, read_clat_mean_us, read_clat_p50_us, read_clat_p90_us,
	       read_clat_p99_us, read_clat_p999_us, read_clat_max_us;
	double write_mbps, write_iops, write_clat_mean_us, write_clat_p50_us, write_clat_p90_us,
	       write_clat_p99_us, write_clat_p999_us, write_clat_max_us;
	struct wl_cpu cpu;
	int err;
	char errmsg[WL_ERR_MAX];
};
_Static_assert(sizeof(struct fio_res) <= ENGINE_RES_MAX, "a cell result fits");

static void figures_of(const struct fio_dir *d, double *f)
{
	double v[] = { d->mbps, d->iops, d->clat_mean_us, d->clat_p50_us, d->clat_p90_us,
		       d->clat_p99_us, d->clat_p999_us, d->clat_max_us };
	memcpy(f, v, sizeof v);
}

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
	figures_of(&r->out.read, &r->read_mbps);
	figures_of(&r->out.write, &r->write_mbps);
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
	jw_kdouble(w, "clat_mean_us", d->clat_mean_us, 1);
	jw_kdouble(w, "clat_p50_us", d->clat_p50_us, 1);
	jw_kdouble(w, "clat_p90_us", d->clat_p90_us, 1);
	jw_kdouble(w, "clat_p99_us", d->clat_p99_us, 1);
	jw_kdouble(w, "clat_p999_us", d->clat_p999_us, 1);
	jw_kdouble(w, "clat_max_us", d->clat_max_us, 1);
	jw_end_obj(w);
}

static void fields(struct jw *w, const void *res)
{
	const struct fio_res *r = res;
	static const char *const keys[] = { "mbps", "iops", "clat_mean_us", "clat_p50_us",
		"clat_p90_us", "clat_p99_us", "clat_p999_us", "clat_max_us" };
	static const int dec[] = { 2, 1, 1, 1, 1, 1, 1, 1 };
	char k[32];
	for (int d = 0; d < 2; d++)
		for (int i = 0; i < 8; i++) {
			snprintf(k, sizeof k, "%s_%s", d ? "write" : "read", keys[i]);
			jw_kdouble(w, k, (d ? &r->write_mbps : &r->read_mbps)[i], dec[i]);
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
	r->out.read = r->out.write = (struct fio_dir){ 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	figures_of(&r->out.read, &r->read_mbps);
	figures_of(&r->out.write, &r->write_mbps);
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
	if (!isnan(r->read_iops))
		n = snprintf(buf, len, "read %.1f MB/s %.0f IOPS p99 %.0f us", r->read_mbps,
			     r->read_iops, r->read_clat_p99_us);
	if (!isnan(r->write_iops) && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%swrite %.1f MB/s %.0f IOPS p99 %.0f us",
			 n ? "; " : "", r->write_mbps, r->write_iops, r->write_clat_p99_us);
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

#define FIG(f) { #f, offsetof(struct fio_res, f) }
static const struct engine_figure figures[] = {
	FIG(read_mbps), FIG(read_iops), FIG(read_clat_mean_us), FIG(read_clat_p50_us),
	FIG(read_clat_p90_us), FIG(read_clat_p99_us), FIG(read_clat_p999_us), FIG(read_clat_max_us),
	FIG(write_mbps), FIG(write_iops), FIG(write_clat_mean_us), FIG(write_clat_p50_us),
	FIG(write_clat_p90_us), FIG(write_clat_p99_us), FIG(write_clat_p999_us),
	FIG(write_clat_max_us), { NULL, 0 },
};

const struct engine engine_fio = {
	.name = "fio", .type = WL_FIO,
	.res_size = sizeof(struct fio_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 0, .nargs = 2, .role = { ROLE_READ, ROLE_DIR }, .operands = "JOB and DIR",
	.options = "[--drop-caches]", .about = "fio runs the job file JOB in DIR.",
	.host = host,
};
