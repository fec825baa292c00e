/* engines/seqread.c: read back a file written as seqwrite writes it (same bs, size, direct
 * and data), after sync and a cache drop, so that the read comes from the disks and not from
 * the page cache. The write is measured too and recorded beside the read. */
#include "engines/engine.h"
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct seqread_res {
	struct wl_seqwrite_res w;   /* the write that made the file */
	uint64_t bytes;             /* read */
	double read_s;              /* first read to the last returning */
	double mbps;                /* bytes / read_s / 10^6 */
	double write_mbps;          /* w.mbps, as a figure of its own */
	struct wl_cpu cpu;          /* over the read */
	int err;
	char errmsg[WL_ERR_MAX];
};
_Static_assert(sizeof(struct seqread_res) <= ENGINE_RES_MAX, "a cell result fits");

/* Reads path to its end in bs blocks; a short read (O_DIRECT at the tail) goes on. */
static int read_back(const char *path, uint64_t bs, int direct, struct seqread_res *r)
{
	void *buf = NULL;
	if ((errno = posix_memalign(&buf, 4096, bs)) != 0)
		return wl_fail(&r->err, r->errmsg, errno, "allocate a %llu-byte buffer",
			       (unsigned long long)bs);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (direct ? O_DIRECT : 0));
	if (fd < 0) {
		free(buf);
		return wl_fail(&r->err, r->errmsg, errno, "open %s for reading%s", path,
			       direct ? " (O_DIRECT)" : "");
	}
	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s();
	for (;;) {
		ssize_t n = read(fd, buf, bs);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			wl_fail(&r->err, r->errmsg, errno, "read %s at offset %llu", path,
				(unsigned long long)r->bytes);
			break;
		}
		if (n == 0)
			break;
		r->bytes += (uint64_t)n;
	}
	r->read_s = mono_s() - t0;
	wl_cpu_end(&cpu, &r->cpu);
	close(fd);
	free(buf);
	r->mbps = r->read_s > 0 ? (double)r->bytes / r->read_s / 1e6 : 0;
	return r->err ? -1 : 0;
}

/* Writes path as seqwrite does, drops the caches, reads it back. Returns 0 or -1. */
static int seqread(const char *path, const struct wl_seqwrite_opts *o, struct seqread_res *r)
{
	memset(r, 0, sizeof *r);
	struct wl_seqwrite_opts wo = *o;
	wo.keep = 1;
	if (wl_seqwrite(path, &wo, &r->w) < 0) {
		r->err = r->w.err;
		memcpy(r->errmsg, r->w.errmsg, WL_ERR_MAX);
		return -1;
	}
	r->write_mbps = r->w.mbps;
	/* without the drop the read measures memory, not the array */
	if (wl_drop_caches() < 0)
		return wl_fail(&r->err, r->errmsg, errno, "drop caches before reading %s back", path);
	int rc = read_back(path, o->bs, o->direct, r);
	if (rc == 0 && r->bytes != r->w.bytes) {
		r->err = EIO;
		snprintf(r->errmsg, WL_ERR_MAX, "unable to read %s back: %llu bytes read of %llu "
			 "written", path, (unsigned long long)r->bytes, (unsigned long long)r->w.bytes);
		rc = -1;
	}
	if (!o->keep)
		unlink(path);
	return rc;
}

static void fields(struct jw *w, const void *res)
{
	const struct seqread_res *r = res;
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "bs", (long long)r->w.bs);
	jw_kbool(w, "direct", r->w.direct);
	jw_kstr(w, "data", r->w.zero ? "zero" : "random");
	if (!r->w.zero)
		jw_kint(w, "seed", (long long)r->w.seed);
	jw_kdouble(w, "read_s", r->read_s, 6);
	jw_kdouble(w, "mbps", r->mbps, 2);
	jw_kdouble(w, "write_mbps", r->write_mbps, 2);
	jw_kdouble(w, "write_s", r->w.total_s, 6);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct seqread_res *r = res;
	char path[4096];
	struct wl_seqwrite_opts so = { .size = w->size, .bs = w->bs, .direct = w->direct,
				       .zero = w->data == DATA_ZERO, .seed = w->seed, .keep = 1 };
	snprintf(path, sizeof path, "%s/seqread.dat", env->dir);
	(void)env->drop;   /* the drop between write and read is the engine's own, always */
	if (seqread(path, &so, r) < 0) {
		*err = r->err;
		memcpy(msg, r->errmsg, WL_ERR_MAX);
	}
}

static const struct wl_cpu *cpu(const void *res) { return &((const struct seqread_res *)res)->cpu; }

static void headline(const void *res, char *buf, size_t len)
{
	const struct seqread_res *r = res;
	snprintf(buf, len, "%.1f MB/s read (written at %.1f MB/s)", r->mbps, r->write_mbps);
}

static int host(const struct engine_host *h, char *const *operands)
{
	const char *file = operands[0];
	struct wl_seqwrite_opts o = { .size = h->w.size, .bs = h->w.bs, .direct = h->direct,
				      .zero = h->zero, .keep = h->keep };
	struct seqread_res r;
	int rc = seqread(file, &o, &r);
	engine_emit("seqread", fields, &r);
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "seqread %s: %llu bytes read in %.3f s: %.1f MB/s (written at %.1f MB/s)\n",
		file, (unsigned long long)r.bytes, r.read_s, r.mbps, r.write_mbps);
	return rc < 0 ? 1 : 0;
}

#define FIG(f) { #f, offsetof(struct seqread_res, f) }
static const struct engine_figure figures[] = {
	FIG(mbps), FIG(read_s), FIG(write_mbps), { NULL, 0 },
};

const struct engine engine_seqread = {
	.name = "seqread", .type = WL_SEQREAD,
	.res_size = sizeof(struct seqread_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 1ull << 30, .nargs = 1, .role = { ROLE_FILE }, .operands = "FILE",
	.options = "[--bs 1m] [--direct] [--data random|zero] [--keep]",
	.about = "seqread writes FILE as seqwrite does, drops the caches (as root) and reads it back.",
	.host = host,
};
