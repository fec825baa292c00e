/* cell/replay.c: a cell's dm-log-writes log replayed after the cell, each crash point
 * checked under both models (core/workload/replay.h). The array's blocks are free again once
 * the filesystem is unmounted: a dm-thin pool is made on them (fsm-9-rmeta, fsm-9-rdata,
 * fsm-9-rpool, new blocks zeroed, so that a volume reads zeros where nothing was written),
 * one thin volume per model (fsm-9-r0, fsm-9-r1), each advanced through its model's steps;
 * at each point the volume is snapshotted (suspend, create_snap, resume), the snapshot
 * mounted (the filesystem's journal recovery writes to it alone), the durability workload's
 * promise of that mark verified, unmounted, checked read-only by fsck, and removed. So the
 * replays add up: each entry is applied once per model. Teardown removes every fsm-*. */
#include "cell/ctx.h"
#include "core/command/cellcmd.h"
#include "core/model/layer.h"
#include "core/workload/replay.h"
#include "engines/durability.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BLKDISCARD
#define BLKDISCARD _IO(0x12, 119)
#endif

#define REPLAY_MNT "/run/fsm-replay"
#define POOL "fsm-9-rpool"
#define POOL_DEV "/dev/mapper/" POOL
#define SNAP "fsm-9-snap"
#define SNAP_ID 2
#define POOL_BLOCK 128                 /* sectors: 64 KiB */
#define COPY_MAX (1u << 20)

struct rp {
	struct cell_ctx *x;
	int logfd, vol[REPLAY_MODELS];
	uint64_t sectors;                  /* of the filesystem's device */
	struct lw_log log;
	struct replay_plan plan;
	unsigned char *buf;
};

static int fail(struct rp *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct rp *r, const char *fmt, ...)
{
	va_list ap;
	if (r->x->dur.error[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->x->dur.error, sizeof r->x->dur.error, fmt, ap);
	va_end(ap);
	return -1;
}

/* dmsetup with args (NULL-ended): 0, or -1 with the error kept. */
static int dm(struct rp *r, const char *a0, ...)
{
	char *argv[12] = { "dmsetup", "--noudevrules", "--noudevsync" };
	int n = 3;
	va_list ap;
	va_start(ap, a0);
	for (const char *a = a0; a && n < 11; a = va_arg(ap, const char *))
		argv[n++] = (char *)a;
	va_end(ap);
	argv[n] = NULL;
	struct run_opts o = { .timeout_ms = 60000 };
	struct run_result res = { 0 };
	int rc = run_argv(argv, &o, &res) == 0 && res.status == 0 ? 0 : -1;
	if (rc < 0)
		fail(r, "dmsetup %s %s: %.200s", argv[3], argv[4] ? argv[4] : "", res.err);
	run_free(&res);
	return rc;
}

/* The pool on the array's blocks, and one thin volume per model as long as the filesystem's
 * device. */
static int make_pool(struct rp *r)
{
	const char *base = r->x->log_base;
	uint64_t all = file_dev_sectors(base);
	uint64_t meta = layer_thin_meta_sectors(all, POOL_BLOCK);
	char t[3][256];
	if (all <= meta + POOL_BLOCK * 16)
		return fail(r, "%s is too small for a thin pool (%llu sectors)", base,
			    (unsigned long long)all);
	uint64_t data = (all - meta) / POOL_BLOCK * POOL_BLOCK;
	r->sectors = all;
	snprintf(t[0], sizeof t[0], "0 %llu linear %s 0", (unsigned long long)meta, base);
	snprintf(t[1], sizeof t[1], "0 %llu linear %s %llu", (unsigned long long)data, base,
		 (unsigned long long)meta);
	snprintf(t[2], sizeof t[2], "0 %llu thin-pool /dev/mapper/fsm-9-rmeta "
		 "/dev/mapper/fsm-9-rdata %d 0", (unsigned long long)data, POOL_BLOCK);
	if (dm(r, "create", "fsm-9-rmeta", "--table", t[0], NULL) < 0 ||
	    file_zero_head("/dev/mapper/fsm-9-rmeta", 4096) < 0 ||
	    dm(r, "create", "fsm-9-rdata", "--table", t[1], NULL) < 0 ||
	    dm(r, "create", POOL, "--table", t[2], NULL) < 0)
		return fail(r, "unable to make the replay's thin pool on %s", base);
	for (int m = 0; m < REPLAY_MODELS; m++) {
		char msg[32], name[32], table[160], path[64];
		snprintf(msg, sizeof msg, "create_thin %d", m);
		snprintf(name, sizeof name, "fsm-9-r%d", m);
		snprintf(table, sizeof table, "0 %llu thin " POOL_DEV " %d",
			 (unsigned long long)all, m);
		snprintf(path, sizeof path, "/dev/mapper/%s", name);
		if (dm(r, "message", POOL, "0", msg, NULL) < 0 ||
		    dm(r, "create", name, "--table", table, NULL) < 0)
			return -1;
		if ((r->vol[m] = open(path, O_RDWR | O_CLOEXEC)) < 0)
			return fail(r, "unable to open %s: %s", path, strerror(errno));
	}
	return 0;
}

/* One log entry applied to the model's volume: its data copied, or a discard. */
static int apply(struct rp *r, int m, const struct lw_entry *e)
{
	uint64_t ss = r->log.sectorsize, at = e->sector * ss, len = e->nr_sectors * ss;
	if (e->flags & LW_DISCARD) {
		uint64_t range[2] = { at, len };
		ioctl(r->vol[m], BLKDISCARD, range);   /* unwritten thin blocks read zeros anyway */
		return 0;
	}
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < COPY_MAX ? (size_t)(len - done) : COPY_MAX;
		if (pread(r->logfd, r->buf, n, (off_t)(e->data_off + done)) != (ssize_t)n ||
		    pwrite(r->vol[m], r->buf, n, (off_t)(at + done)) != (ssize_t)n)
			return fail(r, "unable to replay %llu bytes at sector %llu: %s",
				    (unsigned long long)len, (unsigned long long)e->sector,
				    strerror(errno));
		done += n;
	}
	return 0;
}

static int log_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	return pread(*(int *)ctx, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The filesystem's read-only check: 0 clean, 1 errors, -1 no such tool in the image. */
static int fsck(const struct cell_ctx *x, const char *dev)
{
	char *e2[] = { "e2fsck", "-fn", (char *)dev, NULL };
	char *xfs[] = { "xfs_repair", "-n", (char *)dev, NULL };
	char *btr[] = { "btrfs", "check", "--readonly", (char *)dev, NULL };
	char **argv = x->p->fs[x->c->fs].type == FS_XFS ? xfs :
		      x->p->fs[x->c->fs].type == FS_BTRFS ? btr : e2;
	struct run_opts o = { .timeout_ms = 120000 };
	struct run_result res = { 0 };
	int rc = run_argv(argv, &o, &res) < 0 || res.status == 127 ? -1 : res.status != 0;
	run_free(&res);
	return rc;
}

static void tally(struct dur_model_tally *t, const struct replay_point *pt, unsigned k,
		  const struct dur_tally *d, const char *why)
{
	if (!why && !d->lost && !d->torn && !d->files_missing)
		return;
	t->lost_points++;
	t->lost += d->lost;
	t->torn += d->torn;
	t->files_missing += d->files_missing;
	if (!t->first[0])
		snprintf(t->first, sizeof t->first, "point %u (after %llu operations): %.160s", k + 1,
			 (unsigned long long)pt->acked, why ? why : d->first);
}

/* Crash point k of model m: a snapshot of the volume mounted, verified, unmounted, fsck'd. */
static int check_point(struct rp *r, int m, unsigned k)
{
	struct cell_ctx *x = r->x;
	const struct plan_fs *f = &x->p->fs[x->c->fs];
	const struct replay_point *pt = &r->plan.points[k];
	struct dur_model_tally *t = &x->dur.m[m];
	char vol[32], snap[48], table[160], data[PLAN_STR_MAX];
	unsigned long flags;
	snprintf(vol, sizeof vol, "fsm-9-r%d", m);
	snprintf(snap, sizeof snap, "create_snap %d %d", SNAP_ID, m);
	snprintf(table, sizeof table, "0 %llu thin " POOL_DEV " %d", (unsigned long long)r->sectors,
		 SNAP_ID);
	if (fsync(r->vol[m]) < 0 || dm(r, "suspend", vol, NULL) < 0 ||
	    dm(r, "message", POOL, "0", snap, NULL) < 0 || dm(r, "resume", vol, NULL) < 0 ||
	    dm(r, "create", SNAP, "--table", table, NULL) < 0)
		return fail(r, "unable to snapshot %s at point %u", vol, k + 1);
	t->points++;
	mount_opts_split(f->mount[x->c->mount], &flags, data, sizeof data);
	struct dur_tally d = { 0 };
	char why[200] = "";
	if (mount("/dev/mapper/" SNAP, REPLAY_MNT, plan_fs_name(f->type), flags, data) < 0) {
		t->unmountable++;
		snprintf(why, sizeof why, "unable to mount: %s", strerror(errno));
	} else {
		const struct plan_workload *w = &x->p->workloads[x->c->workload];
		if (w->type == WL_DURABILITY && pt->mark >= 0 &&
		    dur_verify(REPLAY_MNT, (unsigned)w->files, w->seed, pt->acked, &d) < 0)
			snprintf(why, sizeof why, "unable to verify: %s", strerror(errno));
		if (umount(REPLAY_MNT) < 0)
			return fail(r, "unable to unmount the replay of point %u: %s", k + 1,
				    strerror(errno));
	}
	tally(t, pt, k, &d, why[0] ? why : NULL);
	int fs = fsck(x, "/dev/mapper/" SNAP);
	t->fsck_runs += fs >= 0;
	t->fsck_errors += fs == 1;
	snprintf(snap, sizeof snap, "delete %d", SNAP_ID);
	if (dm(r, "remove", SNAP, NULL) < 0 || dm(r, "message", POOL, "0", snap, NULL) < 0)
		return -1;
	return 0;
}

static int walk(struct rp *r, int m)
{
	for (size_t i = 0; i < r->plan.nsteps[m]; i++) {
		const struct replay_step *s = &r->plan.steps[m][i];
		int rc = s->kind == REPLAY_APPLY ? apply(r, m, &r->log.e[s->idx]) :
			 check_point(r, m, s->idx);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void counts(struct cell_durability *d, const struct lw_log *log,
		   const struct replay_plan *p)
{
	d->entries = log->n;
	d->log_bytes = log->end;
	d->writes = log->writes;
	d->flushes = p->fs_flushes;
	d->fuas = p->fuas;
	d->instrument_flushes = p->instrument_flushes;
	d->candidates = p->npoints;
	d->ambiguous = p->ambiguous;
}

/* Writeback throttling off on the cell's disks while the replays write through dm-thin,
 * then as it was: under TCG a replay's fsync once waited 120 s in wbt_wait with no I/O
 * completing on the disk (dm-thin's worker in rq_qos_wait; make test, 2026-12-08, kernel
 * 6.1.0-57: the hang watch declared the cell hung). The replays are the instrument's, after
 * the cell's figure, and the disks' setting is put back before the next cell. */
static void wbt_set(const struct cell_ctx *x, char (*saved)[24], int off)
{
	char path[96];
	for (int i = 0; i < x->n && i < PLAN_DEVICES_MAX; i++) {
		snprintf(path, sizeof path, "/sys/block/%s/queue/wbt_lat_usec", x->names[i]);
		if (off) {
			if (file_first_line(path, saved[i], sizeof saved[i]) < 0)
				saved[i][0] = '\0';
			else
				(void)file_put_value(path, "0");
		} else if (saved[i][0]) {
			(void)file_put_value(path, saved[i]);
		}
	}
}

void cell_replay(struct cell_ctx *x)
{
	char wbt_saved[PLAN_DEVICES_MAX][24];
	wbt_set(x, wbt_saved, 1);
	struct rp r = { .x = x, .vol = { -1, -1 } };
	char err[256];
	mkdir(REPLAY_MNT, 0700);
	r.logfd = open(x->log_dev, O_RDONLY | O_CLOEXEC);
	r.buf = malloc(COPY_MAX);
	if (r.logfd < 0 || !r.buf)
		fail(&r, "unable to read the log on %s: %s", x->log_dev, strerror(errno));
	else if (lw_read(log_read, &r.logfd, file_dev_sectors(x->log_dev) * 512, &r.log, err,
			 sizeof err) < 0)
		fail(&r, "the log on %s: %s", x->log_dev, err);
	else if (replay_plan_build(&r.log, (size_t)x->p->crash_points, &r.plan, err,
				   sizeof err) < 0)
		fail(&r, "%s", err);
	else {
		counts(&x->dur, &r.log, &r.plan);
		if (make_pool(&r) == 0 && walk(&r, REPLAY_PESSIMISTIC) == 0 &&
		    walk(&r, REPLAY_OPTIMISTIC) == 0)
			x->dur.checked = 1;
	}
	for (int m = 0; m < REPLAY_MODELS; m++)
		if (r.vol[m] >= 0)
			close(r.vol[m]);
	if (r.logfd >= 0)
		close(r.logfd);
	replay_plan_free(&r.plan);
	lw_free(&r.log);
	free(r.buf);
	wbt_set(x, wbt_saved, 0);
}
