/* core/fio_cmd.c: fio's command line from a plan's keys, the screen for job text, and the
 * reading of fio's JSON output (fio_cmd.h). */
#include "core/fio_cmd.h"
#include "lib/jscan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ the command line */

void fio_argv(const struct plan_workload *w, const char *job, struct argv *a)
{
	argv_init(a);
	argv_add(a, "fio");
	argv_add(a, "--output-format=json");
	if (job && job[0]) {
		argv_add(a, job);
		return;
	}
	argv_addf(a, "--name=%s", w->name[0] ? w->name : "fio");
	if (w->rw[0])
		argv_addf(a, "--rw=%s", w->rw);
	argv_addf(a, "--bs=%llu", (unsigned long long)w->bs);
	if (w->size)
		argv_addf(a, "--size=%llu", (unsigned long long)w->size);
	if (w->ioengine[0])
		argv_addf(a, "--ioengine=%s", w->ioengine);
	if (w->iodepth)
		argv_addf(a, "--iodepth=%d", w->iodepth);
	if (w->numjobs)
		argv_addf(a, "--numjobs=%d", w->numjobs);
	if (w->direct)
		argv_add(a, "--direct=1");
	if (w->fsync_every)
		argv_addf(a, "--fsync=%d", w->fsync_every);
	if (w->runtime_s)
		argv_addf(a, "--runtime=%us", w->runtime_s);
	if (w->time_based)
		argv_add(a, "--time_based");
	char err[128];
	argv_split(a, w->options, err, sizeof err);   /* checked when the plan was read */
}

/* ------------------------------------------------------------------ the screen */

/* Job options that name paths: fio would open whatever they say, devices included. */
static const char *const path_keys[] = {
	"filename", "directory", "filename_format", "opendir", "include", "ioscheduler",
	"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log", "exec_prerun",
	"exec_postrun", "read_iolog", "write_iolog", "replay_redirect", "trigger", NULL,
};
/* fio command-line options (not job options) that have no place among a plan's words. */
static const char *const cmd_keys[] = {
	"output", "output-format", "client", "server", "daemonize", "remote-config",
	"trigger-file", "trigger-timeout", "trigger", "trigger-remote", "aux-path", "inflate-log",
	"latency-log", "bandwidth-log", "status-interval", "eta", NULL,
};

static int listed(const char *const *list, const char *key, size_t n)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && strncmp(list[i], key, n) == 0)
			return 1;
	return 0;
}

/* One "key[=value]" of a job file line (blanks allowed around '='). */
static int screen_line(const char *s, size_t n, int line, char *why, size_t len)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (!n || *s == '#' || *s == ';' || *s == '[')
		return 0;
	size_t k = 0;
	/* "\r": a job file saved with CRLF line ends */
	while (k < n && s[k] != '=' && s[k] != ' ' && s[k] != '\t' && s[k] != '\r')
		k++;
	if (listed(path_keys, s, k)) {
		snprintf(why, len, "line %d: %.*s is not allowed: fio runs in the cell's mount and "
			 "names its own files there", line, (int)k, s);
		return -1;
	}
	return 0;
}

int fio_unsafe(const char *text, int job_file, char *why, size_t len)
{
	if (job_file) {
		int line = 1;
		for (const char *s = text; *s; line++) {
			size_t n = strcspn(s, "\n");
			if (screen_line(s, n, line, why, len) < 0)
				return -1;
			s += n;
			s += *s == '\n';
		}
		return 0;
	}
	struct argv a;
	char err[128];
	for (const char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t') {
			snprintf(why, len, "options hold a control character (0x%02x)", (unsigned char)*c);
			return -1;
		}
	argv_init(&a);
	if (argv_split(&a, text, err, sizeof err) < 0) {
		snprintf(why, len, "%s", err);
		return -1;
	}
	for (int i = 0; i < a.n; i++) {
		const char *w = a.v[i];
		if (strncmp(w, "--", 2) != 0 || !w[2]) {
			snprintf(why, len, "\"%s\": expected fio options such as --rwmixread=70", w);
			return -1;
		}
		size_t k = strcspn(w + 2, "=");
		if (listed(path_keys, w + 2, k) || listed(cmd_keys, w + 2, k)) {
			snprintf(why, len, "\"%s\" is not allowed: fsmatrix runs fio in the cell's "
				 "mount and reads its JSON output", w);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ fio's JSON */

static double member_or_nan(const char *obj, size_t len, const char *key)
{
	double v;
	return json_member_double(obj, len, key, &v) == 0 ? v : NAN;
}

/* clat_ns {mean, max, percentile {"50.000000": ...}} in microseconds. */
static void read_clat(const char *d, size_t dlen, struct fio_dir *o)
{
	const char *c, *pc;
	size_t clen, pclen;
	static const struct { const char *key; size_t off; } pcts[] = {
		{ "50.000000", offsetof(struct fio_dir, clat_p50_us) },
		{ "90.000000", offsetof(struct fio_dir, clat_p90_us) },
		{ "99.000000", offsetof(struct fio_dir, clat_p99_us) },
		{ "99.900000", offsetof(struct fio_dir, clat_p999_us) },
	};
	if (json_member(d, dlen, "clat_ns", &c, &clen) < 0)
		return;
	o->clat_mean_us = member_or_nan(c, clen, "mean") / 1000;
	o->clat_max_us = member_or_nan(c, clen, "max") / 1000;
	if (json_member(c, clen, "percentile", &pc, &pclen) < 0)
		return;
	for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
		*(double *)((char *)o + pcts[i].off) = member_or_nan(pc, pclen, pcts[i].key) / 1000;
}

static void read_dir(const char *job, size_t jlen, const char *name, struct fio_dir *o)
{
	const char *d;
	size_t dlen;
	long long ios = 0, bytes = 0;
	*o = (struct fio_dir){ 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (json_member(job, jlen, name, &d, &dlen) < 0 ||
	    json_member_int(d, dlen, "total_ios", &ios) < 0 || ios <= 0)
		return;
	json_member_int(d, dlen, "io_bytes", &bytes);
	o->total_ios = (uint64_t)ios;
	o->io_bytes = (uint64_t)bytes;
	o->mbps = member_or_nan(d, dlen, "bw_bytes") / 1e6;
	o->iops = member_or_nan(d, dlen, "iops");
	read_clat(d, dlen, o);
}

static double worst(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmax(a, b); }
static double add(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a + b; }

/* The run's figures of one direction, from every job's. */
static void total_dir(struct fio_dir *t, const struct fio_dir *j)
{
	t->io_bytes += j->io_bytes;
	t->total_ios += j->total_ios;
	t->mbps = add(t->mbps, j->mbps);
	t->iops = add(t->iops, j->iops);
	t->clat_mean_us = worst(t->clat_mean_us, j->clat_mean_us);
	t->clat_p50_us = worst(t->clat_p50_us, j->clat_p50_us);
	t->clat_p90_us = worst(t->clat_p90_us, j->clat_p90_us);
	t->clat_p99_us = worst(t->clat_p99_us, j->clat_p99_us);
	t->clat_p999_us = worst(t->clat_p999_us, j->clat_p999_us);
	t->clat_max_us = worst(t->clat_max_us, j->clat_max_us);
}

int fio_out_parse(const char *text, size_t len, struct fio_out *o, char *why, size_t wlen)
{
	const char *start = memchr(text, '{', len), *jobs, *job;
	size_t jlen, n;
	memset(o, 0, sizeof *o);
	o->read = o->write = (struct fio_dir){ 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (!start) {
		snprintf(why, wlen, "fio printed no JSON");
		return -1;
	}
	len -= (size_t)(start - text);
	/* fio may print notes after the object too; the object ends at the last '}' */
	while (len && start[len - 1] != '}')
		len--;
	if (json_valid(start, len) < 0) {
		snprintf(why, wlen, "fio's output is not valid JSON");
		return -1;
	}
	if (json_member_str(start, len, "fio version", o->version, sizeof o->version) < 0 ||
	    json_member(start, len, "jobs", &jobs, &jlen) < 0) {
		snprintf(why, wlen, "fio's JSON has no \"fio version\" or no \"jobs\"");
		return -1;
	}
	for (int i = 0; json_item(jobs, jlen, i, &job, &n) == 0; i++) {
		o->jobs_total++;
		if (o->njobs == FIO_JOBS_MAX)
			continue;
		struct fio_job *j = &o->jobs[o->njobs++];
		long long e = 0, rt = 0;
		if (json_member_str(job, n, "jobname", j->name, sizeof j->name) < 0)
			snprintf(j->name, sizeof j->name, "job%d", i);
		json_member_int(job, n, "error", &e);
		json_member_int(job, n, "job_runtime", &rt);
		j->error = (int)e;
		j->runtime_s = (double)rt / 1000;
		read_dir(job, n, "read", &j->read);
		read_dir(job, n, "write", &j->write);
		total_dir(&o->read, &j->read);
		total_dir(&o->write, &j->write);
	}
	if (o->jobs_total == 0) {
		snprintf(why, wlen, "fio's JSON lists no jobs");
		return -1;
	}
	return 0;
}
