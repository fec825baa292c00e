/* cell/answer.c: what a cell's figure means, in its record: "limit" (what its array could
 * stream at best, from the disks' own speed measured at boot: core/figures/limit.h), "efficiency"
 * (the figure over it), and "bottleneck" (what held it back: core/figures/bottleneck.h, from what the
 * sampler counted while the workload ran). */
#include "cell/ctx.h"
#include "core/figures/bottleneck.h"
#include "core/model/level.h"
#include "core/figures/limit.h"
#include "engines/engine.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The limit of this cell, 0, or -1 with why in l->rule. */
static int cell_limit(const struct cell_ctx *x, enum limit_dir dir, struct limit *l)
{
	const struct disk_speeds *sp = x->env->speeds;
	const struct plan_array *a = &x->p->arrays[x->c->array];
	double alone[PLAN_DEVICES_MAX];
	const char *names[PLAN_DEVICES_MAX];
	if (dir != LIMIT_NONE && (!sp || !sp->n)) {
		l->mbps = NAN;
		snprintf(l->rule, sizeof l->rule, "no limit measured (disk_speed = off)");
		return -1;
	}
	for (int i = 0; dir != LIMIT_NONE && i < x->n; i++) {
		int k = speeds_find(sp, x->names[i]);
		const struct speed_fig *f = k < 0 ? NULL : dir == LIMIT_READ ? &sp->read[k] : &sp->write[k];
		names[i] = x->names[i];
		alone[i] = f ? f->mbps : NAN;
	}
	return limit_of(a->level, a->devices, a->missing, a->layout, alone, names, x->n,
			speeds_together(sp, names, x->n, dir), dir, l);
}

/* The workload's own CPU time, in % of one CPU: its engine's share of the machine times the
 * machine's CPUs. */
static double harness_pct(const struct cell_ctx *x)
{
	const struct engine *e = engine_of(x->wl.type);
	if (!e)
		return NAN;
	const struct wl_cpu *c = e->cpu(x->wl.res);
	return (c->user_pct + c->sys_pct) * (double)sysconf(_SC_NPROCESSORS_ONLN);
}

/* "limit" and "efficiency"; returns the efficiency (NaN: none). */
static double limit_json(struct jw *w, const struct cell_ctx *x)
{
	const struct plan_workload *wl = &x->p->workloads[x->c->workload];
	const char *metric;
	enum limit_dir dir = limit_dir_of(wl->type, wl->rw, &metric);
	struct limit l;
	cell_limit(x, dir, &l);
	jw_key(w, "limit");
	jw_obj(w);
	jw_key(w, "mbps");
	jw_double(w, l.mbps, 1);
	jw_kstr(w, "direction", dir == LIMIT_READ ? "read" : dir == LIMIT_WRITE ? "write" : NULL);
	jw_kstr(w, "metric", metric);
	jw_kstr(w, "rule", l.rule);
	jw_end_obj(w);
	double v = metric && x->status == CELL_OK ? workload_figure(&x->wl, metric) : NAN;
	double eff = isfinite(v) && l.mbps > 0 ? v / l.mbps : NAN;
	jw_key(w, "efficiency");
	jw_double(w, eff, 3);
	return eff;
}

/* What the rules looked at, so that a reader (and a test on the host) can judge it again:
 * with the decimals that give the same evidence again (its percentages are rounded from
 * these). */
static void inputs_json(struct jw *w, const struct bn_input *in)
{
	jw_key(w, "inputs");
	jw_obj(w);
	jw_kdouble(w, "secs", in->secs, 6);
	jw_kbool(w, "write_only", in->write_only);
	jw_kbool(w, "parity", in->parity);
	jw_kdouble(w, "chunk_bytes", in->chunk_bytes, 0);
	jw_key(w, "members");
	jw_arr(w);
	for (int i = 0; i < in->nmembers; i++) {
		jw_obj(w);
		jw_kstr(w, "name", in->m[i].name);
		jw_kdouble(w, "util_pct", in->m[i].util_pct, 3);
		jw_kdouble(w, "read_mb", in->m[i].read_mb, 6);
		jw_kdouble(w, "write_mb", in->m[i].write_mb, 6);
		jw_kdouble(w, "write_ios", in->m[i].write_ios, 0);
		jw_end_obj(w);
	}
	jw_end_arr(w);
	jw_kstr(w, "md_thread", in->md_thread);
	jw_kdouble(w, "md_thread_pct", in->md_thread_pct, 3);
	jw_kdouble(w, "harness_pct", in->harness_pct, 3);
	jw_kdouble(w, "machine_pct", in->machine_pct, 3);
	jw_kdouble(w, "dirty_limited_pct", in->dirty_limited_pct, 3);
	jw_kdouble(w, "efficiency", in->efficiency, 6);
	jw_end_obj(w);
}

static void bottleneck_json(struct jw *w, const struct cell_ctx *x, double efficiency)
{
	const struct plan_workload *wl = &x->p->workloads[x->c->workload];
	const struct plan_array *a = &x->p->arrays[x->c->array];
	struct bn_input in;
	char *const *members;
	int nm = cell_watched(x, &members);
	jw_key(w, "bottleneck");
	if (x->status != CELL_OK ||
	    sampler_bottleneck_input(&x->smp, x->target_name, members, nm, &in) < 0) {
		jw_null(w);
		return;
	}
	const char *metric;
	in.write_only = limit_dir_of(wl->type, wl->rw, &metric) == LIMIT_WRITE ||
			wl->type == WL_TAR || wl->type == WL_SMALLFILES;
	in.parity = level_find(a->level)->parity > 0;
	in.chunk_bytes = (double)x->c->chunk;
	in.harness_pct = harness_pct(x);
	in.efficiency = efficiency;
	struct bottleneck b;
	bottleneck_judge(&in, &b);
	jw_obj(w);
	jw_kstr(w, "kind", b.kind);
	jw_kstr(w, "evidence", b.evidence);
	inputs_json(w, &in);
	jw_end_obj(w);
}

void answer_json(struct jw *w, const struct cell_ctx *x)
{
	if (x->warmup)
		return;
	bottleneck_json(w, x, limit_json(w, x));
}
