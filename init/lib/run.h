/* lib/run.h: run one program and capture what it says. The child runs in its own process
 * group, so a timeout can stop everything it started: SIGTERM to the group, then SIGKILL
 * after a grace period. Shared: /init runs the tools with it, the host tests run it too. */
#ifndef FSM_RUN_H
#define FSM_RUN_H
#include <stddef.h>

#define RUN_ERR_TAIL 4096

struct run_opts {
	int timeout_ms;       /* 0: no limit */
	int grace_ms;         /* between SIGTERM and SIGKILL; 0 means 2000 */
	size_t out_cap;       /* stdout kept up to this many bytes; 0 means 1 MiB */
	const char *stdin_path; /* NULL: /dev/null */
	/* In the child, after its descriptors are set and before exec: -1 stops it there
	 * (status 126). For a confinement (lib/confine.h). */
	int (*setup)(const void *arg);
	const void *setup_arg;
	const char *path;     /* exec this file, not argv[0] searched in PATH; NULL: argv[0] */
};

struct run_result {
	int status;           /* shell-style: exit code, 126/127 when exec failed, 128+signal */
	int timed_out;        /* the timeout fired (status is then whatever the signal gave) */
	long long ms;         /* wall time, CLOCK_MONOTONIC */
	char *out;            /* stdout, NUL-terminated (malloc'd; free with run_free) */
	size_t outlen;
	int out_truncated;    /* stdout exceeded out_cap; the start was kept */
	char err[RUN_ERR_TAIL + 1]; /* the last RUN_ERR_TAIL bytes of stderr, NUL-terminated */
	size_t errlen;
	int err_truncated;    /* earlier stderr was dropped */
};

/* Runs argv[0] (searched in PATH) with argv. Returns 0 when the child ran and was reaped
 * (see res->status), or -1 with errno set when it could not be started (pipe/fork). */
int run_argv(char *const argv[], const struct run_opts *opts, struct run_result *res);
void run_free(struct run_result *res);

/* The first non-empty line of stdout, else of stderr, into buf: how tools print versions. */
void run_first_line(const struct run_result *res, char *buf, size_t len);

#endif
