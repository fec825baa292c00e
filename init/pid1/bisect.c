/* pid1/bisect.c: a plan with [bisect] run by PID 1 (core/matrix/bisect.h): each boot replays the
 * search from the figures its journal holds, switches by kexec to the set the next probe
 * needs, runs that probe's repetitions one by one (each a cell record, resumed as the matrix
 * resumes a cell), says each decision, writes a "bisect-probe" event as each probe ends and
 * a "bisect" record with the result. A power cut at any point leaves the journal holding
 * every finished repetition, so the boot after it takes the same decisions again and goes on
 * with the first repetition not recorded. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "core/matrix/bisect.h"
#include "core/matrix/matrix.h"
#include "lib/stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int loaded, finished;
	struct bisect b;
	int announced[PLAN_KERNELS_MAX];
} bs;

static const char *const role_names[] = { "probe", "good-end", "bad-end" };

static const char *role_of(const struct plan *p, int k)
{
	return role_names[k == p->bisect.good_k ? 1 : k == p->bisect.bad_k ? 2 : 0];
}

/* The search so far, from this run's journal (empty on its first boot). */
static void load(const struct plan *p)
{
	static char ids[PLAN_KERNELS_MAX][CELL_ID_MAX];
	const char *idp[PLAN_KERNELS_MAX], *names[PLAN_KERNELS_MAX];
	char path[300];
	struct cell c;
	size_t len = 0;
	bisect_init(&bs.b, p->kernels, p->nkernels, p->bisect.good_k, p->bisect.bad_k, p->repeat,
		    p->bisect.lower_is_worse);
	bs.b.min_change_pct = p->bisect.min_change_pct;
	for (int k = 0; k < p->nkernels; k++) {
		if (matrix_kernel_cell(p, p->bisect.slot, 1, k, &c) < 0)
			fatal("bisect: unable to place cell %s under kernel %s", p->bisect.cell,
			      p->kernels[k]);
		snprintf(ids[k], sizeof ids[k], "%s", c.id);
		idp[k] = ids[k];
		names[k] = p->kernels[k];
	}
	bs.loaded = 1;
	snprintf(path, sizeof path, RESULTS_DIR "/%s.jsonl", boot.run_id);
	char *text = boot.resumed ? file_read(path, 0, &len) : NULL;
	if (text)
		bisect_scan(text, len, idp, names, p->bisect.metric, &bs.b, bs.announced, &bs.finished);
	free(text);
}

static void jw_figures(struct jw *w, const struct bisect_set *s)
{
	struct summary m;
	jw_key(w, "figures");
	jw_arr(w);
	for (int i = 0; i < s->n; i++)
		jw_double(w, s->v[i], 3);
	jw_end_arr(w);
	int ok = stats_summary(s->v, (size_t)s->n, &m) == 0;
	jw_kdouble(w, "mean", ok ? m.mean : NAN, 3);
	jw_kdouble(w, "stddev", ok && m.n > 1 ? m.stddev : NAN, 3);
}

/* A probe's part of a record: its set, role, class, figures and rule, the interval after it. */
static void jw_probe(struct jw *w, const struct plan *p, int k)
{
	const struct bisect_set *s = &bs.b.set[k];
	jw_kstr(w, "set", p->kernels[k]);
	jw_kstr(w, "role", role_of(p, k));
	jw_kint(w, "order", s->order);
	jw_kstr(w, "class", bisect_class_names[s->cls]);
	jw_kint(w, "reps", s->reps);
	jw_kint(w, "n", s->n);
	jw_figures(w, s);
	jw_kstr(w, "rule", s->rule);
	jw_kstr(w, "last_good", p->kernels[s->lo]);
	jw_kstr(w, "first_bad", p->kernels[s->hi]);
}

/* A "bisect-probe" event for each probe that ended and has none yet, in the search's order. */
static void announce(const struct plan *p)
{
	char buf[4096];
	for (int o = 1; o <= p->nkernels; o++)
		for (int k = 0; k < p->nkernels; k++) {
			const struct bisect_set *s = &bs.b.set[k];
			if (s->order != o || !s->done || bs.announced[k])
				continue;
			struct jw w;
			jw_init(&w, buf, sizeof buf);
			event_begin(&w, "bisect-probe");
			jw_probe(&w, p, k);
			jw_end_obj(&w);
			emit(&w);
			bs.announced[k] = 1;
			say("fsmatrix: bisect: probe %d, %s (%s): %s: %s", o, p->kernels[k], role_of(p, k),
			    bisect_class_names[s->cls], s->rule);
		}
}

/* The "bisect" record: the result, and every probe in the order the search made them. */
static void result(const struct plan *p, const struct bisect_step *st)
{
	static char buf[32 * 1024];
	struct jw w;
	int found = st->end == BISECT_FOUND || st->end == BISECT_SKIPPED_ONLY;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "bisect");
	jw_kstr(&w, "run", boot.run_id);
	jw_kstr(&w, "cell", p->bisect.cell);
	jw_kstr(&w, "metric", p->bisect.metric);
	jw_kstr(&w, "direction", p->bisect.lower_is_worse ? "lower-is-worse" : "higher-is-worse");
	jw_key(&w, "sets");
	jw_arr(&w);
	for (int k = 0; k < p->nkernels; k++)
		jw_str(&w, p->kernels[k]);
	jw_end_arr(&w);
	jw_kstr(&w, "good", p->kernels[p->bisect.good_k]);
	jw_kstr(&w, "bad", p->kernels[p->bisect.bad_k]);
	jw_kstr(&w, "status", bisect_end_names[st->end]);
	jw_kstr(&w, "first_bad", found ? p->kernels[st->hi] : NULL);
	jw_kstr(&w, "last_good", found ? p->kernels[st->lo] : NULL);
	jw_key(&w, "skipped");
	jw_arr(&w);
	for (int k = 0; k < p->nkernels; k++)
		if (bs.b.set[k].done && bs.b.set[k].cls == BISECT_SKIP)
			jw_str(&w, p->kernels[k]);
	jw_end_arr(&w);
	jw_kdouble(&w, "ends_p", st->ends_p, 6);
	jw_kdouble(&w, "alpha", BISECT_ALPHA, 2);
	jw_kdouble(&w, "min_change_pct", p->bisect.min_change_pct, 2);
	jw_kint(&w, "probes", st->probes);
	jw_kstr(&w, "result", st->why);
	jw_key(&w, "steps");
	jw_arr(&w);
	for (int o = 1; o <= st->probes; o++)
		for (int k = 0; k < p->nkernels; k++)
			if (bs.b.set[k].order == o) {
				jw_obj(&w);
				jw_probe(&w, p, k);
				jw_end_obj(&w);
			}
	jw_end_arr(&w);
	jw_end_obj(&w);
	emit(&w);
	say("fsmatrix: bisect: %s", st->why);
}

static int metric_of(const struct plan *p, const struct cell_result *r, double *v)
{
	for (int m = 0; m < r->nmetric; m++)
		if (strcmp(r->metric_name[m], p->bisect.metric) == 0) {
			*v = r->metric[m];
			return r->status == CELL_OK;
		}
	return 0;
}

void bisect_switch_first(const struct plan *p)
{
	struct bisect_step st;
	struct cell c;
	if (boot.cmd.dry)
		return;
	load(p);
	bisect_next(&bs.b, &st);
	if (!bs.finished && st.what == BISECT_PROBE &&
	    matrix_kernel_cell(p, p->bisect.slot, st.rep, st.kernel, &c) == 0 &&
	    st.kernel != kernels_booted() && !kernels_given_up(st.kernel))
		kernels_switch(p, st.kernel, c.index, 0);
}

/* The probe's repetition runs under another kernel: switch (never returns then), or, with
 * that kernel given up, its record an error. */
static void elsewhere(const struct run_env *env, const struct plan *p, const struct cell *c)
{
	if (!kernels_given_up(c->kernel))
		kernels_switch(p, c->kernel, c->index, 1);
	const char *why = kernels_given_up(c->kernel);
	cell_record_status(env, p, c, CELL_ERROR, 1, why);
	boot.counts[CELL_ERROR]++;
	bisect_add(&bs.b, c->kernel, 0, NAN);
}

void bisect_run(const struct plan *p, const struct disk_speeds *speeds)
{
	const struct run_env *env = matrix_env(speeds);
	struct bisect_step st;
	struct cell_result r;
	struct cell c;
	int warmed = 0, said = -1;
	memset(boot.counts, 0, sizeof boot.counts);
	boot.cells = matrix_count(p);
	if (boot.cmd.dry) {
		say("fsmatrix: dry run: no probe runs (the plan event lists the cells)");
		return;
	}
	if (!bs.loaded)
		load(p);
	for (;;) {
		bisect_next(&bs.b, &st);
		announce(p);
		if (bs.finished) {
			say("fsmatrix: bisect: the search ended in an earlier boot: %s", st.why);
			return;
		}
		if (st.what == BISECT_DONE) {
			result(p, &st);
			return;
		}
		/* each step's reason, so that the console replays the search; a repetition an
		 * unclear probe adds says so */
		if (said != st.kernel || strcmp(st.why, "unclear: one more repetition") == 0)
			say("fsmatrix: bisect: probe %d, %s: repetition %d: %s (last good %s, first bad "
			    "%s so far)", st.probes, p->kernels[st.kernel], st.rep, st.why,
			    p->kernels[st.lo], p->kernels[st.hi]);
		said = st.kernel;
		if (matrix_kernel_cell(p, p->bisect.slot, st.rep, st.kernel, &c) < 0)
			fatal("bisect: unable to place repetition %d of %s under kernel %s", st.rep,
			      p->bisect.cell, p->kernels[st.kernel]);
		if (c.kernel != kernels_booted()) {
			elsewhere(env, p, &c);
			continue;
		}
		if (!warmed && p->warmup > 0)
			matrix_warm_up(env, p, &c);
		warmed = 1;
		double v = NAN;
		/* the figure first: bisect_add's arguments are evaluated in no set order */
		int ok = matrix_run_one(env, p, &c, &r) && metric_of(p, &r, &v);
		/* not run (settled now as failed: interrupted more often than retries allow) or
		 * without a figure: a repetition all the same */
		bisect_add(&bs.b, c.kernel, ok, v);
	}
}
