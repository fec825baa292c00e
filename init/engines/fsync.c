/* engines/fsync.c: small appends, each followed by fsync, with the latency of every one
 * (write + fsync) kept for percentiles: the commit latency a database or a mail server sees.
 * Optionally a background writer streams through a file of its own on the same filesystem
 * meanwhile, the classic case in which ext4's data=ordered makes an fsync wait for other
 * files' data. */
#include "engines/engine.h"
#include "engines/workload.h"
#include "lib/stats.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BG_BLOCK (1u << 20)
#define BG_LEAD_BYTES (8ull << 20)   /* the background writer's head start ... */
#define BG_LEAD_S 2.0                /* ... or this long, whichever comes first */
#define FSYNC_MAX_APPENDS (1u << 22)

struct fsync_res {
	uint64_t appends, bytes, bs;
	double time_s;                   /* all appends */
	double iops;                     /* appends / time_s */
	struct latency lat;          /* of one append and its fdatasync, microseconds */
	uint64_t background;             /* the background writer's file size, 0 = none */
	uint64_t background_bytes;       /* it wrote while the appends ran */
	double background_mbps;
	struct wl_cpu cpu;
	int err;
	char errmsg[WL_ERR_MAX];
};
_Static_assert(sizeof(struct fsync_res) <= ENGINE_RES_MAX, "a cell result fits");

/* A file of dir, created or emptied; refused unless it is a regular file. Returns the fd. */
static int open_in(const char *dir, const char *name, int *err, char *msg)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK,
		      0644);
	if (fd < 0)
		return wl_fail(err, msg, errno, "create %s", path);
	struct stat st;
	int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (!regular || ftruncate(fd, 0) < 0) {
		int e = regular ? errno : EINVAL;
		close(fd);
		return wl_fail(err, msg, e, "write %s%s", path, regular ? "" : ", which is not a regular file");
	}
	return fd;
}

/* The background writer: 1 MiB blocks through a file of size bytes, emptied and written
 * again from the start each time it is full, until killed; a failure ends it with the errno
 * as its exit status, which the appends' side reports. */
static _Noreturn void background(int fd, uint64_t size, volatile uint64_t *written)
{
	struct wl_stream data;
	if (wl_stream_init(&data, BG_BLOCK, 0xb6b6b6b6u) < 0)
		_exit(ENOMEM);
	for (uint64_t off = 0;;) {
		if (off + BG_BLOCK > size) {
			if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
				_exit(errno & 0xff);
			off = 0;
		}
		ssize_t n = write(fd, wl_stream_at(&data, off, BG_BLOCK), BG_BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(n < 0 ? errno & 0xff : EIO);
		off += (uint64_t)n;
		__atomic_add_fetch(written, (uint64_t)n, __ATOMIC_RELAXED);
	}
}

/* Starts the background writer (pid into *pid) and waits for its head start. */
static int start_background(const char *dir, uint64_t size, volatile uint64_t *written,
			    pid_t *pid, struct fsync_res *r)
{
	int fd = open_in(dir, "background.dat", &r->err, r->errmsg);
	if (fd < 0)
		return -1;
	*pid = fork();
	if (*pid < 0) {
		close(fd);
		return wl_fail(&r->err, r->errmsg, errno, "fork the background writer");
	}
	if (*pid == 0)
		background(fd, size, written);
	close(fd);
	double t0 = mono_s();
	while (__atomic_load_n(written, __ATOMIC_RELAXED) < BG_LEAD_BYTES && mono_s() - t0 < BG_LEAD_S)
		usleep(10000);
	return 0;
}

/* The appends, each the stream's bytes at its offset (stamped before its clock starts);
 * lat[] gets each one's latency in microseconds. */
static uint64_t appends(int fd, const char *dir, struct wl_stream *data, uint64_t bs, uint64_t n,
			double *lat, struct fsync_res *r)
{
	uint64_t i = 0;
	for (; i < n; i++) {
		const void *buf = wl_stream_at(data, i * bs, (size_t)bs);
		double t0 = mono_s();
		size_t off = 0;
		while (off < bs) {
			ssize_t w = write(fd, (const char *)buf + off, (size_t)bs - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				wl_fail(&r->err, r->errmsg, w < 0 ? errno : EIO, "append to %s/fsync.dat", dir);
				return i;
			}
			off += (size_t)w;
		}
		if (fsync(fd) < 0) {
			wl_fail(&r->err, r->errmsg, errno, "fsync %s/fsync.dat", dir);
			return i;
		}
		lat[i] = (mono_s() - t0) * 1e6;
	}
	return i;
}

static int fsync_run(const char *dir, uint64_t size, uint64_t bs, uint64_t bg, struct fsync_res *r)
{
	memset(r, 0, sizeof *r);
	r->bs = bs, r->background = bg;
	uint64_t n = bs ? size / bs : 0;
	if (n == 0 || n > FSYNC_MAX_APPENDS)
		return wl_fail(&r->err, r->errmsg, EINVAL, "append %llu bytes in %llu-byte steps "
			       "(1 to %u appends)", (unsigned long long)size, (unsigned long long)bs,
			       FSYNC_MAX_APPENDS);
	double *lat = malloc(n * sizeof *lat);
	struct wl_stream data;
	int nodata = wl_stream_init(&data, (size_t)bs, 0xf5f5f5f5u) < 0;
	volatile uint64_t *written = mmap(NULL, sizeof *written, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = -1;
	int fd = -1;
	if (!lat || nodata || written == MAP_FAILED) {
		wl_fail(&r->err, r->errmsg, ENOMEM, "allocate room for %llu latencies", (unsigned long long)n);
		goto out;
	}
	if ((fd = open_in(dir, "fsync.dat", &r->err, r->errmsg)) < 0)
		goto out;
	if (bg && start_background(dir, bg, written, &pid, r) < 0)
		goto out;
	uint64_t bg0 = __atomic_load_n(written, __ATOMIC_RELAXED);
	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s();
	r->appends = appends(fd, dir, &data, bs, n, lat, r);
	r->time_s = mono_s() - t0;
	wl_cpu_end(&cpu, &r->cpu);
	r->background_bytes = __atomic_load_n(written, __ATOMIC_RELAXED) - bg0;
	r->bytes = r->appends * bs;
	r->iops = r->time_s > 0 ? (double)r->appends / r->time_s : 0;
	r->background_mbps = r->time_s > 0 ? (double)r->background_bytes / r->time_s / 1e6 : 0;
	stats_latency(lat, (size_t)r->appends, &r->lat);
out:
	if (pid > 0) {
		/* a writer that stopped early (ENOSPC) would leave appends measured alone under a
		 * label that says otherwise: that is the cell's error */
		int st = 0;
		pid_t done = waitpid(pid, &st, WNOHANG);
		if (done == pid && !r->err)
			wl_fail(&r->err, r->errmsg, WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) : EIO,
				"keep the background writer streaming through %s/background.dat", dir);
		if (done != pid) {
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	if (fd >= 0)
		close(fd);
	if (written != MAP_FAILED)
		munmap((void *)written, sizeof *written);
	free(lat);
	wl_stream_free(&data);
	return r->err ? -1 : 0;
}

static void fields(struct jw *w, const void *res)
{
	const struct fsync_res *r = res;
	jw_kint(w, "appends", (long long)r->appends);
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "bs", (long long)r->bs);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kdouble(w, "iops", r->iops, 1);
	engine_latency_json(w, "lat", &r->lat);
	jw_kint(w, "background", (long long)r->background);
	jw_kint(w, "background_bytes", (long long)r->background_bytes);
	jw_kdouble(w, "background_mbps", r->background_mbps, 2);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct fsync_res *r = res;
	if (engine_drop(env->drop, err, msg) == 0 &&
	    fsync_run(env->dir, w->size, w->bs, w->background, r) < 0) {
		*err = r->err;
		memcpy(msg, r->errmsg, WL_ERR_MAX);
	}
}

static const struct wl_cpu *cpu(const void *res) { return &((const struct fsync_res *)res)->cpu; }

static void headline(const void *res, char *buf, size_t len)
{
	const struct fsync_res *r = res;
	snprintf(buf, len, "p99 %.0f us, max %.0f us, %.0f fsyncs/s", r->lat.p99, r->lat.max,
		 r->iops);
}

static int host(const struct engine_host *h, char *const *operands)
{
	const char *dir = operands[0];
	struct fsync_res r;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fsmatrix: unable to create directory %s: %s\n", dir, strerror(errno));
		return 1;
	}
	engine_host_drop(h);
	int rc = fsync_run(dir, h->w.size, h->w.bs, h->w.background, &r);
	engine_emit("fsync", fields, &r);
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "fsync %s: %llu appends of %llu bytes in %.3f s: %.0f fsyncs/s, latency "
		"p50 %.0f us, p99 %.0f us, max %.0f us\n", dir, (unsigned long long)r.appends,
		(unsigned long long)r.bs, r.time_s, r.iops, r.lat.p50, r.lat.p99, r.lat.max);
	return rc < 0 ? 1 : 0;
}

#define LAT(p) { "lat_" #p "_us", offsetof(struct fsync_res, lat.p) }
static const struct engine_figure figures[] = {
	LAT(p99), LAT(p50), LAT(max), { "iops", offsetof(struct fsync_res, iops) }, LAT(mean),
	LAT(p90), LAT(p999), { "background_mbps", offsetof(struct fsync_res, background_mbps) },
	{ NULL, 0 },
};

const struct engine engine_fsync = {
	.name = "fsync", .type = WL_FSYNC,
	.res_size = sizeof(struct fsync_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 4ull << 20, .nargs = 1, .role = { ROLE_DIR }, .operands = "DIR",
	.options = "[--bs 1m] [--background SIZE] [--drop-caches]",
	.about = "fsync appends --bs at a time to DIR/fsync.dat, each followed by fsync; --background "
		 "streams through DIR/background.dat meanwhile.",
	.host = host,
};
