/* cell/lvm.c: a cell's lvm volume (core/command/lvmcmd.h) over its members: the LV checked
 * against what the disks hold before anything is written, pvcreate, vgcreate and lvcreate,
 * the wait for a raid LV's sync read from dm-raid's status line, what lvs and dmsetup say of
 * it for the record, and vgremove and pvremove at teardown (the wipe that follows takes the
 * PV labels with the first MiB; a power cut leaves them to the next boot's wipe). */
#include "cell/ctx.h"
#include "core/command/lvmcmd.h"
#include "core/model/level.h"
#include "lib/file.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)   /* musl's headers lack the kernel's fs.h */
#endif

/* The smallest member's bytes: each PV holds that much at most. */
static uint64_t least_member(const struct cell_ctx *x)
{
	uint64_t least = 0;
	for (int i = 0; i < x->n; i++) {
		uint64_t b = 0;
		int fd = open(x->paths[i], O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && ioctl(fd, BLKGETSIZE64, &b) < 0)
			b = 0;
		if (fd >= 0)
			close(fd);
		if (i == 0 || b < least)
			least = b;
	}
	return least;
}

int cell_lvm_fits(struct cell_ctx *x)
{
	struct argv a[LVM_STEPS];
	char err[400];
	if (lvm_create_argv(x->p, x->c, x->path_v, x->n, least_member(x), a, err, sizeof err) < 0) {
		cell_fail(x, CELL_ERROR, "%s", err);
		return -1;
	}
	return 0;
}

/* The kernel's name of the LV's dm device (dm-N): its queue, its stats, its kernel lines. */
static void find_dm_name(struct cell_ctx *x)
{
	DIR *d = opendir("/sys/block");
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[300], dm[64];
		snprintf(path, sizeof path, "/sys/block/%s/dm/name", e->d_name);
		if (strncmp(e->d_name, "dm-", 3) == 0 && file_first_line(path, dm, sizeof dm) == 0 &&
		    strcmp(dm, LVM_DM_NAME) == 0) {
			snprintf(x->lvm_dm, sizeof x->lvm_dm, "%.15s", e->d_name);
			x->target_name = x->lvm_dm;
		}
	}
	if (d)
		closedir(d);
}

/* dmsetup status of the LV into x->lvm_status; 0, or -1 when it could not be read. */
static int read_status(struct cell_ctx *x, struct lvm_raid_status *st)
{
	char *const argv[] = { "dmsetup", "status", LVM_DM_NAME, NULL };
	struct run_opts o = { .timeout_ms = 30000, .grace_ms = 2000, .out_cap = 4096 };
	struct run_result r;
	if (run_argv(argv, &o, &r) < 0)
		return -1;
	x->env->ops->reap();
	int rc = r.status == 0 ? 0 : -1;
	run_first_line(&r, x->lvm_status, sizeof x->lvm_status);
	run_free(&r);
	return rc < 0 ? -1 : lvm_raid_status_parse(x->lvm_status, st);
}

/* As md's resync wait: until every leg is in sync, bounded by resync_timeout, the cell's
 * own timeout moved by the time it took. */
static int wait_sync(struct cell_ctx *x)
{
	struct lvm_raid_status st;
	long long t0 = boottime_ms();
	for (;;) {
		if (read_status(x, &st) < 0) {
			cell_fail(x, CELL_ERROR, "unable to read dm-raid's status of " LVM_DM_NAME ": %s",
				  x->lvm_status[0] ? x->lvm_status : "dmsetup status failed");
			return -1;
		}
		x->env->ops->pet();
		if (lvm_raid_in_sync(&st))
			break;
		if (x->p->resync_timeout_s &&
		    boottime_ms() - t0 > (long long)x->p->resync_timeout_s * 1000) {
			cell_fail(x, CELL_TIMEOUT, "lvm raid sync (%s, %llu of %llu sectors) did not "
				  "finish within resync_timeout (%u s)", st.action,
				  (unsigned long long)st.done, (unsigned long long)st.total,
				  x->p->resync_timeout_s);
			x->resync_s = (double)(boottime_ms() - t0) / 1000;
			return -1;
		}
		usleep(250 * 1000);
	}
	if (x->deadline)
		x->deadline += boottime_ms() - t0;
	x->resync_s = (double)(boottime_ms() - t0) / 1000;
	return 0;
}

int cell_create_lvm(struct cell_ctx *x)
{
	struct argv a[LVM_STEPS];
	char err[400];
	const struct plan_array *ar = &x->p->arrays[x->c->array];
	if (lvm_create_argv(x->p, x->c, x->path_v, x->n, least_member(x), a, err, sizeof err) < 0) {
		cell_fail(x, CELL_ERROR, "%s", err);
		return -1;
	}
	for (int i = 0; i < LVM_STEPS; i++) {
		/* from the first label on, teardown has something to remove */
		x->lvm_made = 1;
		if (step_must(x, (const char *const *)a[i].v, NULL) < 0)
			return -1;
	}
	x->created = 1;
	find_dm_name(x);
	if (!level_find(ar->level)->module) {   /* linear, striped: nothing to sync */
		x->resync_s = x->p->resync == RESYNC_IGNORE ? -1 : 0;
		return 0;
	}
	if (x->p->resync == RESYNC_WAIT)
		return wait_sync(x);
	if (x->p->resync != RESYNC_IGNORE)
		x->resync_s = 0;
	return 0;
}

void cell_read_lvm(struct cell_ctx *x)
{
	struct argv a;
	struct run_result r;
	struct lvm_raid_status st;
	lvm_lvs_argv(x->path_v, x->n, &a);
	if (step_run(x, (const char *const *)a.v, 1, &r) >= 0) {
		run_first_line(&r, x->lvm_lvs, sizeof x->lvm_lvs);
		run_free(&r);
	}
	if (level_find(x->p->arrays[x->c->array].level)->module)
		read_status(x, &st);
}

void cell_remove_lvm(struct cell_ctx *x, int teardown)
{
	struct argv vg, pv;
	lvm_remove_argv(x->path_v, x->n, &vg, &pv);
	if (step_run(x, (const char *const *)vg.v, teardown, NULL) != 0)
		warn_add(&x->warn, "teardown: vgremove " LVM_VG " failed; the wipe removes its labels");
	step_run(x, (const char *const *)pv.v, teardown, NULL);
	x->lvm_made = 0;
}

void cell_lvm_json(struct jw *w, const struct cell_ctx *x)
{
	struct lvm_lv lv;
	if (!x->lvm)
		return;
	jw_key(w, "lvm");
	jw_obj(w);
	jw_kstr(w, "vg", LVM_VG);
	jw_kstr(w, "lv", LVM_LV);
	jw_kstr(w, "dm", x->lvm_dm[0] ? x->lvm_dm : NULL);
	if (lvm_lvs_parse(x->lvm_lvs, &lv) == 0) {
		jw_kstr(w, "segtype", lv.segtype);
		jw_kint(w, "stripes", lv.stripes);
		jw_kint(w, "stripe_size", (long long)lv.stripe_size);
		jw_kint(w, "region_size", (long long)lv.region_size);
		jw_kint(w, "lv_bytes", (long long)lv.lv_size);
	} else {
		jw_kstr(w, "lvs", x->lvm_lvs[0] ? x->lvm_lvs : NULL);
	}
	jw_kstr(w, "status", x->lvm_status[0] ? x->lvm_status : NULL);
	jw_end_obj(w);
}
