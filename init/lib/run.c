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
	int in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	/* PID 1 may have signals ignored or blocked; tools expect the defaults. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
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

int run_argv(char *const argv[], const struct run_opts *opts, struct run_result *r)
{
	static const struct run_opts defaults;
	const struct run_opts *o = opts ? opts : &defaults;
	size_t cap = o->out_cap ? o->out_cap : 1 << 20;
	long long grace = o->grace_ms ? o->grace_ms : 2000;
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

	struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	int open_fds = 2, reaped = 0, ws = 0, stage = 0; /* 0 running, 1 TERM sent, 2 KILL sent */
	long long deadline = o->timeout_ms > 0 ? start + o->timeout_ms : -1;

	while (open_fds > 0 || !reaped) {
		int wait = -1;
		long long t = mono_ms();
		if (deadline >= 0 && t >= deadline) {
			if (stage == 0) {
				r->timed_out = 1;
				kill(-pid, SIGTERM);
				deadline = t + grace;
				stage = 1;
			} else if (stage == 1) {
				kill(-pid, SIGKILL);
				deadline = t + grace;
				stage = 2;
			} else {
				/* Something outside the group still holds our pipes: stop reading. */
				break;
			}
		}
		if (deadline >= 0)
			wait = (int)(deadline - mono_ms() > 0 ? deadline - mono_ms() : 0);
		if (!reaped) {
			pid_t w = waitpid(pid, &ws, WNOHANG);
			if (w == pid)
				reaped = 1;
			/* poll cannot wait for the child itself: look again soon */
			if (!reaped && (wait < 0 || wait > 20))
				wait = open_fds ? 20 : 5;
			if (reaped && open_fds == 0)
				break;
		}
		if (open_fds == 0) {
			if (deadline < 0)
				break; /* nothing left but the blocking waitpid below */
			poll(NULL, 0, wait);
			continue;
		}
		int n = poll(fds, 2, wait);
		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2 && n > 0; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			char buf[4096];
			ssize_t got = read(fds[i].fd, buf, sizeof buf);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 0)
				keep_out(r, cap, buf, (size_t)got);
			else
				keep_err(r, buf, (size_t)got);
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	while (!reaped) {
		pid_t w = waitpid(pid, &ws, 0);
		if (w == pid || (w < 0 && errno != EINTR))
			reaped = 1;
	}
	r->status = status_of(ws);
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
