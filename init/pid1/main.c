/* pid1/main.c: /init as PID 1, the boot sequence in order. Each step lives in its own
 * pid1_*.c file; this one only says what happens when. PID 1 never returns: it ends in
 * power_off() or fatal(). */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "core/model/plan.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "lib/sha256.h"

struct boot boot;

/* Loaded whatever the hardware and the plan, while the drivers leave a CPU free: the results
 * partition is FAT, and the kernel's default codepage and iocharset need their nls modules
 * (Debian's; see results.c's mount_fat); every watchdog driver, softdog included, needs the
 * watchdog core, unless the command line says no watchdog will be armed. */
static const struct { const char *name; int for_watchdog; } boot_modules[] = {
	{ "vfat", 0 }, { "nls_cp437", 0 }, { "nls_ascii", 0 }, { "watchdog", 1 },
};

/* boot_modules' names for this boot, into names (NULL-terminated). */
static void boot_module_names(const char **names, const struct cmdline *cmd)
{
	int watchdog = !watchdog_ruled_out(cmd);
	size_t n = 0;
	for (size_t i = 0; i < sizeof boot_modules / sizeof boot_modules[0]; i++)
		if (watchdog || !boot_modules[i].for_watchdog)
			names[n++] = boot_modules[i].name;
	names[n] = NULL;
}

static void read_cmdline(void)
{
	char text[4096], err[300];
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0)
		fatal("unable to read /proc/cmdline: %s", strerror(errno));
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	if (cmdline_parse(text, &boot.cmd, err, sizeof err) < 0)
		fatal("bad kernel parameter %s", err);
}

/* YYYYMMDD-HHMMSS-xxxxxx: the RTC's time and three bytes that differ between boots. */
static void make_run_id(void)
{
	unsigned char r[3];
	boot.start_epoch = (long long)time(NULL);
	/* Early in boot the entropy pool may not be ready: never block for a name. */
	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		char id[64] = "", hex[65];
		int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, id, sizeof id - 1) < 0)
				id[0] = '\0';
			close(fd);
		}
		snprintf(id + strlen(id), sizeof id - strlen(id), "%lld", boottime_ms());
		sha256_hex(id, strlen(id), hex);
		for (int i = 0; i < 3; i++)
			r[i] = (unsigned char)strtoul((char[]){ hex[2 * i], hex[2 * i + 1], 0 }, NULL, 16);
	}
	record_run_id(boot.start_epoch, r, boot.run_id);
}

/* Ordinary pages for /init's static memory. Its .bss holds 4 MB of buffers, mostly never
 * touched, and spans an aligned 2 MiB range: with transparent huge pages on "always"
 * (Debian's default) the first write there, to struct boot, made the kernel zero a whole
 * huge page, 20 ms at /init's start under qemu's TCG. The programs /init starts are not
 * affected: exec gives them their own memory. */
static void static_memory_small_pages(void)
{
	extern char __bss_start[], _end[];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)__bss_start + page - 1) & ~(page - 1);
	uintptr_t to = (uintptr_t)_end & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_NOHUGEPAGE);   /* advice: a failure costs time only */
}

/* Marks the end of a boot step: where the boot's time goes is in every header. */
static void step_done(const char *name)
{
	if (boot.nsteps < (int)(sizeof boot.steps / sizeof boot.steps[0]))
		boot.steps[boot.nsteps++] = (struct boot_step){ name, boottime_ms() };
}

/* What PID 1 sets up for itself before anything else: its memory, its output, its signals,
 * what must happen before any stop, the PATH of the programs it runs. */
static void process_setup(void)
{
	static_memory_small_pages();
	boot.init_ms = boottime_ms();
	boot.results = -1;
	/* Line-buffered before any fork, or children inherit and repeat buffered text. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	signals_init();
	stop_hooks_set((struct stop_hooks){ .quiet = watchdog_stop, .put_back = cell_put_back_devices,
					    .close = results_close });
	setenv("PATH", "/sbin:/bin:/usr/sbin:/usr/bin", 1);   /* /usr: the programs' squashfs */
}

/* The drivers the hardware asks for, the entropy pool, and every disk probed once the block
 * devices stop changing: the boot steps modules_image, drivers, entropy and disks. */
static void drivers_and_disks(void)
{
	/* Without module metadata the drivers may be built in: still wait for their disks. */
	modules_init();
	step_done("modules_image");
	/* boot_modules load while the drivers leave a CPU free */
	const char *idle_names[sizeof boot_modules / sizeof boot_modules[0] + 1];
	boot_module_names(idle_names, &boot.cmd);
	struct settle settle;
	settle_start(&settle, boot.cmd.settle_ms, idle_names);
	/* The disks already there are probed while a driver's probe leaves the CPU idle (an
	 * ATA port reset sleeps 150 ms), then while /sys/block proves still, and again after
	 * every change: the last probe always follows the last change. */
	while (settle_wait(&settle, 0))
		disks_stage();
	step_done("drivers");
	entropy_wait();
	step_done("entropy");
	while (settle_wait(&settle, 1))
		disks_stage();
	settle_end(&settle);
	step_done("disks");
}

int main(void)
{
	char err[300];

	if (getpid() != 1) {
		fprintf(stderr, "fsmatrix: /init runs only as PID 1 in the fsmatrix image (it mounts "
				"and may destroy disks); on a host, use out/fsmatrix\n");
		return 2;
	}
	process_setup();
	int mrc = mounts_boot(err, sizeof err);
	console_fix_fds();
	say("fsmatrix: /init %s starting, %lld ms after the kernel", FSM_VERSION, boot.init_ms);
	if (mrc < 0)
		fatal("%s", err);
	read_cmdline();
	make_run_id();
	say("fsmatrix: run %s%s", boot.run_id, boot.cmd.dry ? " (dry: nothing but results is written)" : "");

	drivers_and_disks();
	results_open();   /* mounted; its files are opened by resume_stage() */
	step_done("results");
	disks_select();
	/* After the results partition (it may hold the plan), before any disk is written. */
	const struct plan *plan = plan_stage();
	step_done("plan");
	/* Now the plan is known: this boot's run, or the unfinished one it resumes (which may
	 * take back its disks). */
	/* before resume: a kernel set's name is checked against the kernel running before the
	 * journal counts this boot as one under it */
	kernels_stage(plan);
	resume_stage(plan);
	step_done("resume");
	if (boot.cmd.shell != CMDLINE_SHELL_NOW)
		watchdog_start(plan);
	step_done("watchdog");
	conditions_apply(plan);
	step_done("conditions");
	header_emit();
	resume_event();
	modules_event();
	disks_event();
	plan_event(plan);

	boot.ready_ms = boottime_ms();
	say("fsmatrix: ready after %lld ms since the kernel started (/init started at %lld ms)",
	    boot.ready_ms, boot.init_ms);
	if (boot.cmd.shell == CMDLINE_SHELL_NOW) {
		/* The boot menu's shell entry: everything above was shown, nothing runs. */
		console_shell();
		power_off();
	}
	/* Every record from here on is fsynced as it is written, the first one (a cell's start,
	 * before the cell touches a disk) with the boot's records before it. */
	console_sync_each();
	bootmenu_mark();
	/* a run under several kernels whose next cell is another kernel's goes there first */
	if (plan->bisect.line)
		bisect_switch_first(plan);
	else
		matrix_switch_first(plan);
	/* the machine's noise floor before the first cell and after the last: a drift between
	 * the two puts the figures between in doubt (report Problems) */
	reference_run(plan, "start");
	/* what the disks give alone, the limit each cell is set against: after the reference
	 * set, before the warm-up and the first cell */
	if (plan->bisect.line)
		bisect_run(plan, diskspeed_run(plan));
	else
		matrix_run(plan, diskspeed_run(plan));
	reference_run(plan, "end");
	devices_end_event();
	trailer_emit();
	bootmenu_unmark();
	power_off();
}
