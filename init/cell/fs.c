/* cell/fs.c: a cell's filesystem: mkfs and tune, the geometry as the tools read it,
 * mount(2) with the check of what the kernel applied, and umount(2). */
#include "cell/ctx.h"
#include "core/command/btrfscmd.h"
#include "core/command/cellcmd.h"
#include "core/command/xfssb.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* musl's headers do not reach the kernel's linux/fs.h */
struct fstrim_range {
	uint64_t start, len, minlen;
};
#ifndef FITRIM
#define FITRIM _IOWR('X', 121, struct fstrim_range)
#endif

static int mkfs_discarded(const struct cell_ctx *x);

/* Kernel lines kept from one mount(2): a mount says a few; "mand" prints a banner of six. */
enum { KMSG_MOUNT_MAX = 16 };

int cell_make_fs(struct cell_ctx *x)
{
	struct argv a;
	struct geometry g;
	char err[256];
	int spans = btrfs_cell_spans(x->p, x->c);
	if ((spans ? cell_btrfs_mkfs_argv(x->p, x->c, x->path_v, x->n, &a, err, sizeof err)
		   : cell_mkfs_argv(x->p, x->c, x->target, &a, &g, &x->warn, err, sizeof err)) < 0) {
		cell_fail(x, CELL_ERROR, "%s", err);
		return -1;
	}
	if (step_must(x, (const char *const *)a.v, NULL) < 0)
		return -1;
	if (spans && cell_btrfs_degrade(x) < 0)
		return -1;
	if (cell_tune_argv(x->p, x->c, x->target, &a, err, sizeof err) < 0) {
		cell_fail(x, CELL_ERROR, "%s", err);
		return -1;
	}
	if (a.n && step_must(x, (const char *const *)a.v, NULL) < 0)
		return -1;
	x->discarded = mkfs_discarded(x);
	cell_read_geometry(x);
	return 0;
}

/* mke2fs and mkfs.xfs discard the whole device before they write, unless told not to, when
 * the device passes discards at all (md's raid4/5/6 drop them unless its members are known
 * to handle them safely): so whether a cell starts on trimmed blocks depends on the level. */
static int mkfs_discarded(const struct cell_ctx *x)
{
	char path[96], v[32];
	const struct plan_fs *f = &x->p->fs[x->c->fs];
	if (!x->p->discard || strstr(f->mkfs, "nodiscard") || strstr(f->mkfs, "-K"))
		return 0;
	snprintf(path, sizeof path, "/sys/block/%s/queue/discard_max_bytes", x->target_name);
	return file_first_line(path, v, sizeof v) == 0 && strtoull(v, NULL, 10) > 0;
}

/* xfs's superblock read here as xfs_db's info prints it (core/command/xfssb.h): the image has no
 * xfs_db. */
static void read_xfs_geometry(struct cell_ctx *x)
{
	unsigned char sb[XFS_SB_BYTES];
	int fd = open(x->target, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, sb, sizeof sb, 0);
	if (fd >= 0)
		close(fd);
	if (n < 0 || xfs_sb_info(sb, (size_t)n, x->target, x->fs_geom, sizeof x->fs_geom) < 0)
		warn_add(&x->warn, "unable to read the xfs superblock of %s%s%s", x->target,
			 n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
}

/* Read before mounting, so the on-disk superblock is what mkfs and tune2fs left. */
void cell_read_geometry(struct cell_ctx *x)
{
	const char *ext[] = { "tune2fs", "-l", x->target, NULL };
	const char *btrfs[] = { "btrfs", "inspect-internal", "dump-super", x->target, NULL };
	const char *const *by_type[] = { [FS_EXT2] = ext, [FS_EXT3] = ext, [FS_EXT4] = ext,
					 [FS_BTRFS] = btrfs };
	struct run_result r;
	if (x->p->fs[x->c->fs].type == FS_XFS) {
		read_xfs_geometry(x);
		return;
	}
	if (step_run(x, by_type[x->p->fs[x->c->fs].type], 0, &r) >= 0) {
		snprintf(x->fs_geom, sizeof x->fs_geom, "%s", r.out ? r.out : "");
		run_free(&r);
	}
}

/* Everything under the mount but the mount point and ext's lost+found. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (ftw->level == 0 || (ftw->level == 1 && strcmp(path + ftw->base, "lost+found") == 0))
		return 0;
	if (ftw->level > 1 && strncmp(path, TEST_MNT "/lost+found/", sizeof TEST_MNT + 11) == 0)
		return 0;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0)
		return errno;
	return 0;
}

int cell_clean_fs(struct cell_ctx *x)
{
	const char *argv[] = { "clean", TEST_MNT, "the cell before's files removed, fstrim, sync",
			       NULL };
	long long t0 = boottime_ms();
	int err = nftw(TEST_MNT, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	if (err < 0)
		err = errno;
	struct fstrim_range range = { 0, UINT64_MAX, 0 };
	int fd = open(TEST_MNT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* no discard on this device (EOPNOTSUPP) is not a failure: its blocks stay as written */
	x->discarded = x->p->discard && fd >= 0 && ioctl(fd, FITRIM, &range) == 0;
	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	struct step *s = syscall_step(x, argv, t0, err);
	if (err) {
		snprintf(s->err, sizeof s->err, "unable to empty " TEST_MNT ": %s", strerror(err));
		cell_fail(x, CELL_ERROR, "%s", s->err);
		return -1;
	}
	return 0;
}

/* What the kernel said about the mount (from its log) and what /proc/mounts shows it
 * applied: an option it ignored is a warning, said on the console as it happens. */
static void check_mount(struct cell_ctx *x, const struct kmsg_line *lines, int nlines,
			const char *type, const char *opts)
{
	int first_warning = x->warn.n;
	if (mount_check(lines, nlines, type, opts, x->mount_line, &x->warn, x->mount_ignored,
			sizeof x->mount_ignored) > 0)
		x->env->ops->say("  warning   %s was ignored by the kernel: this cell measures "
				 "without it", x->mount_ignored);
	for (int i = first_warning; i < x->warn.n; i++)
		x->env->ops->say("  warning   %s", x->warn.msg[i]);
}

int cell_mount_fs(struct cell_ctx *x)
{
	const struct plan_fs *f = &x->p->fs[x->c->fs];
	const char *opts = f->mount[x->c->mount];
	const char *type = plan_fs_name(f->type);
	unsigned long flags;
	char data[PLAN_STR_MAX], fl[128];
	mkdir("/mnt", 0755);
	mkdir(TEST_MNT, 0755);
	if (mount_opts_split(opts, &flags, data, sizeof data) < 0) {
		cell_fail(x, CELL_ERROR, "mount options too long: %s", opts);
		return -1;
	}
	if (btrfs_cell_spans(x->p, x->c) &&
	    btrfs_mount_data(&x->p->arrays[x->c->array], x->path_v, data, sizeof data) < 0) {
		cell_fail(x, CELL_ERROR, "mount options too long: %s", opts);
		return -1;
	}
	mount_flags_names(flags, fl, sizeof fl);
	const char *argv[] = { "mount(2)", x->target, TEST_MNT, type, fl[0] ? fl : "0", data, NULL };
	struct kmsg_line lines[KMSG_MOUNT_MAX];
	kmsg_collect(x->kmsg, lines, 0);   /* what mdadm and mkfs made the kernel say */
	long long t0 = boottime_ms();
	int rc = mount(x->target, TEST_MNT, type, flags, data);
	int e = rc < 0 ? errno : 0;
	struct step *s = syscall_step(x, argv, t0, e);
	/* The kernel says which option it refused, or ignored while mounting anyway, only in
	 * its log; /proc/mounts shows what it applied. */
	int nlines = kmsg_collect(x->kmsg, lines, KMSG_MOUNT_MAX);
	if (rc == 0)
		probe_mount_line(TEST_MNT, x->mount_line, sizeof x->mount_line);
	check_mount(x, lines, nlines, type, opts);
	if (rc < 0) {
		char said[512];
		const char *words[] = { x->target_name, type, "EXT4-fs", "XFS", "BTRFS", NULL };
		kmsg_last(lines, nlines, words, said, sizeof said);
		if (said[0])
			snprintf(s->err + strlen(s->err), sizeof s->err - strlen(s->err), "; kernel: %s", said);
		cell_fail(x, CELL_ERROR, "unable to mount %s on " TEST_MNT ": %s (options %s)%s%s",
			  x->target, strerror(e), opts, said[0] ? "; kernel: " : "", said);
		return -1;
	}
	x->mounted = 1;
	return 0;
}

void cell_unmount_fs(struct cell_ctx *x)
{
	const char *argv[] = { "umount(2)", TEST_MNT, NULL };
	long long t0 = boottime_ms();
	int rc = -1, e = 0;
	for (int tries = 0; tries < 10 && rc < 0; tries++) {
		rc = umount(TEST_MNT);
		e = rc < 0 ? errno : 0;
		if (rc < 0 && e != EBUSY)
			break;
		if (rc < 0)
			usleep(300 * 1000); /* a killed workload's files may still be closing */
	}
	syscall_step(x, argv, t0, e);
	if (rc < 0) {
		const char *lazy[] = { "umount2(2)", TEST_MNT, "MNT_DETACH", NULL };
		t0 = boottime_ms();
		rc = umount2(TEST_MNT, MNT_DETACH);
		syscall_step(x, lazy, t0, rc < 0 ? errno : 0);
		warn_add(&x->warn, "teardown: unable to unmount " TEST_MNT ": %s (detached lazily)",
			 strerror(e));
	}
	x->mounted = 0;
}
