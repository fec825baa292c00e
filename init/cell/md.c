/* cell/md.c: a cell's members and its md array: the wipe, the superblocks, mdadm
 * --create and the resync wait, --detail, --stop. Only taken disks are ever written: the
 * members come from the run environment's taken disks alone (cell/env.h), and the wipe
 * checks that again before it opens anything. */
#include "cell/ctx.h"
#include "core/command/cellcmd.h"
#include "core/command/geometry.h"
#include "core/model/level.h"
#include "core/disk/probe.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* musl's headers do not reach the kernel's linux/fs.h: its two ioctl numbers. */
#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif
#ifndef BLKFLSBUF
#define BLKFLSBUF _IO(0x12, 97)
#endif

#define WIPE_BYTES (1 << 20)

/* ------------------------------------------------------------------ wipe */

static int is_taken(const struct run_env *env, const char *name)
{
	for (const char *const *t = env->taken; *t; t++)
		if (strcmp(*t, name) == 0)
			return 1;
	return 0;
}

static int zero_at(int fd, off_t off)
{
	static char zeros[WIPE_BYTES]; /* in .bss: const would put 1 MiB in the binary */
	size_t done = 0;
	while (done < sizeof zeros) {
		ssize_t n = pwrite(fd, zeros + done, sizeof zeros - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* btrfs's superblock copies beyond the first MiB (core/disk/probe.h), zeroed where the disk
 * reaches them: the probe refuses a disk that still holds one. */
static int zero_btrfs_copies(int fd, uint64_t size)
{
	for (size_t i = 0; i < PROBE_BTRFS_COPIES; i++)
		if (probe_btrfs_copies[i] + WIPE_BYTES <= size - WIPE_BYTES &&
		    zero_at(fd, (off_t)probe_btrfs_copies[i]) < 0)
			return -1;
	return 0;
}

/* Zeroes the first and last MiB of a taken disk: partition tables, md superblocks (1.2 at
 * 4 KiB, 0.90/1.0 at the end), filesystem signatures, and btrfs's superblock copies. O_EXCL refuses a disk something holds
 * (a mounted filesystem, a running array), so a leftover from a failed teardown shows up as
 * EBUSY here instead of being written under. */
int cell_wipe(struct cell_ctx *x, int i)
{
	const char *argv[] = { "wipe", x->paths[i], "first and last 1 MiB, btrfs's copies", NULL };
	if (!is_taken(x->env, x->names[i]))
		x->env->ops->fatal("internal error: %s is not a taken test disk, refusing to write it",
				   x->names[i]);
	long long t0 = boottime_ms();
	int err = 0;
	int fd = open(x->paths[i], O_WRONLY | O_EXCL | O_CLOEXEC);
	uint64_t size = 0;
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || size < 2 * WIPE_BYTES ||
	    zero_at(fd, 0) < 0 || zero_at(fd, (off_t)(size - WIPE_BYTES)) < 0 ||
	    zero_btrfs_copies(fd, size) < 0 || fsync(fd) < 0)
		err = errno ? errno : EIO;
	if (fd >= 0) {
		/* drop the disk's cached blocks: the next mkfs or md must not see stale ones */
		ioctl(fd, BLKFLSBUF, 0);
		close(fd);
	}
	struct step *s = syscall_step(x, argv, t0, err);
	if (err) {
		snprintf(s->err, sizeof s->err, "unable to wipe %s: %s", x->paths[i], strerror(err));
		return -1;
	}
	return 0;
}

void cell_zero_superblocks(struct cell_ctx *x, int teardown)
{
	for (int i = 0; i < x->n; i++) {
		const char *argv[] = { "mdadm", "--zero-superblock", x->paths[i], NULL };
		/* On a blank disk mdadm says "Unrecognised md component device" and exits non-zero:
		 * recorded, not a failure. */
		step_run(x, argv, teardown, NULL);
	}
}

/* ------------------------------------------------------------------ array */

void cell_stop_array(struct cell_ctx *x, int teardown)
{
	const char *argv[] = { "mdadm", "--stop", "/dev/" MD_NAME, NULL };
	for (int tries = 0; tries < 3; tries++) {
		if (step_run(x, argv, teardown, NULL) == 0)
			return;
		sleep(1); /* a just-unmounted filesystem may still hold it for a moment */
	}
	warn_add(&x->warn, "teardown: mdadm --stop /dev/" MD_NAME " failed; later cells may "
		 "find their disks busy");
}

static int wait_resync(struct cell_ctx *x)
{
	char action[64], path[] = "/sys/block/" MD_NAME "/md/sync_action";
	long long t0 = boottime_ms();
	int idle = 0;
	/* md may start its resync thread a moment after mdadm returns, when sync_action can
	 * still read idle: only two idle readings half a second apart count. */
	usleep(200 * 1000);
	while (idle < 2) {
		if (file_first_line(path, action, sizeof action) < 0) {
			cell_fail(x, CELL_ERROR, "unable to read %s: %s", path, strerror(errno));
			return -1;
		}
		idle = strcmp(action, "idle") == 0 ? idle + 1 : 0;
		x->env->ops->pet(); /* a long resync is waiting, not a hang */
		if (idle == 2)
			break;
		if (x->p->resync_timeout_s &&
		    boottime_ms() - t0 > (long long)x->p->resync_timeout_s * 1000) {
			cell_fail(x, CELL_TIMEOUT, "md resync (%s) did not finish within resync_timeout "
				  "(%u s)", action, x->p->resync_timeout_s);
			x->resync_s = (double)(boottime_ms() - t0) / 1000;
			return -1;
		}
		usleep(idle ? 500 * 1000 : 250 * 1000);
	}
	/* The resync has its own bound: the cell's timeout is for the cell's own work, and on
	 * members of terabytes the resync alone takes hours. */
	if (x->deadline)
		x->deadline += boottime_ms() - t0;
	x->resync_s = (double)(boottime_ms() - t0 - 700) / 1000; /* less the settling waits */
	if (x->resync_s < 0)
		x->resync_s = 0;
	return 0;
}

/* The stripe geometry mkfs is given is derived from the plan (core/command/geometry.c); md says
 * what it makes of its own array as the queue's optimal I/O size. A difference means the
 * filesystem is made with a geometry md itself would not suggest: a warning, not a guess. */
static void compare_io_opt(struct cell_ctx *x)
{
	const struct plan_array *ar = &x->p->arrays[x->c->array];
	char v[32];
	if (!x->c->chunk || !level_find(ar->level)->striped ||
	    file_first_line("/sys/block/" MD_NAME "/queue/optimal_io_size", v, sizeof v) < 0)
		return;
	unsigned long long got = strtoull(v, NULL, 10);
	unsigned long long want = x->c->chunk * (uint64_t)geom_data_disks(ar->level, ar->devices,
									  ar->layout);
	if (got != want)
		warn_add(&x->warn, "md reports an optimal I/O size of %llu bytes; the stripe "
			 "geometry given to mkfs assumes %llu", got, want);
}

int cell_create_array(struct cell_ctx *x)
{
	struct argv a;
	char err[256];
	if (cell_mdadm_argv(x->p, x->c, "/dev/" MD_NAME, x->path_v, x->n, &a, err, sizeof err) < 0) {
		cell_fail(x, CELL_ERROR, "%s", err);
		return -1;
	}
	if (step_must(x, (const char *const *)a.v, NULL) < 0)
		return -1;
	x->created = 1;
	compare_io_opt(x);
	/* A level with nothing to resync (raid0, or an array already missing all it can lose)
	 * starts no resync, and raid0 has no sync_action to wait on at all. */
	const struct plan_array *ar = &x->p->arrays[x->c->array];
	if (x->p->resync == RESYNC_WAIT && level_resyncs(ar->level, ar->devices, ar->missing))
		return wait_resync(x);
	if (x->p->resync != RESYNC_IGNORE)
		x->resync_s = 0;
	return 0;
}

/* md's own word for the bitmap it keeps: "none", "+8" (internal, at that offset in
 * sectors) or "file". */
void cell_read_bitmap(struct cell_ctx *x)
{
	char loc[32];
	if (file_first_line("/sys/block/" MD_NAME "/md/bitmap/location", loc, sizeof loc) < 0)
		snprintf(x->bitmap, sizeof x->bitmap, "unknown");
	else if (loc[0] == '+' || loc[0] == '-')
		snprintf(x->bitmap, sizeof x->bitmap, "internal");
	else
		snprintf(x->bitmap, sizeof x->bitmap, "%s", loc);
}

void cell_md_detail(struct cell_ctx *x)
{
	const char *argv[] = { "mdadm", "--detail", "/dev/" MD_NAME, NULL };
	struct run_result r;
	if (step_run(x, argv, 1, &r) >= 0) {
		snprintf(x->md_detail, sizeof x->md_detail, "%s", r.out ? r.out : "");
		run_free(&r);
	}
}
