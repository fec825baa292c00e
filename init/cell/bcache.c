/* cell/bcache.c: a bcache layer (core/model/layer.h, type = bcache): make-bcache over the
 * device below and the cache disk, both registered through /sys/fs/bcache/register (no
 * udev), the settings a benchmark needs written and read back (cache_mode,
 * sequential_cutoff, the congestion thresholds: bcache's defaults send sequential I/O and
 * I/O under latency around the cache), its counters read after the workload, and at
 * teardown the device and its cache set stopped and the backing device's superblock zeroed
 * (a member's wipe does not reach it when the backing device is an array). */
#include "cell/ctx.h"
#include "lib/argv.h"
#include "lib/file.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYS_BC "/sys/block/" LAYER_BCACHE_NAME "/bcache/"
#define HEAD_BYTES (1 << 20)

/* One value written to a sysfs file, as a step of its own. */
static int sys_write(struct cell_ctx *x, const char *path, const char *value, int teardown)
{
	const char *argv[] = { "write", path, value, NULL };
	long long t0 = boottime_ms();
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	size_t n = strlen(value);
	if (fd < 0 || write(fd, value, n) != (ssize_t)n)
		err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	struct step *s = syscall_step(x, argv, t0, err);
	if (err) {
		snprintf(s->err, sizeof s->err, "unable to write %s to %s: %s", value, path,
			 strerror(err));
		if (!teardown)
			cell_fail(x, CELL_ERROR, "%s", s->err);
		return -1;
	}
	return 0;
}

static int wait_for(const char *path, int present)
{
	for (int i = 0; i < 100; i++) {
		if ((access(path, F_OK) == 0) == present)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

/* The cache set's directory (/sys/fs/bcache/UUID) the device is attached to, into buf. */
static int cache_set_dir(char *buf, size_t len)
{
	char link[PATH_MAX];
	ssize_t n = readlink(SYS_BC "cache", link, sizeof link - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	const char *uuid = strrchr(link, '/');
	snprintf(buf, len, "/sys/fs/bcache/%.64s", uuid ? uuid + 1 : link);
	return 0;
}

static int set_all(struct cell_ctx *x, const struct plan_layer *l)
{
	char v[32], cset[300], path[360];
	if (cache_set_dir(cset, sizeof cset) < 0) {
		cell_fail(x, CELL_ERROR, "bcache0 is not attached to its cache set (" SYS_BC "cache)");
		return -1;
	}
	snprintf(v, sizeof v, "%llu", (unsigned long long)l->sequential_cutoff);
	if (sys_write(x, SYS_BC "cache_mode", layer_mode_name(l->mode), 0) < 0 ||
	    sys_write(x, SYS_BC "sequential_cutoff", v, 0) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/congested_read_threshold_us", cset);
	snprintf(v, sizeof v, "%d", l->congested_read_us);
	if (sys_write(x, path, v, 0) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/congested_write_threshold_us", cset);
	snprintf(v, sizeof v, "%d", l->congested_write_us);
	return sys_write(x, path, v, 0);
}

int cell_make_bcache(struct cell_ctx *x, const struct layer_dev *d, const struct plan_layer *l)
{
	struct argv a;
	char err[128];
	/* no old signature for make-bcache to refuse (and at teardown, below, no bcache
	 * superblock left on the backing device) */
	if (cell_zero_head(x, d->backing, HEAD_BYTES, 1) < 0)
		return -1;
	argv_init(&a);
	if (argv_split(&a, d->table, err, sizeof err) < 0 || step_must(x, (const char *const *)a.v,
									NULL) < 0)
		return -1;
	x->bcache_made = 1;
	if (sys_write(x, "/sys/fs/bcache/register", d->cache, 0) < 0 ||
	    sys_write(x, "/sys/fs/bcache/register", d->backing, 0) < 0)
		return -1;
	if (wait_for(SYS_BC "cache", 1) < 0 || wait_for(LAYER_BCACHE_DEV, 1) < 0) {
		cell_fail(x, CELL_ERROR, "bcache0 did not appear attached to its cache within 10 s "
			  "of registering %s and %s", d->backing, d->cache);
		return -1;
	}
	snprintf(x->bcache_backing, sizeof x->bcache_backing, "%s", d->backing);
	if (set_all(x, l) < 0)
		return -1;
	cell_read_bcache(x);
	if (strcmp(x->bcache_mode, layer_mode_name(l->mode)) != 0) {
		cell_fail(x, CELL_ERROR, "bcache0's cache_mode reads %s after %s was written",
			  x->bcache_mode, layer_mode_name(l->mode));
		return -1;
	}
	return 0;
}

static void read_one(const char *path, char *buf, size_t len)
{
	if (file_first_line(path, buf, len) < 0)
		buf[0] = '\0';
}

void cell_read_bcache(struct cell_ctx *x)
{
	static const char *const stats[BCACHE_STATS] = { "cache_hits", "cache_misses",
		"cache_bypass_hits", "cache_bypass_misses", "bypassed" };
	char line[128], path[360], cset[300];
	if (!x->bcache_made)
		return;
	read_one(SYS_BC "cache_mode", line, sizeof line);
	layer_bcache_choice(line, x->bcache_mode, sizeof x->bcache_mode);
	read_one(SYS_BC "sequential_cutoff", line, sizeof line);
	x->bcache_cutoff = layer_bcache_bytes(line);
	read_one(SYS_BC "dirty_data", line, sizeof line);
	x->bcache_dirty = layer_bcache_bytes(line);
	for (int i = 0; i < BCACHE_STATS; i++) {
		snprintf(path, sizeof path, SYS_BC "stats_total/%s", stats[i]);
		read_one(path, line, sizeof line);
		x->bcache_stat[i] = layer_bcache_bytes(line);
	}
	x->bcache_congested[0] = x->bcache_congested[1] = -1;
	for (int i = 0; i < 2 && cache_set_dir(cset, sizeof cset) == 0; i++) {
		snprintf(path, sizeof path, "%s/congested_%s_threshold_us", cset, i ? "write" : "read");
		read_one(path, line, sizeof line);
		x->bcache_congested[i] = layer_bcache_bytes(line);
	}
}

void cell_stop_bcache(struct cell_ctx *x, int teardown)
{
	char cset[300], path[360];
	if (access(SYS_BC "stop", F_OK) != 0)
		return;
	int have_cset = cache_set_dir(cset, sizeof cset) == 0;
	sys_write(x, SYS_BC "stop", "1", teardown);
	if (have_cset) {
		snprintf(path, sizeof path, "%s/stop", cset);
		sys_write(x, path, "1", teardown);
	}
	if (wait_for("/sys/block/" LAYER_BCACHE_NAME, 0) < 0 || (have_cset && wait_for(cset, 0) < 0))
		warn_add(&x->warn, "teardown: bcache0 or its cache set did not go within 10 s");
	if (x->bcache_backing[0])
		cell_zero_head(x, x->bcache_backing, HEAD_BYTES, 0);
	x->bcache_made = 0;
}

void cell_bcache_json(struct jw *w, const struct cell_ctx *x)
{
	static const char *const keys[BCACHE_STATS] = { "hits", "misses", "bypass_hits",
		"bypass_misses", "bypassed_bytes" };
	if (!x->bcache_mode[0])
		return;
	jw_key(w, "bcache");
	jw_obj(w);
	jw_kstr(w, "cache_mode", x->bcache_mode);
	jw_kint(w, "sequential_cutoff", x->bcache_cutoff);
	jw_kint(w, "congested_read_threshold_us", x->bcache_congested[0]);
	jw_kint(w, "congested_write_threshold_us", x->bcache_congested[1]);
	for (int i = 0; i < BCACHE_STATS; i++)
		jw_kint(w, keys[i], x->bcache_stat[i]);
	jw_kint(w, "dirty_bytes", x->bcache_dirty);
	jw_end_obj(w);
}
