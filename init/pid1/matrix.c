/* pid1/matrix.c: the plan's cells in order, one record each (cell/cell.c), a progress line
 * after each, and with repeat > 1 a summary record for a cell after its last repetition (with
 * repeat = auto, as soon as its figure is stable: its later repetitions are passed over).
 * The cells go in the plan's order (core/matrix/order.h); a cell's figures are kept by its slot
 * until its last repetition comes round. On a resumed boot (pid1/resume.c) cells recorded
 * before are not run again, and a summary covers the repetitions measured in this boot
 * ("n"). Before the first cell of a boot, the plan's warm-up workloads. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "core/matrix/estimate.h"
#include "core/figures/hang.h"
#include "core/boot/resume.h"
#include "core/figures/verdict.h"
#include "lib/stats.h"
#include "core/parse/plan_parse.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tar archive named without a path: the results partition first (the user's own), then
 * the image's. */
static const char *const archive_dirs[] = { RESULTS_MNT "/fsmatrix", "/plans", "", NULL };

_Static_assert(sizeof boot.counts / sizeof boot.counts[0] == CELL_NSTATUS,
	       "a trailer count for each cell status");

static const struct cell_ops cell_ops = {
	.say = say, .emit = emit, .fatal = fatal, .pet = watchdog_pet, .reap = reap_orphans,
	.load_modules = plan_cell_modules, .hung = watchdog_hung,
};

/* What the cells may use of this boot, once selection and resume (which may take back the
 * run's disks) have chosen the disks. */
const struct run_env *matrix_env(const struct disk_speeds *speeds)
{
	static const char *taken[DISK_MAX + 1];
	static struct run_env env;
	int n = 0;
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN)
			taken[n++] = boot.disks[i].name;
	taken[n] = NULL;
	console_hold_init();   /* before any cell's watcher is forked: they share it */
	env = (struct run_env){ .run_id = boot.run_id, .fingerprint = boot.fingerprint[0] ? boot.fingerprint : NULL,
				.taken = taken, .archive_dirs = archive_dirs,
				.kernel = boot.cmd.kernel[0] ? boot.cmd.kernel : NULL,
				.speeds = speeds, .dry = boot.cmd.dry,
				.debug_hang = boot.cmd.debug_hang,
				.debug_suspend = boot.cmd.debug_suspend, .hang_s = boot.cmd.hang_s,
				.ops = &cell_ops };
	return &env;
}

struct kept {                    /* one cell's figures over its repetitions */
	int n;                       /* ok repetitions */
	int failed;                  /* error or timeout repetitions */
	struct stats_cell fig;
	int stopped;                 /* repeat = auto: stable or failing (core/figures/verdict.h), its
	                                later repetitions not run */
};

/* The time left: the estimate of the cells still to run (a raid's first cell with its
 * resync, the ones after it with their mkfs), scaled by how the cells run so far compared
 * with theirs (core/matrix/estimate.h). */
static void eta_text(long long start_ms, double est_done, double est_left, char *buf, size_t len)
{
	double left = eta_seconds((double)(boottime_ms() - start_ms) / 1000, est_done, est_left);
	/* every cell is estimated at over half a second: less is a rounding's rest, none left */
	if (left < 0 || !(est_left >= 0.5)) {
		buf[0] = '\0';
		return;
	}
	if (left >= 5400)
		snprintf(buf, len, "  (eta %.1f h)", left / 3600);
	else if (left >= 90)
		snprintf(buf, len, "  (eta %.0f min)", left / 60);
	else
		snprintf(buf, len, "  (eta %.0f s)", left);
}

/* "md6-c16k/ext4/data=journal/untar" reads as "md6-c16k ext4 data=journal untar". */
static void spaced(const char *id, char *out, size_t len)
{
	snprintf(out, len, "%s", id);
	for (char *s = out; *s; s++)
		if (*s == '/')
			*s = ' ';
}

/* A cell's figures are kept by its slot, and under several kernels by slot and kernel. */
static int kept_at(const struct plan *p, const struct cell *c)
{
	return c->kernel >= 0 ? c->slot * p->nkernels + c->kernel : c->slot;
}

/* A NaN figure (no /proc/stat, an empty interval) is left out of the statistics. */
static void keep(struct kept *k, const struct cell_result *r, int rep)
{
	k->failed += r->status == CELL_ERROR || r->status == CELL_TIMEOUT;
	if (r->status != CELL_OK)
		return;
	for (int m = 0; m < r->nmetric; m++)
		stats_cell_add_rep(&k->fig, r->metric_name[m], r->metric[m], rep);
	k->n++;
}

/* why: with repeat = auto, "stable" or "failing" (the cell's later repetitions are not
 * run: core/figures/verdict.h) or "repeat_max"; NULL otherwise. */
static void summary_emit(const struct plan *p, const struct cell *c, struct kept *k,
			 const char *why)
{
	static char buf[16 * 1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "summary");
	jw_kstr(&w, "run", boot.run_id);
	jw_kstr(&w, "cell", c->id);
	jw_kint(&w, "n", k->n);
	jw_kint(&w, "reps", p->repeat);
	if (why) {
		/* the position of the last repetition run: resume and the report find the cell's
		 * later ones, which do not run, from it */
		jw_kint(&w, "index", c->index + 1);
		jw_kstr(&w, "auto", why);
	}
	jw_key(&w, "stats");
	jw_summary_stats(&w, &k->fig);
	struct fig_verdict v;
	const char *metric = verdict_cell(&k->fig, wl_kind_of(p->workloads[c->workload].type), &v);
	jw_key(&w, "verdict");
	jw_verdict(&w, metric, &v);
	/* what a comparison with another run like this one could see (detect = in the plan) */
	double mde = verdict_mde_pct(&v, VERDICT_DETECT_ALPHA);
	jw_key(&w, "mde_pct");
	if (isfinite(mde))
		jw_double(&w, mde, 2);
	else
		jw_null(&w);
	jw_end_obj(&w);
	emit(&w);
	stats_cell_free(&k->fig);
	k->n = 0;
	k->failed = 0;
}

/* Announced, written and fsynced before the cell touches a disk: a boot that finds this
 * with no cell record after it knows the cell was interrupted (resume.h). */
static void cell_start_event(const struct cell *c, int attempt, int total)
{
	char buf[1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "cell-start");
	jw_kint(&w, "index", c->index + 1);
	jw_kint(&w, "total", total);
	jw_kstr(&w, "cell", c->id);
	jw_kint(&w, "rep", c->rep);
	jw_kint(&w, "attempt", attempt);
	jw_end_obj(&w);
	emit(&w);
}

/* What an earlier boot left of this cell: records still owed, or a verdict already given.
 * Returns 1 when the cell needs no run in this boot. */
static int settle_earlier(const struct run_env *env, const struct plan *p, const struct cell *c,
			  const struct resume_step *rs, const char *name, int total)
{
	char msg[300];
	boot.counts[CELL_INTERRUPTED] += rs->recorded;
	if (rs->action == RESUME_SKIP) {
		boot.counts[rs->final]++;
		say("[%d/%d] %s rep %d/%d: %s (recorded in an earlier boot)", c->index + 1, total, name,
		    c->rep, p->repeat, cell_status_names[rs->final]);
		return 1;
	}
	for (int k = 0; k < rs->record_interrupted; k++) {
		int attempt = rs->recorded + k + 1;
		snprintf(msg, sizeof msg, "attempt %d was interrupted: the machine restarted (watchdog, "
			 "crash or power loss) before the cell ended", attempt);
		cell_record_status(env, p, c, CELL_INTERRUPTED, attempt, msg);
		boot.counts[CELL_INTERRUPTED]++;
		say("[%d/%d] %s rep %d/%d: interrupted: %s", c->index + 1, total, name, c->rep,
		    p->repeat, msg);
	}
	if (rs->action == RESUME_FAIL) {
		snprintf(msg, sizeof msg, "interrupted %d times (the plan allows %d retr%s): not tried "
			 "again", rs->interruptions, p->retries, p->retries == 1 ? "y" : "ies");
		cell_record_status(env, p, c, CELL_ERROR, rs->interruptions, msg);
		boot.counts[CELL_ERROR]++;
		say("[%d/%d] %s rep %d/%d: error: %s", c->index + 1, total, name, c->rep, p->repeat, msg);
		return 1;
	}
	return 0;
}

/* A cell's figures after each repetition; its summary after the last, or with repeat = auto
 * once its figure is stable. */
static void summarize(const struct plan *p, const struct cell *c, struct kept *k,
		      const struct cell_result *r)
{
	keep(k, r, c->rep);
	if (p->repeat_auto) {
		struct fig_verdict v;
		verdict_cell(&k->fig, wl_kind_of(p->workloads[c->workload].type), &v);
		/* detect = N%: stable is not enough, a change of N% must also be detectable */
		int done = v.stable && (p->detect_pct <= 0 ||
					verdict_mde_pct(&v, VERDICT_DETECT_ALPHA) <= p->detect_pct);
		const char *stop = verdict_auto_stop(done, k->n, k->failed);
		if (stop && c->rep < p->repeat) {
			if (strcmp(stop, "failing") == 0)
				say("fsmatrix: %s failed %d repetitions, none ok: repeat = auto runs it no "
				    "more", c->id, k->failed);
			summary_emit(p, c, k, stop);
			k->stopped = 1;
		} else if (c->rep == p->repeat) {
			summary_emit(p, c, k, done ? "stable" : "repeat_max");
		}
	} else if (c->rep == p->repeat) {
		summary_emit(p, c, k, NULL);
	}
}

/* repeat = auto: the cells an earlier boot of the run found stable run no more. */
static void stopped_earlier(const struct plan *p, struct kept *kept, int total)
{
	struct cell c;
	for (int i = 0; p->repeat_auto && i < total; i++)
		if (resume_stopped(i) && matrix_cell(p, i, &c) == 0)
			kept[kept_at(p, &c)].stopped = 1;
}

/* The first cell from position from on that this boot will run: its own shard's, not
 * settled by an earlier boot, with enough disks. -1 when there is none. */
static int next_to_run(const struct plan *p, int from, int total, const struct kept *kept,
		       struct cell *c)
{
	for (int i = from; i < total; i++) {
		struct resume_step rs;
		if (!plan_shard_takes(i) || matrix_cell(p, i, c) < 0 ||
		    (kept && kept[kept_at(p, c)].stopped))
			continue;
		resume_cell(i, p->retries, &rs);
		if (rs.action == RESUME_RUN &&
		    plan_array_disks_taken(p, &p->arrays[c->array]) <= boot.ntaken)
			return i;
	}
	return -1;
}

/* The plan's warm-up workloads, on the array and filesystem of the first cell this boot runs:
 * the first cell of a boot runs on a machine and disks nothing has exercised yet (measured:
 * 0.61x its own later repeats), and the warm-up takes that instead. A "warmup" record each,
 * no figure, no summary, no count; announced by a "warmup-start" event, as a cell is. */
static void warm_up(const struct run_env *env, const struct plan *p, int total,
		    const struct kept *kept)
{
	struct cell c;
	if (p->warmup <= 0 || next_to_run(p, 0, total, kept, &c) < 0 ||
	    (c.kernel >= 0 && c.kernel != kernels_booted()))
		return;
	matrix_warm_up(env, p, &c);
}

void matrix_warm_up(const struct run_env *env, const struct plan *p, const struct cell *c)
{
	struct cell_result r;
	char name[CELL_ID_MAX];
	spaced(c->id, name, sizeof name);
	for (int k = 1; k <= p->warmup; k++) {
		char buf[1024];
		struct jw w;
		watchdog_pet();
		if (shutdown_requested())
			shutdown_by_signal();
		jw_init(&w, buf, sizeof buf);
		event_begin(&w, "warmup-start");
		jw_kint(&w, "index", c->index + 1);
		jw_kstr(&w, "cell", c->id);
		jw_kint(&w, "warmup", k);
		jw_kint(&w, "warmups", p->warmup);
		jw_end_obj(&w);
		emit(&w);
		say("[warm-up %d/%d] %s: running", k, p->warmup, name);
		cell_warmup(env, p, c, k, p->warmup, &r);
		say("[warm-up %d/%d] %s: %s (not a figure)", k, p->warmup, name, r.headline);
	}
}

/* One position on its own (a bisection's probe): what an earlier boot left of it settled,
 * else run, on an array and filesystem of its own. 1 when it ran (r filled), 0 when an
 * earlier boot had settled it. */
int matrix_run_one(const struct run_env *env, const struct plan *p, const struct cell *c,
		   struct cell_result *r)
{
	char name[CELL_ID_MAX];
	int total = matrix_count(p);
	struct resume_step rs;
	struct cell_reuse live = { .left = REUSE_NONE };
	spaced(c->id, name, sizeof name);
	watchdog_pet();
	if (shutdown_requested())
		shutdown_by_signal();
	resume_cell(c->index, p->retries, &rs);
	if (settle_earlier(env, p, c, &rs, name, total))
		return 0;
	cell_start_event(c, rs.attempt, total);
	say("[%d/%d] %s rep %d/%d: running%s", c->index + 1, total, name, c->rep, p->repeat,
	    rs.attempt > 1 ? " (again: an attempt was interrupted)" : "");
	cell_run(env, p, c, rs.attempt, &live, r);
	boot.counts[r->status]++;
	say("[%d/%d] %s rep %d/%d: %s", c->index + 1, total, name, c->rep, p->repeat, r->headline);
	return 1;
}

/* A cell of another kernel than the one booted: switch to it (never returns then), or, when
 * that kernel is given up, write the records its attempt owes and an error. */
static void other_kernel(const struct run_env *env, const struct plan *p, const struct cell *c,
			 const struct resume_step *rs, const char *name, int total)
{
	if (!kernels_given_up(c->kernel))
		kernels_switch(p, c->kernel, c->index, 1);
	if (settle_earlier(env, p, c, rs, name, total))
		return;
	const char *why = kernels_given_up(c->kernel);
	cell_record_status(env, p, c, CELL_ERROR, rs->attempt, why);
	boot.counts[CELL_ERROR]++;
	say("[%d/%d] %s rep %d/%d: error: %s", c->index + 1, total, name, c->rep, p->repeat, why);
}

void matrix_switch_first(const struct plan *p)
{
	struct cell c;
	if (!p->nkernels || boot.cmd.dry)
		return;
	int i = next_to_run(p, 0, matrix_count(p), NULL, &c);
	if (i >= 0 && c.kernel != kernels_booted() && !kernels_given_up(c.kernel))
		kernels_switch(p, c.kernel, i, 0);
}

/* The ids of the cells earlier boots recorded hung (a hang reboots the machine: none of this
 * boot's), for hang_array_given_up(); NULL when none. */
static const char **hung_cells(const struct plan *p, int total, int *n)
{
	const char **ids = NULL;
	struct cell c;
	*n = 0;
	for (int i = 0; i < total; i++) {
		struct resume_step rs;
		resume_cell(i, p->retries, &rs);
		if (rs.action != RESUME_SKIP || rs.final != RESUME_HUNG || matrix_cell(p, i, &c) < 0)
			continue;
		const char **more = realloc(ids, (size_t)(*n + 1) * sizeof *ids);
		char *id = strdup(c.id);
		if (!more || !id) {
			free(id);
			return more ? more : ids;
		}
		ids = more;
		ids[(*n)++] = id;
	}
	return ids;
}

/* A cell whose array hung too often is skipped with the reason. 1 when it was. */
static int given_up(const struct run_env *env, const struct plan *p, const struct cell *c,
		    int attempt, const char *const *hung, int nhung, const char *name, int total)
{
	char why[600];
	if (!hang_array_given_up(c->id, hung, nhung, why, sizeof why))
		return 0;
	cell_record_status(env, p, c, CELL_SKIPPED, attempt, why);
	boot.counts[CELL_SKIPPED]++;
	say("[%d/%d] %s rep %d/%d: skipped: %s", c->index + 1, total, name, c->rep, p->repeat, why);
	return 1;
}

/* The boot's counts from zero and its share of the plan's cells, said. Returns -1 on a dry
 * run, where no cell runs (the plan event lists them), else 0. */
static int matrix_begin(const struct plan *p, int total)
{
	memset(boot.counts, 0, sizeof boot.counts);
	boot.cells = 0;
	boot.repeat_auto = p->repeat_auto;
	boot.not_needed = 0;
	for (int i = 0; i < total; i++)
		boot.cells += plan_shard_takes(i);
	if (boot.cmd.dry) {
		say("fsmatrix: dry run: no cell runs (the plan event lists them)");
		return -1;
	}
	if (boot.cells < total)
		say("fsmatrix: matrix: %d of the plan's %d cells (fsmatrix.shard=%d/%d)", boot.cells,
		    total, boot.cmd.shard_k, boot.cmd.shard_n);
	else
		say("fsmatrix: matrix: %d cells", total);
	return 0;
}

/* Each position's estimate on this machine, 0 for another shard's, and their sum in *left:
 * the ETA's basis. NULL (no ETA, *left 0) when there is no memory for it. */
static double *cell_estimates(const struct plan *p, int total, double *left)
{
	struct estimate_model m;
	double *est = calloc((size_t)total, sizeof *est);
	plan_machine_model(&m);
	if (est)
		run_estimate_cells(p, &m, plan_shard_takes, est);
	*left = 0;
	for (int i = 0; est && i < total; i++)
		*left += est[i];
	return est;
}

/* What cell c at position i takes over from prev, the cell run before it (what that one
 * left standing; prev NULL for the first of the boot), and what the cell after it will want
 * of it (core/matrix/reuse.h): live's take and keep. */
static void reuse_around(const struct plan *p, const struct cell *prev, const struct cell *c,
			 int i, int total, const struct kept *kept, struct cell_reuse *live)
{
	struct cell next;
	int j = next_to_run(p, i + 1, total, kept, &next);
	enum plan_reuse take = prev ? reuse_from(p, prev, c) : REUSE_NONE;
	live->take = take < live->left ? take : live->left;
	/* nothing stands over a kernel switch: the next kernel's boot makes its own */
	live->keep = j >= 0 && next.kernel == c->kernel ? reuse_from(p, c, &next) : REUSE_NONE;
}

void matrix_run(const struct plan *p, const struct disk_speeds *speeds)
{
	int total = matrix_count(p), per = matrix_per_rep(p);
	int nkept = per * (p->nkernels > 0 ? p->nkernels : 1);
	struct kept *kept = p->repeat > 1 ? calloc((size_t)nkept, sizeof *kept) : NULL;
	long long start;
	const struct run_env *env = matrix_env(speeds);
	struct cell c, prev;
	struct cell_result r;
	struct cell_reuse live = { .left = REUSE_NONE };   /* what the last cell left standing */
	int ran = 0;

	if (matrix_begin(p, total) < 0)
		return;
	if (kept)
		stopped_earlier(p, kept, total);
	warm_up(env, p, total, kept);
	double est_done = 0, est_left;
	double *est = cell_estimates(p, total, &est_left);
	int nhung;
	const char **hung = hung_cells(p, total, &nhung);
	start = boottime_ms();
	for (int i = 0; i < total; i++) {
		char name[CELL_ID_MAX], eta[48];
		/* another machine's share: no record here, its own boot writes them */
		if (!plan_shard_takes(i))
			continue;
		if (matrix_cell(p, i, &c) < 0)
			break;
		double est_i = est ? est[i] : 0;
		est_left -= est_i;
		spaced(c.id, name, sizeof name);
		watchdog_pet();
		/* poweroff typed at a shell on another console: stop between cells; the run is
		 * left unfinished and the next boot resumes it */
		if (shutdown_requested())
			shutdown_by_signal();
		struct resume_step rs;
		resume_cell(i, p->retries, &rs);
		/* repeat = auto: a cell stable already does not begin another repetition (one an
		 * earlier boot recorded is counted as such, below) */
		if (kept && kept[kept_at(p, &c)].stopped && rs.action == RESUME_RUN &&
		    !rs.record_interrupted) {
			boot.not_needed++;
			continue;
		}
		/* runs under several kernels: a cell runs only under its own */
		if (c.kernel >= 0 && c.kernel != kernels_booted() && rs.action == RESUME_RUN) {
			other_kernel(env, p, &c, &rs, name, total);
			continue;
		}
		if (settle_earlier(env, p, &c, &rs, name, total) ||
		    given_up(env, p, &c, rs.attempt, hung, nhung, name, total))
			continue;
		cell_start_event(&c, rs.attempt, total);
		if (rs.attempt > 1)
			say("[%d/%d] %s rep %d/%d: running (attempt %d)", i + 1, total, name, c.rep,
			    p->repeat, rs.attempt);
		else
			say("[%d/%d] %s rep %d/%d: running", i + 1, total, name, c.rep, p->repeat);
		reuse_around(p, ran ? &prev : NULL, &c, i, total, kept, &live);
		cell_run(env, p, &c, rs.attempt, &live, &r);
		prev = c;
		ran = 1;
		boot.counts[r.status]++;
		est_done += est_i;
		eta_text(start, est_done, est_left, eta, sizeof eta);
		say("[%d/%d] %s rep %d/%d: %s%s", i + 1, total, name, c.rep, p->repeat, r.headline, eta);
		if (kept)
			summarize(p, &c, &kept[kept_at(p, &c)], &r);
	}
	free(kept);
	free(est);
	for (int k = 0; k < nhung; k++)
		free((char *)hung[k]);
	free(hung);
	say("fsmatrix: matrix done: %d ok, %d error, %d skipped, %d timeout, %d interrupted, %d hung",
	    boot.counts[CELL_OK], boot.counts[CELL_ERROR], boot.counts[CELL_SKIPPED],
	    boot.counts[CELL_TIMEOUT], boot.counts[CELL_INTERRUPTED], boot.counts[CELL_HUNG]);
}
