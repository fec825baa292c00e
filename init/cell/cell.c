/* cell/cell.c: one cell, its lifecycle: wipe the members, create the array and wait out its
 * resync, mkfs and tune, read the geometry, mount(2), set the kernel tunables, run the
 * workload, and always tear down (the tunables put back first), in that order; then the
 * record. The state of the cell is one struct cell_ctx (cell/ctx.h) that every step is
 * handed; the steps live in cell/steps.c, cell/md.c, cell/fs.c and cell/tunables.c, the
 * record in cell/record.c. */
#include "cell/ctx.h"
#include "cell/device.h"
#include "core/command/btrfscmd.h"
#include "core/command/lvmcmd.h"
#include "core/model/level.h"
#include "core/workload/replay.h"
#include "core/model/skip.h"
#include "core/workload/wlsize.h"
#include "lib/file.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#ifndef FIFREEZE
#define FIFREEZE _IOWR('X', 119, int)
#endif

/* A cell's state, blank but for what no step has set yet. One at a time, and not on the
 * stack: it holds the step texts and the workload's passes, too much for PID 1's stack. It
 * is shared with the cell's hang watcher (cell/hang.c), a process of its own, so that a hung
 * cell's record holds every step PID 1 ran. */
static struct cell_ctx *ctx_new(const struct run_env *env, const struct plan *p,
				const struct cell *c, int attempt)
{
	static struct cell_ctx fallback, *x;
	if (!x) {
		void *m = mmap(NULL, sizeof *x, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		x = m != MAP_FAILED ? m : &fallback;
	}
	memset(x, 0, sizeof *x);
	x->env = env;
	x->p = p;
	x->c = c;
	x->attempt = attempt;
	x->resync_s = -1;
	x->kmsg = -1;
	x->kmsg_cell = -1;
	return x;
}

/* A member that vanished explains whatever failed after it. */
static int lost_disk(struct cell_ctx *x)
{
	for (int i = 0; i < x->n; i++)
		if (!disk_present(x->names[i])) {
			char was[sizeof x->error];
			snprintf(was, sizeof was, "%.*s", (int)sizeof was - 1, x->error);
			snprintf(x->error, sizeof x->error, "test disk %s disappeared (no /sys/block/%s)%s%.1200s",
				 x->names[i], x->names[i], was[0] ? ": " : "", was);
			x->status = CELL_ERROR;
			return 1;
		}
	return 0;
}

/* ------------------------------------------------------------------ state around it */

/* One probe's JSON as a one-key object in buf ("" when it did not fit); cell/record.c
 * takes its value out. */
static void capture_json(const struct cell_ctx *x, char *buf, size_t len,
			 void (*fn)(struct jw *, const struct cell_ctx *))
{
	struct jw w;
	jw_init(&w, buf, len);
	jw_obj(&w);
	fn(&w, x);
	jw_end_obj(&w);
	if (jw_done(&w) < 0 && w.err)
		buf[0] = '\0';
}

static void queue_part(struct jw *w, const struct cell_ctx *x)
{
	probe_queue_json(w, x->target_name, x->md ? x->name_v : NULL, x->md ? x->n : 0);
}

static void md_part(struct jw *w, const struct cell_ctx *x)
{
	(void)x;
	probe_md_json(w, MD_NAME);
}

static void df_part(struct jw *w, const struct cell_ctx *x)
{
	(void)x;
	probe_df_json(w, "df", TEST_MNT);
}

/* A size relative to the machine, resolved now that the filesystem is made and mounted:
 * MemTotal, or what statvfs says is free to write. Returns 0, or -1 with the cell failed. */
static int resolve_size(struct cell_ctx *x, struct plan_workload *w)
{
	struct statvfs sv;
	if (w->size_rel.base == SIZE_BYTES)
		return 0;
	long long mem = mem_total_bytes();
	uint64_t fs_free = statvfs(TEST_MNT, &sv) == 0 ? (uint64_t)sv.f_bavail * sv.f_frsize : 0;
	w->size = wlsize_resolve(w, mem > 0 ? (uint64_t)mem : 0, fs_free, &x->size_basis);
	x->size_bytes = w->size;
	if (x->size_basis)
		return 0;
	char f[48];
	wlsize_text(&w->size_rel, f, sizeof f);
	cell_fail(x, CELL_ERROR, "unable to resolve size = %s: %s", f, w->size_rel.base == SIZE_RAM ?
		  "no MemTotal in /proc/meminfo" : "statvfs of " TEST_MNT " gave no free space");
	return -1;
}

static void run_workload(struct cell_ctx *x)
{
	struct plan_workload wl = x->p->workloads[x->c->workload];
	const struct plan_workload *w = &wl;
	if (resolve_size(x, &wl) < 0)
		return;
	long long left = cell_remaining_ms(x);
	if (left < 0) {
		cell_fail(x, CELL_TIMEOUT, "the cell's timeout of %u s ran out before the workload",
			  x->p->timeout_s);
		return;
	}
	capture_json(x, x->df_before, sizeof x->df_before, df_part);
	x->wl_ran = 1;
	long long t0 = boottime_ms();
	/* a warm-up's figures are never looked at, its time series neither */
	char *const *members;
	int nm = cell_watched(x, &members);
	sampler_start(&x->smp, x->warmup ? 0 : (int)x->p->monitor_ms, x->target_name, members, nm,
		      x->md);
	int rc = workload_run(w, x->p->drop_caches, (int)left, x->env->archive_dirs,
			      x->log_made ? REPLAY_LW_DM : NULL, &x->wl,
			      &x->smp);
	char what[80];
	snprintf(what, sizeof what, "workload %.47s (%s)", w->name, plan_wl_name(w->type));
	const char *argv[] = { what, TEST_MNT, NULL };
	/* a tool's failure with no errno (WL_ETOOL) is status -1, its words in stderr */
	struct step *s = syscall_step(x, argv, t0, rc < 0 ? (wl_errno_known(x->wl.err) ?
								 x->wl.err : -1) : 0);
	if (x->wl.killed[0])
		warn_add(&x->warn, "the workload left processes running when it %s: %s (killed, "
			 "and gone before the next step)", x->wl.timed_out ? "timed out" : "ended",
			 x->wl.killed);
	if (rc < 0) {
		snprintf(s->err, sizeof s->err, "%.*s", (int)sizeof x->wl.errmsg, x->wl.errmsg);
		if (x->wl.timed_out)
			cell_fail(x, CELL_TIMEOUT, "%s: %s", what, x->wl.errmsg);
		else if (!wl_errno_known(x->wl.err))
			cell_fail(x, CELL_ERROR, "%s: %s", what, x->wl.errmsg);
		else
			cell_fail(x, CELL_ERROR, "%s: %s (%s)", what, x->wl.errmsg, wl_errno_name(x->wl.err));
	}
	capture_json(x, x->df_after, sizeof x->df_after, df_part);
}

/* Each member's own state from the device, into st[]: before the cell and after it. */
static void read_devices(struct cell_ctx *x, struct devstate *st)
{
	long long t0 = boottime_ms();
	for (int i = 0; i < x->n; i++)
		device_read(x->names[i], &st[i]);
	x->devices_ms += boottime_ms() - t0;
}

/* What the devices say changed during the cell, as warnings: a counter that rose, a
 * temperature, a write cache the kernel misjudges. */
static void judge_devices(struct cell_ctx *x)
{
	char lines[8][200], t[300];
	for (int i = 0; i < x->n; i++) {
		int k = dev_health_changes(x->names[i], "during the cell", DEV_HOT_EACH,
					   &x->dev_before[i].health, &x->dev_after[i].health, lines, 8);
		for (int j = 0; j < k; j++)
			warn_add(&x->warn, "%s", lines[j]);
		if (dev_cache_disagrees(x->names[i], &x->dev_after[i], t, sizeof t))
			warn_add(&x->warn, "%s", t);
	}
}

/* ------------------------------------------------------------------ lifecycle */

/* The first disks the array needs, from the taken disks still present. */
static int pick_members(struct cell_ctx *x, int need, char *why, size_t len)
{
	int have = 0, gone = 0;
	char lost[128] = "";
	x->n = 0;
	for (const char *const *t = x->env->taken; *t; t++) {
		if (!disk_present(*t)) {
			gone++;
			snprintf(lost + strlen(lost), sizeof lost - strlen(lost), "%s%s", gone > 1 ? ", " : "",
				 *t);
			continue;
		}
		have++;
		if (x->n < need && x->n < PLAN_DEVICES_MAX) {
			snprintf(x->names[x->n], sizeof x->names[x->n], "%s", *t);
			snprintf(x->paths[x->n], sizeof x->paths[x->n], "/dev/%s", *t);
			x->name_v[x->n] = x->names[x->n];
			x->path_v[x->n] = x->paths[x->n];
			x->n++;
		}
	}
	x->name_v[x->n] = NULL;
	x->path_v[x->n] = NULL;
	return cell_skip_reason(x->p->arrays[x->c->array].name, need, have, gone, lost, why, len);
}

/* fsmatrix.debug_hang=N: a kernel-level hang on demand, for the watchdog boot test. PID 1
 * freezes the test filesystem and writes to it itself: the write waits in the kernel,
 * uninterruptibly, for a thaw that never comes, as a process stuck on a dead disk or a
 * filesystem deadlock does. Nothing in userspace can end it; only the watchdog can. */
static void debug_hang(const struct cell_ctx *x)
{
	const struct cell_ops *ops = x->env->ops;
	ops->say("fsmatrix: debug_hang: cell %d, attempt 1: freezing " TEST_MNT " and writing to "
		 "it from PID 1; only the watchdog can end this", x->c->index + 1);
	fflush(stdout);
	sync();
	int dir = open(TEST_MNT, O_RDONLY | O_CLOEXEC);
	if (dir < 0 || ioctl(dir, FIFREEZE, 0) < 0) {
		ops->say("fsmatrix: debug_hang: unable to freeze " TEST_MNT ": %s; hanging in pause() "
			 "instead", strerror(errno));
		for (;;)
			pause();
	}
	int fd = open(TEST_MNT "/debug-hang", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ops->say("fsmatrix: debug_hang: the write returned (%s): hanging in pause() instead",
		 fd < 0 ? strerror(errno) : "opened");
	for (;;)
		pause();
}

/* fsmatrix.debug_suspend=N: a hang under the filesystem, for the hang test: in cell N and
 * every cell after it that has layers, on its first attempt, the cell's top device-mapper
 * layer suspended (dmsetup suspend --nolockfs: the filesystem is not frozen,
 * its I/O queues in device-mapper and never completes) before the workload, which then
 * waits in the kernel for its writes, as on a disk that stopped answering. */
static void debug_suspend(struct cell_ctx *x)
{
	const char *top = x->layer_top;
	const char *argv[] = { "dmsetup", "suspend", "--nolockfs", top, NULL };
	const struct cell_ops *ops = x->env->ops;
	int rc = step_run(x, argv, 0, NULL);
	ops->say("fsmatrix: debug_suspend: cell %d, attempt 1: dmsetup suspend --nolockfs %s: %s",
		 x->c->index + 1, top, rc == 0 ? "suspended" : "failed");
}

/* The array the cell before left standing, still running with this cell's members: else
 * (a member gone, md stopped by hand at a shell) the cell makes its own. */
static int array_still_ours(const struct cell_ctx *x)
{
	char state[32], path[96];
	if (file_first_line("/sys/block/" MD_NAME "/md/array_state", state, sizeof state) < 0 ||
	    strcmp(state, "clear") == 0 || strcmp(state, "inactive") == 0)
		return 0;
	for (int i = 0; i < x->n; i++) {
		snprintf(path, sizeof path, "/sys/block/" MD_NAME "/md/dev-%s", x->names[i]);
		if (access(path, F_OK) != 0)
			return 0;
	}
	return 1;
}

/* Members wiped, the array created and resynced: what a cell that takes nothing over does. */
static int make_array(struct cell_ctx *x)
{
	/* A leftover array (or mapping) from a teardown that failed would hold the disks. */
	cell_remove_layers(x, 0);
	if (access("/sys/block/" MD_NAME "/md", F_OK) == 0)
		cell_stop_array(x, 0);
	if (x->md)
		cell_zero_superblocks(x, 0);
	/* an LV the disks cannot hold is refused before they are written */
	if (x->lvm && cell_lvm_fits(x) < 0)
		return -1;
	for (int i = 0; i < x->n; i++)
		if (cell_wipe(x, i) < 0) {
			cell_fail(x, CELL_ERROR, "%s", x->steps[x->nsteps - 1].err);
			return -1;
		}
	return x->md ? cell_create_array(x) : x->lvm ? cell_create_lvm(x) : 0;
}

static void setup_and_measure(struct cell_ctx *x)
{
	if (x->reuse != REUSE_NONE && x->md && !array_still_ours(x)) {
		warn_add(&x->warn, "the array the cell before left is gone or changed: this cell "
			 "makes its own");
		x->reuse = REUSE_NONE;
	}
	if (x->reuse == REUSE_NONE) {
		if (make_array(x) < 0 || cell_make_layers(x) < 0 || cell_log_start(x) < 0)
			return;
	} else {
		x->created = x->md;   /* it stands: teardown stops it unless it is kept again */
		if (cell_has_layers(x) && cell_take_layers(x) < 0) {
			cell_fail(x, CELL_ERROR, "the layers the cell before left are gone");
			return;
		}
	}
	cell_read_layers(x);
	if (x->md)
		cell_read_bitmap(x);
	if (x->lvm && x->created)
		cell_read_lvm(x);
	/* A setting of the devices that mkfs must see is in place before it. */
	cell_apply_tunables(x, TUN_BEFORE_MKFS);
	if (x->reuse == REUSE_FS)
		cell_read_geometry(x);
	else if (cell_make_fs(x) < 0)
		return;
	if (cell_mount_fs(x) < 0)
		return;
	if (x->reuse == REUSE_FS && cell_clean_fs(x) < 0)
		return;
	cell_apply_tunables(x, TUN_AFTER_MOUNT);
	capture_json(x, x->queue, sizeof x->queue, queue_part);
	if (x->env->debug_hang == x->c->index + 1 && x->attempt == 1 && !x->warmup)
		debug_hang(x);
	if (x->env->debug_suspend && x->c->index + 1 >= x->env->debug_suspend && x->attempt == 1 &&
	    !x->warmup && x->layer_top[0])
		debug_suspend(x);
	run_workload(x);
	cell_read_bcache(x);
	cell_read_dmcache(x);
	cell_btrfs_profiles(x);
	if (x->md) {
		capture_json(x, x->mdstate, sizeof x->mdstate, md_part);
		cell_md_detail(x);
	}
}

/* What the cell leaves standing for the next: what it was asked to keep, when it ended ok
 * (a member lost is an error: lost_disk) with its array in place; else nothing. */
static enum plan_reuse kept_for_next(const struct cell_ctx *x)
{
	if (x->keep == REUSE_NONE || x->status != CELL_OK || (x->md && !x->created))
		return REUSE_NONE;
	return x->keep;
}

static void teardown(struct cell_ctx *x)
{
	/* First, while md0 still exists: the vm sysctls and the members' queues outlive it. */
	cell_restore_tunables(x);
	if (x->mounted)
		cell_unmount_fs(x);
	if (x->dur.logged)
		cell_durability(x);
	x->keep = kept_for_next(x);
	if (x->keep != REUSE_NONE)
		return;
	/* An mdadm --create killed by the timeout may still have started the array. */
	if (x->md && !x->created && access("/sys/block/" MD_NAME "/md", F_OK) == 0)
		x->created = 1;
	/* The layers sit on the array: they go first, newest first. */
	if (x->layers_made)
		cell_remove_layers(x, 1);
	if (x->cache_disk && disk_present(x->names[x->n]) && cell_wipe(x, x->n) < 0)
		warn_add(&x->warn, "teardown: %s", x->steps[x->nsteps - 1].err);
	if (x->lvm_made)
		cell_remove_lvm(x, 1);
	if (x->created && x->md)
		cell_stop_array(x, 1);
	if (x->md && x->created)
		cell_zero_superblocks(x, 1);
	/* The filesystem's signatures (and md's) go with the first and last MiB. */
	for (int i = 0; i < x->n; i++)
		if (disk_present(x->names[i]) && cell_wipe(x, i) < 0)
			warn_add(&x->warn, "teardown: %s", x->steps[x->nsteps - 1].err);
}

void cell_record_status(const struct run_env *env, const struct plan *p, const struct cell *c,
			enum cell_status st, int attempt, const char *error)
{
	struct cell_ctx *x = ctx_new(env, p, c, attempt);
	x->target = "";
	x->status = st;
	snprintf(x->error, sizeof x->error, "%s", error);
	cell_emit_record(x, 0);
}

/* The matrix's view of a finished cell: its figures, or its reason for the progress line. */
static void result_of(const struct cell_ctx *x, struct cell_result *r)
{
	r->status = x->status;
	if (x->status == CELL_OK) {
		workload_metrics(&x->wl, r);
		if (x->resync_s >= 0 && r->nmetric < METRIC_MAX) {
			r->metric_name[r->nmetric] = "resync_s";
			r->metric[r->nmetric++] = x->resync_s;
		}
	} else {
		snprintf(r->headline, sizeof r->headline, "%s: %.380s", cell_status_names[x->status],
			 x->error);
	}
}

static void run_one(struct cell_ctx *x, struct cell_reuse *ru, struct cell_result *r)
{
	const struct run_env *env = x->env;
	const struct plan *p = x->p;
	const struct cell *c = x->c;
	char why[300];
	memset(r, 0, sizeof *r);
	x->md = level_find(p->arrays[c->array].level)->md;
	x->lvm = level_find(p->arrays[c->array].level)->lvm != NULL;
	if (ru) {
		x->reuse = ru->take;
		x->reused_from = ru->take == REUSE_FS ? ru->fs_by : ru->array_by;
		x->keep = ru->keep;
	}
	if (p->timeout_s)
		x->deadline = boottime_ms() + (long long)p->timeout_s * 1000;

	if (env->dry || pick_members(x, plan_array_disks(&p->arrays[c->array]), why, sizeof why) < 0 ||
	    btrfs_cell_skip(p, c, why, sizeof why) < 0) {
		x->status = CELL_SKIPPED;
		snprintf(x->error, sizeof x->error, "%s", env->dry ? "dry run" : why);
	} else {
		x->target = x->md ? "/dev/" MD_NAME : x->lvm ? LVM_DEV : x->paths[0];
		x->target_name = x->md ? MD_NAME : x->lvm ? LVM_DM_NAME : x->names[0];
		/* Before the kernel log is watched for this cell and before any step is timed. */
		env->ops->load_modules(p, c);
		x->kmsg = kmsg_open();
		read_devices(x, x->dev_before);
		hang_watch_begin(x);
		setup_and_measure(x);
		/* Even a cell that ran to the end measured something else than planned (md went
		 * on degraded): it is an error naming the disk. */
		lost_disk(x);
		teardown(x);
		read_devices(x, x->dev_after);
		x->dev_read = 1;
		judge_devices(x);
		hang_watch_end(x);
		if (x->kmsg >= 0)
			close(x->kmsg);
		env->ops->reap();
	}
	if (!x->target)
		x->target = "";
	if (x->reuse != REUSE_NONE && x->status != CELL_SKIPPED)
		x->env->ops->say("  reused    the %s of cell %d", x->reuse == REUSE_ARRAY ? "array" :
				 "array and filesystem", x->reused_from);
	if (ru) {
		ru->left = x->status == CELL_SKIPPED ? REUSE_NONE : x->keep;
		if (x->reuse == REUSE_NONE)
			ru->array_by = c->index + 1;
		if (x->reuse != REUSE_FS)
			ru->fs_by = c->index + 1;
	}
	cell_emit_record(x, 0);
	char *const *members;
	int nm = cell_watched(x, &members);
	if (x->wl_ran)
		sampler_emit(&x->smp, env, x->c->id, x->c->rep, x->c->index + 1, x->attempt,
			     x->target_name, members, nm);
	result_of(x, r);
}

void cell_run(const struct run_env *env, const struct plan *p, const struct cell *c, int attempt,
	      struct cell_reuse *ru, struct cell_result *r)
{
	run_one(ctx_new(env, p, c, attempt), ru, r);
}

void cell_warmup(const struct run_env *env, const struct plan *p, const struct cell *c, int k,
		 int n, struct cell_result *r)
{
	struct cell_ctx *x = ctx_new(env, p, c, 1);
	x->warmup = k;
	x->warmups = n;
	run_one(x, NULL, r);
}
