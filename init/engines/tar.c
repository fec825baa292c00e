/* engines/tar.c: extract a user's archive with a tar program (busybox tar in the image), then a
 * timed sync. Files and bytes are counted afterwards, outside the timed region. */
#include "lib/run.h"
#include "engines/engine.h"
#include "engines/workload.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tar_opts {
	const char *tar;           /* the tar program: "tar" (PATH) or /bin/busybox-style path */
	const char *archive;
	int timeout_ms;            /* 0: none */
	int no_sync;
};

struct tar_res {
	uint64_t bytes, files;     /* counted by walking dir after the timed region */
	double time_s;             /* fork, exec and extraction until tar was reaped */
	double sync_s;
	double mbps;               /* bytes / (time_s + sync_s) / 10^6 */
	int status;                /* tar's shell-style exit status */
	struct wl_cpu cpu;         /* includes tar itself (RUSAGE_CHILDREN) */
	int err;
	char errmsg[WL_ERR_MAX];   /* on tar failure: its stderr's last line */
};

static int count_at(int dfd, uint64_t *files, uint64_t *bytes, int depth)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (depth > 256) {
		close(dfd);
		errno = ELOOP;
		return -1;
	}
	if (!(d = fdopendir(dfd))) {
		close(dfd);
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = -1;
			break;
		}
		if (S_ISREG(st.st_mode)) {
			(*files)++;
			*bytes += (uint64_t)st.st_size;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub < 0 || count_at(sub, files, bytes, depth + 1) < 0) {
				rc = -1;
				break;
			}
		}
	}
	int e = errno;
	closedir(d);
	errno = e;
	return rc;
}

int wl_count_tree(const char *dir, uint64_t *files, uint64_t *bytes)
{
	*files = *bytes = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -1 : count_at(fd, files, bytes, 0);
}

/* The last non-empty line of a tool's stderr: what it said when it gave up. */
static void last_line(const char *s, char *out, size_t len)
{
	const char *end = s + strlen(s);
	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* Runs `TAR -xf ARCHIVE -C DIR` (dir created if missing), then a timed syncfs. Returns 0,
 * or -1 with r->err set. */
static int extract(const char *dir, const struct tar_opts *o, struct tar_res *r)
{
	char *argv[] = { (char *)o->tar, "-xf", (char *)o->archive, "-C", (char *)dir, NULL };
	struct run_opts ro = { .timeout_ms = o->timeout_ms, .out_cap = 64 << 10 };
	struct run_result rr;
	int fd;

	memset(r, 0, sizeof *r);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return wl_fail(&r->err, r->errmsg, errno, "create directory %s", dir);
	if ((fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC)) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "open directory %s", dir);

	struct wl_cpu_snap cpu;
	wl_cpu_begin(&cpu);
	double t0 = mono_s(), t1, t2;
	int rc = run_argv(argv, &ro, &rr);
	t1 = mono_s();
	if (rc < 0) {
		wl_fail(&r->err, r->errmsg, errno, "run %s", o->tar);
	} else {
		r->status = rr.status;
		if (rr.status != 0) {
			char line[200];
			last_line(rr.err, line, sizeof line);
			/* the tool's own words are the useful part; errno says only "it failed" */
			r->err = rr.timed_out ? ETIMEDOUT : EIO;
			snprintf(r->errmsg, WL_ERR_MAX, "unable to extract %s into %s: %s exited %d%s%s",
				 o->archive, dir, o->tar, rr.status, line[0] ? ": " : "", line);
		}
		run_free(&rr);
	}
	if (!o->no_sync && !r->err && syncfs(fd) < 0)
		wl_fail(&r->err, r->errmsg, errno, "syncfs %s", dir);
	t2 = mono_s();
	wl_cpu_end(&cpu, &r->cpu);
	close(fd);

	r->time_s = t1 - t0;
	r->sync_s = t2 - t1;
	if (wl_count_tree(dir, &r->files, &r->bytes) < 0 && !r->err)
		wl_fail(&r->err, r->errmsg, errno, "count the files extracted into %s", dir);
	double all = r->time_s + r->sync_s;
	r->mbps = all > 0 ? (double)r->bytes / all / 1e6 : 0;
	return r->err ? -1 : 0;
}

/* bytes, files, time_s, sync_s, mbps, status, cpu_*, error/errno */
static void fields(struct jw *w, const void *res)
{
	const struct tar_res *r = res;
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "files", (long long)r->files);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kdouble(w, "sync_s", r->sync_s, 6);
	jw_kdouble(w, "mbps", r->mbps, 2);
	jw_kint(w, "status", r->status);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

/* ------------------------------------------------------------------ the engine's row */

struct tar_cell {
	char archive[PLAN_STR_MAX];     /* the archive found (as given when not found) */
	struct tar_res r;
};
_Static_assert(sizeof(struct tar_cell) <= ENGINE_RES_MAX, "a cell result fits");

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct tar_cell *c = res;
	char dir[4096];
	if (engine_find_file(w->file, env->archive_dirs, c->archive, sizeof c->archive) < 0) {
		char where[512];
		engine_dirs_text(env->archive_dirs, where, sizeof where);
		wl_fail(err, msg, ENOENT, "find the archive %s (looked in %s)", w->file, where);
		return;
	}
	struct tar_opts to = { .tar = "tar", .archive = c->archive,
				  .timeout_ms = env->timeout_ms, .no_sync = w->sync == SYNC_NONE };
	snprintf(dir, sizeof dir, "%s/tar", env->dir);
	if (engine_drop(env->drop, err, msg) == 0 && extract(dir, &to, &c->r) < 0) {
		*err = c->r.err;
		memcpy(msg, c->r.errmsg, WL_ERR_MAX);
	}
}

static void cell_fields(struct jw *w, const void *res)
{
	const struct tar_cell *c = res;
	jw_kstr(w, "archive", c->archive);
	fields(w, &c->r);
}

static const struct wl_cpu *cpu(const void *res) { return &((const struct tar_cell *)res)->r.cpu; }

static void headline(const void *res, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f MB/s", ((const struct tar_cell *)res)->r.mbps);
}

static int host(const struct engine_host *h, char *const *operands)
{
	const char *archive = operands[0], *dir = operands[1];
	struct tar_opts o = { .tar = h->tar ? h->tar : "tar", .archive = archive,
				 .no_sync = h->no_sync };
	struct tar_res r;

	engine_host_drop(h);
	int rc = extract(dir, &o, &r);
	engine_emit("tar", fields, &r);
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "tar %s: %llu files, %llu bytes in %.3f s + sync %.3f s: %.1f MB/s\n",
		dir, (unsigned long long)r.files, (unsigned long long)r.bytes, r.time_s, r.sync_s,
		r.mbps);
	return rc < 0 ? 1 : 0;
}

#define FIG(f) { #f, offsetof(struct tar_cell, r.f) }
static const struct engine_figure figures[] = {
	FIG(mbps), FIG(time_s), FIG(sync_s), { NULL, 0 },
};

const struct engine engine_tar = {
	.name = "tar", .type = WL_TAR,
	.res_size = sizeof(struct tar_cell), .cell = cell, .cell_json = cell_fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 0, .nargs = 2, .role = { ROLE_READ, ROLE_DIR }, .operands = "ARCHIVE and DIR",
	.options = "[--tar PROGRAM] [--no-sync] [--drop-caches]",
	.host = host,
};
