/* core/workload/fio_cmd.c: fio's command line from a plan's keys, the screen for job text, and the
 * reading of fio's JSON output (fio_cmd.h). */
#include "core/workload/fio_cmd.h"
#include "lib/confine.h"
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
		argv_add(a, CONFINE_JOB);
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

/* The screen is a courtesy, not the defence: fio runs confined to the cell's mount
 * (lib/confine.h) whatever its job says. It turns away, with the job file's line, what
 * cannot work there, so that `fsmatrix check` says so before a boot rather than a cell's
 * error after it. */
enum key_kind {
	KEY_PROGRAM,    /* runs a program: there is none but fio in reach */
	KEY_INCLUDE,    /* reads another file: only the job is in reach */
	KEY_DEVICE,     /* sets a device's queue: no device is in reach */
	KEY_PATH,       /* names files: relative ones land in the cell's mount */
	KEY_ENGINE,     /* an engine: exec and external ones run or load programs */
	KEY_COMMAND,    /* a command-line option fsmatrix sets itself, or one of fio's
	                   client/server mode */
};

static const struct {
	const char *name;
	enum key_kind kind;
} keys[] = {
	{ "exec_prerun", KEY_PROGRAM }, { "exec_postrun", KEY_PROGRAM },
	{ "trigger", KEY_PROGRAM }, { "trigger-remote", KEY_PROGRAM },
	{ "include", KEY_INCLUDE }, { "ioscheduler", KEY_DEVICE },
	{ "filename", KEY_PATH }, { "directory", KEY_PATH }, { "filename_format", KEY_PATH },
	{ "opendir", KEY_PATH }, { "write_bw_log", KEY_PATH }, { "write_lat_log", KEY_PATH },
	{ "write_iops_log", KEY_PATH }, { "write_hist_log", KEY_PATH },
	{ "read_iolog", KEY_PATH }, { "write_iolog", KEY_PATH }, { "replay_redirect", KEY_PATH },
	{ "ioengine", KEY_ENGINE },
	{ "output", KEY_COMMAND }, { "output-format", KEY_COMMAND }, { "client", KEY_COMMAND },
	{ "server", KEY_COMMAND }, { "daemonize", KEY_COMMAND }, { "remote-config", KEY_COMMAND },
	{ "trigger-file", KEY_COMMAND }, { "trigger-timeout", KEY_COMMAND },
	{ "aux-path", KEY_COMMAND }, { "inflate-log", KEY_COMMAND }, { "latency-log", KEY_COMMAND },
	{ "bandwidth-log", KEY_COMMAND }, { "status-interval", KEY_COMMAND }, { "eta", KEY_COMMAND },
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The row of key (n bytes), or -1. abbrev: also a row key is the start of, as fio's
 * command line (getopt_long) takes "--exec_pre" for --exec_prerun; *full says which. */
static int key_row(const char *key, size_t n, int abbrev, const char **full)
{
	int found = -1;
	for (size_t i = 0; i < NKEYS; i++) {
		size_t kl = strlen(keys[i].name);
		if (n == kl && strncmp(keys[i].name, key, n) == 0) {
			*full = keys[i].name;
			return (int)i;
		}
		if (abbrev && n && n < kl && strncmp(keys[i].name, key, n) == 0 && found < 0)
			found = (int)i;
	}
	if (found >= 0)
		*full = keys[found].name;
	return found;
}

/* A path value (fio's ':' separates several files) names only places in the mount when
 * none of its parts is absolute. */
static int path_outside(const char *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == '/' && (i == 0 || v[i - 1] == ':'))
			return 1;
	return 0;
}

/* Why key=value (the key's row, the value n bytes) is turned away, into why; 0 when not. */
static int screen_pair(int row, const char *full, const char *v, size_t n, char *why,
		       size_t len)
{
	switch (keys[row].kind) {
	case KEY_PROGRAM:
		snprintf(why, len, "%s runs a program: fio runs confined to the cell's mount, "
			 "with no program but itself", full);
		return -1;
	case KEY_INCLUDE:
		snprintf(why, len, "include reads another file: fio runs confined to the cell's "
			 "mount with only its job; put the options in the job");
		return -1;
	case KEY_DEVICE:
		snprintf(why, len, "%s sets a device's queue: fio runs confined to the cell's "
			 "mount, with no device in reach", full);
		return -1;
	case KEY_PATH:
		if (!path_outside(v, n))
			return 0;
		snprintf(why, len, "%s=%.*s names a path outside the cell's mount: fio runs "
			 "confined to it, and relative names land in it", full, (int)(n > 80 ? 80 : n),
			 v);
		return -1;
	case KEY_ENGINE:
		/* exec runs programs; external:LIB, or a path, loads one */
		if (!(n == 4 && strncmp(v, "exec", 4) == 0) &&
		    !(n >= 8 && strncmp(v, "external", 8) == 0) && !memchr(v, '/', n))
			return 0;
		snprintf(why, len, "ioengine=%.*s runs or loads a program: fio runs confined to "
			 "the cell's mount, with no program but itself", (int)(n > 40 ? 40 : n), v);
		return -1;
	case KEY_COMMAND:
		snprintf(why, len, "--%s is not allowed: fsmatrix runs fio confined to the cell's "
			 "mount and reads its JSON output", full);
		return -1;
	}
	return 0;
}

/* A control character in a line: fio's parser takes \v and \f for blanks, so a key behind
 * one is still a key; they have no place in a job. Returns it, or 0. */
static int control_char(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == n)) || c == 0x7f)
			return c;
	}
	return 0;
}

/* One "key[=value]" of a job file line (blanks allowed around '='). */
static int screen_line(const char *s, size_t n, char *why, size_t len)
{
	int c = control_char(s, n);
	if (c) {
		snprintf(why, len, "a control character (0x%02x): fio reads it as a blank", c);
		return -1;
	}
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (!n || *s == '#' || *s == ';' || *s == '[')
		return 0;
	size_t k = 0;
	while (k < n && s[k] != '=' && s[k] != ' ' && s[k] != '\t')
		k++;
	const char *full, *v = s + k;
	size_t vn = n - k;
	while (vn && (*v == ' ' || *v == '\t' || *v == '='))
		v++, vn--;
	int row = key_row(s, k, 0, &full);
	return row < 0 ? 0 : screen_pair(row, full, v, vn, why, len);
}

int fio_unsafe(const char *text, int job_file, int *line, char *why, size_t len)
{
	*line = 0;
	if (job_file) {
		for (const char *s = text; *s;) {
			size_t n = strcspn(s, "\n");
			++*line;
			if (screen_line(s, n, why, len) < 0)
				return -1;
			s += n;
			s += *s == '\n';
		}
		*line = 0;
		return 0;
	}
	struct argv a;
	char err[128];
	int c = control_char(text, strlen(text));
	if (c) {
		snprintf(why, len, "options hold a control character (0x%02x)", c);
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
		const char *full, *v = w[2 + k] ? w + 3 + k : "";
		int row = key_row(w + 2, k, 1, &full);
		if (row >= 0 && screen_pair(row, full, v, strlen(v), why, len) < 0)
			return -1;
	}
	return 0;
}

int fio_keys_unsafe(const struct plan_workload *w, const char **key, char *why, size_t len)
{
	const char *full;
	int line, row = key_row("ioengine", 8, 0, &full);
	*key = "ioengine";
	if (screen_pair(row, full, w->ioengine, strlen(w->ioengine), why, len) < 0)
		return -1;
	*key = "options";
	return fio_unsafe(w->options, 0, &line, why, len);
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
		{ "50.000000", offsetof(struct fio_dir, clat.p50) },
		{ "90.000000", offsetof(struct fio_dir, clat.p90) },
		{ "99.000000", offsetof(struct fio_dir, clat.p99) },
		{ "99.900000", offsetof(struct fio_dir, clat.p999) },
	};
	if (json_member(d, dlen, "clat_ns", &c, &clen) < 0)
		return;
	o->clat.mean = member_or_nan(c, clen, "mean") / 1000;
	o->clat.max = member_or_nan(c, clen, "max") / 1000;
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
	*o = FIO_DIR_NONE;
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
	for (size_t i = 0; i < LATENCY_FIELDS; i++) {
		double *tv = (double *)((char *)&t->clat + latency_fields[i].off);
		*tv = worst(*tv, *(const double *)((const char *)&j->clat + latency_fields[i].off));
	}
}

int fio_out_parse(const char *text, size_t len, struct fio_out *o, char *why, size_t wlen)
{
	const char *start = memchr(text, '{', len), *jobs, *job;
	size_t jlen, n;
	memset(o, 0, sizeof *o);
	o->read = o->write = FIO_DIR_NONE;
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
