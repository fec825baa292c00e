/* cell/workload.c: a cell's workload, run in a child process so that the cell's deadline can
 * end it (a workload blocked in write(2) cannot be interrupted from inside). The child runs
 * the shared engines through their table (engines/engine.h), which time themselves and
 * account their own CPU, and sends its figures back through a pipe; PID 1 kills the child's
 * process group when the deadline passes, and then whatever is left in its cgroup
 * (cell/contain.c): the tools an engine runs sit in process groups of their own. While it waits it samples the cell's time series
 * (cell/sampler.c): from the fork to the figures, so the timed sync too. */
#include "cell/cell.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child_work(const struct plan_workload *w, int drop, int timeout_ms,
		       const char *const *archive_dirs, const char *log_dm, struct wl_outcome *o)
{
	const struct engine *e = engine_of(w->type);
	struct engine_cell_env env = { .dir = TEST_MNT, .archive_dirs = archive_dirs,
				       .drop = drop, .timeout_ms = timeout_ms, .log_dm = log_dm };
	if (e)
		e->cell(w, &env, o->res, &o->err, o->errmsg);
}

/* The child's figures, read until they are whole, the pipe closes or the deadline passes
 * (then o->timed_out). Returns how many bytes came. */
static size_t read_figures(int fd, struct wl_outcome *in, long long deadline, struct wl_outcome *o,
			   struct sampler *smp)
{
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
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int r = poll(&pf, 1, sampler_wait_ms(smp, wait));
		sampler_tick(smp);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue;
		ssize_t n = read(fd, (char *)in + got, sizeof *in - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* A child stuck in the kernel (D state) cannot die: wait a little, then leave it to PID 1's
 * reaping of orphans (the run environment's reap) rather than hang the run. Returns 1 if it
 * was reaped. */
static int reap_child(pid_t pid, int *status)
{
	for (int i = 0; i < 100; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

/* Why there are no figures: the deadline, a signal, or an exit without them. */
static void no_figures(struct wl_outcome *o, int timeout_ms, int reaped, int status)
{
	if (o->timed_out) {
		snprintf(o->errmsg, sizeof o->errmsg, "the workload did not finish within %d s: "
			 "killed%s", timeout_ms / 1000, reaped ? "" : " (it did not die: stuck in the kernel?)");
		o->err = ETIMEDOUT;
		return;
	}
	o->err = EIO;
	if (reaped && WIFSIGNALED(status))
		snprintf(o->errmsg, sizeof o->errmsg, "the workload process died of signal %d",
			 WTERMSIG(status));
	else
		snprintf(o->errmsg, sizeof o->errmsg, "the workload process ended without "
			 "its figures (exit status %d)", reaped && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static _Noreturn void run_child(const struct plan_workload *w, int drop, int timeout_ms,
				const char *const *archive_dirs, const char *log_dm, int fd,
				int contained)
{
	setpgid(0, 0);
	if (contained && contain_join() < 0)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	struct wl_outcome *mine = calloc(1, sizeof *mine);
	if (!mine)
		_exit(1);
	mine->type = w->type;
	child_work(w, drop, timeout_ms, archive_dirs, log_dm, mine);
	_exit(write_all(fd, mine, sizeof *mine) < 0 ? 1 : 0);
}

int workload_run(const struct plan_workload *w, int drop, int timeout_ms,
		 const char *const *archive_dirs, const char *log_dm, struct wl_outcome *o,
		 struct sampler *smp)
{
	int fds[2];
	memset(o, 0, sizeof *o);
	o->type = w->type;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return wl_fail(&o->err, o->errmsg, errno, "create a pipe for the workload");
	int contained = contain_ready() == 0;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return wl_fail(&o->err, o->errmsg, errno, "fork the workload");
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(w, drop, timeout_ms, archive_dirs, log_dm, fds[1], contained);
	}
	close(fds[1]);
	setpgid(pid, pid); /* also from here: no race with a kill before the child ran */

	long long deadline = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	struct wl_outcome *in = calloc(1, sizeof *in);
	size_t got = read_figures(fds[0], in, deadline, o, smp);
	sampler_stop(smp);
	close(fds[0]);
	if (o->timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	int status = 0, reaped = reap_child(pid, &status);
	if (in && got == sizeof *in)
		*o = *in;
	else
		no_figures(o, timeout_ms, reaped, status);
	free(in);
	/* Before the cell goes on to unmount: a process left writing would hold the mount (in
	 * a namespace of its own) and keep the disk busy for every later cell. */
	if (contained && contain_end(o->killed, sizeof o->killed, 30000) < 0 && !o->err) {
		o->err = EBUSY;
		snprintf(o->errmsg, sizeof o->errmsg, "processes the workload started did not "
			 "die within 30 s of being killed: %s", o->killed);
	}
	return o->err ? -1 : 0;
}

void workload_result_json(struct jw *jw, const struct wl_outcome *o)
{
	const struct engine *e = engine_of(o->type);
	if (e)
		e->cell_json(jw, o->res);
}

void workload_cpu_json(struct jw *jw, const struct wl_outcome *o)
{
	const struct engine *e = engine_of(o->type);
	jw_key(jw, "cpu");
	jw_obj(jw);
	if (e)
		wl_cpu_json(jw, e->cpu(o->res));
	jw_end_obj(jw);
}

double workload_figure(const struct wl_outcome *o, const char *key)
{
	const struct engine *e = engine_of(o->type);
	return e ? engine_figure(e, o->res, key) : NAN;
}

static void metric(struct cell_result *r, const char *name, double v)
{
	if (r->nmetric < METRIC_MAX) {
		r->metric_name[r->nmetric] = name;
		r->metric[r->nmetric++] = v;
	}
}

/* The engine's metrics in the order of its row (core/workload/workload_kinds.c), then CPU, which
 * every engine accounts the same way. */
void workload_metrics(const struct wl_outcome *o, struct cell_result *r)
{
	const struct engine *e = engine_of(o->type);
	const struct wl_kind *k = wl_kind_of(o->type);
	if (!e || !k)
		return;
	for (const struct metric *m = k->metrics; m->key; m++)
		metric(r, m->key, engine_figure(e, o->res, m->key));
	e->headline(o->res, r->headline, sizeof r->headline);
	const struct wl_cpu *c = e->cpu(o->res);
	metric(r, "cpu_user_pct", c->user_pct);
	metric(r, "cpu_sys_pct", c->sys_pct);
	metric(r, "cpu_iowait_pct", c->iowait_pct);
}
