/* pid1/fatal.c: how PID 1 stops. It never exits (the kernel would panic): it says why,
 * records it, syncs, then powers off, or first gives a shell with fsmatrix.shell=1. If
 * power-off itself fails it says so and waits. busybox's poweroff, reboot and halt signal
 * PID 1 (SIGUSR2, SIGTERM, SIGUSR1): the same clean stop, then what was asked. */
#include "pid1/pid1.h"
#include "core/model/outcome.h"
#include "core/model/plan.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

void reap_orphans(void)
{
	/* Processes whose parent died (a tool's helpers after a timeout kill) become PID 1's
	 * children; collect them between steps, when no run_argv() is waiting. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* ------------------------------------------------------------------ what goes first */

static struct stop_hooks hooks;

void stop_hooks_set(struct stop_hooks h)
{
	hooks = h;
}

static void quiet(void)
{
	if (hooks.quiet)
		hooks.quiet();
}

static void put_back(void)
{
	if (hooks.put_back)
		hooks.put_back();
}

static void close_results(void)
{
	if (hooks.close)
		hooks.close();
}

/* ------------------------------------------------------------------ signals */

/* What busybox's poweroff, reboot and halt send to a PID 1 that is not busybox init. */
static const struct {
	int sig;
	int how;
	const char *what;
} stops[] = {
	{ SIGUSR2, RB_POWER_OFF, "powering off" },
	{ SIGTERM, RB_AUTOBOOT, "rebooting" },
	{ SIGUSR1, RB_HALT_SYSTEM, "halting" },
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

void signals_init(void)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		sigaction(stops[i].sig, &sa, NULL);
}

int shutdown_requested(void)
{
	return stop_sig != 0;
}

/* The longest wait for a slow console: a full 4 KiB tty buffer takes 0.4 s at 115200 baud
 * and 4.3 s at 9600; a line that takes nothing at all must not keep the machine up. */
enum { CONSOLE_DRAIN_MS = 10000 };

static _Noreturn void stop_machine(int how, const char *what)
{
	quiet();
	put_back();
	close_results();
	sync();
	say("fsmatrix: %s", what);
	console_drain(CONSOLE_DRAIN_MS);
	reboot(how);
	say("fsmatrix: unable to %s: %s; halted here, switch the machine off",
	    how == (int)RB_AUTOBOOT ? "reboot" : how == (int)RB_HALT_SYSTEM ? "halt" :
	    how == (int)RB_KEXEC ? "start the loaded kernel" : "power off", strerror(errno));
	fflush(stdout);
	for (;;)
		pause();
}

_Noreturn void shutdown_by_signal(void)
{
	size_t i = 0;
	while (i < sizeof stops / sizeof stops[0] - 1 && stops[i].sig != stop_sig)
		i++;
	say("fsmatrix: %s asked for (signal %d): stopping every process, then unmounting the "
	    "results", stops[i].what, (int)stop_sig);
	/* Every process but PID 1: the shell, and anything it started. */
	kill(-1, SIGTERM);
	for (int t = 0; t < 20 && waitpid(-1, NULL, WNOHANG) >= 0; t++) {
		reap_orphans();
		usleep(100 * 1000);
	}
	kill(-1, SIGKILL);
	reap_orphans();
	stop_machine(stops[i].how, stops[i].what);
}

/* ------------------------------------------------------------------ the shell */

void console_shell(void)
{
	say("fsmatrix: starting a shell on the console (fsmatrix.shell=%s); exit it or type "
	    "poweroff to power off (reboot, halt)", boot.cmd.shell == CMDLINE_SHELL_NOW ? "now" : "1");
	/* a person at a shell is no hang */
	quiet();
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
	/* Reap everything until the shell itself is gone: orphans come to PID 1. Polled, so
	 * that `poweroff` typed in the shell (a signal to PID 1) is seen at once. */
	for (;;) {
		if (shutdown_requested())
			shutdown_by_signal();
		int ws;
		pid_t w = waitpid(-1, &ws, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR && errno != ECHILD))
			break;
		if (w < 0 && errno == ECHILD)
			break;
		if (w == 0)
			usleep(100 * 1000);
	}
}

_Noreturn void power_off(void)
{
	stop_machine(RB_POWER_OFF, "powering off");
}

_Noreturn void restart_into_loaded_kernel(const char *what)
{
	stop_machine(RB_KEXEC, what);
}

_Noreturn void fatal(const char *fmt, ...)
{
	static int dying;
	char msg[PLAN_ERROR_LEN + 128];   /* a plan error and what the caller adds to it */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);

	say("fsmatrix: fatal: %s", msg);
	if (!dying++) {
		char buf[2 * sizeof msg + 256];   /* room for msg escaped */
		struct jw w;
		jw_init(&w, buf, sizeof buf);
		event_begin(&w, "fatal");
		/* the run's test case fails (core/model/outcome.h): a run that stopped measured nothing */
		jw_kstr(&w, "case", RUN_CASE);
		jw_kstr(&w, "status", RUN_FATAL);
		jw_kstr(&w, "error", msg);
		jw_end_obj(&w);
		emit(&w);
		put_back();
		close_results();
		sync();
		if (boot.cmd.shell)
			console_shell();
	}
	power_off();
}
