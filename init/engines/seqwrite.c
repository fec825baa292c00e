/* engines/seqwrite.c: one file written sequentially, as `fio --rw=write --end_fsync=1` does:
 * the same buffer every block, filled once before timing, then fdatasync in the timed
 * region. */
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEQ_SEED 0x5eedf11e5eedf11eull

static double rate(uint64_t bytes, double s) { return s > 0 ? (double)bytes / s / 1e6 : 0; }

int wl_seqwrite(const char *path, const struct wl_seqwrite_opts *o, struct wl_seqwrite_res *r)
{
	void *buf = NULL;
	int fd, rc = 0;
	uint64_t done = 0;

	memset(r, 0, sizeof *r);
	r->bs = o->bs;
	r->direct = o->direct;
	r->zero = o->zero;
	if (o->bs == 0 || o->bs > (1u << 30))
		return wl_fail(&r->err, r->errmsg, EINVAL, "write %s with a block size of %llu bytes",
			    path, (unsigned long long)o->bs);
	/* 4096 suits O_DIRECT on every logical block size the kernel supports */
	if ((errno = posix_memalign(&buf, 4096, o->bs)) != 0)
		return wl_fail(&r->err, r->errmsg, errno, "allocate a %llu-byte buffer",
			    (unsigned long long)o->bs);
	if (o->zero)
		memset(buf, 0, o->bs);
	else
		wl_fill_random(buf, o->bs, SEQ_SEED);

	/* No O_TRUNC here: the path may name a device node (typed by mistake, or swapped in
	 * after the caller looked), and only after fstat says it is a regular file may anything
	 * be cut or written. O_NONBLOCK keeps a FIFO from hanging the open. */
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		  (o->direct ? O_DIRECT : 0), 0644);
	if (fd < 0) {
		free(buf);
		return wl_fail(&r->err, r->errmsg, errno, "create %s%s", path,
			    o->direct ? " (O_DIRECT)" : "");
	}
	struct stat st;
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (!regular || ftruncate(fd, 0) < 0) {
		int e = regular ? errno : EINVAL;
		close(fd);
		free(buf);
		return wl_fail(&r->err, r->errmsg, e, "write %s%s", path,
			    regular ? "" : ", which is not a regular file");
	}

	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s(), t1, t2;
	while (done < o->size) {
		uint64_t left = o->size - done;
		size_t want = left < o->bs ? (size_t)left : (size_t)o->bs;
		size_t off = 0;
		/* a short write (a signal, or a full disk about to report ENOSPC) goes on where it
		 * stopped; the next call then reports the real error */
		while (off < want) {
			ssize_t n = write(fd, (char *)buf + off, want - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				wl_fail(&r->err, r->errmsg, n < 0 ? errno : EIO,
				     "write %s at offset %llu", path, (unsigned long long)(done + off));
				goto out;
			}
			off += (size_t)n;
		}
		done += want;
	}
out:
	t1 = mono_s();
	if (!r->err && fdatasync(fd) < 0)
		wl_fail(&r->err, r->errmsg, errno, "fdatasync %s", path);
	t2 = mono_s();
	wl_cpu_end(&cpu, &r->cpu);
	if (close(fd) < 0 && !r->err)
		wl_fail(&r->err, r->errmsg, errno, "close %s", path);
	if (!o->keep)
		unlink(path);
	free(buf);

	r->bytes = done;
	r->write_s = t1 - t0;
	r->flush_s = t2 - t1;
	r->total_s = t2 - t0;
	r->mbps = rate(done, r->total_s);
	r->mbps_noflush = rate(done, r->write_s);
	if (r->err)
		rc = -1;
	return rc;
}

void wl_seqwrite_json(struct jw *w, const struct wl_seqwrite_res *r)
{
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "bs", (long long)r->bs);
	jw_kbool(w, "direct", r->direct);
	jw_kstr(w, "data", r->zero ? "zero" : "random");
	jw_kdouble(w, "write_s", r->write_s, 6);
	jw_kdouble(w, "flush_s", r->flush_s, 6);
	jw_kdouble(w, "total_s", r->total_s, 6);
	jw_kdouble(w, "mbps", r->mbps, 2);
	jw_kdouble(w, "mbps_noflush", r->mbps_noflush, 2);
	wl_cpu_json(w, &r->cpu);
	if (r->err) {
		jw_kstr(w, "error", r->errmsg);
		jw_kstr(w, "errno", wl_errno_name(r->err));
	}
}
