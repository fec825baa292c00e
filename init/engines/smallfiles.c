/* engines/smallfiles.c: a seeded file set shaped like a source tree, generated in memory and
 * then written in-process, as fast as `tar -x` could write the same set.
 *
 * Shape: file sizes follow a log-normal (median 6 KiB, sigma 1.6 in natural log; mean about
 * 23 KiB), bucketed by powers of two so that the draw is integer-only and gives the same tree
 * under glibc and musl; 0.5% of files are empty and the tail stops at 4 MiB (about 6 files
 * above 1 MiB in 220 MiB). Directories hold 10-30 entries, 2-6 of them subdirectories, down
 * to TREE_MAX_DEPTH levels, filled breadth-first.
 *
 * Content: slices of one pool of random bytes at byte-granular offsets. Incompressible
 * rather than text-like, because the filesystems measured do not compress but a host
 * (qcow2 compression, a compressing SSD, a btrfs host directory) might, and text would then
 * flatter whoever stores it; a shared pool costs no CPU per file, as tar's memcpy from its
 * archive costs next to nothing, and unaligned offsets keep 4 KiB blocks from repeating. */
#include "engines/workload.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Independent streams, so that the layout does not shift when a size is cut or scaled. */
#define STREAM_SIZES 0x51ae5u
#define STREAM_LAYOUT 0x1a40u
#define STREAM_CONTENT 0xc0de7u
#define STREAM_POOL 0x9001u

struct rng { uint64_t x; };

static uint64_t next(struct rng *r)
{
	uint64_t z = (r->x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n); the modulo bias is below 2^-40 for every n used here */
static uint64_t below(struct rng *r, uint64_t n) { return n ? next(r) % n : 0; }

/* The log-normal, in parts per 100000 per power-of-two bucket [lo, hi). */
static const struct { uint32_t lo, hi, weight; } size_table[] = {
	{ 0, 1, 500 },              /* empty files: __init__.py, placeholders */
	{ 1, 64, 215 },
	{ 64, 128, 558 },
	{ 128, 256, 1565 },
	{ 256, 512, 3652 },
	{ 512, 1024, 7083 },
	{ 1024, 2048, 11419 },
	{ 2048, 4096, 15305 },
	{ 4096, 8192, 17052 },
	{ 8192, 16384, 15793 },
	{ 16384, 32768, 12159 },
	{ 32768, 65536, 7783 },
	{ 65536, 131072, 4141 },
	{ 131072, 262144, 1831 },
	{ 262144, 524288, 673 },
	{ 524288, 1048576, 206 },
	{ 1048576, 2097152, 52 },
	{ 2097152, TREE_MAX_FILE, 13 },
};

static uint64_t draw_size(struct rng *r)
{
	uint64_t u = below(r, 100000);
	size_t i = 0;
	while (u >= size_table[i].weight && i + 1 < sizeof size_table / sizeof size_table[0])
		u -= size_table[i++].weight;
	return size_table[i].lo + below(r, size_table[i].hi - size_table[i].lo);
}

static const char *const dir_stems[] = {
	"src", "lib", "include", "drivers", "fs", "net", "core", "util", "tests", "docs",
	"arch", "kernel", "mm", "tools", "scripts", "crypto", "sound", "block", "firmware",
	"security", "ipc", "common", "platform", "media", "gpu", "usb", "pci", "input",
	"internal", "test", "bench", "examples", "config", "api", "proto", "codec",
};

static const char *const file_stems[] = {
	"main", "util", "core", "init", "driver", "device", "buffer", "queue", "table", "hash",
	"list", "tree", "parse", "config", "io", "mem", "alloc", "sched", "timer", "irq", "dma",
	"sysfs", "proc", "debug", "trace", "power", "clock", "reset", "regs", "phy", "link",
	"port", "bus", "ctl", "ops", "super", "inode", "file", "dir", "namei", "journal",
	"extent", "xattr", "acl", "crc", "string", "format", "error", "log", "cache",
};

/* Extensions by weight (sum 100); "" names a file such as Kconfig that has none. */
static const struct { const char *ext; unsigned weight; } exts[] = {
	{ ".c", 38 }, { ".h", 26 }, { ".S", 2 }, { ".py", 6 }, { ".sh", 3 }, { ".txt", 3 },
	{ ".rst", 6 }, { ".json", 3 }, { ".yaml", 2 }, { ".md", 3 }, { ".cpp", 4 }, { "", 4 },
};

#define N(a) (sizeof a / sizeof a[0])

static const char *draw_ext(struct rng *r)
{
	unsigned u = (unsigned)below(r, 100);
	size_t i = 0;
	while (u >= exts[i].weight && i + 1 < N(exts))
		u -= exts[i++].weight;
	return exts[i].ext;
}

static int push_entry(struct tree *t, const struct tree_entry *e)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct tree_entry *p = realloc(t->e, cap * sizeof *p);
		if (!p)
			return -1;
		t->e = p;
		t->cap = cap;
	}
	t->e[t->n++] = *e;
	return 0;
}

struct pending { uint32_t parent, depth; char name[28]; };

/* A name not yet used among this directory's entries: the stem, else stem_K. */
static void unique_name(char taken[][28], int ntaken, char *out, const char *stem, const char *ext)
{
	snprintf(out, 28, "%s%s", stem, ext);
	for (int k = 1;; k++) {
		int clash = 0;
		for (int i = 0; i < ntaken && !clash; i++)
			clash = strcmp(taken[i], out) == 0;
		if (!clash)
			return;
		snprintf(out, 28, "%.12s_%d%s", stem, k, ext);
	}
}

static int draw_sizes(uint64_t size, uint64_t files, uint64_t seed, uint64_t **out, uint64_t *count)
{
	struct rng r = { seed ^ STREAM_SIZES };
	uint64_t n = 0, cap = files ? files : 1024, sum = 0;
	uint64_t *s = malloc(cap * sizeof *s);

	if (!s)
		return -1;
	while (files ? n < files : sum < size) {
		if (n == cap) {
			uint64_t *p = realloc(s, (cap *= 2) * sizeof *s);
			if (!p) {
				free(s);
				return -1;
			}
			s = p;
		}
		uint64_t v = draw_size(&r);
		if (!files && v > size - sum)
			v = size - sum;
		s[n++] = v;
		sum += v;
	}
	if (files && n > 0) {
		/* scale to the asked total; double arithmetic is exact-rounded IEEE on every target,
		 * so the result is the same everywhere; the remainder goes to the last file */
		uint64_t got = 0;
		for (uint64_t i = 0; i < n; i++) {
			s[i] = sum ? (uint64_t)((double)s[i] * ((double)size / (double)sum)) : 0;
			if (got + s[i] > size)
				s[i] = size - got;
			got += s[i];
		}
		s[n - 1] += size - got;
	}
	*out = s;
	*count = n;
	return 0;
}

int tree_generate(struct tree *t, uint64_t size, uint64_t files, uint64_t seed)
{
	struct rng lay = { seed ^ STREAM_LAYOUT }, con = { seed ^ STREAM_CONTENT };
	struct pending *q = NULL;
	size_t qhead = 0, qn = 0, qcap = 0;
	uint64_t *sizes, nfiles, fi = 0;
	uint32_t cur = 0, depth = 0;

	memset(t, 0, sizeof *t);
	t->seed = seed;
	if (draw_sizes(size, files, seed, &sizes, &nfiles) < 0)
		return -1;
	struct tree_entry root = { .parent = 0, .is_dir = 1 };
	if (push_entry(t, &root) < 0)
		goto nomem;
	for (;;) {
		char taken[30][28];
		int ntaken = 0;
		int entries = 10 + (int)below(&lay, 21);
		int subdirs = depth < TREE_MAX_DEPTH ? 2 + (int)below(&lay, 5) : 0;

		for (int i = 0; i < subdirs; i++, ntaken++) {
			if (qn == qcap) {
				size_t cap = qcap ? qcap * 2 : 256;
				struct pending *p = realloc(q, cap * sizeof *p);
				if (!p)
					goto nomem;
				q = p;
				qcap = cap;
			}
			unique_name(taken, ntaken, taken[ntaken],
				    dir_stems[below(&lay, N(dir_stems))], "");
			q[qn] = (struct pending){ .parent = cur, .depth = depth + 1 };
			memcpy(q[qn++].name, taken[ntaken], 28);
		}
		for (int i = 0; i < entries - subdirs && fi < nfiles; i++, ntaken++) {
			struct tree_entry e = { .parent = cur };
			/* about half the directories have a Makefile, as in a kernel tree */
			if (i == 0 && below(&lay, 2))
				unique_name(taken, ntaken, taken[ntaken], "Makefile", "");
			else
				unique_name(taken, ntaken, taken[ntaken],
					    file_stems[below(&lay, N(file_stems))], draw_ext(&lay));
			memcpy(e.name, taken[ntaken], 28);
			e.size = sizes[fi++];
			uint64_t span = e.size < TREE_POOL ? TREE_POOL - e.size + 1 : 1;
			e.off = (uint32_t)below(&con, span);
			if (push_entry(t, &e) < 0)
				goto nomem;
			t->files++;
			t->bytes += e.size;
		}
		if (fi >= nfiles)
			break;
		if (qhead == qn) {
			/* every level is full: widen the top rather than go deeper */
			qhead = qn = 0;
			q[qn] = (struct pending){ .parent = 0, .depth = 1 };
			snprintf(q[qn++].name, 28, "part%llu", (unsigned long long)t->dirs);
		}
		struct pending p = q[qhead++];
		struct tree_entry d = { .parent = p.parent, .is_dir = 1 };
		memcpy(d.name, p.name, 28);
		if (push_entry(t, &d) < 0)
			goto nomem;
		t->dirs++;
		cur = (uint32_t)(t->n - 1);
		depth = p.depth;
	}
	free(q);
	free(sizes);
	return 0;
nomem:
	free(q);
	free(sizes);
	tree_free(t);
	errno = ENOMEM;
	return -1;
}

void tree_free(struct tree *t)
{
	free(t->e);
	t->e = NULL;
	t->n = t->cap = 0;
}

int tree_path(const struct tree *t, size_t i, char *buf, size_t len)
{
	size_t chain[TREE_MAX_DEPTH + 64], depth = 0, pos = 0;

	for (size_t k = i; k != 0; k = t->e[k].parent) {
		if (depth == N(chain))
			return -1;
		chain[depth++] = k;
	}
	if (len == 0)
		return -1;
	buf[0] = '\0';
	while (depth > 0) {
		const char *name = t->e[chain[--depth]].name;
		size_t nl = strlen(name);
		if (pos + nl + 2 > len)
			return -1;
		if (pos)
			buf[pos++] = '/';
		memcpy(buf + pos, name, nl + 1);
		pos += nl;
	}
	return (int)pos;
}

unsigned char *wl_tree_pool(uint64_t seed)
{
	unsigned char *p = malloc(TREE_POOL);
	if (p)
		wl_fill_random(p, TREE_POOL, seed ^ STREAM_POOL);
	return p;
}

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

int wl_smallfiles_write(const struct tree *t, const unsigned char *pool, const char *dir,
			int no_sync, struct wl_smallfiles_res *r)
{
	char path[4096];
	int rootfd, curfd;
	size_t cur = 0;

	memset(r, 0, sizeof *r);
	r->seed = t->seed;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return wl_fail(&r->err, r->errmsg, errno, "create directory %s", dir);
	rootfd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (rootfd < 0)
		return wl_fail(&r->err, r->errmsg, errno, "open directory %s", dir);
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
	if (!no_sync && !r->err && syncfs(rootfd) < 0)
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

int wl_smallfiles(const char *dir, const struct wl_smallfiles_opts *o, struct wl_smallfiles_res *r)
{
	struct tree t;
	unsigned char *pool;

	if (tree_generate(&t, o->size, o->files, o->seed) < 0) {
		memset(r, 0, sizeof *r);
		return wl_fail(&r->err, r->errmsg, errno, "generate the file set for %s", dir);
	}
	if (!(pool = wl_tree_pool(o->seed))) {
		tree_free(&t);
		memset(r, 0, sizeof *r);
		return wl_fail(&r->err, r->errmsg, ENOMEM, "allocate the content pool");
	}
	int rc = wl_smallfiles_write(&t, pool, dir, o->no_sync, r);
	free(pool);
	tree_free(&t);
	return rc;
}

void wl_smallfiles_json(struct jw *w, const struct wl_smallfiles_res *r)
{
	jw_kint(w, "files", (long long)r->files);
	jw_kint(w, "dirs", (long long)r->dirs);
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "seed", (long long)r->seed);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kdouble(w, "sync_s", r->sync_s, 6);
	jw_kdouble(w, "files_per_s", r->files_per_s, 1);
	jw_kdouble(w, "mbps", r->mbps, 2);
	wl_cpu_json(w, &r->cpu);
	if (r->err) {
		jw_kstr(w, "error", r->errmsg);
		jw_kstr(w, "errno", wl_errno_name(r->err));
	}
}
