/* cli/workload.c: `fsmatrix workload ...`: the engines /init runs, on a host directory, so
 * that they can be compared with fio and GNU tar on the same filesystem. The result is one
 * JSON record line on stdout, with the field names of the image's records, and a summary
 * for people on stderr. */
#include "cli/cli.h"
#include "core/plan.h"
#include "engines/workload.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char host_workload_usage[] =
	"usage: fsmatrix workload seqwrite [--size 1g] [--bs 1m] [--direct] [--data random|zero]\n"
	"                                  [--keep] [--drop-caches] FILE\n"
	"       fsmatrix workload smallfiles [--size 220m] [--files N] [--seed N] [--passes N]\n"
	"                                    [--no-sync] [--drop-caches] DIR\n"
	"       fsmatrix workload gen-tree [--size 220m] [--files N] [--seed N] [--list] DIR\n"
	"       fsmatrix workload tar [--tar PROGRAM] [--no-sync] [--drop-caches] ARCHIVE DIR\n"
	"  sizes take k/m/g/t suffixes in powers of 1024; rates are MB/s with MB = 10^6 bytes.\n"
	"  smallfiles with --passes N writes DIR/pass1 .. DIR/passN, one record each.\n"
	"  gen-tree writes the same file set untimed and unsynced; --list prints its paths in\n"
	"  creation order, for `tar -cf set.tar -C DIR --no-recursion -T LIST`.\n";

struct args {
	const char *cmd;          /* "workload seqwrite", for messages */
	struct plan_workload w;   /* size, bs, files, seed, passes: as a plan's workload has them */
	int direct, zero, keep, no_sync, drop, list;
	const char *tar;
};

/* O_PLAN options are the plan's workload keys of the same name: one parser, one set of
 * limits and messages for both (plan.c). */
enum { O_PLAN = 1, O_DIRECT_, O_DATA, O_KEEP, O_NOSYNC, O_DROP, O_LIST, O_TAR };

static const struct option longopts[] = {
	{ "size", required_argument, NULL, O_PLAN },
	{ "bs", required_argument, NULL, O_PLAN },
	{ "files", required_argument, NULL, O_PLAN },
	{ "seed", required_argument, NULL, O_PLAN },
	{ "passes", required_argument, NULL, O_PLAN },
	{ "direct", no_argument, NULL, O_DIRECT_ },
	{ "data", required_argument, NULL, O_DATA },
	{ "keep", no_argument, NULL, O_KEEP },
	{ "no-sync", no_argument, NULL, O_NOSYNC },
	{ "drop-caches", no_argument, NULL, O_DROP },
	{ "list", no_argument, NULL, O_LIST },
	{ "tar", required_argument, NULL, O_TAR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse(int argc, char **argv, struct args *a)
{
	int c, li;
	char msg[160];

	optind = 1;
	opterr = 0;   /* our own one-line messages, below */
	while ((c = getopt_long(argc, argv, ":", longopts, &li)) != -1) {
		switch (c) {
		case O_PLAN:
			if (plan_workload_set(&a->w, longopts[li].name, optarg, msg, sizeof msg) < 0) {
				fprintf(stderr, "fsmatrix %s: --%s %s: %s\n", a->cmd,
					longopts[li].name, optarg, msg);
				return -1;
			}
			break;
		case O_DIRECT_: a->direct = 1; break;
		case O_DATA:
			if (strcmp(optarg, "zero") == 0)
				a->zero = 1;
			else if (strcmp(optarg, "random") == 0)
				a->zero = 0;
			else {
				fprintf(stderr, "fsmatrix %s: --data %s: expected random or zero\n",
					a->cmd, optarg);
				return -1;
			}
			break;
		case O_KEEP: a->keep = 1; break;
		case O_NOSYNC: a->no_sync = 1; break;
		case O_DROP: a->drop = 1; break;
		case O_LIST: a->list = 1; break;
		case O_TAR: a->tar = optarg; break;
		case ':':
			host_usage_error(a->cmd, "%s wants a value", argv[optind - 1]);
			return -1;
		default:
			host_usage_error(a->cmd, "unknown option \"%s\"", argv[optind - 1]);
			return -1;
		}
	}
	return optind;
}

static void drop(const struct args *a)
{
	if (a->drop && wl_drop_caches() < 0)
		fprintf(stderr, "fsmatrix: unable to drop caches: %s (measuring with warm caches)\n",
			strerror(errno));
}

static int emit(void (*fields)(struct jw *, const void *), const void *res, const char *name)
{
	static char buf[4096];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "workload");
	jw_kstr(&w, "workload", name);
	fields(&w, res);
	jw_end_obj(&w);
	if (jw_done(&w) < 0) {
		fprintf(stderr, "fsmatrix: workload: record too long\n");
		return -1;
	}
	printf("%s\n", buf);
	fflush(stdout);
	return 0;
}

static void seq_fields(struct jw *w, const void *r) { wl_seqwrite_json(w, r); }
static void small_fields(struct jw *w, const void *r) { wl_smallfiles_json(w, r); }
static void tar_fields(struct jw *w, const void *r) { wl_tar_json(w, r); }

static int seqwrite(struct args *a, const char *file)
{
	struct wl_seqwrite_opts o = { .size = a->w.size, .bs = a->w.bs, .direct = a->direct,
				      .zero = a->zero, .keep = a->keep };
	struct wl_seqwrite_res r;

	drop(a);
	int rc = wl_seqwrite(file, &o, &r);
	emit(seq_fields, &r, "seqwrite");
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "seqwrite %s: %llu bytes in %.3f s (write %.3f s + flush %.3f s): "
		"%.1f MB/s, %.1f MB/s before flush; cpu user %.1f%% sys %.1f%% iowait %.1f%%\n",
		file, (unsigned long long)r.bytes, r.total_s, r.write_s, r.flush_s, r.mbps,
		r.mbps_noflush, r.cpu.user_pct, r.cpu.sys_pct, r.cpu.iowait_pct);
	return rc < 0 ? 1 : 0;
}

static int smallfiles(struct args *a, const char *dir, int timed)
{
	struct tree t;
	unsigned char *pool;
	char path[4096];
	int rc = 0;

	if (tree_generate(&t, a->w.size, (uint64_t)a->w.files, a->w.seed) < 0 ||
	    !(pool = wl_tree_pool(a->w.seed))) {
		fprintf(stderr, "fsmatrix: unable to generate the file set: %s\n", strerror(ENOMEM));
		return 1;
	}
	for (int p = 1; p <= a->w.passes && rc == 0; p++) {
		struct wl_smallfiles_res r;
		const char *target = dir;
		if (a->w.passes > 1) {
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
			drop(a);
		rc = wl_smallfiles_write(&t, pool, target, a->no_sync || !timed, &r) < 0;
		if (timed)
			emit(small_fields, &r, "smallfiles");
		if (rc)
			fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
		if (timed)
			fprintf(stderr, "smallfiles %s: %llu files, %llu dirs, %llu bytes in %.3f s "
				"+ sync %.3f s: %.0f files/s, %.1f MB/s; cpu user %.1f%% sys %.1f%% "
				"iowait %.1f%%\n", target, (unsigned long long)r.files,
				(unsigned long long)r.dirs, (unsigned long long)r.bytes, r.time_s,
				r.sync_s, r.files_per_s, r.mbps, r.cpu.user_pct, r.cpu.sys_pct,
				r.cpu.iowait_pct);
		else
			fprintf(stderr, "gen-tree %s: %llu files, %llu dirs, %llu bytes (seed %llu)\n",
				target, (unsigned long long)r.files, (unsigned long long)r.dirs,
				(unsigned long long)r.bytes, (unsigned long long)a->w.seed);
	}
	if (a->list && rc == 0)
		for (size_t i = 1; i < t.n; i++)
			if (tree_path(&t, i, path, sizeof path) >= 0)
				printf("%s\n", path);
	free(pool);
	tree_free(&t);
	return rc;
}

static int tar(struct args *a, const char *archive, const char *dir)
{
	struct wl_tar_opts o = { .tar = a->tar ? a->tar : "tar", .archive = archive,
				 .no_sync = a->no_sync };
	struct wl_tar_res r;

	drop(a);
	int rc = wl_tar(dir, &o, &r);
	emit(tar_fields, &r, "tar");
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "tar %s: %llu files, %llu bytes in %.3f s + sync %.3f s: %.1f MB/s\n",
		dir, (unsigned long long)r.files, (unsigned long long)r.bytes, r.time_s, r.sync_s,
		r.mbps);
	return rc < 0 ? 1 : 0;
}

/* What a workload does with each of its operands: write a file, write in a directory, or
 * read a file. A host path can name anything, a disk included: each operand must be what its
 * role says (or, for what is written, not exist yet) before the engine is started. */
enum role { R_FILE, R_DIR, R_READ };
static const struct kind {
	const char *name;
	enum wl_type type;      /* whose plan keys its options are */
	uint64_t size;          /* default --size */
	int nargs;
	enum role role[2];
	const char *operands;   /* for the message when they are missing */
} kinds[] = {
	{ "seqwrite", WL_SEQWRITE, 1ull << 30, 1, { R_FILE }, "FILE" },
	{ "smallfiles", WL_SMALLFILES, 220ull << 20, 1, { R_DIR }, "DIR" },
	{ "gen-tree", WL_SMALLFILES, 220ull << 20, 1, { R_DIR }, "DIR" },
	{ "tar", WL_TAR, 0, 2, { R_READ, R_DIR }, "ARCHIVE and DIR" },
};

static const char *type_name(mode_t m)
{
	static const struct { mode_t type; const char *name; } types[] = {
		{ S_IFBLK, "a block device" }, { S_IFCHR, "a character device" },
		{ S_IFIFO, "a FIFO" }, { S_IFSOCK, "a socket" }, { S_IFDIR, "a directory" },
		{ S_IFREG, "a regular file" }, { S_IFLNK, "a symbolic link" },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if ((m & S_IFMT) == types[i].type)
			return types[i].name;
	return "not a file";
}

/* 0 when path may serve in role, else -1 after one line saying why. Symbolic links are
 * judged by what they lead to; the engines check again on the descriptor they open. */
static int check_operand(const char *cmd, const char *path, enum role role)
{
	static const char *const want[] = {
		[R_FILE] = "FILE must be a regular file or a name for a new one",
		[R_DIR] = "DIR must be a directory or a name for a new one",
		[R_READ] = "ARCHIVE must be a regular file",
	};
	static const char *const verb[] = { [R_FILE] = "write", [R_DIR] = "write in",
					    [R_READ] = "read" };
	struct stat st, lst;
	int linked = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if (stat(path, &st) < 0) {
		if (errno == ENOENT && role != R_READ && !linked)
			return 0;   /* the engine creates it, or says why it cannot */
		fprintf(stderr, "fsmatrix %s: unable to %s %s: %s\n", cmd, verb[role], path,
			linked && errno == ENOENT ? "a symbolic link to nothing" : strerror(errno));
		return -1;
	}
	if (role == R_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))
		return 0;
	fprintf(stderr, "fsmatrix %s: refusing to %s %s: it is %s%s; %s\n", cmd,
		verb[role], path, linked ? "a symbolic link to " : "", type_name(st.st_mode),
		want[role]);
	return -1;
}

int host_cmd_workload(int argc, char **argv)
{
	struct args a = { .w = { .bs = 1 << 20, .seed = PLAN_DEFAULT_SEED, .passes = 1 } };
	const char *name = argc > 1 ? argv[1] : "";
	const struct kind *k = NULL;
	int first;

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(name, kinds[i].name) == 0)
			k = &kinds[i];
	if (!k && name[0] == '-')
		return host_usage_error("workload", "unknown option \"%s\"", name);
	if (!k && !name[0])
		return host_usage_error("workload", "no workload given");
	if (!k)
		return host_usage_error("workload", "unknown workload \"%s\"", name);
	char cmd[32];
	snprintf(cmd, sizeof cmd, "workload %s", k->name);
	a.cmd = cmd;
	a.w.type = k->type;
	a.w.size = k->size;
	if ((first = parse(argc - 1, argv + 1, &a)) < 0)
		return 2;
	int nargs = argc - 1 - first;
	char **rest = argv + 1 + first;
	if (nargs != k->nargs)
		return host_usage_error(cmd, "expected %s", k->operands);
	for (int i = 0; i < nargs; i++)
		if (check_operand(cmd, rest[i], k->role[i]) < 0)
			return 2;
	/* one record per line even when stdout is a pipe to the benchmark script */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(name, "seqwrite") == 0)
		return seqwrite(&a, rest[0]);
	if (strcmp(name, "smallfiles") == 0)
		return smallfiles(&a, rest[0], 1);
	if (strcmp(name, "gen-tree") == 0)
		return smallfiles(&a, rest[0], 0);
	return tar(&a, rest[0], rest[1]);
}
