/* pid1/reference.c: the reference set, measured at the start and the end of every boot that
 * runs cells (core/figures/reference.h says what and why), and written as a "reference" record. The
 * RAM disk figure goes through the cell's own path: the seqwrite engine in a child
 * (cell/workload.c) on ext4 made by the image's mkfs on brd's /dev/ram0, mounted where the
 * cells mount, so a change in the kernel's block or page cache path moves it as it moves the
 * cells. The disk figure writes 4 MiB in the middle of the first taken disk (handed over to be
 * written) and reads them back; no other disk is touched. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "core/figures/reference.h"
#include "lib/run.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)   /* musl's headers lack the kernel's fs.h */
#endif

#define RAMDISK "/dev/ram0"
#define MEMCPY_BYTES (32u << 20)
#define DISK_READ_BYTES (4u << 20)

static double cpu_loop_once(char *why, size_t len)
{
	(void)why, (void)len;
	const long n = 3 * 1000 * 1000;
	volatile uint64_t sink;
	uint64_t x = 88172645463325252ULL;
	double t0 = mono_s();
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
	(void)sink;
	double dt = mono_s() - t0;
	return dt > 0 ? (double)n / dt / 1e6 : -1;
}

static double memcpy_once(char *why, size_t len)
{
	char *a = malloc(MEMCPY_BYTES), *b = malloc(MEMCPY_BYTES);
	double r = -1;
	if (!a || !b) {
		snprintf(why, len, "unable to allocate 2 x %u MiB", MEMCPY_BYTES >> 20);
	} else {
		memset(a, 0x5a, MEMCPY_BYTES);
		memset(b, 0, MEMCPY_BYTES);   /* both touched: no page fault in the timed part */
		/* through a volatile pointer: a copy into memory freed unread may be elided */
		void *(*volatile copy)(void *, const void *, size_t) = memcpy;
		double t0 = mono_s();
		for (int i = 0; i < 4; i++)
			copy(i & 1 ? a : b, i & 1 ? b : a, MEMCPY_BYTES);
		double dt = mono_s() - t0;
		r = dt > 0 ? 4.0 * MEMCPY_BYTES / dt / 1e6 : -1;
	}
	free(a);
	free(b);
	return r;
}

static const struct plan_workload ramdisk_seqwrite = {
	.name = "reference", .type = WL_SEQWRITE, .size = 16u << 20, .bs = 1u << 20,
	.data = DATA_RANDOM, .seed = PLAN_DEFAULT_SEED,
};

static double ramdisk_once(char *why, size_t len)
{
	struct wl_outcome *o = calloc(1, sizeof *o);
	double r = -1;
	if (!o) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (workload_run(&ramdisk_seqwrite, 0, 60000, NULL, NULL, o, NULL) == 0)
		r = workload_figure(o, "mbps");
	else
		snprintf(why, len, "seqwrite on " RAMDISK ": %.120s", o->errmsg);
	free(o);
	return r;
}

static const char *disk_to_read;
static off_t disk_read_at;

/* The region the disk figure reads, written first with random bytes, in both phases: a blank
 * disk answers reads of blocks never written without touching its media (an SSD's trimmed
 * blocks, qemu's unwritten extents), so the start would read nothing and the end the cells'
 * data. The middle of the taken disk (handed over to be written; every cell wipes and makes
 * it anew), 1 MiB aligned. 0, or -1 with why. */
static int disk_region_write(char *why, size_t len)
{
	char path[64];
	void *buf = NULL;
	uint64_t size = 0;
	int rc = -1;
	snprintf(path, sizeof path, "/dev/%s", disk_to_read);
	int fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || size < 2 * DISK_READ_BYTES ||
	    posix_memalign(&buf, 4096, DISK_READ_BYTES) != 0) {
		snprintf(why, len, "unable to write %s's region with O_DIRECT: %s", path,
			 fd < 0 ? strerror(errno) : size < 2 * DISK_READ_BYTES ? "too small" : strerror(errno));
	} else {
		disk_read_at = (off_t)(size / 2 / (1u << 20) * (1u << 20));
		wl_fill_random(buf, DISK_READ_BYTES, PLAN_DEFAULT_SEED);
		if (pwrite(fd, buf, DISK_READ_BYTES, disk_read_at) != (ssize_t)DISK_READ_BYTES ||
		    fdatasync(fd) < 0)
			snprintf(why, len, "write %s at %lld: %s", path, (long long)disk_read_at,
				 strerror(errno));
		else
			rc = 0;
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

static double disk_read_once(char *why, size_t len)
{
	char path[64];
	void *buf = NULL;
	double r = -1;
	snprintf(path, sizeof path, "/dev/%s", disk_to_read);
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, 1u << 20) != 0) {
		snprintf(why, len, "unable to read %s with O_DIRECT: %s", path, strerror(errno));
	} else {
		double t0 = mono_s();
		size_t got = 0;
		for (off_t off = disk_read_at; got < DISK_READ_BYTES; off += 1 << 20) {
			ssize_t n = pread(fd, buf, 1u << 20, off);
			if (n <= 0) {
				snprintf(why, len, "read %s at %lld: %s", path, (long long)off,
					 n < 0 ? strerror(errno) : "end of the disk");
				break;
			}
			got += (size_t)n;
		}
		double dt = mono_s() - t0;
		if (got >= DISK_READ_BYTES && dt > 0)
			r = (double)got / dt / 1e6;
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return r;
}

static void measure(struct ref_figure *f, double (*once)(char *, size_t))
{
	memset(f, 0, sizeof *f);
	/* one untimed turn first: a cold cache or a host file read for the first time would
	 * widen the spread that the drift's bound is made of */
	if (once(f->why, sizeof f->why) < 0) {
		ref_summarize(f);
		return;
	}
	for (int i = 0; i < REF_REPEATS; i++) {
		double v = once(f->why, sizeof f->why);
		if (v < 0)
			break;
		f->v[f->n++] = v;
	}
	if (f->n)
		f->why[0] = '\0';
	ref_summarize(f);
}

/* brd's one RAM disk with ext4 on it, mounted where a cell mounts. 0, or -1 with why. */
static int ramdisk_up(char *why, size_t len)
{
	/* ext4 too: at the start of a boot no cell has asked for it yet. What did not load (a
	 * module for another CPU is counted as such) shows in the mkfs or the mount below. */
	static const char *const mods[] = { "brd", "ext4", NULL };
	modules_load_named(mods);
	if (modules_unreported())
		modules_event();
	for (int i = 0; i < 50 && access(RAMDISK, F_OK) != 0; i++)
		usleep(20000);
	char *const argv[] = { "mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0",
			       RAMDISK, NULL };
	struct run_opts ro = { .timeout_ms = 60000 };
	struct run_result res;
	if (run_argv(argv, &ro, &res) < 0 || res.status != 0) {
		snprintf(why, len, "mkfs.ext4 " RAMDISK ": %.100s", res.err);
		run_free(&res);
		return -1;
	}
	run_free(&res);
	mkdir(TEST_MNT, 0755);
	if (mount(RAMDISK, TEST_MNT, "ext4", 0, "") < 0) {
		snprintf(why, len, "mount " RAMDISK ": %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void figures_json(struct jw *w, const struct ref_figure *f)
{
	jw_key(w, "figures");
	jw_obj(w);
	for (int i = 0; i < REF_COUNT; i++) {
		jw_key(w, ref_rows[i].name);
		jw_obj(w);
		jw_kstr(w, "unit", ref_rows[i].unit);
		if (f[i].n == 0) {
			jw_kstr(w, "unavailable", f[i].why[0] ? f[i].why : "not measured");
		} else {
			jw_key(w, "values");
			jw_arr(w);
			for (int k = 0; k < f[i].n; k++)
				jw_double(w, f[i].v[k], 2);
			jw_end_arr(w);
			jw_kdouble(w, "median", f[i].median, 2);
			jw_kdouble(w, "rsd_pct", f[i].rsd_pct, 2);
		}
		jw_end_obj(w);
	}
	jw_end_obj(w);
}

void reference_run(const struct plan *p, const char *phase)
{
	static struct ref_figure f[REF_COUNT];
	static char buf[4096];
	if (boot.cmd.dry || !p->reference)
		return;
	long long t0 = boottime_ms();
	measure(&f[REF_CPU], cpu_loop_once);
	measure(&f[REF_MEMCPY], memcpy_once);
	memset(&f[REF_RAMDISK], 0, sizeof f[REF_RAMDISK]);
	if (ramdisk_up(f[REF_RAMDISK].why, sizeof f[REF_RAMDISK].why) == 0) {
		measure(&f[REF_RAMDISK], ramdisk_once);
		if (umount(TEST_MNT) < 0)
			say("fsmatrix: reference: unable to unmount " RAMDISK ": %s", strerror(errno));
	} else {
		ref_summarize(&f[REF_RAMDISK]);
	}
	disk_to_read = NULL;
	for (int i = 0; i < boot.ndisks && !disk_to_read; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN)
			disk_to_read = boot.disks[i].name;
	if (disk_to_read) {
		memset(&f[REF_DISK_READ], 0, sizeof f[REF_DISK_READ]);
		if (disk_region_write(f[REF_DISK_READ].why, sizeof f[REF_DISK_READ].why) == 0)
			measure(&f[REF_DISK_READ], disk_read_once);
		else
			ref_summarize(&f[REF_DISK_READ]);
	} else {
		memset(&f[REF_DISK_READ], 0, sizeof f[REF_DISK_READ]);
		snprintf(f[REF_DISK_READ].why, sizeof f[REF_DISK_READ].why, "no disk taken");
		ref_summarize(&f[REF_DISK_READ]);
	}
	long long ms = boottime_ms() - t0;

	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "reference");
	jw_kstr(&w, "run", boot.run_id);
	jw_kstr(&w, "phase", phase);
	jw_kint(&w, "boot", boot.resumed + 1);
	jw_kstr(&w, "disk", disk_to_read);
	figures_json(&w, f);
	jw_kint(&w, "ms", ms);
	jw_end_obj(&w);
	emit(&w);
	for (int i = 0; i < REF_COUNT; i++)
		if (f[i].n)
			say("fsmatrix: reference %s: %-16s %.1f %s (RSD %.1f%%)", phase, ref_rows[i].name,
			    f[i].median, ref_rows[i].unit, f[i].rsd_pct);
		else
			say("fsmatrix: reference %s: %-16s unavailable: %s", phase, ref_rows[i].name, f[i].why);
	say("fsmatrix: reference %s measured in %lld ms", phase, ms);
}
