/* lib/run.c: fork/exec with captured output, a timeout and shell-style status. */
#include "lib/run.h"
#include "lib/clock.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(char *const argv[], const struct run_opts *o, int out, int err)
{
	/* Own group: a timeout kills the tool and whatever it forked. */
	setpgid(0, 0);
	int in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	/* PID 1 may have signals ignored or blocked; tools expect the defaults. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (o->setup && o->setup(o->setup_arg) < 0)
		_exit(126);
	if (o->path)
		execv(o->path, argv);
	else
		execvp(argv[0], argv);
	int e = errno;
	dprintf(2, "fsmatrix: unable to run %s: %s\n", argv[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

static void keep_out(struct run_result *r, size_t cap, const char *b, size_t n)
{
	if (r->outlen + n > cap) {
		r->out_truncated = 1;
		n = cap - r->outlen;
	}
	memcpy(r->out + r->outlen, b, n);
	r->outlen += n;
	r->out[r->outlen] = '\0';
}

static void keep_err(struct run_result *r, const char *b, size_t n)
{
	if (n >= RUN_ERR_TAIL) {
		r->err_truncated = 1;
		memcpy(r->err, b + n - RUN_ERR_TAIL, RUN_ERR_TAIL);
		r->errlen = RUN_ERR_TAIL;
	} else {
		if (r->errlen + n > RUN_ERR_TAIL) {
			size_t drop = r->errlen + n - RUN_ERR_TAIL;
			memmove(r->err, r->err + drop, r->errlen - drop);
			r->errlen -= drop;
			r->err_truncated = 1;
		}
		memcpy(r->err + r->errlen, b, n);
		r->errlen += n;
	}
	r->err[r->errlen] = '\0';
}

static int status_of(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 255;
}

/* A running child and the two pipes it writes: what run_argv watches until it is done. */
struct watch {
	pid_t pid;
	struct pollfd fds[2];       /* stdout, stderr; fd -1 once closed */
	int open_fds, reaped, ws;
	int stage;                  /* 0 running, 1 TERM sent, 2 KILL sent */
	long long deadline;         /* -1: none */
	long long grace;
	size_t cap;
};

/* At the deadline: SIGTERM to the group, then SIGKILL after the grace period. -1 when even
 * that has passed: something outside the group still holds our pipes, stop reading. */
static int escalate(struct watch *w, struct run_result *r)
{
	long long t = mono_ms();
	if (w->deadline < 0 || t < w->deadline)
		return 0;
	if (w->stage == 2)
		return -1;
	if (w->stage == 0)
		r->timed_out = 1;
	kill(-w->pid, w->stage == 0 ? SIGTERM : SIGKILL);
	w->deadline = t + w->grace;
	w->stage++;
	return 0;
}

static void read_ready(struct watch *w, struct run_result *r, int n)
{
	for (int i = 0; i < 2 && n > 0; i++) {
		if (w->fds[i].fd < 0 || !w->fds[i].revents)
			continue;
		char buf[4096];
		ssize_t got = read(w->fds[i].fd, buf, sizeof buf);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			close(w->fds[i].fd);
			w->fds[i].fd = -1;
			w->open_fds--;
			continue;
		}
		if (i == 0)
			keep_out(r, w->cap, buf, (size_t)got);
		else
			keep_err(r, buf, (size_t)got);
	}
}

/* One turn of the watch: the deadline, a look at the child, a read. -1 when done. */
static int watch_once(struct watch *w, struct run_result *r)
{
	if (escalate(w, r) < 0)
		return -1;
	int wait = -1;
	if (w->deadline >= 0)
		wait = (int)(w->deadline - mono_ms() > 0 ? w->deadline - mono_ms() : 0);
	if (!w->reaped) {
		if (waitpid(w->pid, &w->ws, WNOHANG) == w->pid)
			w->reaped = 1;
		/* poll cannot wait for the child itself: look again soon */
		if (!w->reaped && (wait < 0 || wait > 20))
			wait = w->open_fds ? 20 : 5;
		if (w->reaped && w->open_fds == 0)
			return -1;
	}
	if (w->open_fds == 0) {
		if (w->deadline < 0)
			return -1; /* nothing left but the blocking waitpid after */
		poll(NULL, 0, wait);
		return 0;
	}
	int n = poll(w->fds, 2, wait);
	if (n < 0 && errno != EINTR)
		return -1;
	read_ready(w, r, n);
	return 0;
}

int run_argv(char *const argv[], const struct run_opts *opts, struct run_result *r)
{
	static const struct run_opts defaults;
	const struct run_opts *o = opts ? opts : &defaults;
	size_t cap = o->out_cap ? o->out_cap : 1 << 20;
	int po[2], pe[2];

	memset(r, 0, sizeof *r);
	if (!(r->out = malloc(cap + 1)))
		return -1;
	r->out[0] = '\0';
	if (pipe2(po, O_CLOEXEC) < 0) {
		run_free(r);
		return -1;
	}
	if (pipe2(pe, O_CLOEXEC) < 0) {
		int e = errno;
		close(po[0]);
		close(po[1]);
		run_free(r);
		errno = e;
		return -1;
	}
	long long start = mono_ms();
	pid_t pid = fork();
	if (pid == 0)
		child(argv, o, po[1], pe[1]);
	int fork_errno = errno;
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		close(pe[0]);
		run_free(r);
		errno = fork_errno;
		return -1;
	}
	setpgid(pid, pid); /* also here, so the group exists before any kill below */

	struct watch w = { .pid = pid, .fds = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } },
			   .open_fds = 2, .deadline = o->timeout_ms > 0 ? start + o->timeout_ms : -1,
			   .grace = o->grace_ms ? o->grace_ms : 2000, .cap = cap };
	while ((w.open_fds > 0 || !w.reaped) && watch_once(&w, r) == 0)
		;
	for (int i = 0; i < 2; i++)
		if (w.fds[i].fd >= 0)
			close(w.fds[i].fd);
	while (!w.reaped) {
		pid_t got = waitpid(pid, &w.ws, 0);
		if (got == pid || (got < 0 && errno != EINTR))
			w.reaped = 1;
	}
	r->status = status_of(w.ws);
	r->ms = mono_ms() - start;
	return 0;
}

void run_free(struct run_result *r)
{
	free(r->out);
	r->out = NULL;
	r->outlen = 0;
}

static int first_line(const char *s, char *buf, size_t len)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		const char *p = s;
		while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++, n--;
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
			n--;
		if (n > 0) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return 1;
		}
		s += strcspn(s, "\n");
		if (*s)
			s++;
	}
	return 0;
}

void run_first_line(const struct run_result *r, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!first_line(r->out, buf, len))
		first_line(r->err, buf, len);
}
