/* engines/smallfiles.c: a seeded file set shaped like a source tree (engines/tree.c) written
 * in-process, as fast as `tar -x` could write the same set: one pass, and the engine rows of
 * smallfiles (passes in a cell, one record per pass on the host) and gen-tree. */
#include "engines/engine.h"
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct smallfiles_res {
	uint64_t files, dirs, bytes, seed;
	double time_s;             /* creating every directory and file (open/write/close) */
	double sync_s;             /* syncfs on the target filesystem afterwards */
	double files_per_s;        /* files / (time_s + sync_s) */
	double mbps;               /* bytes / (time_s + sync_s) / 10^6 */
	struct wl_cpu cpu;         /* over time_s + sync_s */
	int err;
	char errmsg[WL_ERR_MAX];
};

/* Writes size bytes from the pool starting at off, wrapping round for files bigger than
 * the pool (only when a file count was given with a large size). */
static int write_file(int fd, const unsigned char *pool, uint64_t off, uint64_t size)
{
	while (size > 0) {
		size_t n = size < TREE_POOL - off ? (size_t)size : (size_t)(TREE_POOL - off);
		ssize_t w = write(fd, pool + off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		size -= (uint64_t)w;
		off = (off + (uint64_t)w) % TREE_POOL;
	}
	return 0;
}

/* write_pass's flags. */
#define WL_NO_SYNC 1    /* skip the timed syncfs */
#define WL_PASS_DIR 2   /* dir is a name the caller made up (DIR/pass2), not the user's: a
                           symbolic link there is refused, never followed out of DIR */

/* The pass's directory dir, created if missing, opened (not through a symbolic link under
 * WL_PASS_DIR). Returns its fd, or -1 with r->err set. */
static int open_pass_dir(const char *dir, int flags, struct smallfiles_res *r)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return wl_fail(&r->err, r->errmsg, errno, "create directory %s", dir);
	int fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC |
		      (flags & WL_PASS_DIR ? O_NOFOLLOW : 0));
	if (fd < 0) {
		struct stat st;
		int e = errno;
		/* O_NOFOLLOW with O_DIRECTORY says ENOTDIR for a link: say what it is */
		if (flags & WL_PASS_DIR && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
			return wl_fail(&r->err, r->errmsg, ELOOP, "open directory %s, which is a "
				       "symbolic link (not followed)", dir);
		return wl_fail(&r->err, r->errmsg, e, "open directory %s", dir);
	}
	return fd;
}

/* One pass: the tree into dir (created if missing; entries must not exist yet) with
 * mkdirat/openat relative to directory fds, one write per file from the shared pool
 * (TREE_POOL bytes of wl_tree_pool, kept by the caller across passes), then a timed syncfs
 * unless WL_NO_SYNC. Returns 0, or -1 with r->err set. */
static int write_pass(const struct tree *t, const unsigned char *pool, const char *dir,
		      int flags, struct smallfiles_res *r)
{
	char path[4096];
	int rootfd, curfd;
	size_t cur = 0;

	memset(r, 0, sizeof *r);
	r->seed = t->seed;
	if ((rootfd = open_pass_dir(dir, flags, r)) < 0)
		return -1;
	curfd = rootfd;

	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s(), t1, t2;
	for (size_t i = 1; i < t->n; i++) {
		const struct tree_entry *e = &t->e[i];
		/* creation order puts a directory's files right after it, so one directory fd
		 * at a time serves every openat; only directories need a path lookup */
		if (e->is_dir || e->parent != cur) {
			if (tree_path(t, e->is_dir ? i : e->parent, path, sizeof path) < 0) {
				wl_fail(&r->err, r->errmsg, ENAMETOOLONG, "build a path in %s", dir);
				break;
			}
			if (e->is_dir && mkdirat(rootfd, path, 0755) < 0) {
				wl_fail(&r->err, r->errmsg, errno, "create directory %s/%s", dir, path);
				break;
			}
			if (curfd != rootfd)
				close(curfd);
			curfd = openat(rootfd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (curfd < 0) {
				curfd = rootfd;
				wl_fail(&r->err, r->errmsg, errno, "open directory %s/%s", dir, path);
				break;
			}
			cur = e->is_dir ? i : e->parent;
			if (e->is_dir) {
				r->dirs++;
				continue;
			}
		}
		int fd = openat(curfd, e->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || write_file(fd, pool, e->off, e->size) < 0 || close(fd) < 0) {
			int err = errno;
			tree_path(t, i, path, sizeof path);
			wl_fail(&r->err, r->errmsg, err, "%s %s/%s", fd < 0 ? "create" : "write", dir, path);
			if (fd >= 0)
				close(fd);
			break;
		}
		r->files++;
		r->bytes += e->size;
	}
	t1 = mono_s();
	if (!(flags & WL_NO_SYNC) && !r->err && syncfs(rootfd) < 0)
		wl_fail(&r->err, r->errmsg, errno, "syncfs %s", dir);
	t2 = mono_s();
	wl_cpu_end(&cpu, &r->cpu);
	if (curfd != rootfd)
		close(curfd);
	close(rootfd);

	r->time_s = t1 - t0;
	r->sync_s = t2 - t1;
	double all = r->time_s + r->sync_s;
	r->files_per_s = all > 0 ? (double)r->files / all : 0;
	r->mbps = all > 0 ? (double)r->bytes / all / 1e6 : 0;
	return r->err ? -1 : 0;
}

/* files, dirs, bytes, seed, time_s, sync_s, files_per_s, mbps, cpu_*, error/errno */
static void fields(struct jw *w, const void *res)
{
	const struct smallfiles_res *r = res;
	jw_kint(w, "files", (long long)r->files);
	jw_kint(w, "dirs", (long long)r->dirs);
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "seed", (long long)r->seed);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kdouble(w, "sync_s", r->sync_s, 6);
	jw_kdouble(w, "files_per_s", r->files_per_s, 1);
	jw_kdouble(w, "mbps", r->mbps, 2);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

/* ------------------------------------------------------------------ the engines' rows */

#define PASS_REC_MAX 32

/* A cell's passes: the totals, and the first PASS_REC_MAX passes one by one. */
struct smallfiles_cell {
	struct smallfiles_res total;
	int npasses;                    /* passes run */
	struct smallfiles_res pass[PASS_REC_MAX];
};
_Static_assert(sizeof(struct smallfiles_cell) <= ENGINE_RES_MAX, "a cell result fits");

static void add_pass(struct smallfiles_res *t, const struct smallfiles_res *r, int first)
{
	double before = t->time_s + t->sync_s, d = r->time_s + r->sync_s;
	if (first) {
		*t = *r;
		return;
	}
	t->files += r->files;
	t->dirs += r->dirs;
	t->bytes += r->bytes;
	t->time_s += r->time_s;
	t->sync_s += r->sync_s;
	double all = t->time_s + t->sync_s;
	t->files_per_s = all > 0 ? (double)t->files / all : 0;
	t->mbps = all > 0 ? (double)t->bytes / all / 1e6 : 0;
	/* CPU shares weighted by each pass's duration */
	if (all > 0) {
		t->cpu.user_pct = (t->cpu.user_pct * before + r->cpu.user_pct * d) / all;
		t->cpu.sys_pct = (t->cpu.sys_pct * before + r->cpu.sys_pct * d) / all;
		t->cpu.iowait_pct = (t->cpu.iowait_pct * before + r->cpu.iowait_pct * d) / all;
	}
	if (r->err && !t->err) {
		t->err = r->err;
		memcpy(t->errmsg, r->errmsg, sizeof t->errmsg);
	}
}

/* Each pass into a fresh directory, DIR/pass1 .. DIR/passN, after its own cache drop. */
static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct smallfiles_cell *c = res;
	struct tree t;
	if (tree_generate(&t, w->size, (uint64_t)w->files, w->seed) < 0) {
		wl_fail(err, msg, errno, "generate the file set");
		return;
	}
	unsigned char *pool = wl_tree_pool(w->seed);
	if (!pool) {
		wl_fail(err, msg, ENOMEM, "allocate the file contents");
		tree_free(&t);
		return;
	}
	for (int i = 0; i < w->passes; i++) {
		struct smallfiles_res r;
		char dir[4096];
		if (engine_drop(env->drop, err, msg) < 0)
			break;
		snprintf(dir, sizeof dir, "%s/pass%d", env->dir, i + 1);
		write_pass(&t, pool, dir, WL_PASS_DIR | (w->sync == SYNC_NONE ? WL_NO_SYNC : 0), &r);
		if (c->npasses < PASS_REC_MAX)
			c->pass[c->npasses] = r;
		add_pass(&c->total, &r, c->npasses == 0);
		c->npasses++;
		if (r.err) {
			*err = r.err;
			snprintf(msg, WL_ERR_MAX, "pass %d: %.300s", i + 1, r.errmsg);
			break;
		}
	}
	free(pool);
	tree_free(&t);
}

static void cell_fields(struct jw *jw, const void *res)
{
	const struct smallfiles_cell *c = res;
	fields(jw, &c->total);
	if (c->npasses > 1) {
		jw_key(jw, "passes");
		jw_arr(jw);
		for (int i = 0; i < c->npasses && i < PASS_REC_MAX; i++) {
			jw_obj(jw);
			fields(jw, &c->pass[i]);
			jw_end_obj(jw);
		}
		jw_end_arr(jw);
	}
}

static const struct wl_cpu *cpu(const void *res)
{
	return &((const struct smallfiles_cell *)res)->total.cpu;
}

static void headline(const void *res, char *buf, size_t len)
{
	const struct smallfiles_cell *c = res;
	snprintf(buf, len, "%.1f MB/s, %.0f files/s", c->total.mbps, c->total.files_per_s);
}

static void host_summary(const struct engine_host *h, const char *target, int timed,
			 const struct smallfiles_res *r)
{
	if (timed)
		fprintf(stderr, "smallfiles %s: %llu files, %llu dirs, %llu bytes in %.3f s "
			"+ sync %.3f s: %.0f files/s, %.1f MB/s; cpu user %.1f%% sys %.1f%% "
			"iowait %.1f%%\n", target, (unsigned long long)r->files,
			(unsigned long long)r->dirs, (unsigned long long)r->bytes, r->time_s,
			r->sync_s, r->files_per_s, r->mbps, r->cpu.user_pct, r->cpu.sys_pct,
			r->cpu.iowait_pct);
	else
		fprintf(stderr, "gen-tree %s: %llu files, %llu dirs, %llu bytes (seed %llu)\n",
			target, (unsigned long long)r->files, (unsigned long long)r->dirs,
			(unsigned long long)r->bytes, (unsigned long long)h->w.seed);
}

/* smallfiles, timed with a record per pass; gen-tree, the same set untimed and unsynced. */
static int host_passes(const struct engine_host *h, const char *dir, int timed)
{
	struct tree t;
	unsigned char *pool;
	char path[4096];
	int rc = 0;

	if (tree_generate(&t, h->w.size, (uint64_t)h->w.files, h->w.seed) < 0 ||
	    !(pool = wl_tree_pool(h->w.seed))) {
		fprintf(stderr, "fsmatrix: unable to generate the file set: %s\n", strerror(ENOMEM));
		return 1;
	}
	for (int p = 1; p <= h->w.passes && rc == 0; p++) {
		struct smallfiles_res r;
		const char *target = dir;
		if (h->w.passes > 1) {
			if (p == 1 && mkdir(dir, 0755) < 0 && errno != EEXIST) {
				fprintf(stderr, "fsmatrix: unable to create directory %s: %s\n", dir,
					strerror(errno));
				rc = 1;
				break;
			}
			snprintf(path, sizeof path, "%s/pass%d", dir, p);
			target = path;
		}
		if (timed)
			engine_host_drop(h);
		int flags = (h->w.passes > 1 ? WL_PASS_DIR : 0) |
			    (h->no_sync || !timed ? WL_NO_SYNC : 0);
		rc = write_pass(&t, pool, target, flags, &r) < 0;
		if (timed)
			engine_emit("smallfiles", fields, &r);
		if (rc)
			fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
		host_summary(h, target, timed, &r);
	}
	if (h->list && rc == 0)
		for (size_t i = 1; i < t.n; i++)
			if (tree_path(&t, i, path, sizeof path) >= 0)
				printf("%s\n", path);
	free(pool);
	tree_free(&t);
	return rc;
}

static int host(const struct engine_host *h, char *const *operands)
{
	return host_passes(h, operands[0], 1);
}

static int host_gen_tree(const struct engine_host *h, char *const *operands)
{
	return host_passes(h, operands[0], 0);
}

#define FIG(f) { #f, offsetof(struct smallfiles_cell, total.f) }
static const struct engine_figure figures[] = {
	FIG(mbps), FIG(files_per_s), FIG(time_s), FIG(sync_s), { NULL, 0 },
};

const struct engine engine_smallfiles = {
	.name = "smallfiles", .type = WL_SMALLFILES,
	.res_size = sizeof(struct smallfiles_cell), .cell = cell, .cell_json = cell_fields,
	.cpu = cpu, .figures = figures, .headline = headline,
	.host_size = 220ull << 20, .nargs = 1, .role = { ROLE_DIR }, .operands = "DIR",
	.options = "[--files N] [--seed N] [--passes N] [--no-sync] [--drop-caches]",
	.about = "smallfiles with --passes N writes DIR/pass1 .. DIR/passN, one record each.",
	.host = host,
};

/* The file set alone, for building the same tree as an archive: no plan type, no record. */
const struct engine engine_gen_tree = {
	.name = "gen-tree", .type = WL_SMALLFILES,
	.host_size = 220ull << 20, .nargs = 1, .role = { ROLE_DIR }, .operands = "DIR",
	.options = "[--files N] [--seed N] [--list]",
	.about = "gen-tree writes the same file set untimed and unsynced; --list prints its paths "
		 "in creation order, for `tar -cf set.tar -C DIR --no-recursion -T LIST`.",
	.host = host_gen_tree,
};
