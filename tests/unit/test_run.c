/* test_run.c: the process runner with real programs: exit codes, exec failures, signals,
 * output capture and caps, and the SIGTERM-then-SIGKILL timeout. */
#include "check.h"
#include "lib/run.h"

#include <unistd.h>

#define SH(script) (char *const[]){ "sh", "-c", script, NULL }

static void test_status(void)
{
	const struct { char *const *argv; int status; } rows[] = {
		{ (char *const[]){ "true", NULL }, 0 },
		{ (char *const[]){ "false", NULL }, 1 },
		{ SH("exit 3"), 3 },
		{ (char *const[]){ "fsmatrix-no-such-program", NULL }, 127 },
		{ (char *const[]){ "/etc/passwd", NULL }, 126 },     /* not executable */
		{ SH("kill -9 $$"), 128 + 9 },
		{ SH("kill -TERM $$"), 128 + 15 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct run_result r;
		CHECK_INT(run_argv(rows[i].argv, NULL, &r), 0);
		CHECK(r.status == rows[i].status, "%s %s: status %d, want %d", rows[i].argv[0],
		      rows[i].argv[1] ? rows[i].argv[1] : "", r.status, rows[i].status);
		CHECK_INT(r.timed_out, 0);
		run_free(&r);
	}
}

static void test_capture(void)
{
	struct run_result r;
	char line[64];

	CHECK_INT(run_argv(SH("echo out; echo err >&2; echo more"), NULL, &r), 0);
	CHECK_STR(r.out, "out\nmore\n");
	CHECK_STR(r.err, "err\n");
	CHECK_INT(r.err_truncated, 0);
	run_free(&r);

	/* stderr only, as mdadm --version prints */
	CHECK_INT(run_argv(SH("echo; echo '  mdadm - v4.2 - 2021-12-30' >&2"), NULL, &r), 0);
	run_first_line(&r, line, sizeof line);
	CHECK_STR(line, "mdadm - v4.2 - 2021-12-30");
	run_free(&r);

	/* exec failure says why on the captured stderr */
	CHECK_INT(run_argv((char *const[]){ "fsmatrix-no-such-program", NULL }, NULL, &r), 0);
	CHECK(strstr(r.err, "unable to run fsmatrix-no-such-program") != NULL, "%s", r.err);
	run_free(&r);

	/* stdout cap keeps the start */
	struct run_opts o = { .out_cap = 100 };
	CHECK_INT(run_argv(SH("yes | head -c 10000"), &o, &r), 0);
	CHECK_INT(r.outlen, 100);
	CHECK_INT(r.out_truncated, 1);
	CHECK_INT(r.status, 0);
	run_free(&r);

	/* stderr keeps the tail */
	CHECK_INT(run_argv(SH("head -c 10000 /dev/zero | tr '\\0' a >&2; echo END >&2"), NULL, &r), 0);
	CHECK_INT(r.errlen, RUN_ERR_TAIL);
	CHECK_INT(r.err_truncated, 1);
	CHECK(strcmp(r.err + r.errlen - 4, "END\n") == 0, "tail ends with END");
	run_free(&r);

	/* stdin is /dev/null unless given */
	CHECK_INT(run_argv((char *const[]){ "cat", NULL }, NULL, &r), 0);
	CHECK_INT(r.outlen, 0);
	run_free(&r);
	o = (struct run_opts){ .stdin_path = "tests/unit/check.h" };
	CHECK_INT(run_argv((char *const[]){ "head", "-n", "1", NULL }, &o, &r), 0);
	CHECK(strncmp(r.out, "/* check.h", 10) == 0, "%s", r.out);
	run_free(&r);
}

static void test_timeout(void)
{
	struct run_result r;
	struct run_opts o = { .timeout_ms = 200, .grace_ms = 300 };

	CHECK_INT(run_argv((char *const[]){ "sleep", "10", NULL }, &o, &r), 0);
	CHECK_INT(r.timed_out, 1);
	CHECK_INT(r.status, 128 + 15);
	CHECK(r.ms >= 200 && r.ms < 2000, "ms %lld", r.ms);
	run_free(&r);

	/* TERM ignored by the whole group: KILL after the grace period; the sleep it started
	 * is in the group too, so the pipes close */
	CHECK_INT(run_argv(SH("trap '' TERM; echo started; sleep 10; echo never"), &o, &r), 0);
	CHECK_INT(r.timed_out, 1);
	CHECK_INT(r.status, 128 + 9);
	CHECK(r.ms >= 500 && r.ms < 3000, "ms %lld", r.ms);
	CHECK_STR(r.out, "started\n");
	run_free(&r);

	/* quick programs are not held up by the timeout machinery */
	CHECK_INT(run_argv((char *const[]){ "true", NULL }, &o, &r), 0);
	CHECK_INT(r.timed_out, 0);
	CHECK(r.ms < 150, "ms %lld", r.ms);
	run_free(&r);
}

/* The tool gets stdin, stdout and stderr and nothing else of the runner: lvm, for one, warns
 * of every other descriptor it inherits ("File descriptor 12 (/dev/null) leaked"). ls's own
 * descriptor on /proc/self/fd is 3. */
static void test_descriptors(void)
{
	struct run_result r;
	for (int fd = 3; fd < 1024; fd++)   /* what the shell that started the test left open */
		close(fd);
	CHECK_INT(run_argv((char *const[]){ "ls", "/proc/self/fd", NULL }, NULL, &r), 0);
	CHECK_STR(r.out ? r.out : "", "0\n1\n2\n3\n");
	run_free(&r);
}

int main(void)
{
	test_descriptors();
	test_status();
	test_capture();
	test_timeout();
	return check_done("test_run");
}
