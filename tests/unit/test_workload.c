/* test_workload.c: the workload engines on small sizes in a temporary directory: seqwrite's
 * file and figures, errors by name (EFBIG past the file size limit), device nodes refused, the smallfiles generator's
 * determinism and totals, a written tree read back, a pass directory's link not followed,
 * tar through the runner, the /proc/stat parser and the CPU percentages. smallfiles and tar
 * run through the table of engines, as a cell (as PID 1 runs them) or as `fsmatrix workload
 * NAME` (engines/engine.h). */
#include "check.h"
#include "core/model/plan.h"
#include "engines/engine.h"
#include "engines/workload.h"
#include "lib/sha256.h"
#include "core/parse/plan_parse.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MiB (1024 * 1024)

static char tmp[64];

static char *at(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmp, name);
	return buf[k];
}

static void test_seqwrite(void)
{
	static const struct { uint64_t size, bs; int zero; } rows[] = {
		{ 4 * MiB, MiB, 0 },
		{ 4 * MiB + 100, MiB, 0 },   /* a short last block */
		{ 2 * MiB, 64 * 1024, 1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct wl_seqwrite_opts o = { .size = rows[i].size, .bs = rows[i].bs,
					      .zero = rows[i].zero, .keep = 1 };
		struct wl_seqwrite_res r;
		struct stat st;
		const char *f = at("seq");
		CHECK_INT(wl_seqwrite(f, &o, &r), 0);
		CHECK_INT(r.err, 0);
		CHECK_INT(stat(f, &st), 0);
		CHECK_INT(st.st_size, rows[i].size);
		CHECK_INT(r.bytes, rows[i].size);
		CHECK_INT(r.bs, rows[i].bs);
		CHECK(r.write_s > 0 && r.flush_s >= 0, "write_s %g flush_s %g", r.write_s, r.flush_s);
		CHECK(fabs(r.total_s - (r.write_s + r.flush_s)) < 1e-9, "total_s %g", r.total_s);
		CHECK(r.mbps > 0 && r.mbps_noflush >= r.mbps, "mbps %g noflush %g", r.mbps, r.mbps_noflush);
		CHECK(fabs(r.mbps - (double)r.bytes / r.total_s / 1e6) < 1e-6, "mbps is 10^6 B/s");
		CHECK(isnan(r.cpu.sys_pct) || (r.cpu.sys_pct >= 0 && r.cpu.sys_pct <= 100),
		      "sys %g", r.cpu.sys_pct);

		/* the data: zeroes, or block 1 of the seed's random data (the default seed) */
		unsigned char got[64], want[64] = { 0 }, first[64];
		int fd = open(f, O_RDONLY);
		CHECK(pread(fd, got, sizeof got, (off_t)rows[i].bs) == (ssize_t)sizeof got, "read back");
		CHECK(pread(fd, first, sizeof first, 0) == (ssize_t)sizeof first, "read back");
		close(fd);
		if (!rows[i].zero) {
			struct wl_stream d;
			CHECK_INT(wl_stream_init(&d, sizeof want, PLAN_DEFAULT_SEED), 0);
			memcpy(want, wl_stream_at(&d, rows[i].bs, sizeof want), sizeof want);
			wl_stream_free(&d);
			CHECK_INT(r.seed, PLAN_DEFAULT_SEED);
			CHECK(memcmp(got, first, sizeof got) != 0, "block 1 differs from block 0");
		}
		CHECK(memcmp(got, want, sizeof got) == 0, "block 1 holds the %s block",
		      rows[i].zero ? "zero" : "random");
	}
	/* without keep the file is gone afterwards */
	struct wl_seqwrite_opts o = { .size = MiB, .bs = MiB };
	struct wl_seqwrite_res r;
	CHECK_INT(wl_seqwrite(at("gone"), &o, &r), 0);
	CHECK(access(at("gone"), F_OK) < 0, "file removed");
}

/* The stream's bytes [off, off + len) as a writer in blocks of bs gets them, into out. */
static void stream_blocks(unsigned char *out, uint64_t len, uint64_t bs, uint64_t seed)
{
	struct wl_stream d;
	CHECK_INT(wl_stream_init(&d, (size_t)bs, seed), 0);
	for (uint64_t off = 0; off < len; off += bs) {
		size_t n = len - off < bs ? (size_t)(len - off) : (size_t)bs;
		memcpy(out + off, wl_stream_at(&d, off, n), n);
	}
	wl_stream_free(&d);
}

static void digest(const void *p, size_t len, unsigned char out[32])
{
	struct sha256 s;
	sha256_init(&s);
	sha256_update(&s, p, len);
	sha256_final(&s, out);
}

static int cmp_digest(const void *a, const void *b) { return memcmp(a, b, 32); }

/* data = random defeats a layer that deduplicates or compresses: over 64 MiB written in 1 MiB
 * blocks no 4 KiB of the stream's (sha256 of each, sorted) is there twice, nor at a shift of
 * 8 bytes, and in the pool each byte value is about as frequent as any other; the bytes are a function of
 * (seed, offset): the same seed gives the same bytes in blocks of 1m, 4k, 1000 bytes and 4104
 * (a block that begins 8 bytes into a chunk's stamp), another seed others. */
static void test_random_stream(void)
{
	enum { LEN = 64 * MiB, CH = 4096, NCH = LEN / CH };
	unsigned char *data = malloc(LEN), *again = malloc(LEN);
	unsigned char (*dig)[32] = malloc((size_t)2 * NCH * 32);
	stream_blocks(data, LEN, MiB, 42);
	size_t n = 0, dup = 0;
	for (size_t c = 0; c < NCH; c++)
		digest(data + c * CH, CH, dig[n++]);
	for (size_t c = 0; c + 1 < NCH; c++)
		digest(data + c * CH + 8, CH, dig[n++]);
	qsort(dig, n, 32, cmp_digest);
	for (size_t i = 1; i < n; i++)
		dup += memcmp(dig[i - 1], dig[i], 32) == 0;
	CHECK_INT(dup, 0);
	unsigned long hist[256] = { 0 };
	for (size_t i = 0; i < WL_STREAM_POOL; i++)
		hist[data[i]]++;
	unsigned long lo = hist[0], hi = hist[0];
	for (int i = 1; i < 256; i++) {
		lo = hist[i] < lo ? hist[i] : lo;
		hi = hist[i] > hi ? hist[i] : hi;
	}
	/* 4,096 expected per value in the pool's 1 MiB (the run repeats it, stamps apart) */
	CHECK(lo > 3700 && hi < 4500, "byte values %lu..%lu", lo, hi);
	static const uint64_t bss[] = { MiB, 4096, 1000, 4104, 3 * MiB };
	for (size_t i = 0; i < sizeof bss / sizeof bss[0]; i++) {
		uint64_t len = bss[i] < 4104 ? 4 * MiB : LEN;
		memset(again, 0, len);
		stream_blocks(again, len, bss[i], 42);
		CHECK(memcmp(again, data, len) == 0, "the same bytes in blocks of %llu",
		      (unsigned long long)bss[i]);
	}
	stream_blocks(again, MiB, MiB, 43);
	size_t same = 0;
	for (size_t c = 0; c < MiB / CH; c++)
		same += memcmp(again + c * CH, data + c * CH, CH) == 0;
	CHECK_INT(same, 0);
	free(dig);
	free(again);
	free(data);
}

static void test_seqwrite_errors(void)
{
	struct wl_seqwrite_opts o = { .size = MiB, .bs = MiB };
	struct wl_seqwrite_res r;
	char json[2048];
	struct jw w;

	CHECK_INT(wl_seqwrite(at("no/such/dir/f"), &o, &r), -1);
	CHECK_INT(r.err, ENOENT);
	CHECK(strstr(r.errmsg, "unable to create ") && strstr(r.errmsg, "No such file or directory"),
	      "message: %s", r.errmsg);

	/* a device node is refused before a byte is written to it (the host CLI can be handed
	 * any path); /dev/full would otherwise fail every write with ENOSPC */
	if (access("/dev/full", W_OK) == 0) {
		CHECK_INT(wl_seqwrite("/dev/full", &o, &r), -1);
		CHECK_INT(r.err, EINVAL);
		CHECK(strstr(r.errmsg, "not a regular file") != NULL, "message: %s", r.errmsg);
		CHECK_INT(r.bytes, 0);
		CHECK(access("/dev/full", F_OK) == 0, "/dev/full still there");
	}
	/* a write that fails part way (here the file size limit, EFBIG) is reported by name */
	struct rlimit lim, small = { MiB / 2, MiB / 2 };
	getrlimit(RLIMIT_FSIZE, &lim);
	signal(SIGXFSZ, SIG_IGN);
	small.rlim_max = lim.rlim_max;
	CHECK_INT(setrlimit(RLIMIT_FSIZE, &small), 0);
	CHECK_INT(wl_seqwrite(at("big"), &o, &r), -1);
	setrlimit(RLIMIT_FSIZE, &lim);
	CHECK_INT(r.err, EFBIG);
	CHECK_STR(wl_errno_name(r.err), "EFBIG");
	CHECK(strstr(r.errmsg, "at offset 524288") != NULL, "message: %s", r.errmsg);
	jw_init(&w, json, sizeof json);
	record_begin(&w, "workload");
	engine_of(WL_SEQWRITE)->cell_json(&w, &r);   /* a seqwrite cell's result is its writer's */
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), 0);
	CHECK(strstr(json, "\"errno\":\"EFBIG\"") != NULL, "json: %s", json);
	o.bs = 0;
	CHECK_INT(wl_seqwrite(at("f"), &o, &r), -1);
	CHECK_INT(r.err, EINVAL);
	CHECK_STR(wl_errno_name(0), "E?");
	CHECK_STR(wl_errno_name(EDQUOT), "EDQUOT");
}

static int same_tree(const struct tree *a, const struct tree *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->e[i].parent != b->e[i].parent || a->e[i].is_dir != b->e[i].is_dir ||
		    a->e[i].size != b->e[i].size || a->e[i].off != b->e[i].off ||
		    strcmp(a->e[i].name, b->e[i].name) != 0)
			return 0;
	return 1;
}

static void test_tree(void)
{
	static const struct { uint64_t size, files, seed; } rows[] = {
		{ 4 * MiB, 0, 1 },
		{ 4 * MiB, 0, 2 },
		{ 220ull * MiB, 0, 20240601 },
		{ 4 * MiB, 500, 1 },          /* a file count given: exactly that many */
		{ 1000, 3000, 5 },            /* more files than bytes: many are empty */
		{ 0, 0, 1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct tree a, b;
		char path[4096];
		CHECK_INT(tree_generate(&a, rows[i].size, rows[i].files, rows[i].seed), 0);
		CHECK_INT(tree_generate(&b, rows[i].size, rows[i].files, rows[i].seed), 0);
		CHECK(same_tree(&a, &b), "seed %llu: same seed, same tree", (unsigned long long)rows[i].seed);
		/* the total is exact, not just close */
		CHECK_INT(a.bytes, rows[i].size);
		if (rows[i].files)
			CHECK_INT(a.files, rows[i].files);
		uint64_t files = 0, dirs = 0, bytes = 0, maxsize = 0;
		int depth_ok = 1, names_ok = 1, order_ok = 1;
		for (size_t k = 1; k < a.n; k++) {
			const struct tree_entry *e = &a.e[k];
			e->is_dir ? dirs++ : files++;
			bytes += e->size;
			if (e->size > maxsize)
				maxsize = e->size;
			order_ok &= e->parent < k && a.e[e->parent].is_dir;
			int d = 0;
			for (size_t p = k; p; p = a.e[p].parent)
				d++;
			depth_ok &= d <= TREE_MAX_DEPTH + 1;
			for (size_t j = 1; j < k; j++)
				if (a.e[j].parent == e->parent && strcmp(a.e[j].name, e->name) == 0)
					names_ok = 0;
			names_ok &= e->name[0] != '\0' && !strchr(e->name, '/');
		}
		CHECK_INT(files, a.files);
		CHECK_INT(dirs, a.dirs);
		CHECK_INT(bytes, a.bytes);
		CHECK(order_ok, "parents come first and are directories");
		CHECK(depth_ok, "files at most %d levels down", TREE_MAX_DEPTH + 1);
		CHECK(names_ok, "names unique within a directory");
		if (rows[i].files == 0)
			CHECK(maxsize <= TREE_MAX_FILE, "largest %llu", (unsigned long long)maxsize);
		if (rows[i].size == 220ull * MiB) {
			/* the shape promised in engines/smallfiles.c: thousands of files, median of a few KiB */
			uint64_t *s = malloc(a.files * sizeof *s), n = 0, small = 0, big = 0;
			for (size_t k = 1; k < a.n; k++)
				if (!a.e[k].is_dir) {
					s[n++] = a.e[k].size;
					small += a.e[k].size < 8192;
					big += a.e[k].size >= MiB;
				}
			CHECK(a.files > 7000 && a.files < 13000, "files %llu", (unsigned long long)a.files);
			CHECK(small * 100 / n >= 45 && small * 100 / n <= 70, "%llu%% under 8 KiB",
			      (unsigned long long)(small * 100 / n));
			CHECK(big >= 1 && big <= 30, "%llu files of 1 MiB or more", (unsigned long long)big);
			CHECK(a.dirs > 200 && a.dirs < 2000, "dirs %llu", (unsigned long long)a.dirs);
			free(s);
		}
		CHECK(tree_path(&a, 0, path, sizeof path) == 0 && path[0] == '\0', "root path is empty");
		tree_free(&a);
		tree_free(&b);
	}
	/* a different seed gives a different tree; the same seed a different size shares the
	 * layout stream but not the list */
	struct tree a, b;
	tree_generate(&a, 4 * MiB, 0, 1);
	tree_generate(&b, 4 * MiB, 0, 2);
	CHECK(!same_tree(&a, &b), "seeds 1 and 2 differ");
	char pa[256], pb[256];
	int differ = 0;
	for (size_t k = 1; k < a.n && k < b.n && !differ; k++) {
		tree_path(&a, k, pa, sizeof pa);
		tree_path(&b, k, pb, sizeof pb);
		differ = strcmp(pa, pb) != 0 || a.e[k].size != b.e[k].size;
	}
	CHECK(differ, "seeds 1 and 2 give different paths or sizes");
	tree_free(&b);
	/* a path is the names of its directories */
	size_t deep = 0;
	for (size_t k = 1; k < a.n; k++)
		if (a.e[k].parent != 0 && !a.e[k].is_dir)
			deep = k;
	int len = tree_path(&a, deep, pa, sizeof pa);
	CHECK(len > 0 && strchr(pa, '/') != NULL, "nested path %s", pa);
	CHECK_INT(tree_path(&a, deep, pa, 3), -1);
	tree_free(&a);
}

/* Runs the engine of type as a cell in dir, as PID 1 runs it: its result into res
 * (ENGINE_RES_MAX bytes), the record's "result" fields as JSON text into json. Returns the
 * errno the cell failed with, its message in msg; 0 when it ran clean. */
static int run_cell(enum wl_type type, const struct plan_workload *w, const char *dir, void *res,
		    char *msg, char *json, size_t len)
{
	static const char *const dirs[] = { "", NULL };
	const struct engine *e = engine_of(type);
	struct engine_cell_env env = { .dir = dir, .archive_dirs = dirs };
	struct jw jw;
	int err = 0;
	memset(res, 0, ENGINE_RES_MAX);
	msg[0] = '\0';
	e->cell(w, &env, res, &err, msg);
	jw_init(&jw, json, len);
	jw_obj(&jw);
	e->cell_json(&jw, res);
	jw_end_obj(&jw);
	CHECK_INT(jw_done(&jw), 0);
	return err;
}

/* Runs `fsmatrix workload NAME` on operands (h as its options were parsed), its record line
 * into rec and its summary dropped. Returns its exit status. */
static int run_host(const char *name, struct engine_host *h, char *const *operands, char *rec,
		    size_t len)
{
	int out = dup(1), err = dup(2);
	int fd = open(at("host.out"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	int null = open("/dev/null", O_WRONLY);
	fflush(stdout);
	dup2(fd, 1);
	dup2(null, 2);
	int rc = engine_named(name)->host(h, operands);
	fflush(stdout);
	dup2(out, 1);
	dup2(err, 2);
	ssize_t n = pread(fd, rec, len - 1, 0);
	rec[n > 0 ? n : 0] = '\0';
	close(out);
	close(err);
	close(fd);
	close(null);
	return rc;
}

/* The integer value of key in a JSON text ("files":123), or -1 when it has none. */
static long long json_int(const char *json, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(json, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

static void test_smallfiles_write(void)
{
	static _Alignas(max_align_t) unsigned char res[ENGINE_RES_MAX];
	const struct engine *e = engine_of(WL_SMALLFILES);
	struct plan_workload w;
	char msg[WL_ERR_MAX], json[8192];
	struct tree t;
	uint64_t files, bytes;

	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_SMALLFILES;
	w.size = 4 * MiB;
	w.seed = 9;
	tree_generate(&t, w.size, 0, w.seed);
	mkdir(at("tree"), 0755);   /* the cell's mount; its one pass goes into pass1 */
	CHECK_INT(run_cell(WL_SMALLFILES, &w, at("tree"), res, msg, json, sizeof json), 0);
	CHECK_INT(json_int(json, "files"), t.files);
	CHECK_INT(json_int(json, "dirs"), t.dirs);
	CHECK_INT(json_int(json, "bytes"), 4 * MiB);
	CHECK_INT(json_int(json, "seed"), 9);
	double time_s = engine_figure(e, res, "time_s"), sync_s = engine_figure(e, res, "sync_s");
	double files_per_s = engine_figure(e, res, "files_per_s"), mbps = engine_figure(e, res, "mbps");
	CHECK(time_s > 0 && sync_s >= 0, "time_s %g sync_s %g", time_s, sync_s);
	CHECK(files_per_s > 0 && mbps > 0, "rates %g %g", files_per_s, mbps);
	CHECK_INT(wl_count_tree(at("tree/pass1"), &files, &bytes), 0);
	CHECK_INT(files, t.files);
	CHECK_INT(bytes, 4 * MiB);

	/* a file's content is its slice of the pool */
	unsigned char *pool = wl_tree_pool(9), got[100];
	size_t k = 1;
	while (k < t.n && (t.e[k].is_dir || t.e[k].size < sizeof got))
		k++;
	char rel[256], full[512];
	tree_path(&t, k, rel, sizeof rel);
	snprintf(full, sizeof full, "%s/%s", at("tree/pass1"), rel);
	int fd = open(full, O_RDONLY);
	CHECK(read(fd, got, sizeof got) == (ssize_t)sizeof got, "read %s", full);
	close(fd);
	CHECK(memcmp(got, pool + t.e[k].off, sizeof got) == 0, "content of %s", rel);
	free(pool);

	/* the same set again into the same directory: files exist, the error says which */
	CHECK_INT(run_cell(WL_SMALLFILES, &w, at("tree"), res, msg, json, sizeof json), EEXIST);
	CHECK(strstr(msg, "unable to create directory") != NULL || strstr(msg, "unable to create") != NULL,
	      "message: %s", msg);

	/* tar through the runner: pack the tree with the host's tar, extract it in a tar cell */
	char cmd[512], rec[8192];
	snprintf(cmd, sizeof cmd, "tar -cf %s -C %s . 2>/dev/null", at("t.tar"), at("tree/pass1"));
	if (system(cmd) == 0) {
		const struct engine *te = engine_of(WL_TAR);
		memset(&w, 0, sizeof w);
		plan_workload_defaults(&w);
		w.type = WL_TAR;
		snprintf(w.file, sizeof w.file, "%s", at("t.tar"));
		mkdir(at("untar"), 0755);   /* the cell's mount; it extracts into tar/ */
		CHECK_INT(run_cell(WL_TAR, &w, at("untar"), res, msg, json, sizeof json), 0);
		CHECK_INT(json_int(json, "status"), 0);
		CHECK_INT(json_int(json, "files"), t.files);
		CHECK_INT(json_int(json, "bytes"), 4 * MiB);
		double tar_s = engine_figure(te, res, "time_s"), tar_mbps = engine_figure(te, res, "mbps");
		CHECK(tar_s > 0 && tar_mbps > 0, "tar time %g mbps %g", tar_s, tar_mbps);
		/* tar itself failing, as `fsmatrix workload tar` runs it on any ARCHIVE and --tar */
		struct engine_host h = { .cmd = "workload tar", .tar = "tar" };
		char *const missing[] = { at("missing.tar"), at("untar2"), NULL };
		CHECK_INT(run_host("tar", &h, missing, rec, sizeof rec), 1);
		CHECK(json_int(rec, "status") > 0 && strstr(rec, "unable to extract") != NULL,
		      "record: %s", rec);
		char *const untar3[] = { at("t.tar"), at("untar3"), NULL };
		h.tar = "/nonexistent/tar";
		CHECK_INT(run_host("tar", &h, untar3, rec, sizeof rec), 1);
		CHECK_INT(json_int(rec, "status"), 127);
	}
	tree_free(&t);
}

/* A pass directory is a name the caller made up: with --passes 2, a symbolic link at
 * DIR/pass1 is refused and its target left alone; DIR itself, which the user named, may be
 * a link, and is followed. Run as `fsmatrix workload smallfiles` through the engine table. */
static void test_pass_dir(void)
{
	struct engine_host h;
	char rec[8192];
	uint64_t files, bytes;
	memset(&h, 0, sizeof h);
	plan_workload_defaults(&h.w);
	h.cmd = "workload smallfiles";
	h.w.size = 64 * 1024;
	h.w.seed = 3;
	h.w.passes = 2;
	h.no_sync = 1;
	CHECK(mkdir(at("outside"), 0755) == 0 && mkdir(at("sets"), 0755) == 0 &&
	      symlink(at("outside"), at("sets/pass1")) == 0, "setting up %s", at("sets/pass1"));
	char *const linked[] = { at("sets"), NULL };
	CHECK_INT(run_host("smallfiles", &h, linked, rec, sizeof rec), 1);
	CHECK(strstr(rec, "which is a symbolic link (not followed)") != NULL, "%s", rec);
	CHECK_INT(wl_count_tree(at("outside"), &files, &bytes), 0);
	CHECK_INT(files, 0);
	/* the directory the user named is followed */
	h.w.passes = 1;
	CHECK(symlink(at("outside"), at("named")) == 0, "setting up %s", at("named"));
	char *const named[] = { at("named"), NULL };
	CHECK_INT(run_host("smallfiles", &h, named, rec, sizeof rec), 0);
	CHECK_INT(wl_count_tree(at("outside"), &files, &bytes), 0);
	CHECK(files > 0, "files written through the named link: %llu", (unsigned long long)files);
}

static void test_procstat(void)
{
	static const char linux61[] =
		"cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0\n"
		"cpu0 1393280 32966 572056 5791000 2147 0 23015 0 24540 0\n"
		"intr 1462898 0 0\n";
	static const char old[] = "cpu  100 0 50 800 25 1 2\ncpu0 100 0 50 800 25 1 2\n";
	static const char late[] = "intr 5\ncpu  1 2 3 4 5 6 7 8 9 10\n";
	static const struct {
		const char *text;
		int rc;
		unsigned long long user, system, iowait, total;
	} rows[] = {
		{ linux61, 0, 10132153, 3084719, 16683, 10132153ull + 290696 + 3084719 + 46828483 + 16683 + 25195 },
		{ old, 0, 100, 50, 25, 978 },
		{ late, 0, 1, 3, 5, 36 },
		{ "cpu0 1 2 3 4 5 6 7 8\n", -1, 0, 0, 0, 0 },
		{ "cpu  1 2 3\n", -1, 0, 0, 0, 0 },
		{ "", -1, 0, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct procstat_cpu c;
		CHECK_INT(procstat_parse(rows[i].text, &c), rows[i].rc);
		if (rows[i].rc)
			continue;
		CHECK_INT(c.user, rows[i].user);
		CHECK_INT(c.system, rows[i].system);
		CHECK_INT(c.iowait, rows[i].iowait);
		CHECK_INT(procstat_total(&c), rows[i].total);
	}

	/* 2 CPUs for 2 s at USER_HZ 100 = 400 ticks: 1 s of user time is 25% */
	long hz = sysconf(_SC_CLK_TCK);
	struct wl_cpu_snap a = { .self_user = 1, .self_sys = 1, .stat_ok = 1, .t = 10 };
	struct wl_cpu_snap b = { .self_user = 1.5, .self_sys = 1.2, .child_user = 0.5,
				 .child_sys = 0.2, .stat_ok = 1, .t = 12 };
	a.stat = (struct procstat_cpu){ .user = 1000, .idle = 1000 };
	b.stat = a.stat;
	b.stat.user += (unsigned long long)hz;
	b.stat.idle += (unsigned long long)hz * 2;
	b.stat.iowait += (unsigned long long)hz;
	struct wl_cpu c;
	wl_cpu_delta(&a, &b, 2, &c);
	CHECK(fabs(c.user_pct - 25) < 1e-9, "user %g", c.user_pct);
	CHECK(fabs(c.sys_pct - 10) < 1e-9, "sys %g", c.sys_pct);
	CHECK(fabs(c.iowait_pct - 25) < 1e-9, "iowait %g", c.iowait_pct);
	/* without /proc/stat: wall clock times CPUs, and iowait unknown */
	a.stat_ok = 0;
	wl_cpu_delta(&a, &b, 2, &c);
	CHECK(fabs(c.user_pct - 25) < 1e-9, "user %g", c.user_pct);
	CHECK(isnan(c.iowait_pct), "iowait %g", c.iowait_pct);
	/* under 10 ms getrusage's slices say nothing: no figure */
	b.t = a.t + 0.001;
	wl_cpu_delta(&a, &b, 2, &c);
	CHECK(isnan(c.user_pct) && isnan(c.sys_pct), "user %g sys %g", c.user_pct, c.sys_pct);
	/* more CPU than the interval held (slice rounding) is capped at 100% */
	b.t = a.t + 0.1;
	b.self_user = a.self_user + 5;
	wl_cpu_delta(&a, &b, 2, &c);
	CHECK(c.user_pct == 100, "user %g", c.user_pct);
}

int main(void)
{
	char cmd[128];
	snprintf(tmp, sizeof tmp, "/tmp/test_workload.XXXXXX");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_seqwrite();
	test_random_stream();
	test_seqwrite_errors();
	test_tree();
	test_smallfiles_write();
	test_pass_dir();
	test_procstat();
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "test_workload: unable to remove %s\n", tmp);
	return check_done("test_workload");
}
