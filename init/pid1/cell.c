/* pid1/cell.c: one cell, the lifecycle of issue 5: wipe the members, create the array and
 * wait out its resync, mkfs and tune, read the geometry, mount(2), run the workload, and
 * always tear down. Every command and system call is a step in the record; a step that
 * fails ends the cell as an error carrying the tool's own message, never the run.
 * Only taken disks are ever written: the members come from boot.sel alone, and the writer
 * checks that again before it opens anything. */
#include "pid1/cell.h"
#include "core/cellcmd.h"
#include "core/level.h"
#include "lib/run.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* musl's headers do not reach the kernel's linux/fs.h: its two ioctl numbers. */
#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif
#ifndef BLKFLSBUF
#define BLKFLSBUF _IO(0x12, 97)
#endif
#ifndef FIFREEZE
#define FIFREEZE _IOWR('X', 119, int)
#endif

#define STEP_MAX 48
#define STEP_ERR_MAX 1024
#define WIPE_BYTES (1 << 20)
#define TEXT_MAX (16 * 1024)      /* md --detail and fs geometry texts */

struct step {
	char words[1024];             /* argv, NUL-separated */
	int nwords;
	int status;                   /* shell-style; in-process steps: 0 or the errno */
	int timed_out;
	long long ms;
	char err[STEP_ERR_MAX];       /* stderr's tail, or strerror for in-process steps */
};

struct ctx {
	const struct plan *p;
	const struct cell *c;
	int attempt;                        /* 1, or more after reboots interrupted it */
	char names[PLAN_DEVICES_MAX][32];   /* members: vdb ... */
	char paths[PLAN_DEVICES_MAX][48];   /* /dev/vdb ... */
	char *name_v[PLAN_DEVICES_MAX + 1];
	const char *path_v[PLAN_DEVICES_MAX + 1];
	int n;
	int md;                             /* level != none */
	const char *target;                 /* /dev/md0 or the one disk */
	const char *target_name;
	long long deadline;                 /* CLOCK_BOOTTIME ms, 0 = none */
	enum cell_status status;
	char error[1400];
	struct warnings warn;
	struct step steps[STEP_MAX];
	int nsteps;
	double resync_s;                    /* < 0: not measured (ignore, or never got there) */
	int created, mounted;
	char mount_line[1024];
	char mount_ignored[256];            /* options asked for but not in effect */
	char md_detail[TEXT_MAX], fs_geom[TEXT_MAX];
	char queue[4096], mdstate[1024], df_before[512], df_after[512]; /* JSON parts */
	int kmsg;
	struct wl_outcome wl;
	int wl_ran;
};

static struct ctx x;

/* Kernel lines kept from one mount(2): a mount says a few; "mand" prints a banner of six. */
enum { KMSG_MOUNT_MAX = 16 };

/* ------------------------------------------------------------------ failure */

static void cell_fail(enum cell_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cell_fail(enum cell_status st, const char *fmt, ...)
{
	if (x.status != CELL_OK)
		return; /* the first failure is the reason */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x.error, sizeof x.error, fmt, ap);
	va_end(ap);
	x.status = st;
}

/* A member that vanished explains whatever failed after it. */
static int lost_disk(void)
{
	for (int i = 0; i < x.n; i++)
		if (!disk_present(x.names[i])) {
			char was[sizeof x.error];
			snprintf(was, sizeof was, "%s", x.error);
			snprintf(x.error, sizeof x.error, "test disk %s disappeared (no /sys/block/%s)%s%.1200s",
				 x.names[i], x.names[i], was[0] ? ": " : "", was);
			x.status = CELL_ERROR;
			return 1;
		}
	return 0;
}

static long long remaining_ms(void)
{
	if (!x.deadline)
		return 0;
	long long left = x.deadline - boottime_ms();
	return left > 0 ? left : -1;
}

/* ------------------------------------------------------------------ steps */

static struct step *step_new(const char *const *argv)
{
	static struct step spare;
	struct step *s = x.nsteps < STEP_MAX ? &x.steps[x.nsteps++] : &spare;
	size_t used = 0;
	/* Each step is a sign of life: the watchdog's timeout covers the longest one. */
	watchdog_pet();
	memset(s, 0, sizeof *s);
	for (int i = 0; argv[i]; i++) {
		size_t l = strlen(argv[i]) + 1;
		if (used + l > sizeof s->words)
			break;
		memcpy(s->words + used, argv[i], l);
		used += l;
		s->nwords++;
	}
	return s;
}

/* The first non-empty line of text: tools put the reason first ("mkfs.ext4: invalid block
 * size - 3000", "mdadm: invalid chunk size"), usage text after it. */
static void first_line(const char *text, char *out, size_t len)
{
	out[0] = '\0';
	while (text && *text) {
		size_t l = strcspn(text, "\n");
		size_t b = 0;
		while (b < l && (text[b] == ' ' || text[b] == '\t'))
			b++;
		if (l > b) {
			snprintf(out, len, "%.*s", (int)(l - b), text + b);
			return;
		}
		text += l + (text[l] == '\n');
	}
}

/* Runs one command as a step. out, when given, receives stdout (caller frees with
 * run_free). timeout_ms 0: the cell's remaining time. Returns the exit status, or -1 when
 * it could not run or timed out (the cell then has its reason). */
static int step_run(const char *const *argv, int teardown, struct run_result *out)
{
	long long left = teardown ? TEARDOWN_MS : remaining_ms();
	if (left < 0) {
		cell_fail(CELL_TIMEOUT, "the cell's timeout of %u s ran out before %s", x.p->timeout_s,
			  argv[0]);
		return -1;
	}
	struct step *s = step_new(argv);
	struct run_opts o = { .timeout_ms = (int)(left > 0x7fffffff ? 0x7fffffff : left),
			      .grace_ms = 2000, .out_cap = TEXT_MAX };
	struct run_result r;
	if (run_argv((char *const *)argv, &o, &r) < 0) {
		s->status = 127;
		snprintf(s->err, sizeof s->err, "unable to run %s: %s", argv[0], strerror(errno));
		if (!teardown)
			cell_fail(CELL_ERROR, "%s", s->err);
		return -1;
	}
	reap_orphans();
	s->status = r.status;
	s->ms = r.ms;
	s->timed_out = r.timed_out;
	size_t el = r.errlen < sizeof s->err - 1 ? r.errlen : sizeof s->err - 1;
	memcpy(s->err, r.err + (r.errlen - el), el);
	s->err[el] = '\0';
	if (r.timed_out && !teardown)
		cell_fail(CELL_TIMEOUT, "%s did not finish within the cell's timeout of %u s: killed",
			  argv[0], x.p->timeout_s);
	int rc = r.timed_out ? -1 : r.status;
	if (out)
		*out = r;
	else
		run_free(&r);
	return rc;
}

/* A step that must succeed: a non-zero status fails the cell with the tool's message. */
static int step_must(const char *const *argv, struct run_result *out)
{
	struct run_result r = { 0 };
	int rc = step_run(argv, 0, &r);
	if (rc > 0) {
		char line[600];
		first_line(r.err, line, sizeof line);
		if (!line[0])
			first_line(r.out, line, sizeof line);
		cell_fail(CELL_ERROR, "%s exited with status %d: %s", argv[0], rc,
			  line[0] ? line : "(it said nothing)");
	}
	if (out && rc >= 0)
		*out = r;
	else if (rc >= 0)
		run_free(&r);
	return rc == 0 ? 0 : -1;
}

/* An in-process step (mount(2), the wipe): recorded like a command. */
static struct step *syscall_step(const char *const *argv, long long t0, int err)
{
	struct step *s = step_new(argv);
	s->ms = boottime_ms() - t0;
	s->status = err;
	if (err)
		snprintf(s->err, sizeof s->err, "%s", strerror(err));
	return s;
}

/* ------------------------------------------------------------------ wipe */

static int is_taken(const char *name)
{
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN && strcmp(boot.disks[i].name, name) == 0)
			return 1;
	return 0;
}

static int zero_at(int fd, off_t off)
{
	static char zeros[WIPE_BYTES];
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

/* Zeroes the first and last MiB of a taken disk: partition tables, md superblocks (1.2 at
 * 4 KiB, 0.90/1.0 at the end), filesystem signatures. O_EXCL refuses a disk something holds
 * (a mounted filesystem, a running array), so a leftover from a failed teardown shows up as
 * EBUSY here instead of being written under. */
static int wipe(int i)
{
	const char *argv[] = { "wipe", x.paths[i], "first and last 1 MiB", NULL };
	if (!is_taken(x.names[i]))
		fatal("internal error: %s is not a taken test disk, refusing to write it", x.names[i]);
	long long t0 = boottime_ms();
	int err = 0;
	int fd = open(x.paths[i], O_WRONLY | O_EXCL | O_CLOEXEC);
	uint64_t size = 0;
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || size < 2 * WIPE_BYTES ||
	    zero_at(fd, 0) < 0 || zero_at(fd, (off_t)(size - WIPE_BYTES)) < 0 || fsync(fd) < 0)
		err = errno ? errno : EIO;
	if (fd >= 0) {
		/* drop the disk's cached blocks: the next mkfs or md must not see stale ones */
		ioctl(fd, BLKFLSBUF, 0);
		close(fd);
	}
	struct step *s = syscall_step(argv, t0, err);
	if (err) {
		snprintf(s->err, sizeof s->err, "unable to wipe %s: %s", x.paths[i], strerror(err));
		return -1;
	}
	return 0;
}

static void zero_superblocks(int teardown)
{
	for (int i = 0; i < x.n; i++) {
		const char *argv[] = { "mdadm", "--zero-superblock", x.paths[i], NULL };
		/* On a blank disk mdadm says "Unrecognised md component device" and exits non-zero:
		 * recorded, not a failure. */
		step_run(argv, teardown, NULL);
	}
}

/* ------------------------------------------------------------------ array */

static void stop_array(int teardown)
{
	const char *argv[] = { "mdadm", "--stop", "/dev/" MD_NAME, NULL };
	for (int tries = 0; tries < 3; tries++) {
		if (step_run(argv, teardown, NULL) == 0)
			return;
		sleep(1); /* a just-unmounted filesystem may still hold it for a moment */
	}
	warn_add(&x.warn, "teardown: mdadm --stop /dev/" MD_NAME " failed; later cells may "
		 "find their disks busy");
}

static int wait_resync(void)
{
	char action[64], path[] = "/sys/block/" MD_NAME "/md/sync_action";
	long long t0 = boottime_ms();
	int idle = 0;
	/* md may start its resync thread a moment after mdadm returns, when sync_action can
	 * still read idle: only two idle readings half a second apart count. */
	usleep(200 * 1000);
	while (idle < 2) {
		if (sysfs_read(path, action, sizeof action) < 0) {
			cell_fail(CELL_ERROR, "unable to read %s: %s", path, strerror(errno));
			return -1;
		}
		idle = strcmp(action, "idle") == 0 ? idle + 1 : 0;
		watchdog_pet(); /* a long resync is waiting, not a hang */
		if (idle == 2)
			break;
		if (remaining_ms() < 0) {
			cell_fail(CELL_TIMEOUT, "md resync (%s) did not finish within the cell's timeout "
				  "of %u s", action, x.p->timeout_s);
			x.resync_s = (double)(boottime_ms() - t0) / 1000;
			return -1;
		}
		usleep(idle ? 500 * 1000 : 250 * 1000);
	}
	x.resync_s = (double)(boottime_ms() - t0 - 700) / 1000; /* less the settling waits */
	if (x.resync_s < 0)
		x.resync_s = 0;
	return 0;
}

static int create_array(void)
{
	struct argv a;
	char err[256];
	if (cell_mdadm_argv(x.p, x.c, "/dev/" MD_NAME, x.path_v, x.n, &a, err, sizeof err) < 0) {
		cell_fail(CELL_ERROR, "%s", err);
		return -1;
	}
	if (step_must((const char *const *)a.v, NULL) < 0)
		return -1;
	x.created = 1;
	if (x.p->resync == RESYNC_WAIT)
		return wait_resync();
	if (x.p->resync == RESYNC_ASSUME_CLEAN)
		x.resync_s = 0;
	return 0;
}

/* ------------------------------------------------------------------ filesystem */

static int make_fs(void)
{
	struct argv a;
	struct geometry g;
	char err[256];
	if (cell_mkfs_argv(x.p, x.c, x.target, &a, &g, &x.warn, err, sizeof err) < 0) {
		cell_fail(CELL_ERROR, "%s", err);
		return -1;
	}
	if (step_must((const char *const *)a.v, NULL) < 0)
		return -1;
	if (cell_tune_argv(x.p, x.c, x.target, &a, err, sizeof err) < 0) {
		cell_fail(CELL_ERROR, "%s", err);
		return -1;
	}
	if (a.n && step_must((const char *const *)a.v, NULL) < 0)
		return -1;
	/* Read before mounting, so the on-disk superblock is what mkfs and tune2fs left. */
	const char *ext[] = { "tune2fs", "-l", x.target, NULL };
	const char *xfs[] = { "xfs_db", "-r", "-c", "info", x.target, NULL };
	struct run_result r;
	if (step_run(x.p->fs[x.c->fs].type == FS_XFS ? xfs : ext, 0, &r) >= 0) {
		snprintf(x.fs_geom, sizeof x.fs_geom, "%s", r.out ? r.out : "");
		run_free(&r);
	}
	return 0;
}

static int mount_fs(void)
{
	const struct plan_fs *f = &x.p->fs[x.c->fs];
	const char *opts = f->mount[x.c->mount];
	const char *type = plan_fs_name(f->type);
	unsigned long flags;
	char data[PLAN_STR_MAX], fl[128];
	mkdir("/mnt", 0755);
	mkdir(TEST_MNT, 0755);
	if (mount_opts_split(opts, &flags, data, sizeof data) < 0) {
		cell_fail(CELL_ERROR, "mount options too long: %s", opts);
		return -1;
	}
	mount_flags_names(flags, fl, sizeof fl);
	const char *argv[] = { "mount(2)", x.target, TEST_MNT, type, fl[0] ? fl : "0", data, NULL };
	struct kmsg_line lines[KMSG_MOUNT_MAX];
	kmsg_collect(x.kmsg, lines, 0);   /* what mdadm and mkfs made the kernel say */
	long long t0 = boottime_ms();
	int rc = mount(x.target, TEST_MNT, type, flags, data);
	int e = rc < 0 ? errno : 0;
	struct step *s = syscall_step(argv, t0, e);
	/* The kernel says which option it refused, or ignored while mounting anyway, only in
	 * its log; /proc/mounts shows what it applied. */
	int nlines = kmsg_collect(x.kmsg, lines, KMSG_MOUNT_MAX);
	if (rc == 0)
		probe_mount_line(TEST_MNT, x.mount_line, sizeof x.mount_line);
	int first_warning = x.warn.n;
	if (mount_check(lines, nlines, type, opts, x.mount_line, &x.warn, x.mount_ignored,
			sizeof x.mount_ignored) > 0)
		say("  warning   %s was ignored by the kernel: this cell measures without it",
		    x.mount_ignored);
	for (int i = first_warning; i < x.warn.n; i++)
		say("  warning   %s", x.warn.msg[i]);
	if (rc < 0) {
		char said[512];
		const char *words[] = { x.target_name, type, "EXT4-fs", "XFS", NULL };
		kmsg_last(lines, nlines, words, said, sizeof said);
		if (said[0])
			snprintf(s->err + strlen(s->err), sizeof s->err - strlen(s->err), "; kernel: %s", said);
		cell_fail(CELL_ERROR, "unable to mount %s on " TEST_MNT ": %s (options %s)%s%s",
			  x.target, strerror(e), opts, said[0] ? "; kernel: " : "", said);
		return -1;
	}
	x.mounted = 1;
	return 0;
}

static void unmount_fs(void)
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
	syscall_step(argv, t0, e);
	if (rc < 0) {
		const char *lazy[] = { "umount2(2)", TEST_MNT, "MNT_DETACH", NULL };
		t0 = boottime_ms();
		rc = umount2(TEST_MNT, MNT_DETACH);
		syscall_step(lazy, t0, rc < 0 ? errno : 0);
		warn_add(&x.warn, "teardown: unable to unmount " TEST_MNT ": %s (detached lazily)",
			 strerror(e));
	}
	x.mounted = 0;
}

/* ------------------------------------------------------------------ state */

static void capture_json(char *buf, size_t len, void (*fn)(struct jw *))
{
	struct jw w;
	jw_init(&w, buf, len);
	fn(&w);
	if (jw_done(&w) < 0 && w.err)
		buf[0] = '\0';
}

static void queue_part(struct jw *w)
{
	jw_obj(w);
	probe_queue_json(w, x.target_name, x.md ? x.name_v : NULL, x.md ? x.n : 0);
	jw_end_obj(w);
}

static void md_part(struct jw *w)
{
	jw_obj(w);
	probe_md_json(w, MD_NAME);
	jw_end_obj(w);
}

static void df_part(struct jw *w)
{
	jw_obj(w);
	probe_df_json(w, "df", TEST_MNT);
	jw_end_obj(w);
}

/* The inner value of a one-key object made by the *_part functions. */
static const char *inner(const char *json, size_t *n)
{
	const char *colon = strchr(json, ':');
	if (!json[0] || !colon) {
		*n = 0;
		return NULL;
	}
	*n = strlen(colon + 1) - 1; /* without the closing brace */
	return colon + 1;
}

static void run_workload(void)
{
	const struct plan_workload *w = &x.p->workloads[x.c->workload];
	long long left = remaining_ms();
	if (left < 0) {
		cell_fail(CELL_TIMEOUT, "the cell's timeout of %u s ran out before the workload",
			  x.p->timeout_s);
		return;
	}
	capture_json(x.df_before, sizeof x.df_before, df_part);
	x.wl_ran = 1;
	long long t0 = boottime_ms();
	int rc = workload_run(w, x.p->drop_caches, (int)left, &x.wl);
	char what[80];
	snprintf(what, sizeof what, "workload %s (%s)", w->name, plan_wl_name(w->type));
	const char *argv[] = { what, TEST_MNT, NULL };
	struct step *s = syscall_step(argv, t0, rc < 0 ? x.wl.err : 0);
	if (rc < 0) {
		snprintf(s->err, sizeof s->err, "%s", x.wl.errmsg);
		if (x.wl.timed_out)
			cell_fail(CELL_TIMEOUT, "%s: %s", what, x.wl.errmsg);
		else
			cell_fail(CELL_ERROR, "%s: %s (%s)", what, x.wl.errmsg, wl_errno_name(x.wl.err));
	}
	capture_json(x.df_after, sizeof x.df_after, df_part);
}

/* ------------------------------------------------------------------ record */

static void steps_json(struct jw *w)
{
	jw_key(w, "steps");
	jw_arr(w);
	for (int i = 0; i < x.nsteps; i++) {
		const struct step *s = &x.steps[i];
		jw_obj(w);
		jw_key(w, "argv");
		jw_arr(w);
		const char *p = s->words;
		for (int k = 0; k < s->nwords; k++, p += strlen(p) + 1)
			jw_str(w, p);
		jw_end_arr(w);
		jw_kint(w, "status", s->status);
		if (s->timed_out)
			jw_kbool(w, "timed_out", 1);
		jw_kint(w, "ms", s->ms);
		jw_kstr(w, "stderr", s->err);
		jw_end_obj(w);
	}
	jw_end_arr(w);
}

static void axes_json(struct jw *w)
{
	const struct plan_array *a = &x.p->arrays[x.c->array];
	const struct plan_fs *f = &x.p->fs[x.c->fs];
	const struct plan_workload *wl = &x.p->workloads[x.c->workload];
	jw_key(w, "axes");
	jw_obj(w);
	jw_kstr(w, "array", a->name);
	jw_kstr(w, "level", level_name(a->level));
	jw_kint(w, "devices", a->devices);
	jw_kint(w, "missing", a->missing);
	jw_key(w, "chunk");
	if (x.c->chunk)
		jw_int(w, (long long)x.c->chunk);
	else
		jw_null(w);
	jw_kstr(w, "fs", f->name);
	jw_kstr(w, "fstype", plan_fs_name(f->type));
	jw_kstr(w, "mount", f->mount[x.c->mount]);
	jw_kstr(w, "workload", wl->name);
	jw_kstr(w, "wtype", plan_wl_name(wl->type));
	jw_end_obj(w);
}

static void raw_part(struct jw *w, const char *key, const char *json)
{
	size_t n;
	const char *v = inner(json, &n);
	jw_key(w, key);
	jw_raw(w, v, n);
}

static void emit_record(int trimmed)
{
	static char buf[200 * 1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "cell");
	jw_kstr(&w, "run", boot.run_id);
	jw_kstr(&w, "cell", x.c->id);
	jw_kint(&w, "rep", x.c->rep);
	jw_kint(&w, "reps", x.p->repeat);
	jw_kint(&w, "index", x.c->index + 1);
	jw_kint(&w, "total", matrix_count(x.p));
	jw_kint(&w, "attempt", x.attempt);
	axes_json(&w);
	jw_kstr(&w, "status", cell_status_names[x.status]);
	jw_kstr(&w, "error", x.status == CELL_OK ? NULL : x.error);
	jw_key(&w, "warnings");
	jw_arr(&w);
	for (int i = 0; i < x.warn.n; i++)
		jw_str(&w, x.warn.msg[i]);
	jw_end_arr(&w);
	jw_key(&w, "disks");
	jw_arr(&w);
	for (int i = 0; i < x.n; i++)
		jw_str(&w, x.names[i]);
	jw_end_arr(&w);
	jw_kstr(&w, "target", x.target);
	jw_key(&w, "resync_s");
	if (x.resync_s >= 0)
		jw_double(&w, x.resync_s, 3);
	else
		jw_null(&w);
	jw_kstr(&w, "mount_effective", x.mount_line[0] ? x.mount_line : NULL);
	jw_key(&w, "mount_ignored");
	jw_arr(&w);
	for (const char *o = x.mount_ignored; *o;) {
		size_t n = strcspn(o, ",");
		char item[128];
		snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), o);
		jw_str(&w, item);
		o += n + (o[n] == ',');
	}
	jw_end_arr(&w);
	jw_key(&w, "result");
	if (x.wl_ran) {
		jw_obj(&w);
		workload_result_json(&w, &x.wl);
		jw_end_obj(&w);
		workload_cpu_json(&w, &x.wl);
	} else {
		jw_null(&w);
		jw_key(&w, "cpu");
		jw_null(&w);
	}
	raw_part(&w, "df_before", x.df_before);
	raw_part(&w, "df_after", x.df_after);
	raw_part(&w, "queue", x.queue);
	raw_part(&w, "md", x.mdstate);
	jw_kstr(&w, "md_detail", x.md_detail[0] ? x.md_detail : NULL);
	jw_kstr(&w, "fs_geometry", x.fs_geom[0] ? x.fs_geom : NULL);
	steps_json(&w);
	jw_end_obj(&w);
	if (jw_done(&w) < 0 && !trimmed) {
		/* Too big (a tool that printed pages): keep the verdict, drop the texts. */
		say("fsmatrix: cell record too large: md_detail and fs_geometry dropped");
		x.md_detail[0] = x.fs_geom[0] = '\0';
		for (int i = 0; i < x.nsteps; i++)
			x.steps[i].err[x.steps[i].err[0] ? 200 : 0] = '\0';
		emit_record(1);
		return;
	}
	emit(&w);
}

/* ------------------------------------------------------------------ lifecycle */

/* The first disks the array needs, from the taken disks still present. */
static int pick_members(int need, char *why, size_t len)
{
	int have = 0, gone = 0;
	char lost[128] = "";
	x.n = 0;
	for (int i = 0; i < boot.ndisks; i++) {
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		if (!disk_present(boot.disks[i].name)) {
			gone++;
			snprintf(lost + strlen(lost), sizeof lost - strlen(lost), "%s%s", gone > 1 ? ", " : "",
				 boot.disks[i].name);
			continue;
		}
		have++;
		if (x.n < need && x.n < PLAN_DEVICES_MAX) {
			snprintf(x.names[x.n], sizeof x.names[x.n], "%s", boot.disks[i].name);
			snprintf(x.paths[x.n], sizeof x.paths[x.n], "/dev/%s", boot.disks[i].name);
			x.name_v[x.n] = x.names[x.n];
			x.path_v[x.n] = x.paths[x.n];
			x.n++;
		}
	}
	x.name_v[x.n] = NULL;
	x.path_v[x.n] = NULL;
	return cell_skip_reason(x.p->arrays[x.c->array].name, need, have, gone, lost, why, len);
}

/* fsmatrix.debug_hang=N: a kernel-level hang on demand, for the watchdog boot test. PID 1
 * freezes the test filesystem and writes to it itself: the write waits in the kernel,
 * uninterruptibly, for a thaw that never comes, as a process stuck on a dead disk or a
 * filesystem deadlock does. Nothing in userspace can end it; only the watchdog can. */
static void debug_hang(void)
{
	say("fsmatrix: debug_hang: cell %d, attempt 1: freezing " TEST_MNT " and writing to it "
	    "from PID 1; only the watchdog can end this", x.c->index + 1);
	fflush(stdout);
	sync();
	int dir = open(TEST_MNT, O_RDONLY | O_CLOEXEC);
	if (dir < 0 || ioctl(dir, FIFREEZE, 0) < 0) {
		say("fsmatrix: debug_hang: unable to freeze " TEST_MNT ": %s; hanging in pause() instead",
		    strerror(errno));
		for (;;)
			pause();
	}
	int fd = open(TEST_MNT "/debug-hang", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	say("fsmatrix: debug_hang: the write returned (%s): hanging in pause() instead",
	    fd < 0 ? strerror(errno) : "opened");
	for (;;)
		pause();
}

static void setup_and_measure(void)
{
	/* A leftover array from a teardown that failed would hold the disks. */
	if (access("/sys/block/" MD_NAME "/md", F_OK) == 0)
		stop_array(0);
	if (x.md)
		zero_superblocks(0);
	for (int i = 0; i < x.n; i++)
		if (wipe(i) < 0) {
			cell_fail(CELL_ERROR, "%s", x.steps[x.nsteps - 1].err);
			return;
		}
	if (x.md && create_array() < 0)
		return;
	if (make_fs() < 0 || mount_fs() < 0)
		return;
	capture_json(x.queue, sizeof x.queue, queue_part);
	if (boot.cmd.debug_hang == x.c->index + 1 && x.attempt == 1)
		debug_hang();
	run_workload();
	if (x.md) {
		capture_json(x.mdstate, sizeof x.mdstate, md_part);
		const char *argv[] = { "mdadm", "--detail", "/dev/" MD_NAME, NULL };
		struct run_result r;
		if (step_run(argv, 1, &r) >= 0) {
			snprintf(x.md_detail, sizeof x.md_detail, "%s", r.out ? r.out : "");
			run_free(&r);
		}
	}
}

static void teardown(void)
{
	if (x.mounted)
		unmount_fs();
	/* An mdadm --create killed by the timeout may still have started the array. */
	if (x.md && !x.created && access("/sys/block/" MD_NAME "/md", F_OK) == 0)
		x.created = 1;
	if (x.created)
		stop_array(1);
	if (x.md && x.created)
		zero_superblocks(1);
	/* The filesystem's signatures (and md's) go with the first and last MiB. */
	for (int i = 0; i < x.n; i++)
		if (disk_present(x.names[i]) && wipe(i) < 0)
			warn_add(&x.warn, "teardown: %s", x.steps[x.nsteps - 1].err);
}

void cell_record_status(const struct plan *p, const struct cell *c, enum cell_status st,
			int attempt, const char *error)
{
	memset(&x, 0, sizeof x);
	x.p = p;
	x.c = c;
	x.attempt = attempt;
	x.resync_s = -1;
	x.kmsg = -1;
	x.target = "";
	x.status = st;
	snprintf(x.error, sizeof x.error, "%s", error);
	emit_record(0);
}

void cell_run(const struct plan *p, const struct cell *c, int attempt, struct cell_result *r)
{
	char why[300];
	memset(&x, 0, sizeof x);
	memset(r, 0, sizeof *r);
	x.p = p;
	x.c = c;
	x.attempt = attempt;
	x.resync_s = -1;
	x.kmsg = -1;
	x.md = level_find(p->arrays[c->array].level)->md;
	if (p->timeout_s)
		x.deadline = boottime_ms() + (long long)p->timeout_s * 1000;

	if (boot.cmd.dry || pick_members(plan_array_disks(&p->arrays[c->array]), why, sizeof why) < 0) {
		x.status = CELL_SKIPPED;
		snprintf(x.error, sizeof x.error, "%s", boot.cmd.dry ? "dry run" : why);
	} else {
		x.target = x.md ? "/dev/" MD_NAME : x.paths[0];
		x.target_name = x.md ? MD_NAME : x.names[0];
		x.kmsg = kmsg_open();
		setup_and_measure();
		/* Even a cell that ran to the end measured something else than planned (md went
		 * on degraded): it is an error naming the disk. */
		lost_disk();
		teardown();
		if (x.kmsg >= 0)
			close(x.kmsg);
		reap_orphans();
	}
	if (!x.target)
		x.target = "";
	emit_record(0);

	r->status = x.status;
	if (x.status == CELL_OK) {
		workload_metrics(&x.wl, r);
		if (x.resync_s >= 0 && r->nmetric < METRIC_MAX) {
			r->metric_name[r->nmetric] = "resync_s";
			r->metric[r->nmetric++] = x.resync_s;
		}
	} else {
		snprintf(r->headline, sizeof r->headline, "%s: %.380s", cell_status_names[x.status], x.error);
	}
}
