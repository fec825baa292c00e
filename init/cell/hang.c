/* cell/hang.c: a cell watched for a kernel-level hang, from its first step to its record.
 * A task stuck in the kernel (D state) ignores every signal, and PID 1 may be that task
 * itself (mount(2), a write to a frozen filesystem): so the watch is a process of its own,
 * forked from PID 1 as the cell begins. Once a second it reads the I/O counters of the cell's
 * disks (its members, md's arrays, device-mapper's devices); while they move nothing is
 * stuck. When they stand still it counts the cell's tasks (every process but kernel
 * threads and itself: the image runs nothing but the cell) in D state, and core/figures/hang.c
 * decides. A cell stuck for the bound (fsmatrix.hang=) is declared hung: the console says
 * so, PID 1 is held (it writes nothing more and stops petting), the watchdog is re-armed
 * short, the evidence goes into the cell's record (status hung, final: a resumed boot does
 * not run it again), and the machine reboots. The cell's state is shared with PID 1
 * (cell/cell.c maps it so), so the record holds every step run until the hang. At the
 * cell's end, the kernel's faults logged during it (oops, BUG, WARN) and the taint gained go
 * into the record. */
#include "cell/ctx.h"
#include "core/figures/hang.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { PERIOD_MS = 1000, NO_WATCHDOG_WAIT_S = 5, LATE_S = 30 };

static unsigned long taint_now(void)
{
	char v[32];
	return file_first_line("/proc/sys/kernel/tainted", v, sizeof v) == 0 ? strtoul(v, NULL, 10) : 0;
}

static int cell_disk(const struct cell_ctx *x, const char *name)
{
	if (strncmp(name, "md", 2) == 0 || strncmp(name, "dm-", 3) == 0)
		return 1;
	for (int i = 0; i <= x->n && i < PLAN_DEVICES_MAX; i++)
		if (x->names[i][0] && strcmp(x->names[i], name) == 0)
			return 1;
	return 0;
}

/* The cell's disks' completions and sectors, summed. */
static uint64_t io_sum(const struct cell_ctx *x)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	uint64_t sum = 0, one;
	char path[300], line[512];
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !cell_disk(x, e->d_name))
			continue;
		snprintf(path, sizeof path, "/sys/block/%s/stat", e->d_name);
		if (file_first_line(path, line, sizeof line) == 0 && hang_io_count(line, &one) == 0)
			sum += one;
	}
	if (d)
		closedir(d);
	return sum;
}

/* The cell's tasks in D state: every process but kernel threads and the watcher. */
static int tasks_in_d(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0, me = getpid();
	char path[64], line[512], comm[64];
	while (d && (e = readdir(d))) {
		int pid = atoi(e->d_name), ppid, kt;
		if (pid <= 0 || pid == me)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		if (file_first_line(path, line, sizeof line) == 0 &&
		    hang_stat_parse(line, comm, sizeof comm, &ppid, &kt) == 'D' && !kt && pid != 2)
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* The cell is hung: say it, hold PID 1 and re-arm the watchdog, keep the evidence in the
 * cell's record, and see that the machine reboots. Never returns. */
static _Noreturn void declare(struct cell_ctx *shared, long long since_ms, int bound_s)
{
	static struct cell_ctx x;
	const struct cell_ops *ops = shared->env->ops;
	memcpy(&x, shared, sizeof x);   /* PID 1's state as it stands; PID 1 writes no more */
	long long now = mono_ms();
	int armed = ops->hung(HANG_REBOOT_S);
	char next[120];
	if (armed > 0)
		snprintf(next, sizeof next, "the watchdog reboots the machine in %d s, and the run goes "
			 "on with the next cell", armed);
	else
		snprintf(next, sizeof next, "no watchdog: rebooting in %d s, and the run goes on with "
			 "the next cell", NO_WATCHDOG_WAIT_S);
	ops->say("fsmatrix: HUNG: cell %d/%d %s rep %d/%d: a task of the cell in D state and no I/O "
		 "completed on its disks for %lld s (since %.1f s after boot; the cell began at %.1f s): "
		 "keeping the evidence; then %s", x.c->index + 1, matrix_count(x.p), x.c->id, x.c->rep,
		 x.p->repeat, (now - since_ms) / 1000, (double)since_ms / 1000,
		 (double)x.start_mono_ms / 1000, next);
	hang_evidence(&x, since_ms, bound_s, armed > 0 ? armed : NO_WATCHDOG_WAIT_S);
	x.status = CELL_HUNG;
	cell_emit_record(&x, 0);
	ops->say("fsmatrix: cell %d's evidence is written (its record, status hung); waiting for "
		 "the reboot", x.c->index + 1);
	sleep_ms(1000L * (armed > 0 ? armed + LATE_S : NO_WATCHDOG_WAIT_S));
	if (armed > 0)
		ops->say("fsmatrix: the watchdog did not reboot the machine: rebooting it");
	reboot(RB_AUTOBOOT);
	_exit(1);
}

static _Noreturn void watch(struct cell_ctx *x, int bound_s)
{
	struct hang_watch w;
	long long since;
	prctl(PR_SET_NAME, "fsm-hangwatch", 0, 0, 0);
	signal(SIGTERM, SIG_DFL);
	hang_watch_init(&w, 1000LL * bound_s);
	uint64_t last = io_sum(x);
	for (;;) {
		sleep_ms(PERIOD_MS);
		if (getppid() != 1)
			_exit(0);
		uint64_t io = io_sum(x);
		/* while the counters move nothing is stuck: no need to look at the tasks */
		int nd = io != last ? 0 : tasks_in_d();
		last = io;
		if (hang_watch_sample(&w, mono_ms(), nd, io, &since))
			declare(x, since, bound_s);
	}
}

void hang_watch_begin(struct cell_ctx *x)
{
	x->start_mono_ms = mono_ms();
	x->kmsg_cell = kmsg_open();
	x->taint0 = taint_now();
	x->watcher = 0;
	int bound_s = hang_bound_s(x->env->hang_s, x->p->timeout_s);
	if (bound_s <= 0 || x->warmup)   /* a warm-up's hang is the watchdog's */
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		watch(x, bound_s);
	if (pid < 0)
		x->env->ops->say("fsmatrix: unable to start the hang watch of cell %d: %s", x->c->index + 1,
				 strerror(errno));
	else
		x->watcher = pid;
}

/* The kernel's faults logged since the cell began, and the taint it gained. */
static void faults(struct cell_ctx *x)
{
	static struct kmsg_line lines[512];
	int n = kmsg_collect(x->kmsg_cell, lines, 512);
	for (int i = 0; i < n; i++) {
		const char *kind = hang_fault_kind(lines[i].text);
		if (!kind || x->nfaults >= HANG_FAULTS_MAX)
			continue;
		struct hang_fault *f = &x->faults[x->nfaults++];
		snprintf(f->kind, sizeof f->kind, "%s", kind);
		snprintf(f->line, sizeof f->line, "%s", lines[i].text);
		warn_add(&x->warn, "the kernel logged a fault during the cell (%s): %.180s", kind,
			 lines[i].text);
	}
	unsigned long gained = taint_now() & ~x->taint0;
	hang_taint_letters(gained, x->tainted, sizeof x->tainted);
	if (x->tainted[0])
		warn_add(&x->warn, "the kernel was tainted during the cell (%s): its figures come from "
			 "a kernel that went wrong", x->tainted);
}

void hang_watch_end(struct cell_ctx *x)
{
	if (x->watcher > 0) {
		kill(x->watcher, SIGKILL);
		while (waitpid(x->watcher, NULL, 0) < 0 && errno == EINTR)
			;
		x->watcher = 0;
	}
	if (x->kmsg_cell >= 0) {
		faults(x);
		close(x->kmsg_cell);
		x->kmsg_cell = -1;
	}
}
