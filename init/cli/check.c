/* cli/check.c: `fsmatrix check PLAN [--disks N] [--scale X]`: the plan expanded into cells,
 * each with the exact commands /init will run (derived stripe geometry included), its mount
 * flags and data, a rough time estimate and any warnings; or the plan's errors, one
 * "FILE:LINE: message" each, and exit status 1. */
#include "cli/cli.h"
#include "core/command/cellcmd.h"
#include "core/command/cellshow.h"
#include "core/command/layerfit.h"
#include "core/disk/disk.h"
#include "core/workload/fio_cmd.h"
#include "core/disk/diskname.h"
#include "core/matrix/matrix.h"
#include "core/matrix/kernels.h"
#include "core/matrix/bisect.h"
#include "core/matrix/order.h"
#include "core/model/plan.h"
#include "core/parse/plan_size.h"
#include "core/command/removedopts.h"
#include "core/matrix/reuse.h"
#include "core/matrix/shard.h"
#include "core/figures/verdict.h"
#include "lib/file.h"
#include "core/parse/plan_parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char host_check_usage[] =
	"usage: fsmatrix check PLAN [--disks N] [--scale X] [--shards N] [--seed N]\n"
	"                      [--mem SIZE] [--disk-size SIZE] [--disk-mbps N]\n"
	"  --disks N          test disks available (default: as many as the plan needs)\n"
	"  --scale X          multiply workload sizes, as fsmatrix.scale=X does\n"
	"  --shards N         each machine's cells and time when the run is split N ways\n"
	"                     (fsmatrix.shard=K/N), instead of every cell's commands\n"
	"  --seed N           order = shuffle's seed, as fsmatrix.seed=N gives it\n"
	"  --mem SIZE         the machine's RAM, for size = 2x ram (default 1g)\n"
	"  --disk-size SIZE   each test disk's size, for resync, mkfs and size = N% fs\n"
	"                     (default 1g)\n"
	"  --disk-mbps N      each test disk's streaming rate in MB/s (10^6 bytes): the\n"
	"                     estimate with those disks (default: figures measured under\n"
	"                     qemu TCG)\n";

static void print_warning(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

static void print_line(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
}

static void no_line(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

struct check_args {
	const char *path;
	int ndisks;      /* -1: as many as the plan needs */
	double scale;
	int shards;      /* 0: show every cell's commands */
	int seed_given;
	unsigned long long seed;
	uint64_t mem, disk_size;   /* 0: not given */
	double disk_mbps;          /* 0: not given */
};

/* --mem and --disk-size: a size as plans write them, at least 1 MiB. */
static int size_arg(const char *opt, const char *v, uint64_t *out)
{
	if (plan_parse_size(v, out) < 0 || *out < (1u << 20)) {
		fprintf(stderr, "fsmatrix: check: %s %s: expected a size of at least 1m, such as "
			"512m, 64g or 4t\n", opt, v);
		return 2;
	}
	return 0;
}

/* Returns 0, or the exit status of a usage error (said on stderr). */
static int check_parse_args(int argc, char **argv, struct check_args *a)
{
	*a = (struct check_args){ NULL, -1, 1.0, 0, 0, 0, 0, 0, 0 };
	for (int i = 1; i < argc; i++) {
		char *end;
		if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc) {
			if (size_arg(argv[i], argv[i + 1], &a->mem))
				return 2;
			i++;
		} else if (strcmp(argv[i], "--disk-size") == 0 && i + 1 < argc) {
			if (size_arg(argv[i], argv[i + 1], &a->disk_size))
				return 2;
			i++;
		} else if (strcmp(argv[i], "--disk-mbps") == 0 && i + 1 < argc) {
			a->disk_mbps = strtod(argv[++i], &end);
			if (*end || !(a->disk_mbps > 0 && a->disk_mbps <= 100000)) {
				fprintf(stderr, "fsmatrix: check: --disk-mbps %s: expected a rate in MB/s "
					"greater than 0 and at most 100000\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--disks") == 0 && i + 1 < argc) {
			long n = strtol(argv[++i], &end, 10);
			if (*end || n < 1 || n > DISK_MAX) {
				fprintf(stderr, "fsmatrix: check: --disks %s: expected 1 to %d\n",
					argv[i], DISK_MAX);
				return 2;
			}
			a->ndisks = (int)n;
		} else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
			a->scale = strtod(argv[++i], &end);
			if (*end || !(a->scale > 0 && a->scale <= 1000)) {
				fprintf(stderr, "fsmatrix: check: --scale %s: expected a number greater "
					"than 0 and at most 1000\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--shards") == 0 && i + 1 < argc) {
			long n = strtol(argv[++i], &end, 10);
			if (*end || n < 1 || n > SHARD_MAX) {
				fprintf(stderr, "fsmatrix: check: --shards %s: expected 1 to %d\n",
					argv[i], SHARD_MAX);
				return 2;
			}
			a->shards = (int)n;
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			const char *v = argv[++i];
			a->seed = strtoull(v, &end, 10);
			if (*v < '0' || *v > '9' || *end || a->seed > PLAN_SEED_MAX) {
				fprintf(stderr, "fsmatrix: check: --seed %s: expected a whole number from "
					"0 to %llu\n", v, PLAN_SEED_MAX);
				return 2;
			}
			a->seed_given = 1;
		} else if (argv[i][0] == '-') {
			return host_usage_error("check", "unknown or incomplete option \"%s\"", argv[i]);
		} else if (a->path) {
			return host_usage_error("check", "unexpected argument \"%s\"", argv[i]);
		} else {
			a->path = argv[i];
		}
	}
	return a->path ? 0 : host_usage_error("check", "no PLAN given");
}

/* The guest picks its test disks at boot; for display, name them as the kernel names virtio
 * disks, after the results disk (vda). Returns how many: ndisks, or as many as needed. */
static int assumed_disks(const struct plan *p, int ndisks, char (*names)[16], const char **disks)
{
	int need = 1;
	for (int i = 0; i < p->narrays; i++)
		if (plan_array_disks_taken(p, &p->arrays[i]) > need)
			need = plan_array_disks_taken(p, &p->arrays[i]);
	if (ndisks < 0)
		ndisks = need;
	for (int i = 0; i < ndisks; i++) {
		memcpy(names[i], "/dev/", 5);
		disk_kernel_name("vd", i + 1, names[i] + 5, sizeof names[i] - 5);
		disks[i] = names[i];
	}
	return ndisks;
}

/* The order the cells are listed in below is the order they run in. */
static void print_order(const struct plan *p, int unseeded)
{
	static const char *const how[] = {
		[ORDER_INTERLEAVE] = "the whole matrix once per repetition",
		[ORDER_SEQUENTIAL] = "each cell's repetitions back to back",
		[ORDER_SHUFFLE] = "each repetition's cells permuted",
	};
	if (unseeded)
		printf("order shuffle, seed drawn at boot (seed = N, fsmatrix.seed=N or --seed N "
		       "fixes one): listed unshuffled");
	else if (p->order == ORDER_SHUFFLE) {
		struct order_shape s;
		matrix_order_shape(p, &s);
		printf("order shuffle, seed %llu: %s", (unsigned long long)p->seed,
		       s.block <= 1 ? how[p->order] : s.nrun ?
		       "each repetition's array variants permuted, within each its filesystems, "
		       "within each those cells (reuse = fs keeps them together)" :
		       "each repetition's array variants permuted, and within each its cells "
		       "(reuse = array keeps them together)");
	}
	else
		printf("order %s: %s", plan_order_name(p->order), how[p->order]);
	printf("; warmup %d before each boot's first cell\n", p->warmup);
}

/* kernels = : which kernel runs which repetition, in the order of the run (core/matrix/kernels.h).
 * Each line is one repetition; a kernel that differs from the line before's last is a
 * kexec. */
static void print_kernels(const struct plan *p)
{
	enum { SHOWN = 10 };
	if (!p->nkernels)
		return;
	if (p->bisect.line) {
		const struct plan_bisect *b = &p->bisect;
		printf("bisect over kernels");
		for (int k = 0; k < p->nkernels; k++)
			printf("%s %s", k ? "," : "", p->kernels[k]);
		printf(": good %s, bad %s, cell %s, metric %s (%s is worse); the ends until stable, "
		       "then the set nearest the middle of the last good and the first bad, each "
		       "switched to by kexec: at most %d probes, none skipped; the ends must differ "
		       "significantly (Welch p < %.2g) and by %g%% or more\n", b->good, b->bad, b->cell,
		       b->metric, b->lower_is_worse ? "lower" : "higher", bisect_max_probes(b), BISECT_ALPHA,
		       b->min_change_pct);
		return;
	}
	printf("kernels");
	for (int k = 0; k < p->nkernels; k++)
		printf("%s %s", k ? "," : "", p->kernels[k]);
	printf(": the cells of each repetition under each kernel in turn, the turn reversed "
	       "every other repetition, by kexec; a cell's id names its kernel after an @\n");
	for (int r = 1; r <= p->repeat && r <= SHOWN; r++) {
		printf("  repetition %d:", r);
		for (int j = 0; j < p->nkernels; j++) {
			int rep, k;
			kernel_pass(p->nkernels, p->repeat, (r - 1) * p->nkernels + j, &rep, &k);
			printf("%s %s", j ? ", then" : "", p->kernels[k]);
		}
		printf("\n");
	}
	if (p->repeat > SHOWN)
		printf("  ... and so on to repetition %d\n", p->repeat);
}

/* A shuffle without a seed gets one drawn at boot: until then, the cells are listed
 * unshuffled. */
static int apply_seed(struct plan *p, const struct check_args *a)
{
	if (p->order != ORDER_SHUFFLE)
		return 0;
	if (a->seed_given)
		p->seed = a->seed;
	else if (!plan_global_given(p, "seed")) {
		p->order = ORDER_INTERLEAVE;
		return 1;
	}
	return 0;
}

static void print_heading(const struct plan *p, const char *path, const char *const *disks,
			  int ndisks, int unseeded)
{
	char timeout[32] = "none", detect[64] = "";
	if (p->timeout_s)
		show_secs(p->timeout_s, timeout, sizeof timeout);
	if (p->detect_pct > 0)
		snprintf(detect, sizeof detect, " and a change of %g%% would be detected",
			 p->detect_pct);
	if (p->repeat_auto)
		printf("plan %s (%s): at most %d cells (%d per repetition x repeat = auto: each cell "
		       "until its figure is stable%s, %d to %d times)\n", p->name, path,
		       matrix_count(p), matrix_per_rep(p), detect,
		       p->repeat < VERDICT_MIN_N ? p->repeat : VERDICT_MIN_N, p->repeat);
	else if (p->nkernels)
		printf("plan %s (%s): %d cells (%d per repetition x %d x %d kernels)\n", p->name,
		       path, matrix_count(p), matrix_per_rep(p), p->repeat, p->nkernels);
	else
		printf("plan %s (%s): %d cells (%d per repetition x %d)\n", p->name, path,
		       matrix_count(p), matrix_per_rep(p), p->repeat);
	printf("resync %s, drop_caches %s, timeout %s per cell, retries %d, scale %g\n",
	       plan_resync_name(p->resync), p->drop_caches ? "yes" : "no", timeout, p->retries,
	       p->scale);
	print_order(p, unseeded);
	print_kernels(p);
	if (p->monitor_ms)
		printf("monitor every %u ms: a time series of each cell\n", p->monitor_ms);
	else
		printf("monitor off: no time series\n");
	/* each disk alone and all at once, writing then reading: what every boot adds */
	if (p->disk_speed_ms)
		printf("disk speed: each of the %d test disks alone, then all at once, %u ms a "
		       "direction: ~%.0fs a boot (the limit each cell is set against)\n", ndisks,
		       p->disk_speed_ms, 2.0 * (ndisks + (ndisks > 1)) * p->disk_speed_ms / 1000);
	else
		printf("disk speed off: no limit, no efficiency\n");
	if (p->reference)
		printf("reference set at each boot's start and end: a drift between them is listed "
		       "under Problems\n");
	else
		printf("reference set off: no check that the machine held still during the run\n");
	printf("test disks assumed:");
	for (int i = 0; i < ndisks; i++)
		printf(" %s", disks[i]);
	printf("\n");
}

/* The machine the estimate and the relative sizes assume: what was given, else the model's
 * own (1 GiB of RAM, 1 GiB disks at the rates measured under qemu TCG). */
static void check_model(const struct check_args *a, struct estimate_model *m)
{
	estimate_model_default(m);
	if (a->mem)
		m->mem_bytes = (double)a->mem;
	if (a->disk_size)
		m->disk_bytes = (double)a->disk_size;
	if (a->disk_mbps > 0)
		m->disk_mbps = a->disk_mbps * 1e6 / (1024.0 * 1024);
}

static void print_machine(const struct check_args *a, const struct estimate_model *m)
{
	char mem[32], disk[32], rate[64];
	show_bytes(m->mem_bytes, mem, sizeof mem);
	show_bytes(m->disk_bytes, disk, sizeof disk);
	if (a->disk_mbps > 0)
		snprintf(rate, sizeof rate, "%g MB/s", a->disk_mbps);
	else
		snprintf(rate, sizeof rate, "the rates measured under qemu TCG");
	printf("machine: %s of RAM%s; test disks of %s%s at %s%s\n", mem,
	       a->mem ? "" : " assumed (--mem)", disk, a->disk_size ? "" : " assumed (--disk-size)",
	       rate, a->disk_mbps > 0 ? "" : " (--disk-mbps)");
}

/* Which cells share an array (core/matrix/reuse.h): one line per array created, at most max. */
static void print_groups(const struct plan *p, int max)
{
	struct cell prev, c, first;
	int start = 0, shown = 0, hidden = 0;
	if (p->reuse == REUSE_NONE)
		return;
	printf("\nreuse = %s: the cells that share one array, created once\n", reuse_name(p->reuse));
	for (int i = 0; ; i++) {
		int more = matrix_cell(p, i, &c) == 0;
		if (i && (!more || reuse_from(p, &prev, &c) == REUSE_NONE)) {
			hidden += i - start > 1 && shown == max;
			if (i - start > 1 && shown < max) {
				printf("  cells %d-%d: %.*s, rep %d, %s\n", start + 1, i,
				       (int)strcspn(first.id, "/"), first.id, first.rep,
				       p->reuse == REUSE_FS ? "one filesystem per fs section"
				       : "each with its own mkfs");
				shown++;
			}
			start = i;
		}
		if (!more)
			break;
		if (i == start)
			first = c;
		prev = c;
	}
	if (shown == 0)
		printf("  none: no two cells in a row share an array (another repetition, chunk or "
		       "level none in between)\n");
	else if (hidden)
		printf("  ... and %d more such groups\n", hidden);
}

/* A search runs its cell under at most bisect_max_probes sets, not the matrix under every
 * set: what its cell costs under one set (bisect_total over the sets), times the probes. */
static void print_bisect_total(const struct plan *p, double bisect_total, int nwarn, int bad)
{
	char lo[32], hi[32];
	int probes = bisect_max_probes(&p->bisect), reps = p->repeat_auto ? p->repeat : 1;
	int least = p->repeat_auto && p->repeat > VERDICT_MIN_N ? VERDICT_MIN_N : reps;
	double per_probe = p->nkernels ? bisect_total / p->nkernels : 0;
	show_secs(per_probe * probes, hi, sizeof hi);
	show_secs(per_probe * probes * least / reps, lo, sizeof lo);
	printf("\nbisect: at most %d probes of %s (the matrix above lists it under every set), "
	       "%d warnings, %d errors; estimated ~%s (every probe stable after %d repetitions) to "
	       "~%s (none stable before repeat_max %d) plus a kexec and a boot per probe\n", probes,
	       p->bisect.cell, nwarn, bad, lo, least, hi, reps);
}

static void print_totals(const struct plan *p, const struct estimate_model *m, double total,
			 double bisect_total, int skipped, int nwarn, int bad)
{
	char ts[32], sk[32] = "", lo[32];
	show_secs(total, ts, sizeof ts);
	if (skipped)
		snprintf(sk, sizeof sk, " (%d skipped)", skipped);
	if (p->bisect.line) {
		print_bisect_total(p, bisect_total, nwarn, bad);
	} else if (p->repeat_auto) {
		/* a cell stops once stable, which takes VERDICT_MIN_N repetitions at the least */
		int least = p->repeat < VERDICT_MIN_N ? p->repeat : VERDICT_MIN_N;
		show_secs(total * least / p->repeat, lo, sizeof lo);
		printf("\nat most %d cells%s, %d warnings, %d errors; estimated ~%s (every cell stable "
		       "after %d repetitions) to ~%s (none stable before repeat_max %d) plus boot\n",
		       matrix_count(p), sk, nwarn, bad, lo, least, ts, p->repeat);
	} else {
		printf("\n%d cells%s, %d warnings, %d errors; estimated ~%s plus boot\n",
		       matrix_count(p), sk, nwarn, bad, ts);
	}
	struct run_est r;
	char rs[32], mk[32], wl[32], ot[32], nr[32], sv[32];
	run_estimate(p, m, &r);
	show_secs(r.resync_s, rs, sizeof rs);
	show_secs(r.mkfs_s, mk, sizeof mk);
	show_secs(r.workload_s, wl, sizeof wl);
	show_secs(r.create_s + r.other_s, ot, sizeof ot);
	printf("  %sresync ~%s (%d array%s created), mkfs ~%s (%d filesystem%s), workloads ~%s, "
	       "create, mount and teardown ~%s\n", p->bisect.line ? "the whole matrix: " : "", rs,
	       r.arrays, r.arrays == 1 ? "" : "s", mk,
	       r.filesystems, r.filesystems == 1 ? "" : "s", wl, ot);
	if (p->reuse != REUSE_NONE) {
		show_secs(r.total_noreuse_s, nr, sizeof nr);
		show_secs(r.total_noreuse_s - r.total_s, sv, sizeof sv);
		printf("  reuse = %s saves ~%s: reuse = none would take ~%s\n", reuse_name(p->reuse),
		       sv, nr);
	}
	if (m->disk_mbps > 0)
		printf("(the model: each member streams at %g MB/s, an array writes at its data members' "
		       "rate, md resyncs a member at that rate up to 200000 KiB/s, mkfs writes ext's inode "
		       "tables and journal or xfs's log: docs/plans.md, \"Time estimate\")\n",
		       m->disk_mbps * 1024 * 1024 / 1e6);
	else
		printf("(a rough model: md create %.1fs, mkfs %.1fs, %g MB/s streaming and %g MB/s small "
		       "files, md resync of a %g MiB member at %g MB/s, as measured under qemu TCG)\n",
		       m->create_s, m->mkfs_s, m->write_mbps, m->smallfiles_mbps,
		       m->disk_bytes / 1048576, m->resync_mbps);
}

/* The fio job files the plan names, screened as a cell screens them, where the host has
 * them: absolute, or beside the plan (where qemu/run --file and make usb FILES= put them).
 * One "JOB:LINE: why" each on stderr; returns how many. */
static int check_fio_jobs(const struct plan *p, const char *plan_path)
{
	int bad = 0;
	const char *slash = strrchr(plan_path, '/');
	int dirlen = slash ? (int)(slash - plan_path) + 1 : 0;
	for (int i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		char path[4096], why[256];
		size_t len;
		int line;
		if (w->type != WL_FIO || !w->job[0])
			continue;
		snprintf(path, sizeof path, "%.*s%s", w->job[0] == '/' ? 0 : dirlen, plan_path,
			 w->job);
		char *text = file_read(path, 1 << 20, &len);
		if (!text)
			continue;   /* looked for at boot, on the results disk and in the image */
		if (fio_unsafe(text, 1, &line, why, sizeof why) < 0) {
			fprintf(stderr, "%s:%d: %s\n", path, line, why);
			bad++;
		}
		free(text);
	}
	return bad;
}

/* kernels = : when the plan sits beside a kernels/ folder, as on the stick (fsmatrix/plan.ini
 * and fsmatrix/kernels/NAME/, where qemu/run --kernels and make usb KERNELS= put the sets),
 * each set is looked for there, and one not found is warned about (the boot refuses the
 * plan for it). Elsewhere nothing is looked for: qemu/run and make usb refuse a set
 * out/kernels/ lacks. Returns how many. */
static int check_kernel_sets(const struct plan *p, const char *plan_path)
{
	int n = 0;
	const char *slash = strrchr(plan_path, '/');
	int dirlen = slash ? (int)(slash - plan_path) + 1 : 0;
	char dir[4096];
	struct stat st;
	snprintf(dir, sizeof dir, "%.*skernels", dirlen, plan_path);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	for (int k = 0; k < p->nkernels; k++)
		for (int f = 0; f < KERNEL_SET_FILES; f++) {
			char path[4096], why[4200];
			snprintf(path, sizeof path, "%.*skernels/%s/%s", dirlen, plan_path,
				 p->kernels[k], kernel_set_files[f]);
			if (access(path, R_OK) == 0)
				continue;
			kernel_set_unreadable(p->kernels[k], path, errno, why, sizeof why);
			fprintf(stderr, "%s:%d: warning: %s: the boot refuses the plan unless the "
				"results partition holds the set as fsmatrix/kernels/%s/ (qemu/run "
				"--kernels, make usb KERNELS=)\n", plan_path,
				plan_global_line(p, "kernels") ? plan_global_line(p, "kernels")
				: plan_bisect_line(p, "kernels"), why, p->kernels[k]);
			n++;
			break;
		}
	return n;
}

int host_cmd_check(int argc, char **argv)
{
	static struct plan p;
	struct check_args a;
	int rc = check_parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (plan_load(a.path, &p) < 0) {
		int shown = p.nerrors < PLAN_ERRORS_MAX ? p.nerrors : PLAN_ERRORS_MAX;
		for (int i = 0; i < shown; i++)
			fprintf(stderr, "%s\n", p.errors[i]);
		if (p.nerrors > shown)
			fprintf(stderr, "%s: %d more errors not shown\n", a.path, p.nerrors - shown);
		return 1;
	}
	if (a.scale != 1.0)
		plan_scale(&p, a.scale);

	static char names[DISK_MAX][16];
	const char *disks[DISK_MAX];
	int ndisks = assumed_disks(&p, a.ndisks, names, disks);
	int unseeded = apply_seed(&p, &a);
	print_heading(&p, a.path, disks, ndisks, unseeded);
	/* As /init does with the disks it took: too few costs only the cells that need more,
	 * which are skipped, each with its reason below. */
	if (plan_check_disks(&p, ndisks) < 0) {
		for (int i = 0; i < p.nerrors && i < PLAN_ERRORS_MAX; i++)
			printf("%s: its cells will be skipped\n", p.errors[i]);
		p.nerrors = 0;
	}

	struct estimate_model m;
	check_model(&a, &m);
	print_machine(&a, &m);
	double total = 0, bisect_total = 0;
	int nwarn = 0, bad = 0, skipped = 0;
	nwarn += removed_opts_warn(&p, print_warning, NULL);
	nwarn += plan_estimate_warnings(&p, &m, (a.mem ? EST_KNOWN_MEM : 0) |
					(a.disk_size ? EST_KNOWN_DISK : 0), print_warning, NULL);
	bad += check_fio_jobs(&p, a.path);
	if (a.disk_size)
		bad += plan_layer_fit_errors(&p, &m, print_warning, NULL);
	nwarn += check_kernel_sets(&p, a.path);
	struct cell c, prev;
	for (int i = 0; matrix_cell(&p, i, &c) == 0; i++) {
		double t = 0;
		int r = cell_show_in_run(&p, &c, reuse_from(&p, i ? &prev : NULL, &c), disks, ndisks,
					 &m, &t, &nwarn, a.shards ? no_line : print_line, NULL);
		total += t;
		if (p.bisect.line && bisect_is_cell(&p.bisect, c.id))
			bisect_total += t;
		bad += r < 0;
		skipped += r > 0;
		prev = c;
	}
	if (a.shards && shards_print(&p, a.path, &m, a.shards))
		return 1;
	if (!a.shards)
		print_groups(&p, 20);
	print_totals(&p, &m, total, bisect_total, skipped, nwarn, bad);
	return bad ? 1 : 0;
}
