/* pid1/diskspeed.c: the taken disks' own streaming speed, measured before the first cell:
 * what each cell's limit is computed from (core/figures/limit.h). Each disk alone, then all at once
 * (a controller or a bus they share shows there): 1 MiB blocks with O_DIRECT, written in the
 * middle of the disk as the reference set does, then read back, each direction for
 * plan.disk_speed_ms and at most DS_MAX_BLOCKS blocks (256 MiB: a boot of many fast disks
 * stays short; a throttled or slow disk is bounded by the time). Only taken disks are written: they
 * were handed over, and every cell wipes and remakes them. A "disk-speed" record. */
#include "pid1/pid1.h"
#include "core/figures/limit.h"
#include "core/model/plan.h"
#include "lib/clock.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif

#define DS_BLOCK (1u << 20)
#define DS_MAX_BLOCKS 256

struct ds_result {
	struct speed_fig write, read;
	char why[160];
};

/* One direction: blocks from off until ms have passed or max blocks are done. */
static int one_way(int fd, char *buf, off_t off, int max, int ms, int writing,
		   struct speed_fig *f, char *why, size_t len)
{
	static double t[DS_MAX_BLOCKS];
	double t0 = mono_s();
	int n = 0;
	while (n < max && (n == 0 || (mono_s() - t0) * 1000 < ms)) {
		ssize_t r = writing ? pwrite(fd, buf, DS_BLOCK, off + (off_t)n * DS_BLOCK) :
				      pread(fd, buf, DS_BLOCK, off + (off_t)n * DS_BLOCK);
		if (r != (ssize_t)DS_BLOCK) {
			snprintf(why, len, "unable to %s at %lld: %s", writing ? "write" : "read",
				 (long long)(off + (off_t)n * DS_BLOCK), r < 0 ? strerror(errno) : "short");
			return -1;
		}
		t[n++] = mono_s() - t0;
	}
	if (writing && fdatasync(fd) < 0) {
		snprintf(why, len, "unable to flush: %s", strerror(errno));
		return -1;
	}
	speed_from_blocks(t, n, DS_BLOCK, f);
	return 0;
}

static void measure_disk(const char *name, int ms, struct ds_result *out)
{
	char path[64];
	memset(out, 0, sizeof *out);
	out->write.mbps = out->read.mbps = NAN;
	snprintf(path, sizeof path, "/dev/%s", name);
	int fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	uint64_t size = 0;
	void *buf = NULL;
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0) {
		snprintf(out->why, sizeof out->why, "unable to open %s with O_DIRECT: %s", path,
			 strerror(errno));
		goto done;
	}
	/* the middle, as the reference set, and no further than the end */
	off_t off = (off_t)(size / 2 / DS_BLOCK * DS_BLOCK);
	int max = (int)((size - (uint64_t)off) / DS_BLOCK);
	max = max > DS_MAX_BLOCKS ? DS_MAX_BLOCKS : max;
	if (max < 2 || posix_memalign(&buf, 4096, DS_BLOCK)) {
		snprintf(out->why, sizeof out->why, "%s is too small to measure", path);
		goto done;
	}
	/* random bytes: a compressing or deduplicating device must not see through them */
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)boottime_ms();
	for (size_t i = 0; i < DS_BLOCK / 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		((uint64_t *)buf)[i] = x;
	}
	if (one_way(fd, buf, off, max, ms, 1, &out->write, out->why, sizeof out->why) == 0) {
		/* the read covers what was written, not a trimmed region a device answers from
		 * nowhere */
		int written = (int)lround(out->write.bytes / DS_BLOCK);
		one_way(fd, buf, off, written, ms, 0, &out->read, out->why, sizeof out->why);
	}
done:
	free(buf);
	if (fd >= 0)
		close(fd);
}

/* All at once: a child per disk, started together, each sending its result back. */
static void measure_together(const char *const *names, int n, int ms, struct ds_result *out)
{
	int fds[SPEED_DISKS_MAX][2];
	pid_t pid[SPEED_DISKS_MAX];
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].write.mbps = out[i].read.mbps = NAN;
		pid[i] = -1;
		if (pipe2(fds[i], O_CLOEXEC) < 0)
			continue;
		pid[i] = fork();
		if (pid[i] == 0) {
			struct ds_result r;
			measure_disk(names[i], ms, &r);
			_exit(write(fds[i][1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
		}
		close(fds[i][1]);
	}
	for (int i = 0; i < n; i++) {
		if (pid[i] > 0 && read(fds[i][0], &out[i], sizeof out[i]) != (ssize_t)sizeof out[i])
			snprintf(out[i].why, sizeof out[i].why, "the measuring process sent nothing");
		if (pid[i] >= 0)
			close(fds[i][0]);
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	}
}

static void fig_json(struct jw *w, const char *key, const struct speed_fig *f)
{
	jw_key(w, key);
	jw_obj(w);
	jw_key(w, "mbps");
	jw_double(w, f->mbps, 2);
	jw_key(w, "rsd_pct");
	jw_double(w, f->rsd_pct, 2);
	jw_kint(w, "bytes", (long long)f->bytes);
	jw_key(w, "secs");
	jw_double(w, f->secs, 3);
	jw_end_obj(w);
}

static void speeds_emit(const struct disk_speeds *s, char why[][160], long long ms)
{
	static char buf[16384];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "disk-speed");
	jw_kint(&w, "ms_each", s->ms);
	jw_key(&w, "disks");
	jw_arr(&w);
	double sum_w = 0, sum_r = 0;
	for (int i = 0; i < s->n; i++) {
		jw_obj(&w);
		jw_kstr(&w, "name", s->name[i]);
		fig_json(&w, "write", &s->write[i]);
		fig_json(&w, "read", &s->read[i]);
		fig_json(&w, "together_write", &s->together_write[i]);
		fig_json(&w, "together_read", &s->together_read[i]);
		jw_kstr(&w, "error", why[i][0] ? why[i] : NULL);
		jw_end_obj(&w);
		sum_w += s->together_write[i].mbps;
		sum_r += s->together_read[i].mbps;
	}
	jw_end_arr(&w);
	jw_key(&w, "aggregate");
	jw_obj(&w);
	jw_key(&w, "write_mbps");
	jw_double(&w, sum_w, 2);
	jw_key(&w, "read_mbps");
	jw_double(&w, sum_r, 2);
	jw_end_obj(&w);
	jw_kint(&w, "ms", ms);
	jw_end_obj(&w);
	emit(&w);
	for (int i = 0; i < s->n; i++) {
		char rsd[32] = "too few blocks for a spread";
		if (isfinite(s->write[i].rsd_pct))
			snprintf(rsd, sizeof rsd, "RSD %.1f%%", s->write[i].rsd_pct);
		say("fsmatrix: disk speed %-8s write %.1f MB/s (%s), read %.1f MB/s; all at once: "
		    "write %.1f, read %.1f%s%s", s->name[i], s->write[i].mbps, rsd, s->read[i].mbps,
		    s->together_write[i].mbps, s->together_read[i].mbps, why[i][0] ? ": " : "", why[i]);
	}
	say("fsmatrix: disk speed: all %d at once write %.1f MB/s, read %.1f MB/s (measured in %lld ms)",
	    s->n, sum_w, sum_r, ms);
}

const struct disk_speeds *diskspeed_run(const struct plan *p)
{
	static struct disk_speeds s;
	static char why[SPEED_DISKS_MAX][160];
	static struct ds_result r[SPEED_DISKS_MAX];
	const char *names[SPEED_DISKS_MAX];
	memset(&s, 0, sizeof s);
	if (boot.cmd.dry || !p->disk_speed_ms)
		return &s;
	long long t0 = boottime_ms();
	s.ms = (int)p->disk_speed_ms;
	for (int i = 0; i < boot.ndisks && s.n < SPEED_DISKS_MAX; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN) {
			snprintf(s.name[s.n], sizeof s.name[s.n], "%s", boot.disks[i].name);
			names[s.n] = s.name[s.n];
			s.n++;
		}
	for (int i = 0; i < s.n; i++) {
		measure_disk(names[i], s.ms, &r[i]);
		s.write[i] = r[i].write;
		s.read[i] = r[i].read;
		snprintf(why[i], sizeof why[i], "%s", r[i].why);
		watchdog_pet();
	}
	if (s.n > 1) {
		measure_together(names, s.n, s.ms, r);
	}
	for (int i = 0; i < s.n; i++) {
		s.together_write[i] = s.n > 1 ? r[i].write : s.write[i];
		s.together_read[i] = s.n > 1 ? r[i].read : s.read[i];
		if (!why[i][0] && r[i].why[0])
			snprintf(why[i], sizeof why[i], "all at once: %s", r[i].why);
	}
	speeds_emit(&s, why, boottime_ms() - t0);
	return &s;
}
