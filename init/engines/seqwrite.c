/* engines/seqwrite.c: one file written sequentially, as `fio --rw=write --end_fsync=1` does,
 * then fdatasync in the timed region. Random data is the seed's (wl_stream_at): one pool filled
 * before timing, each 4 KiB of the file stamped with its number; zero data one zeroed buffer. */
#include "engines/engine.h"
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static double rate(uint64_t bytes, double s) { return s > 0 ? (double)bytes / s / 1e6 : 0; }

/* No O_TRUNC at open: the path may name a device node (typed by mistake, or swapped in after
 * the caller looked), and only after fstat says it is a regular file may anything be cut or
 * written. O_NONBLOCK keeps a FIFO from hanging the open. Returns the fd, or -1 with r->err. */
static int open_target(const char *path, const struct wl_seqwrite_opts *o,
		       struct wl_seqwrite_res *r)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		      (o->direct ? O_DIRECT : 0), 0644);
	if (fd < 0)
		return wl_fail(&r->err, r->errmsg, errno, "create %s%s", path,
			       o->direct ? " (O_DIRECT)" : "");
	struct stat st;
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (!regular || ftruncate(fd, 0) < 0) {
		int e = regular ? errno : EINVAL;
		close(fd);
		return wl_fail(&r->err, r->errmsg, e, "write %s%s", path,
			       regular ? "" : ", which is not a regular file");
	}
	return fd;
}

/* size bytes in blocks of bs from buf, or with data from the seed's data at each block's
 * offset. A short write (a signal, or a full disk about to report ENOSPC) goes on where it
 * stopped; the next call then reports the real error. Returns the bytes written; r->err set
 * on a failure. */
static uint64_t write_blocks(int fd, const char *path, const void *buf, struct wl_stream *data,
			     uint64_t size, uint64_t bs, struct wl_seqwrite_res *r)
{
	uint64_t done = 0;
	while (done < size) {
		uint64_t left = size - done;
		size_t want = left < bs ? (size_t)left : (size_t)bs;
		size_t off = 0;
		if (data)
			buf = wl_stream_at(data, done, want);
		while (off < want) {
			ssize_t n = write(fd, (const char *)buf + off, want - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				wl_fail(&r->err, r->errmsg, n < 0 ? errno : EIO,
					"write %s at offset %llu", path, (unsigned long long)(done + off));
				return done;
			}
			off += (size_t)n;
		}
		done += want;
	}
	return done;
}

int wl_seqwrite(const char *path, const struct wl_seqwrite_opts *o, struct wl_seqwrite_res *r)
{
	void *buf = NULL;
	struct wl_stream data = { 0 }, *dp = o->zero ? NULL : &data;

	memset(r, 0, sizeof *r);
	r->bs = o->bs;
	r->direct = o->direct;
	r->zero = o->zero;
	r->fallocate = o->fallocate;
	r->seed = o->zero ? 0 : o->seed ? o->seed : PLAN_DEFAULT_SEED;
	if (o->bs == 0 || o->bs > (1u << 30))
		return wl_fail(&r->err, r->errmsg, EINVAL, "write %s with a block size of %llu bytes",
			    path, (unsigned long long)o->bs);
	/* 4096 suits O_DIRECT on every logical block size the kernel supports */
	if (o->zero ? (errno = posix_memalign(&buf, 4096, o->bs)) != 0
		    : wl_stream_init(&data, (size_t)o->bs, r->seed) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "allocate a %llu-byte buffer",
			    (unsigned long long)o->bs);
	if (o->zero)
		memset(buf, 0, o->bs);
	int fd = open_target(path, o, r);
	if (fd < 0) {
		wl_stream_free(&data);
		free(buf);
		return -1;
	}

	/* fio lays its file out with fallocate before the job's clock starts: the same choice on
	 * both sides, or the comparison measures the filesystem's block allocation */
	if (o->fallocate) {
		double f0 = mono_s();
		int e = o->size ? posix_fallocate(fd, 0, (off_t)o->size) : 0;
		r->fallocate_s = mono_s() - f0;
		if (e) {
			wl_fail(&r->err, r->errmsg, e, "fallocate %llu bytes for %s",
				(unsigned long long)o->size, path);
			close(fd);
			if (!o->keep)
				unlink(path);
			wl_stream_free(&data);
			free(buf);
			return -1;
		}
	}
	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s();
	uint64_t done = write_blocks(fd, path, buf, dp, o->size, o->bs, r);
	double t1 = mono_s();
	if (!r->err && fdatasync(fd) < 0)
		wl_fail(&r->err, r->errmsg, errno, "fdatasync %s", path);
	double t2 = mono_s();
	wl_cpu_end(&cpu, &r->cpu);
	if (close(fd) < 0 && !r->err)
		wl_fail(&r->err, r->errmsg, errno, "close %s", path);
	if (!o->keep)
		unlink(path);
	wl_stream_free(&data);
	free(buf);

	r->bytes = done;
	r->write_s = t1 - t0;
	r->flush_s = t2 - t1;
	r->total_s = t2 - t0;
	r->mbps = rate(done, r->total_s);
	r->mbps_noflush = rate(done, r->write_s);
	return r->err ? -1 : 0;
}

/* bytes, bs, direct, data, write_s, flush_s, total_s, mbps, mbps_noflush, cpu_*, and
 * error/errno when it failed. */
static void fields(struct jw *w, const void *res)
{
	const struct wl_seqwrite_res *r = res;
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "bs", (long long)r->bs);
	jw_kbool(w, "direct", r->direct);
	jw_kbool(w, "fallocate", r->fallocate);
	if (r->fallocate)
		jw_kdouble(w, "fallocate_s", r->fallocate_s, 6);
	jw_kstr(w, "data", r->zero ? "zero" : "random");
	if (!r->zero)
		jw_kint(w, "seed", (long long)r->seed);
	jw_kdouble(w, "write_s", r->write_s, 6);
	jw_kdouble(w, "flush_s", r->flush_s, 6);
	jw_kdouble(w, "total_s", r->total_s, 6);
	jw_kdouble(w, "mbps", r->mbps, 2);
	jw_kdouble(w, "mbps_noflush", r->mbps_noflush, 2);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

/* ------------------------------------------------------------------ the engine's row */

_Static_assert(sizeof(struct wl_seqwrite_res) <= ENGINE_RES_MAX, "a cell result fits");

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct wl_seqwrite_res *r = res;
	char path[4096];
	/* kept: df after the workload then shows the file; the filesystem goes anyway */
	struct wl_seqwrite_opts so = { .size = w->size, .bs = w->bs, .direct = w->direct,
				       .fallocate = w->fallocate, .zero = w->data == DATA_ZERO, .seed = w->seed, .keep = 1 };
	snprintf(path, sizeof path, "%s/seqwrite.dat", env->dir);
	if (engine_drop(env->drop, err, msg) == 0 && wl_seqwrite(path, &so, r) < 0) {
		*err = r->err;
		memcpy(msg, r->errmsg, WL_ERR_MAX);
	}
}

static const struct wl_cpu *cpu(const void *res)
{
	return &((const struct wl_seqwrite_res *)res)->cpu;
}

static void headline(const void *res, char *buf, size_t len)
{
	const struct wl_seqwrite_res *r = res;
	snprintf(buf, len, "%.1f MB/s (%.1f MB/s before the flush)", r->mbps, r->mbps_noflush);
}

static int host(const struct engine_host *h, char *const *operands)
{
	const char *file = operands[0];
	struct wl_seqwrite_opts o = { .size = h->w.size, .bs = h->w.bs, .direct = h->direct,
				      .fallocate = h->w.fallocate, .zero = h->zero, .seed = h->w.seed, .keep = h->keep };
	struct wl_seqwrite_res r;

	engine_host_drop(h);
	int rc = wl_seqwrite(file, &o, &r);
	engine_emit("seqwrite", fields, &r);
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "seqwrite %s: %llu bytes in %.3f s (write %.3f s + flush %.3f s): "
		"%.1f MB/s, %.1f MB/s before flush; cpu user %.1f%% sys %.1f%% iowait %.1f%%\n",
		file, (unsigned long long)r.bytes, r.total_s, r.write_s, r.flush_s, r.mbps,
		r.mbps_noflush, r.cpu.user_pct, r.cpu.sys_pct, r.cpu.iowait_pct);
	return rc < 0 ? 1 : 0;
}

#define FIG(f) { #f, offsetof(struct wl_seqwrite_res, f) }
static const struct engine_figure figures[] = {
	FIG(mbps), FIG(mbps_noflush), FIG(write_s), FIG(flush_s), FIG(total_s), { NULL, 0 },
};

const struct engine engine_seqwrite = {
	.name = "seqwrite", .type = WL_SEQWRITE,
	.res_size = sizeof(struct wl_seqwrite_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 1ull << 30, .nargs = 1, .role = { ROLE_FILE }, .operands = "FILE",
	.options = "[--bs 1m] [--direct] [--fallocate] [--data random|zero] [--keep] [--drop-caches]",
	.host = host,
};
