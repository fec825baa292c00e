/* cell/record.c: the cell record, one per (cell, rep): its axes, verdict, what the
 * kernel applied, the workload's result, the state around it and every step. Readers
 * (report/, compare) depend on its fields; their order is part of the format. */
#include "cell/ctx.h"
#include "core/model/level.h"
#include "core/model/outcome.h"
#include "core/workload/workload_kinds.h"
#include "core/workload/wlsize.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const cell_status_names[CELL_NSTATUS] = { "ok", "error", "skipped", "timeout",
						      "interrupted", "hung" };

/* The inner value of a one-key object made by cell/cell.c's capture of a probe. */
static const char *inner(const char *json, size_t *n)
{
	const char *colon = strchr(json, ':');
	if (!json[0] || !colon) {
		*n = 0;
		return NULL;
	}
	*n = strlen(colon + 1) - 1; /* without the closing brace */
	return colon + 1;
}

static void raw_part(struct jw *w, const char *key, const char *json)
{
	size_t n;
	const char *v = inner(json, &n);
	jw_key(w, key);
	jw_raw(w, v, n);
}

static void steps_json(struct jw *w, const struct cell_ctx *x)
{
	jw_key(w, "steps");
	jw_arr(w);
	for (int i = 0; i < x->nsteps; i++) {
		const struct step *s = &x->steps[i];
		jw_obj(w);
		jw_key(w, "argv");
		jw_arr(w);
		const char *p = s->words;
		for (int k = 0; k < s->nwords; k++, p += strlen(p) + 1)
			jw_str(w, p);
		jw_end_arr(w);
		jw_kint(w, "status", s->status);
		if (s->timed_out)
			jw_kbool(w, "timed_out", 1);
		jw_kint(w, "ms", s->ms);
		jw_kstr(w, "stderr", s->err);
		jw_end_obj(w);
	}
	jw_end_arr(w);
}

static void axes_json(struct jw *w, const struct cell_ctx *x)
{
	const struct plan_array *a = &x->p->arrays[x->c->array];
	const struct plan_fs *f = &x->p->fs[x->c->fs];
	const struct plan_workload *wl = &x->p->workloads[x->c->workload];
	jw_key(w, "axes");
	jw_obj(w);
	jw_kstr(w, "array", a->name);
	jw_kstr(w, "level", level_name(a->level));
	jw_kint(w, "devices", a->devices);
	jw_kint(w, "missing", a->missing);
	jw_key(w, "chunk");
	if (x->c->chunk)
		jw_int(w, (long long)x->c->chunk);
	else
		jw_null(w);
	jw_kstr(w, "fs", f->name);
	jw_kstr(w, "fstype", plan_fs_name(f->type));
	jw_kstr(w, "mount", f->mount[x->c->mount]);
	jw_kstr(w, "workload", wl->name);
	jw_kstr(w, "wtype", plan_wl_name(wl->type));
	/* Each tunable the array sets, by its name: an axis as chunk is. */
	tun_json_given(w, x->c->tun_given, x->c->tun);
	/* The layer stack between the array and the filesystem: an axis as chunk is. */
	if (x->c->stack >= 0) {
		char st[PLAN_STR_MAX];
		layer_stack_name(x->p->layers, &a->stacks[x->c->stack], st, sizeof st);
		jw_kstr(w, "layers", st);
	}
	/* The kernel set: the cell's own in a run under several (PID 1 runs a cell only under
	 * it; a record written for it under another, an error or an interruption, says so too),
	 * else the one booted (fsmatrix.kernel=): an axis once runs under several meet. */
	if (x->c->kernel >= 0)
		jw_kstr(w, "kernel", x->p->kernels[x->c->kernel]);
	else if (x->env->kernel)
		jw_kstr(w, "kernel", x->env->kernel);
	jw_end_obj(w);
}

/* "warnings" and "disks": arrays of strings. */
static void lists_json(struct jw *w, const struct cell_ctx *x)
{
	jw_key(w, "warnings");
	jw_arr(w);
	for (int i = 0; i < x->warn.n; i++)
		jw_str(w, x->warn.msg[i]);
	jw_end_arr(w);
	jw_key(w, "disks");
	jw_arr(w);
	for (int i = 0; i < x->n; i++)
		jw_str(w, x->names[i]);
	jw_end_arr(w);
}

/* "mount_effective" (/proc/mounts' line) and "mount_ignored", the comma list as an array. */
static void mount_json(struct jw *w, const struct cell_ctx *x)
{
	jw_kstr(w, "mount_effective", x->mount_line[0] ? x->mount_line : NULL);
	jw_klist(w, "mount_ignored", x->mount_ignored);
	jw_kstr(w, "btrfs_profile", x->btrfs_profile[0] ? x->btrfs_profile : NULL);
}

/* "result" and "cpu": null both when the workload never ran. */
static void result_json(struct jw *w, const struct cell_ctx *x)
{
	jw_key(w, "result");
	if (x->wl_ran) {
		jw_obj(w);
		workload_result_json(w, &x->wl);
		jw_end_obj(w);
		workload_cpu_json(w, &x->wl);
	} else {
		jw_null(w);
		jw_key(w, "cpu");
		jw_null(w);
	}
}

/* "figure": the workload's main figure with its unit, right after "status", so that a
 * console pattern (a LAVA monitor) can make it a test case's measurement: the first of the
 * report's columns the cell measured (wl_kind_column), or the first column with a null value
 * when the cell measured nothing. */
static void figure_json(struct jw *w, const struct cell_ctx *x)
{
	const struct wl_kind *k = wl_kind_of(x->p->workloads[x->c->workload].type);
	const struct metric *m = NULL;
	double v = NAN;
	for (int col = 1; x->status == CELL_OK && x->wl_ran; col++) {
		m = wl_kind_column(k, col);
		if (!m || isfinite(v = workload_figure(&x->wl, m->key)))
			break;
	}
	if (!m)
		m = wl_kind_column(k, 1);
	jw_key(w, "figure");
	if (!m) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kstr(w, "metric", m->key);
	jw_key(w, "value");
	jw_double(w, v, m->decimals);   /* NaN: null */
	jw_kstr(w, "unit", m->unit);
	jw_end_obj(w);
}

/* "devices": each member's health as its device gave it before and after the cell. */
static void devices_json(struct jw *w, const struct cell_ctx *x)
{
	jw_key(w, "devices");
	jw_arr(w);
	for (int i = 0; x->dev_read && i < x->n; i++) {
		jw_obj(w);
		jw_kstr(w, "name", x->names[i]);
		jw_kstr(w, "kind", dev_kind_name(x->dev_before[i].kind));
		jw_key(w, "before");
		dev_health_json(w, &x->dev_before[i].health);
		jw_key(w, "after");
		dev_health_json(w, &x->dev_after[i].health);
		jw_end_obj(w);
	}
	jw_end_arr(w);
	jw_kint(w, "devices_ms", x->devices_ms);
}

/* "size": a relative size as the plan gave it, what it was taken of and what it came to;
 * absent for a size in bytes (the result's own fields have those). */
static void size_json(struct jw *w, const struct cell_ctx *x)
{
	const struct plan_workload *wl = &x->p->workloads[x->c->workload];
	char f[48];
	if (wl->size_rel.base == SIZE_BYTES || !x->size_bytes)
		return;
	wlsize_text(&wl->size_rel, f, sizeof f);
	jw_key(w, "size");
	jw_obj(w);
	jw_kstr(w, "formula", f);
	jw_kdouble(w, "scale", wl->size_rel.scale, 4);
	jw_kint(w, "basis", (long long)x->size_basis);
	jw_kint(w, "bytes", (long long)x->size_bytes);
	jw_end_obj(w);
}

/* "hang" (a hung cell's evidence, cell/hang_evidence.c), "kernel_faults" and "tainted"
 * (cell/hang.c). */
static void hang_json(struct jw *w, const struct cell_ctx *x)
{
	if (x->hang[0]) {
		jw_key(w, "hang");
		jw_raw(w, x->hang, strlen(x->hang));
	}
	if (x->nfaults) {
		jw_key(w, "kernel_faults");
		jw_arr(w);
		for (int i = 0; i < x->nfaults; i++) {
			jw_obj(w);
			jw_kstr(w, "kind", x->faults[i].kind);
			jw_kstr(w, "line", x->faults[i].line);
			jw_end_obj(w);
		}
		jw_end_arr(w);
	}
	if (x->tainted[0])
		jw_kstr(w, "tainted", x->tainted);
}

static void record_json(struct jw *w, const struct cell_ctx *x)
{
	record_begin(w, x->warmup ? "warmup" : "cell");
	jw_kstr(w, "run", x->env->run_id);
	jw_kstr(w, "cell", x->c->id);
	jw_kint(w, "rep", x->c->rep);
	jw_kint(w, "reps", x->p->repeat);
	jw_kint(w, "index", x->c->index + 1);
	jw_kint(w, "total", matrix_count(x->p));
	jw_kint(w, "attempt", x->attempt);
	/* a test case per repetition, before "status" as a console pattern reads them; a
	 * warm-up is no test case (it would double the first cell's) */
	char name[sizeof x->c->id + 48];
	cell_case_name(x->c->id, x->c->rep, x->attempt, name, sizeof name);
	if (!x->warmup)
		jw_kstr(w, "case", name);
	if (x->warmup) {
		jw_kint(w, "warmup", x->warmup);
		jw_kint(w, "warmups", x->warmups);
	}
	jw_kstr(w, "fingerprint", x->env->fingerprint);
	axes_json(w, x);
	jw_kstr(w, "status", cell_status_names[x->status]);
	figure_json(w, x);
	jw_kstr(w, "error", x->status == CELL_OK ? NULL : x->error);
	hang_json(w, x);
	lists_json(w, x);
	size_json(w, x);
	jw_kstr(w, "target", x->target);
	cell_layers_json(w, x);
	cell_durability_json(w, x);
	cell_lvm_json(w, x);
	jw_kstr(w, "reused", reuse_name(x->reuse));
	if (x->reuse != REUSE_NONE)
		jw_kint(w, "reused_from", x->reused_from);
	jw_kstr(w, "bitmap", x->bitmap[0] ? x->bitmap : NULL);
	jw_kbool(w, "discarded", x->discarded);
	jw_key(w, "resync_s");
	if (x->resync_s >= 0)
		jw_double(w, x->resync_s, 3);
	else
		jw_null(w);
	mount_json(w, x);
	cell_tunables_json(w, x);
	result_json(w, x);
	answer_json(w, x);
	raw_part(w, "df_before", x->df_before);
	raw_part(w, "df_after", x->df_after);
	raw_part(w, "queue", x->queue);
	raw_part(w, "md", x->mdstate);
	devices_json(w, x);
	jw_kstr(w, "md_detail", x->md_detail[0] ? x->md_detail : NULL);
	jw_kstr(w, "fs_geometry", x->fs_geom[0] ? x->fs_geom : NULL);
	steps_json(w, x);
	jw_end_obj(w);
}

void cell_emit_record(struct cell_ctx *x, int trimmed)
{
	static char buf[200 * 1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_json(&w, x);
	if (jw_done(&w) < 0 && !trimmed) {
		/* Too big (a tool that printed pages): keep the verdict, drop the texts. */
		x->env->ops->say("fsmatrix: cell record too large: md_detail and fs_geometry dropped");
		x->md_detail[0] = x->fs_geom[0] = '\0';
		for (int i = 0; i < x->nsteps; i++)
			x->steps[i].err[x->steps[i].err[0] ? 200 : 0] = '\0';
		cell_emit_record(x, 1);
		return;
	}
	x->env->ops->emit(&w);
}
