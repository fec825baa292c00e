/* pid1/workload.c: a cell's workload, run in a child process so that the cell's deadline can
 * end it (a workload blocked in write(2) cannot be interrupted from inside). The child runs
 * the shared engines (workload.h), which time themselves and account their own CPU, and
 * sends its figures back through a pipe; PID 1 kills the child's process group when the
 * deadline passes. */
#include "pid1/cell.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A tar workload's archive: as given when absolute, else from the results partition (the
 * user's own), else from the image. */
static int find_archive(const char *file, char *out, size_t len)
{
	static const char *const dirs[] = { RESULTS_MNT "/fsmatrix", "/plans", "" };
	if (file[0] == '/') {
		snprintf(out, len, "%s", file);
		return access(out, R_OK);
	}
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], file) >= len)
			continue;
		if (access(out, R_OK) == 0)
			return 0;
	}
	snprintf(out, len, "%s", file);
	return -1;
}

static int drop_now(int drop, struct wl_outcome *o)
{
	if (drop && wl_drop_caches() < 0)
		return wl_fail(&o->err, o->errmsg, errno, "drop caches");
	return 0;
}

static void add_pass(struct wl_smallfiles_res *t, const struct wl_smallfiles_res *r, int first)
{
	double before = t->time_s + t->sync_s, d = r->time_s + r->sync_s;
	if (first) {
		*t = *r;
		return;
	}
	t->files += r->files;
	t->dirs += r->dirs;
	t->bytes += r->bytes;
	t->time_s += r->time_s;
	t->sync_s += r->sync_s;
	double all = t->time_s + t->sync_s;
	t->files_per_s = all > 0 ? (double)t->files / all : 0;
	t->mbps = all > 0 ? (double)t->bytes / all / 1e6 : 0;
	/* CPU shares weighted by each pass's duration */
	if (all > 0) {
		t->cpu.user_pct = (t->cpu.user_pct * before + r->cpu.user_pct * d) / all;
		t->cpu.sys_pct = (t->cpu.sys_pct * before + r->cpu.sys_pct * d) / all;
		t->cpu.iowait_pct = (t->cpu.iowait_pct * before + r->cpu.iowait_pct * d) / all;
	}
	if (r->err && !t->err) {
		t->err = r->err;
		memcpy(t->errmsg, r->errmsg, sizeof t->errmsg);
	}
}

static void smallfiles(const struct plan_workload *w, int drop, struct wl_outcome *o)
{
	struct tree t;
	if (tree_generate(&t, w->size, (uint64_t)w->files, w->seed) < 0) {
		wl_fail(&o->err, o->errmsg, errno, "generate the file set");
		return;
	}
	unsigned char *pool = wl_tree_pool(w->seed);
	if (!pool) {
		wl_fail(&o->err, o->errmsg, ENOMEM, "allocate the file contents");
		tree_free(&t);
		return;
	}
	for (int i = 0; i < w->passes; i++) {
		struct wl_smallfiles_res r;
		char dir[64];
		if (drop_now(drop, o) < 0)
			break;
		snprintf(dir, sizeof dir, TEST_MNT "/pass%d", i + 1);
		wl_smallfiles_write(&t, pool, dir, w->sync == SYNC_NONE, &r);
		if (o->npasses < PASS_REC_MAX)
			o->pass[o->npasses] = r;
		add_pass(&o->sf, &r, o->npasses == 0);
		o->npasses++;
		if (r.err) {
			o->err = r.err;
			snprintf(o->errmsg, sizeof o->errmsg, "pass %d: %.300s", i + 1, r.errmsg);
			break;
		}
	}
	free(pool);
	tree_free(&t);
}

static void child_work(const struct plan_workload *w, int drop, int timeout_ms,
		       struct wl_outcome *o)
{
	switch (w->type) {
	case WL_SEQWRITE: {
		/* kept: df after the workload then shows the file; the filesystem goes anyway */
		struct wl_seqwrite_opts so = { .size = w->size, .bs = w->bs, .direct = w->direct,
					       .zero = w->data == DATA_ZERO, .keep = 1 };
		if (drop_now(drop, o) == 0 && wl_seqwrite(TEST_MNT "/seqwrite.dat", &so, &o->sw) < 0) {
			o->err = o->sw.err;
			memcpy(o->errmsg, o->sw.errmsg, sizeof o->errmsg);
		}
		break;
	}
	case WL_SMALLFILES:
		smallfiles(w, drop, o);
		break;
	case WL_TAR: {
		if (find_archive(w->file, o->archive, sizeof o->archive) < 0) {
			wl_fail(&o->err, o->errmsg, ENOENT, "find the archive %s (looked in "
				RESULTS_MNT "/fsmatrix, /plans and /)", w->file);
			break;
		}
		struct wl_tar_opts to = { .tar = "tar", .archive = o->archive,
					  .timeout_ms = timeout_ms, .no_sync = w->sync == SYNC_NONE };
		if (drop_now(drop, o) == 0 && wl_tar(TEST_MNT "/tar", &to, &o->tar) < 0) {
			o->err = o->tar.err;
			memcpy(o->errmsg, o->tar.errmsg, sizeof o->errmsg);
		}
		break;
	}
	}
}

int workload_run(const struct plan_workload *w, int drop, int timeout_ms, struct wl_outcome *o)
{
	int fds[2];
	memset(o, 0, sizeof *o);
	o->type = w->type;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return wl_fail(&o->err, o->errmsg, errno, "create a pipe for the workload");
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return wl_fail(&o->err, o->errmsg, errno, "fork the workload");
	}
	if (pid == 0) {
		close(fds[0]);
		setpgid(0, 0);
		signal(SIGPIPE, SIG_IGN);
		struct wl_outcome *mine = calloc(1, sizeof *mine);
		if (!mine)
			_exit(1);
		mine->type = w->type;
		child_work(w, drop, timeout_ms, mine);
		_exit(write_all(fds[1], mine, sizeof *mine) < 0 ? 1 : 0);
	}
	close(fds[1]);
	setpgid(pid, pid); /* also from here: no race with a kill before the child ran */

	long long deadline = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	struct wl_outcome *in = calloc(1, sizeof *in);
	size_t got = 0;
	while (in && got < sizeof *in) {
		int wait = -1;
		if (deadline) {
			long long left = deadline - mono_ms();
			if (left <= 0) {
				o->timed_out = 1;
				break;
			}
			wait = left > 1000000 ? 1000000 : (int)left;
		}
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		int r = poll(&pf, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue;
		ssize_t n = read(fds[0], (char *)in + got, sizeof *in - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	if (o->timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	/* A child stuck in the kernel (D state) cannot die: wait a little, then leave it to
	 * reap_orphans() rather than hang the run. */
	int status = 0, reaped = 0;
	for (int i = 0; i < 100 && !reaped; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			reaped = 1;
		else
			usleep(100 * 1000);
	}
	if (in && got == sizeof *in) {
		*o = *in;
	} else if (o->timed_out) {
		snprintf(o->errmsg, sizeof o->errmsg, "the workload did not finish within %d s: "
			 "killed%s", timeout_ms / 1000, reaped ? "" : " (it did not die: stuck in the kernel?)");
		o->err = ETIMEDOUT;
	} else {
		o->err = EIO;
		if (reaped && WIFSIGNALED(status))
			snprintf(o->errmsg, sizeof o->errmsg, "the workload process died of signal %d",
				 WTERMSIG(status));
		else
			snprintf(o->errmsg, sizeof o->errmsg, "the workload process ended without "
				 "its figures (exit status %d)", reaped && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	free(in);
	return o->err ? -1 : 0;
}

void workload_result_json(struct jw *jw, const struct wl_outcome *o)
{
	switch (o->type) {
	case WL_SEQWRITE:
		wl_seqwrite_json(jw, &o->sw);
		break;
	case WL_SMALLFILES:
		wl_smallfiles_json(jw, &o->sf);
		if (o->npasses > 1) {
			jw_key(jw, "passes");
			jw_arr(jw);
			for (int i = 0; i < o->npasses && i < PASS_REC_MAX; i++) {
				jw_obj(jw);
				wl_smallfiles_json(jw, &o->pass[i]);
				jw_end_obj(jw);
			}
			jw_end_arr(jw);
		}
		break;
	case WL_TAR:
		jw_kstr(jw, "archive", o->archive);
		wl_tar_json(jw, &o->tar);
		break;
	}
}

static const struct wl_cpu *cpu_of(const struct wl_outcome *o)
{
	return o->type == WL_SEQWRITE ? &o->sw.cpu : o->type == WL_SMALLFILES ? &o->sf.cpu
									     : &o->tar.cpu;
}

void workload_cpu_json(struct jw *jw, const struct wl_outcome *o)
{
	jw_key(jw, "cpu");
	jw_obj(jw);
	wl_cpu_json(jw, cpu_of(o));
	jw_end_obj(jw);
}

static void metric(struct cell_result *r, const char *name, double v)
{
	if (r->nmetric < METRIC_MAX) {
		r->metric_name[r->nmetric] = name;
		r->metric[r->nmetric++] = v;
	}
}

void workload_metrics(const struct wl_outcome *o, struct cell_result *r)
{
	switch (o->type) {
	case WL_SEQWRITE:
		metric(r, "mbps", o->sw.mbps);
		metric(r, "mbps_noflush", o->sw.mbps_noflush);
		metric(r, "write_s", o->sw.write_s);
		metric(r, "flush_s", o->sw.flush_s);
		metric(r, "total_s", o->sw.total_s);
		snprintf(r->headline, sizeof r->headline, "%.1f MB/s (%.1f MB/s before the flush)",
			 o->sw.mbps, o->sw.mbps_noflush);
		break;
	case WL_SMALLFILES:
		metric(r, "mbps", o->sf.mbps);
		metric(r, "files_per_s", o->sf.files_per_s);
		metric(r, "time_s", o->sf.time_s);
		metric(r, "sync_s", o->sf.sync_s);
		snprintf(r->headline, sizeof r->headline, "%.1f MB/s, %.0f files/s", o->sf.mbps,
			 o->sf.files_per_s);
		break;
	case WL_TAR:
		metric(r, "mbps", o->tar.mbps);
		metric(r, "time_s", o->tar.time_s);
		metric(r, "sync_s", o->tar.sync_s);
		snprintf(r->headline, sizeof r->headline, "%.1f MB/s", o->tar.mbps);
		break;
	}
	const struct wl_cpu *c = cpu_of(o);
	metric(r, "cpu_user_pct", c->user_pct);
	metric(r, "cpu_sys_pct", c->sys_pct);
	metric(r, "cpu_iowait_pct", c->iowait_pct);
}
