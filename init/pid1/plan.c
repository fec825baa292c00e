/* pid1/plan.c: which plan runs, and its checks, all before anything is destroyed.
 * The plan comes from fsmatrix.plan=NAME (/plans/NAME.ini in the image, or an absolute
 * path), else fsmatrix/plan.ini on the results partition (qemu/run --plan puts it there; a
 * user edits it on the stick), else the image's /plans/default.ini. */
#include "pid1/pid1.h"
#include "core/command/cellcmd.h"
#include "core/model/level.h"
#include "core/command/cellshow.h"
#include "core/matrix/matrix.h"
#include "core/matrix/order.h"
#include "core/matrix/reuse.h"
#include "core/model/plan.h"
#include "core/parse/plan_size.h"
#include "core/matrix/reuse.h"
#include "core/command/removedopts.h"
#include "core/matrix/bisect.h"
#include "core/matrix/shard.h"
#include "lib/sha256.h"
#include "core/parse/plan_parse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define IMAGE_PLANS "/plans"
#define RESULTS_PLAN RESULTS_MNT "/fsmatrix/plan.ini"

static struct plan plan;
/* fsmatrix.shard=K/N: the shard of each cell of one repetition (core/matrix/shard.h), and the
 * estimated time of each shard */
static int *shard_owner;
static double shard_load[SHARD_MAX];
static char run_group[65];
/* Where the shuffle's seed came from: "plan", "cmdline", "run group" (every shard of a run
 * shares it), "random" (drawn at boot), "journal" (the run this boot resumes) */
static const char *seed_source;

static void find_plan(char *path, size_t len, const char **source)
{
	const char *name = boot.cmd.plan;
	if (name[0]) {
		size_t n = strlen(name);
		*source = "cmdline";
		if (name[0] == '/')
			snprintf(path, len, "%.*s", (int)(len - 1), name);
		else /* "raid6-degraded-ext3-vs-ext4" or the same with .ini */
			snprintf(path, len, IMAGE_PLANS "/%.*s%s", (int)(len - 20), name,
				 n > 4 && strcmp(name + n - 4, ".ini") == 0 ? "" : ".ini");
		return;
	}
	if (access(RESULTS_PLAN, R_OK) == 0) {
		*source = "results";
		snprintf(path, len, "%s", RESULTS_PLAN);
		return;
	}
	*source = "image";
	snprintf(path, len, IMAGE_PLANS "/default.ini");
}

static void plan_warning(void *ctx, const char *line)
{
	(void)ctx;
	say("fsmatrix: %s", line);
}

/* The split is made once, before anything runs, from the plan alone: every machine of a
 * run computes the same one. */
static void shard_stage(const struct plan *p, const struct estimate_model *m)
{
	int k = boot.cmd.shard_k, n = boot.cmd.shard_n;
	char why[256];
	if (bisect_shard_check(p, n, why, sizeof why) < 0)
		fatal("%s", why);
	shard_run_group(boot.plan_sha256, boot.cmd.scale, n ? n : 1, run_group);
	if (!n)
		return;
	int per = matrix_per_rep(p);
	shard_owner = calloc((size_t)per + 1, sizeof *shard_owner);
	if (!shard_owner || shard_plan(p, m, n, shard_owner, shard_load) < 0)
		fatal("unable to split the plan's cells for fsmatrix.shard=%d/%d: out of memory "
		      "(nothing was written to any test disk)", k, n);
	int mine = 0;
	for (int i = 0; i < per; i++)
		mine += shard_owner[i] == k - 1;
	char ts[32];
	show_secs(shard_load[k - 1], ts, sizeof ts);
	say("fsmatrix: shard %d of %d (run group %.16s...): %d of the plan's %d cells, x %d "
	    "repetition%s, estimated ~%s", k, n, run_group, mine, per, p->repeat,
	    p->repeat == 1 ? "" : "s", ts);
}

int plan_shard_takes(int index)
{
	struct cell c;
	if (!shard_owner || matrix_cell(&plan, index, &c) < 0)
		return 1;
	return shard_owner[c.slot] == boot.cmd.shard_k - 1;
}

/* A shuffle's seed, before any cell is expanded: fsmatrix.seed=, else the plan's, else the
 * run group's for a shard (its shards must agree on the positions: a record's index is the
 * same in every shard), else drawn at random. The plan event records it, to replay. */
static void seed_stage(void)
{
	if (plan.order != ORDER_SHUFFLE) {
		if (boot.cmd.seed_given)
			say("fsmatrix: fsmatrix.seed=%llu is not used: the plan's order is %s", boot.cmd.seed,
			    plan_order_name(plan.order));
		return;
	}
	if (boot.cmd.seed_given) {
		plan.seed = boot.cmd.seed;
		seed_source = "cmdline";
	} else if (plan_global_given(&plan, "seed")) {
		seed_source = "plan";
	} else if (boot.cmd.shard_n) {
		plan.seed = order_seed_from((const unsigned char *)run_group, 64);
		seed_source = "run group";
	} else {
		unsigned char r[8];
		if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
			long long t = boottime_ms();
			memcpy(r, &t, sizeof r);
		}
		plan.seed = order_seed_from(r, sizeof r);
		seed_source = "random";
	}
	say("fsmatrix: order shuffle, seed %llu (%s; fsmatrix.seed=%llu replays it)",
	    (unsigned long long)plan.seed, seed_source, (unsigned long long)plan.seed);
}

void plan_adopt_seed(uint64_t seed)
{
	if (plan.order != ORDER_SHUFFLE)
		return;
	if (seed != plan.seed)
		say("fsmatrix: order shuffle, seed %llu: the run's own, which this boot resumes",
		    (unsigned long long)seed);
	plan.seed = seed;
	seed_source = "journal";
}

void plan_shard_json(struct jw *w)
{
	jw_kstr(w, "run_group", run_group[0] ? run_group : NULL);
	jw_key(w, "shard");
	if (!shard_owner) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kint(w, "k", boot.cmd.shard_k);
	jw_kint(w, "n", boot.cmd.shard_n);
	jw_kint(w, "per_rep", matrix_per_rep(&plan));
	/* the plan's cells of one repetition this shard runs, numbered from 1 as "index" is */
	jw_key(w, "cells");
	jw_arr(w);
	for (int i = 0; i < matrix_per_rep(&plan); i++)
		if (shard_owner[i] == boot.cmd.shard_k - 1)
			jw_int(w, i + 1);
	jw_end_arr(w);
	jw_kdouble(w, "estimate_s", shard_load[boot.cmd.shard_k - 1], 1);
	jw_end_obj(w);
}

/* fsmatrix.plan_sha256=HEX: a job (a LAVA job of fsmatrix lava) names the plan it was made
 * for; another plan, say an older one of the same name in the image, would run under that
 * job's name and claims. A plan that cannot be read is left to plan_load's error. */
static void plan_sha256_check(const char *path)
{
	char sha[65];
	if (!boot.cmd.plan_sha256[0] || sha256_file(path, sha) < 0)
		return;
	if (strcmp(sha, boot.cmd.plan_sha256) != 0)
		fatal("the plan %s has sha256 %s, not the %s that fsmatrix.plan_sha256= names: "
		      "refusing to run another plan than the job's (nothing was written to any test "
		      "disk)", path, sha, boot.cmd.plan_sha256);
	say("fsmatrix: plan %s has the sha256 fsmatrix.plan_sha256= names", path);
}

const struct plan *plan_stage(void)
{
	char path[300];
	const char *source;

	find_plan(path, sizeof path, &source);
	plan_sha256_check(path);
	if (plan_load(path, &plan) < 0) {
		int shown = plan.nerrors < PLAN_ERRORS_MAX ? plan.nerrors : PLAN_ERRORS_MAX;
		for (int i = 1; i < shown; i++)
			say("fsmatrix: %s", plan.errors[i]);
		/* The first error last, as the one line fatal() leaves on screen. */
		fatal("%s%s", plan.errors[0], plan.nerrors > 1 ? " (and the errors above); nothing "
		      "was written to any test disk" : " (nothing was written to any test disk)");
	}
	if (boot.cmd.scale != 1.0)
		plan_scale(&plan, boot.cmd.scale);
	snprintf(boot.plan_name, sizeof boot.plan_name, "%s", plan.name);
	snprintf(boot.plan_source, sizeof boot.plan_source, "%s", source);
	snprintf(boot.plan_path, sizeof boot.plan_path, "%s", path);
	if (sha256_file(path, boot.plan_sha256) < 0)
		boot.plan_sha256[0] = '\0';
	boot.cells = matrix_count(&plan);
	say("fsmatrix: plan %s from %s (%s), sha256 %.16s...: %d cells (%d x %d repetition%s), "
	    "scale %g", plan.name, path, source, boot.plan_sha256, boot.cells,
	    matrix_per_rep(&plan), plan.repeat, plan.repeat == 1 ? "" : "s", plan.scale);

	struct estimate_model m;
	removed_opts_warn(&plan, plan_warning, NULL);
	estimate_model_default(&m);
	shard_stage(&plan, &m);
	seed_stage();

	/* Too few disks costs only the cells that need them: they are recorded as skipped. */
	if (plan_check_disks(&plan, boot.ntaken) < 0) {
		for (int i = 0; i < plan.nerrors && i < PLAN_ERRORS_MAX; i++)
			say("fsmatrix: %s: its cells will be skipped", plan.errors[i]);
		plan.nerrors = 0;
	}
	return &plan;
}

/* The device-mapper targets of the cell's layers, and a crypt layer's cipher modules: the
 * kernel would ask a modprobe the image does not have for them. Returns how many. */
static int layer_modules(const struct plan *p, const struct cell *c, const char **names)
{
	const struct plan_array *a = &p->arrays[c->array];
	int n = 0;
	if (c->stack < 0)
		return 0;
	for (int i = 0; i < a->stacks[c->stack].n; i++) {
		const struct plan_layer *l = &p->layers[a->stacks[c->stack].layer[i]];
		const struct layer_cipher *ci = layer_cipher_named(l->cipher);
		for (int k = 0; k < 3 && layer_kinds[l->type].modules[k]; k++)
			names[n++] = layer_kinds[l->type].modules[k];
		for (int k = 0; l->type == LAYER_CRYPT && ci && k < 3 && ci->modules[k]; k++)
			names[n++] = ci->modules[k];
	}
	return n;
}

void plan_cell_modules(const struct plan *p, const struct cell *c)
{
	/* The md personality comes from the level table; ext2 and ext3 are served by ext4.
	 * Loaded before the cell that first needs them rather than at boot: xfs alone takes
	 * about a second to load under TCG, and a plan may never reach its xfs cells. */
	const char *names[4 + TUN_COUNT + LAYER_STACK_MAX * 6 + 3 + 1];
	int level = p->arrays[c->array].level;
	int n = level_modules(&level, 1, names, 2);
	static const char *const fs_modules[] = { [FS_EXT2] = "ext4", [FS_EXT3] = "ext4",
		[FS_EXT4] = "ext4", [FS_XFS] = "xfs", [FS_BTRFS] = "btrfs" };
	names[n++] = fs_modules[p->fs[c->fs].type];
	/* A tunable's value may need its module (bfq, kyber): the kernel would ask for it
	 * through a modprobe the image does not have. */
	for (int id = 0; id < TUN_COUNT; id++)
		if ((c->tun_given & (1u << id)) && tun_module(id, c->tun[id]))
			names[n++] = tun_module(id, c->tun[id]);
	n += layer_modules(p, c, names + n);
	if (p->durability == PLAN_DURABILITY_LOG_WRITES) {
		/* the log, and the thin pool its replays are made on */
		names[n++] = "dm_mod";
		names[n++] = "dm_log_writes";
		names[n++] = "dm_thin_pool";
	}
	names[n] = NULL;
	modules_load_named(names);
	if (modules_unreported())
		modules_event();
}

void plan_header_json(struct jw *w)
{
	jw_key(w, "plan");
	if (!boot.plan_source[0]) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kstr(w, "name", boot.plan_name);
	jw_kstr(w, "source", boot.plan_source);
	jw_kstr(w, "path", boot.plan_path);
	jw_kstr(w, "sha256", boot.plan_sha256[0] ? boot.plan_sha256 : NULL);
	jw_kdouble(w, "scale", boot.cmd.scale, 4);
	jw_end_obj(w);
}

static void argv_json(struct jw *w, const char *key, const struct argv *a)
{
	jw_key(w, key);
	if (!a->n) {
		jw_null(w);
		return;
	}
	jw_arr(w);
	for (int i = 0; i < a->n; i++)
		jw_str(w, a->v[i]);
	jw_end_arr(w);
}

static void show_say(void *ctx, const char *line)
{
	(void)ctx;
	say("%s", line);
}

/* One dry-run cell in the plan event: the commands it would run on the taken disks. */
static void dry_cell_json(struct jw *w, const struct plan *p, const struct cell *c,
			  const char *const *disks, int ndisks)
{
	struct argv a;
	struct geometry g;
	struct warnings wn = { 0 };
	char err[256], data[PLAN_STR_MAX], flags[128];
	unsigned long mflags = 0;

	jw_obj(w);
	jw_kint(w, "index", c->index + 1);
	jw_kstr(w, "cell", c->id);
	jw_kint(w, "rep", c->rep);
	/* cell_target() would hand back disks[0], which does not exist. */
	if (ndisks == 0) {
		jw_kstr(w, "skipped", "no test disk taken");
		jw_end_obj(w);
		return;
	}
	if (cell_mdadm_argv(p, c, "/dev/md0", disks, ndisks, &a, err, sizeof err) < 0) {
		jw_kstr(w, "skipped", err);
		jw_end_obj(w);
		return;
	}
	argv_json(w, "mdadm", &a);
	const char *dev = cell_target(p, c, "/dev/md0", disks);
	if (cell_mkfs_argv(p, c, dev, &a, &g, &wn, err, sizeof err) == 0)
		argv_json(w, "mkfs", &a);
	if (cell_tune_argv(p, c, dev, &a, err, sizeof err) == 0)
		argv_json(w, "tune", &a);
	mount_opts_split(p->fs[c->fs].mount[c->mount], &mflags, data, sizeof data);
	mount_flags_names(mflags, flags, sizeof flags);
	jw_key(w, "mount");
	jw_obj(w);
	jw_kstr(w, "source", dev);
	jw_kstr(w, "type", plan_fs_name(p->fs[c->fs].type));
	jw_kstr(w, "flags", flags);
	jw_kstr(w, "data", data);
	jw_end_obj(w);
	/* What it would write once mounted: {NAME: value}, as the cell record's axes. */
	jw_key(w, "tunables");
	jw_obj(w);
	tun_json_given(w, c->tun_given, c->tun);
	jw_end_obj(w);
	jw_end_obj(w);
}

void plan_machine_model(struct estimate_model *m)
{
	/* md sizes an array by its smallest member; the speed is not measured before the
	 * first cell (nothing but the cells may write the disks, and a read says little of
	 * writes), so the rates stay the model's: the progress line corrects them from the
	 * cells measured. */
	estimate_model_default(m);
	long long mem = mem_total_bytes();
	if (mem > 0)
		m->mem_bytes = (double)mem;
	uint64_t least = 0;
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN && boot.disks[i].size &&
		    (!least || boot.disks[i].size < least))
			least = boot.disks[i].size;
	if (least)
		m->disk_bytes = (double)least;
}

/* "estimate": the run under the model of this machine, in its parts. */
static void estimate_json(struct jw *w, const struct plan *p, const struct estimate_model *m)
{
	struct run_est r;
	char t[32], rs[32], mk[32], wl[32], mem[32], disk[32];
	run_estimate(p, m, &r);
	jw_key(w, "estimate");
	jw_obj(w);
	jw_kint(w, "mem", (long long)m->mem_bytes);
	jw_kint(w, "disk_bytes", (long long)m->disk_bytes);
	jw_kstr(w, "rates", "qemu-tcg");
	jw_kdouble(w, "total_s", r.total_s, 1);
	jw_kdouble(w, "create_s", r.create_s, 1);
	jw_kdouble(w, "resync_s", r.resync_s, 1);
	jw_kdouble(w, "mkfs_s", r.mkfs_s, 1);
	jw_kdouble(w, "workload_s", r.workload_s, 1);
	jw_kdouble(w, "other_s", r.other_s, 1);
	jw_kint(w, "arrays", r.arrays);
	jw_kint(w, "filesystems", r.filesystems);
	jw_kdouble(w, "noreuse_s", r.total_noreuse_s, 1);
	jw_end_obj(w);
	show_secs(r.total_s, t, sizeof t);
	show_secs(r.resync_s, rs, sizeof rs);
	show_secs(r.mkfs_s, mk, sizeof mk);
	show_secs(r.workload_s, wl, sizeof wl);
	show_bytes(m->mem_bytes, mem, sizeof mem);
	show_bytes(m->disk_bytes, disk, sizeof disk);
	say("fsmatrix: estimate for %s of RAM and disks of %s (at the rates measured under qemu "
	    "TCG): ~%s: resync ~%s (%d array%s created), mkfs ~%s, workloads ~%s", mem, disk, t,
	    rs, r.arrays, r.arrays == 1 ? "" : "s", mk, wl);
}

/* The taken disks as device paths ("/dev/sdb") into disks, in the order of selection.
 * Returns how many. */
static int taken_paths(const char *disks[DISK_MAX])
{
	static char names[DISK_MAX][48];
	int n = 0;
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN) {
			snprintf(names[n], sizeof names[n], "/dev/%s", boot.disks[i].name);
			disks[n] = names[n];
			n++;
		}
	return n;
}

/* A dry run shows what would run, as `fsmatrix check` does, and records it: the plan event's
 * cell_list. */
static void dry_run_cells(struct jw *w, const struct plan *p, const struct estimate_model *m,
			  const char *const *disks, int ndisks)
{
	double total = 0;
	int nwarn = 0;
	struct cell c, prev;
	int have_prev = 0;
	say("fsmatrix: dry run: the cells this plan would run on the taken disks");
	jw_key(w, "cell_list");
	jw_arr(w);
	for (int i = 0; matrix_cell(p, i, &c) == 0; i++) {
		if (!plan_shard_takes(i))
			continue;
		if (ndisks)
			cell_show_in_run(p, &c, reuse_from(p, have_prev ? &prev : NULL, &c),
					 disks, ndisks, m, &total, &nwarn, show_say, NULL);
		else
			say("cell %d/%d  %s  rep %d: no test disk taken", i + 1,
			    matrix_count(p), c.id, c.rep);
		prev = c;
		have_prev = 1;
		/* a huge plan's list is cut rather than losing the whole event */
		if (w->len < w->cap - 8192)
			dry_cell_json(w, p, &c, disks, ndisks);
	}
	jw_end_arr(w);
	char ts[32];
	show_secs(total, ts, sizeof ts);
	say("fsmatrix: dry run: %d cells, %d warnings; estimated ~%s (these disks, the rates "
	    "measured under qemu TCG)",
	    matrix_count(p), nwarn, ts);
}

void plan_event(const struct plan *p)
{
	static char buf[200 * 1024];
	const char *disks[DISK_MAX];
	int ndisks = taken_paths(disks);
	struct jw w;

	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "plan");
	jw_kstr(&w, "name", p->name);
	jw_kstr(&w, "source", boot.plan_source);
	jw_kstr(&w, "sha256", boot.plan_sha256);
	jw_kint(&w, "cells", matrix_count(p));
	jw_kint(&w, "per_rep", matrix_per_rep(p));
	jw_kint(&w, "repeat", p->repeat);
	jw_kstr(&w, "order", plan_order_name(p->order));
	if (p->nkernels) {
		/* the kernel sets in the plan's order: position x's kernel is core/matrix/kernels.h's */
		jw_key(&w, "kernels");
		jw_arr(&w);
		for (int k = 0; k < p->nkernels; k++)
			jw_str(&w, p->kernels[k]);
		jw_end_arr(&w);
	}
	jw_key(&w, "seed");
	if (p->order == ORDER_SHUFFLE)
		jw_int(&w, (long long)p->seed);
	else
		jw_null(&w);
	jw_kstr(&w, "seed_source", p->order == ORDER_SHUFFLE ? seed_source : NULL);
	struct order_shape shape;
	matrix_order_shape(p, &shape);
	if (shape.block > 1) {
		/* the report finds a position's cell from these (report/positions.c) */
		jw_kint(&w, "order_block", shape.block);
		jw_key(&w, "order_runs");
		jw_arr(&w);
		for (int k = 0; k < shape.nrun; k++)
			jw_int(&w, shape.run[k]);
		jw_end_arr(&w);
	}
	jw_kint(&w, "warmup", boot.cmd.dry ? 0 : p->warmup);
	jw_kstr(&w, "reuse", reuse_name(p->reuse));
	jw_kstr(&w, "resync", plan_resync_name(p->resync));
	jw_kint(&w, "resync_timeout_s", p->resync_timeout_s);
	jw_kbool(&w, "discard", p->discard);
	jw_kbool(&w, "drop_caches", p->drop_caches);
	jw_kint(&w, "timeout_s", p->timeout_s);
	jw_kint(&w, "monitor_ms", p->monitor_ms);
	jw_kdouble(&w, "scale", p->scale, 4);
	jw_kbool(&w, "dry", boot.cmd.dry);
	struct estimate_model m;
	plan_machine_model(&m);
	estimate_json(&w, p, &m);
	plan_estimate_warnings(p, &m, EST_KNOWN_MEM | EST_KNOWN_DISK, plan_warning, NULL);
	if (boot.cmd.dry)
		dry_run_cells(&w, p, &m, disks, ndisks);
	jw_end_obj(&w);
	emit(&w);
}
