/* engines/common.c: what every workload shares: the clock, CPU accounting from getrusage and
 * /proc/stat, the cache drop, errno names and the random fill. */
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int procstat_parse(const char *text, struct procstat_cpu *out)
{
	unsigned long long v[8] = { 0 };
	const char *p = text;

	/* the aggregate line is "cpu" followed by blanks; "cpu0" lines are per CPU */
	while (p && strncmp(p, "cpu ", 4) != 0) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	p += 4;
	for (int i = 0; i < 8; i++) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9') {
			/* kernels before 2.6.11 stop early (no steal); older fields are required */
			if (i >= 5)
				break;
			return -1;
		}
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
	}
	*out = (struct procstat_cpu){ v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
	return 0;
}

unsigned long long procstat_total(const struct procstat_cpu *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq + c->softirq + c->steal;
}

static int read_procstat(struct procstat_cpu *out)
{
	char buf[1024];   /* the aggregate line comes first */
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, sizeof buf - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return procstat_parse(buf, out);
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6; }

void wl_cpu_begin(struct wl_cpu_snap *s)
{
	struct rusage self, child;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &child);
	s->self_user = tv_s(self.ru_utime);
	s->self_sys = tv_s(self.ru_stime);
	s->child_user = tv_s(child.ru_utime);
	s->child_sys = tv_s(child.ru_stime);
	s->stat_ok = read_procstat(&s->stat) == 0;
	s->t = mono_s();
}

void wl_cpu_delta(const struct wl_cpu_snap *a, const struct wl_cpu_snap *b, int ncpu,
		  struct wl_cpu *out)
{
	double user = (b->self_user - a->self_user) + (b->child_user - a->child_user);
	double sys = (b->self_sys - a->self_sys) + (b->child_sys - a->child_sys);
	double cap = NAN;   /* CPU-seconds the machine had in the interval */

	out->iowait_pct = NAN;
	if (a->stat_ok && b->stat_ok) {
		unsigned long long ta = procstat_total(&a->stat), tb = procstat_total(&b->stat);
		long hz = sysconf(_SC_CLK_TCK);
		/* under a second the tick counts are too coarse: use the wall clock instead */
		if (tb > ta && hz > 0 && (double)(tb - ta) >= (double)hz) {
			cap = (double)(tb - ta) / (double)hz;
			out->iowait_pct = 100.0 * (double)(b->stat.iowait - a->stat.iowait) /
					  (double)(tb - ta);
		}
	}
	if (isnan(cap) && b->t > a->t)
		cap = (b->t - a->t) * (ncpu > 0 ? ncpu : 1);
	/* getrusage is charged in scheduler slices: below 10 ms it says nothing (it can even
	 * exceed the interval), so report no figure rather than a wrong one */
	if (!(b->t - a->t >= 0.01) || !(cap > 0)) {
		out->user_pct = out->sys_pct = NAN;
		return;
	}
	out->user_pct = fmin(100.0, fmax(0.0, 100.0 * user / cap));
	out->sys_pct = fmin(100.0, fmax(0.0, 100.0 * sys / cap));
}

void wl_cpu_end(const struct wl_cpu_snap *start, struct wl_cpu *out)
{
	struct wl_cpu_snap end;
	wl_cpu_begin(&end);
	wl_cpu_delta(start, &end, (int)sysconf(_SC_NPROCESSORS_ONLN), out);
}

void wl_cpu_json(struct jw *w, const struct wl_cpu *c)
{
	jw_kdouble(w, "cpu_user_pct", c->user_pct, 1);
	jw_kdouble(w, "cpu_sys_pct", c->sys_pct, 1);
	jw_kdouble(w, "cpu_iowait_pct", c->iowait_pct, 1);
}

void wl_tail_json(struct jw *w, const struct wl_cpu *c, int err, const char *errmsg)
{
	wl_cpu_json(w, c);
	if (err) {
		jw_kstr(w, "error", errmsg);
		jw_kstr(w, "errno", wl_errno_known(err) ? wl_errno_name(err) : NULL);
	}
}

int wl_drop_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = write(fd, "3\n", 2);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n != 2) {
		errno = n < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

int wl_errno_known(int e)
{
	return e != WL_ETOOL;
}

const char *wl_errno_name(int e)
{
	/* The errors a workload can meet; records carry the name so that they can be grouped
	 * without depending on the libc's strerror wording. */
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" }, { EIO, "EIO" },
		{ ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { ECHILD, "ECHILD" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { EXDEV, "EXDEV" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
		{ ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" },
		{ ESPIPE, "ESPIPE" }, { EROFS, "EROFS" }, { EMLINK, "EMLINK" }, { EPIPE, "EPIPE" },
		{ ERANGE, "ERANGE" }, { ENAMETOOLONG, "ENAMETOOLONG" }, { ENOSYS, "ENOSYS" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { ELOOP, "ELOOP" }, { EOVERFLOW, "EOVERFLOW" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ETIMEDOUT, "ETIMEDOUT" }, { EDQUOT, "EDQUOT" },
		{ ESTALE, "ESTALE" }, { EUCLEAN, "EUCLEAN" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].e == e && e != 0)
			return names[i].name;
	return "E?";
}

/* splitmix64 (Steele, Lea, Flood 2014): one add and a few multiply-xorshifts per 8 bytes,
 * passes BigCrush, so the data cannot be compressed by anything on the I/O path. */
uint64_t wl_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wl_fill_random(void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t x = seed;
	while (len > 0) {
		uint64_t z = wl_mix64(x += 0x9e3779b97f4a7c15ull);
		size_t n = len < 8 ? len : 8;
		memcpy(p, &z, n);
		p += n;
		len -= n;
	}
}

/* One 16-byte stamp per 4 KiB of the file, where the chunk begins: two bijective hashes of
 * the chunk's number, so no two chunks of a run share one. Overwritten rather than XORed
 * into the pool's bytes: re-stamping the one buffer in place for each block needs neither
 * the last block's key nor a pristine copy, and the bytes stay a function of (seed, offset).
 * Only the stamp's bytes inside [off, off + len) are written: a block may begin or end
 * inside one. */
static void stamp_chunks(unsigned char *p, uint64_t off, size_t len, const struct wl_stream *d)
{
	uint64_t end = off + len;
	for (uint64_t c = off / WL_STREAM_CHUNK; c * WL_STREAM_CHUNK < end; c++) {
		uint64_t at = c * WL_STREAM_CHUNK, s[2] = { wl_mix64(c ^ d->k0), wl_mix64(c ^ d->k1) };
		if (at >= off && at + sizeof s <= end) {
			memcpy(p + (at - off), s, sizeof s);
			continue;
		}
		for (unsigned j = 0; j < sizeof s; j++)
			if (at + j >= off && at + j < end)
				p[at + j - off] = ((const unsigned char *)s)[j];
	}
}

int wl_stream_init(struct wl_stream *d, size_t bs, uint64_t seed)
{
	memset(d, 0, sizeof *d);
	d->size = WL_STREAM_POOL + bs;
	/* 4096 suits O_DIRECT on every logical block size the kernel supports */
	if ((errno = posix_memalign((void **)&d->win, 4096, d->size)) != 0) {
		d->win = NULL;
		return -1;
	}
	wl_fill_random(d->win, WL_STREAM_POOL, seed);
	for (size_t at = WL_STREAM_POOL; at < d->size; at += WL_STREAM_POOL)
		memcpy(d->win + at, d->win, d->size - at < WL_STREAM_POOL ? d->size - at : WL_STREAM_POOL);
	d->k0 = wl_mix64(seed ^ 0x5354414d50303030ull);   /* "STAMP000" */
	d->k1 = wl_mix64(seed ^ 0x5354414d50313131ull);   /* "STAMP111" */
	return 0;
}

const void *wl_stream_at(struct wl_stream *d, uint64_t off, size_t len)
{
	unsigned char *p = d->win + off % WL_STREAM_POOL;
	stamp_chunks(p, off, len, d);
	return p;
}

void wl_stream_free(struct wl_stream *d)
{
	free(d->win);
	d->win = NULL;
}

int wl_fail(int *err, char *msg, int e, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(msg, WL_ERR_MAX, "unable to ");
	va_start(ap, fmt);
	n += vsnprintf(msg + n, WL_ERR_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	if (n < WL_ERR_MAX)
		snprintf(msg + n, WL_ERR_MAX - (size_t)n, ": %s", strerror(e));
	*err = e;
	return -1;
}
