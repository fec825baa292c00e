/* pid1_fatal.c: how PID 1 stops. It never exits (the kernel would panic): it says why,
 * records it, syncs, then powers off, or first gives a shell with fsmatrix.shell=1. If
 * power-off itself fails it says so and waits. */
#include "pid1.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long long boottime_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_BOOTTIME, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void reap_orphans(void)
{
	/* Processes whose parent died (a tool's helpers after a timeout kill) become PID 1's
	 * children; collect them between steps, when no run_argv() is waiting. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

void console_shell(void)
{
	say("fsmatrix: starting a shell on the console (fsmatrix.shell=%s); exit it to power off",
	    boot.cmd.shell == CMDLINE_SHELL_NOW ? "now" : "1");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setsid();
		int fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			ioctl(fd, TIOCSCTTY, 0);
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl("/bin/sh", "sh", (char *)NULL);
		dprintf(2, "fsmatrix: unable to run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		say("fsmatrix: unable to start a shell: %s", strerror(errno));
		return;
	}
	/* Reap everything until the shell itself is gone: orphans come to PID 1. */
	for (;;) {
		int ws;
		pid_t w = waitpid(-1, &ws, 0);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
	}
}

_Noreturn void power_off(void)
{
	results_close();
	sync();
	say("fsmatrix: powering off");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	say("fsmatrix: unable to power off: %s; halted here, switch the machine off", strerror(errno));
	fflush(stdout);
	for (;;)
		pause();
}

_Noreturn void fatal(const char *fmt, ...)
{
	static int dying;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);

	say("fsmatrix: fatal: %s", msg);
	if (!dying++) {
		char buf[1024];
		struct jw w;
		jw_init(&w, buf, sizeof buf);
		record_begin(&w, "event");
		jw_kstr(&w, "event", "fatal");
		jw_kstr(&w, "run", boot.run_id[0] ? boot.run_id : NULL);
		jw_kstr(&w, "error", msg);
		jw_end_obj(&w);
		emit(&w);
		results_close();
		sync();
		if (boot.cmd.shell)
			console_shell();
	}
	power_off();
}
