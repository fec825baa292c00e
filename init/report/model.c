/* report/model.c: a run's cell records folded into cells (repeats together), with
 * statistics over the ok repeats and the cells that were planned but never ran. */
#include "report/timeseries.h"
#include "core/model/tunable.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct wl_kind *kind_of(const char *wtype)
{
	return report_kind(wtype);
}

/* Unknown workload types: every numeric field, times (…_s) lower is better. Kept for the
 * life of the process, since cells point at them. */
static struct metric generic[64];
static size_t ngeneric;

static const struct metric *generic_metric(const char *key)
{
	for (size_t i = 0; i < ngeneric; i++)
		if (strcmp(generic[i].key, key) == 0)
			return &generic[i];
	if (ngeneric == sizeof generic / sizeof generic[0])
		return NULL;
	size_t kl = strlen(key);
	int time = kl > 2 && strcmp(key + kl - 2, "_s") == 0;
	generic[ngeneric] = (struct metric){ strdup(key), strdup(key), time ? "s" : "", !time, 2, 0 };
	return &generic[ngeneric++];
}

size_t report_metrics(const char *wtype, json_t *result, const struct metric **out, size_t max)
{
	size_t n = 0;
	const struct wl_kind *k = kind_of(wtype);
	if (k) {
		/* the engine's report columns, 1, 2, ... in that order */
		for (int col = 1;; col++) {
			const struct metric *m = wl_kind_column(k, col);
			if (!m || n == max)
				return n;
			out[n++] = m;
		}
	}
	const char *key;
	json_t *v;
	json_object_foreach(result, key, v) {
		if (!json_is_number(v) || n == max)
			continue;
		const struct metric *m = generic_metric(key);
		if (m)
			out[n++] = m;
	}
	return n;
}

void axis_text(json_t *axes, const char *axis, char *out, size_t len)
{
	json_t *v = json_object_get(axes, axis);
	if (json_is_string(v)) {
		snprintf(out, len, "%s", json_string_value(v));
	} else if (json_is_integer(v)) {
		long long x = json_integer_value(v);
		/* chunk sizes are in bytes; people speak of them in KiB */
		if (strcmp(axis, "chunk") == 0 && x > 0 && x % 1024 == 0)
			snprintf(out, len, "%lldk", x / 1024);
		else
			snprintf(out, len, "%lld", x);
	} else if (json_is_real(v)) {
		snprintf(out, len, "%g", json_real_value(v));
	} else if (json_is_boolean(v)) {
		snprintf(out, len, "%s", json_is_true(v) ? "yes" : "no");
	} else {
		snprintf(out, len, "%s", "");
	}
}

/* The axes whose text a cell keeps: the record's, each tunable's, the kernel set's. */
#define NKEPT (report_naxes + TUN_COUNT + 1)
static const char *kept_axis(size_t a)
{
	return a < report_naxes ? report_axes[a]
	       : a < report_naxes + TUN_COUNT ? tun_rows[a - report_naxes].name : "kernel";
}

/* The index of a kept axis, or -1. A sort asks this of every cell for each axis in turn:
 * the last few names asked are remembered by address, and checked. */
static long kept_index(const char *axis)
{
	static struct { const char *p; long i; } seen[8];
	size_t h = ((uintptr_t)axis >> 3) % 8;
	if (seen[h].p == axis && strcmp(kept_axis((size_t)seen[h].i), axis) == 0)
		return seen[h].i;
	for (size_t a = 0; a < NKEPT; a++)
		if (strcmp(kept_axis(a), axis) == 0) {
			seen[h].p = axis;
			seen[h].i = (long)a;
			return (long)a;
		}
	return -1;
}

const char *report_cell_axis(const struct rcell *c, const char *axis, char *buf, size_t len)
{
	long a = c->axis ? kept_index(axis) : -1;
	if (a >= 0)
		return c->axis[a];
	axis_text(c->axes, axis, buf, len);
	return buf;
}

/* "scs4096", "schedbfq", "db64m": a kernel tunable's part of a cell id (core/matrix/matrix.c), into
 * axes; the longest id part that matches wins ("dbb" before "db"). Returns 0 for a part that
 * is none (a chunk's, or a dash in the array's name). */
static int id_tunable(json_t *a, const char *part)
{
	int best = -1;
	size_t bl = 0;
	long long v = 0;
	for (int t = 0; t < TUN_COUNT; t++) {
		size_t l = strlen(tun_rows[t].abbr);
		long long x;
		char msg[160];
		if (l > bl && strncmp(part, tun_rows[t].abbr, l) == 0 &&
		    tun_parse(t, part + l, &x, msg, sizeof msg) == 0) {
			best = t;
			bl = l;
			v = x;
		}
	}
	if (best < 0)
		return 0;
	if (tun_rows[best].kind == TUN_CHOICE) {
		char name[48];
		tun_format(best, v, name, sizeof name);
		json_object_set_new(a, tun_rows[best].name, json_string(name));
	} else {
		json_object_set_new(a, tun_rows[best].name, json_integer(v));
	}
	return 1;
}

/* Axes from a cell id, <array>[-c<chunk>][-<tunable>...]/<fs>/<mount>/<workload>[@<kernel>],
 * for planned cells that never ran and so left no record. */
static json_t *axes_from_id(const char *full)
{
	json_t *a = json_object();
	char id[1024];
	snprintf(id, sizeof id, "%s", full);
	char *at = strrchr(id, '@');
	if (at && !strchr(at, '/')) {
		json_object_set_new(a, "kernel", json_string(at + 1));
		*at = '\0';
	}
	const char *s1 = strchr(id, '/');
	const char *sl = strrchr(id, '/');
	if (!s1 || s1 == sl) {
		json_object_set_new(a, "workload", json_string(id));
		return a;
	}
	const char *s2 = strchr(s1 + 1, '/');
	char arr[256];
	snprintf(arr, sizeof arr, "%.*s", (int)(s1 - id), id);
	/* From the end, each part a tunable's; a scheduler's value has a dash of its own
	 * (schedmq-deadline), so a part may start at an earlier dash. */
	for (int more = 1; more;) {
		more = 0;
		for (char *d = arr + strlen(arr); d > arr && !more;)
			if (*--d == '-' && id_tunable(a, d + 1)) {
				*d = '\0';
				more = 1;
			}
	}
	char *c = strstr(arr, "-c");
	if (c) {
		char *end;
		long long k = strtoll(c + 2, &end, 10);
		long long mul = *end == 'k' || *end == 'K' ? 1024 : *end == 'm' || *end == 'M' ? 1048576 : 1;
		json_object_set_new(a, "chunk", json_integer(k * mul));
		*c = 0;
	}
	json_object_set_new(a, "array", json_string(arr));
	json_object_set_new(a, "fs", json_stringn(s1 + 1, (size_t)(s2 - s1 - 1)));
	if (s2 != sl)
		json_object_set_new(a, "mount", json_stringn(s2 + 1, (size_t)(sl - s2 - 1)));
	json_object_set_new(a, "workload", json_string(sl + 1));
	return a;
}

struct rcell *report_cell_by_id(const struct rrun *r, const char *id)
{
	json_t *ix = json_object_get(r->cell_ix, id);
	return ix ? &r->cells[json_integer_value(ix)] : NULL;
}

int report_never_measured(const struct rcell *c, const char *key)
{
	for (size_t i = 0; c && i < c->nm; i++)
		if (strcmp(c->m[i]->key, key) == 0)
			return c->ok > 0 && c->nulls[i] == c->ok;
	return 0;
}

int report_metric_index(const struct rcell *c, const char *key)
{
	for (size_t i = 0; c && i < c->nm; i++)
		if (strcmp(c->m[i]->key, key) == 0)
			return c->has[i] ? (int)i : -1;
	return -1;
}

static struct rcell *add_cell(struct rrun *r, const char *id, json_t *axes)
{
	/* doubled at each power of two: a copy per cell would make a large run quadratic */
	if ((r->ncells & (r->ncells - 1)) == 0)
		r->cells = realloc(r->cells, (r->ncells ? 2 * r->ncells : 1) * sizeof *r->cells);
	struct rcell *c = &r->cells[r->ncells];
	memset(c, 0, sizeof *c);
	c->id = strdup(id);
	if (!r->cell_ix)
		r->cell_ix = json_object();
	json_object_set_new_nocheck(r->cell_ix, id, json_integer((json_int_t)r->ncells));
	c->axes = axes;
	c->bad = json_array();
	c->ignored = json_array();
	c->kernel = json_array();
	c->device = json_array();
	c->tun_ignored = json_array();
	c->order = (long)r->ncells++;
	c->workload = json_string_value(json_object_get(axes, "workload"));
	if (!c->workload)
		c->workload = "?";
	c->wtype = json_string_value(json_object_get(axes, "wtype"));
	if (!c->wtype)
		c->wtype = c->workload;
	c->status = "ok";
	return c;
}

/* Appends the strings of from that list lacks (matching prefix, if given), each once. */
static void add_unique(json_t *list, json_t *from, const char *prefix)
{
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(from, i, v) {
		const char *s = json_string_value(v);
		if (!s || (prefix && strncmp(s, prefix, strlen(prefix)) != 0))
			continue;
		int seen = 0;
		json_array_foreach(list, j, w)
			seen |= json_equal(v, w);
		if (!seen)
			json_array_append(list, v);
	}
}

static void add_record(struct rcell *c, json_t *rec)
{
	if (!c->first)
		c->first = rec;
	/* Options the kernel accepted but did not apply: every figure of the cell is of the
	 * mount without them (records of older images carry neither field). */
	add_unique(c->ignored, json_object_get(rec, "mount_ignored"), NULL);
	add_unique(c->kernel, json_object_get(rec, "warnings"), "kernel: ");
	size_t wi;
	json_t *wv;
	json_array_foreach(json_object_get(rec, "warnings"), wi, wv)
		if (json_is_string(wv) && strncmp(json_string_value(wv), "device: ", 8) == 0)
			json_array_append_new(c->device, json_sprintf("rep %lld/%lld: %s",
				(long long)json_integer_value(json_object_get(rec, "rep")),
				(long long)json_integer_value(json_object_get(rec, "reps")),
				json_string_value(wv)));
	/* Tunables the kernel did not take, at a place ("nr_requests@vdb") or for vm. */
	add_unique(c->tun_ignored, json_object_get(rec, "tunables_ignored"), NULL);
	const char *status = json_string_value(json_object_get(rec, "status"));
	json_t *result = json_object_get(rec, "result");
	if (!status)
		status = "error";
	/* An attempt a reboot cut short (a resumed run) is listed with the failures, but it is
	 * not a repetition: the cell has a later record of its own. */
	if (strcmp(status, "interrupted") != 0)
		c->seen++;
	json_int_t reps = json_integer_value(json_object_get(rec, "reps"));
	if (reps > c->reps)
		c->reps = (int)reps;
	if (strcmp(status, "ok") != 0) {
		json_array_append(c->bad, rec);
		return;
	}
	c->ok++;
	if (!c->first_ok)
		c->first_ok = rec;
	if (c->nm == 0)
		c->nm = report_metrics(c->wtype, result, c->m, REPORT_MAX_METRICS);
	/* Every metric is added each time, in c->m's order, so that its index in c->fig is
	 * its index in c->m; a string, null or nothing is no figure to average (NaN). */
	json_int_t rep = json_integer_value(json_object_get(rec, "rep"));
	for (size_t i = 0; i < c->nm; i++) {
		json_t *v = json_object_get(result, c->m[i]->key);
		double x = json_is_number(v) ? json_number_value(v) : NAN;
		c->nulls[i] += json_is_null(v);
		stats_cell_add_rep(&c->fig, c->m[i]->key, x, rep > 0 && rep < 1000000 ? (int)rep : 0);
	}
}

/* A value as a hash key: its JSON text, so that only equal values (json_equal) meet. */
static char *value_key(json_t *v)
{
	return v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

/* A planned cell that never ran has only the axes its id names; the rest (level, devices,
 * wtype...) are copied from the first cell that ran on the same array or workload, so that
 * it falls into the same table row as its siblings. Those first cells are found through a
 * hash per axis, since a run cut short has most of its cells missing. */
static void fill_axes(struct rrun *r)
{
	static const struct { const char *key, *by; } from[] = {
		{ "level", "array" }, { "devices", "array" }, { "missing", "array" }, { "chunk", "array" },
		{ "fstype", "fs" }, { "wtype", "workload" },
	};
	enum { NFROM = sizeof from / sizeof from[0] };
	json_t *first[NFROM];   /* value of by -> the key's value in the first cell that ran */
	for (size_t k = 0; k < NFROM; k++) {
		first[k] = json_object();
		for (size_t j = 0; j < r->ncells; j++) {
			json_t *v = json_object_get(r->cells[j].axes, from[k].key);
			char *by = value_key(json_object_get(r->cells[j].axes, from[k].by));
			if (!r->cells[j].missing && v && by && !json_object_get(first[k], by))
				json_object_set_nocheck(first[k], by, v);
			free(by);
		}
	}
	for (size_t i = 0; i < r->ncells; i++) {
		struct rcell *c = &r->cells[i];
		if (!c->missing)
			continue;
		for (size_t k = 0; k < NFROM; k++) {
			if (json_object_get(c->axes, from[k].key))
				continue;
			char *want = value_key(json_object_get(c->axes, from[k].by));
			json_t *v = want ? json_object_get(first[k], want) : NULL;
			if (v)
				json_object_set(c->axes, from[k].key, v);
			free(want);
		}
		const char *wt = json_string_value(json_object_get(c->axes, "wtype"));
		if (wt)
			c->wtype = wt;
	}
	for (size_t k = 0; k < NFROM; k++)
		json_decref(first[k]);
}

/* A run with no header is named after its file. */
static void name_run(struct rrun *r)
{
	if (r->id)
		return;
	const char *b = strrchr(r->source, '/');
	b = b && b[1] ? b + 1 : r->source;
	r->id = strdup(b);
	char *dot = strstr(r->id, ".jsonl");
	if (dot)
		*dot = 0;
}

/* The records into cells; returns the largest planned count they carry ("total"). */
static int fold_records(struct rrun *r)
{
	size_t i;
	json_t *rec;
	int total = 0;
	json_array_foreach(r->records, i, rec) {
		const char *id = json_string_value(json_object_get(rec, "cell"));
		if (!id)
			continue;
		struct rcell *c = report_cell_by_id(r, id);
		if (!c) {
			json_t *axes = json_object_get(rec, "axes");
			c = add_cell(r, id, json_is_object(axes) ? json_incref(axes) : axes_from_id(id));
		}
		add_record(c, rec);
		json_int_t t = json_integer_value(json_object_get(rec, "total"));
		if (t > total)
			total = (int)t;
	}
	return total;
}

/* A cell's status over its records, and its statistics and verdicts. */
static void judge_cell(struct rcell *c)
{
	for (size_t k = 0; c->ok == 0 && k < json_array_size(c->bad); k++) {
		const char *st = json_string_value(json_object_get(json_array_get(c->bad, k), "status"));
		if (!c->status || strcmp(c->status, "ok") == 0 ||
		    (strcmp(c->status, "interrupted") == 0 && st))
			c->status = st;
		if (st && strcmp(st, "interrupted") != 0)
			break;
	}
	if (!c->status)
		c->status = "error";
	if (c->reps < c->seen)
		c->reps = c->seen;
	for (size_t m = 0; m < c->nm; m++) {
		c->has[m] = stats_cell_summary(&c->fig, m, &c->st[m]) == 0;
		verdict_of(c->fig.v[m], c->fig.rep[m], c->fig.nv[m], &c->vd[m]);
	}
	/* the same choice of figure, and the same verdict, as the summary record's */
	c->verdict_metric = verdict_cell(&c->fig, kind_of(c->wtype), &c->verdict);
}

/* Planned cells: a list of ids when the header or the plan event (of a dry run) carries
 * one, else positions 1..total that no record took. */
static void planned_cells(struct rrun *r, int total)
{
	size_t i;
	json_t *planned = json_object_get(r->header, "cells");
	if (!json_is_array(planned))
		planned = json_object_get(r->plan, "cell_list");
	json_int_t tc = json_integer_value(json_object_get(r->trailer, "cells"));
	if (tc > total)
		total = (int)tc;
	tc = json_integer_value(json_object_get(r->plan, "cells"));
	if (tc > total)
		total = (int)tc;
	r->total = total;
	if (json_is_array(planned)) {
		json_t *p;
		json_array_foreach(planned, i, p) {
			const char *id = json_is_string(p) ? json_string_value(p)
				: json_string_value(json_object_get(p, "cell"));
			if (!id || report_cell_by_id(r, id))
				continue;
			json_t *axes = json_object_get(p, "axes");
			struct rcell *c = add_cell(r, id, json_is_object(axes) ? json_incref(axes)
							  : axes_from_id(id));
			c->missing = 1;
			c->status = "missing";
			r->nmissing++;
		}
		fill_axes(r);
		if ((int)json_array_size(planned) > r->total)
			r->total = (int)json_array_size(planned);
	}
	/* with a list of planned ids the missing cells have their names already */
	report_positions(r, !json_is_array(planned));
}

void report_model(struct rrun *r)
{
	name_run(r);
	int total = fold_records(r);
	for (size_t i = 0; i < r->ncells; i++)
		judge_cell(&r->cells[i]);
	planned_cells(r, total);
	for (size_t i = 0; i < r->ncells; i++) {
		struct rcell *c = &r->cells[i];
		char v[256];
		c->axis = calloc(NKEPT + 1, sizeof *c->axis);
		for (size_t a = 0; a < NKEPT; a++) {
			axis_text(c->axes, kept_axis(a), v, sizeof v);
			c->axis[a] = strdup(v);
		}
	}
	report_series_attach(r);
}

int report_ignored_text(const struct rcell *c, char *out, size_t len)
{
	size_t n = json_array_size(c->ignored), k = 0, i;
	json_t *v;
	out[0] = 0;
	if (!n)
		return 0;
	json_array_foreach(c->ignored, i, v)
		k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s", i ? ", " : "",
				      json_string_value(v));
	/* the mount was nothing but the ignored options: what ran was the defaults */
	char mount[512];
	axis_text(c->axes, "mount", mount, sizeof mount);
	size_t nopts = 1;
	for (const char *p = mount; *p; p++)
		nopts += *p == ',';
	int only = nopts == n;
	json_array_foreach(c->ignored, i, v) {
		const char *o = json_string_value(v), *p = mount;
		size_t ol = strlen(o);
		int found = 0;
		for (; *p; p += strcspn(p, ","), p += *p == ',')
			found |= strncmp(p, o, ol) == 0 && (p[ol] == ',' || !p[ol]);
		only &= found;
	}
	if (k < len)
		snprintf(out + k, len - k, " %s ignored by the kernel: the cell measured %s",
			 n == 1 ? "was" : "were", only ? "the defaults" : n == 1 ? "the mount without it"
			 : "the mount without them");
	return 1;
}

int report_load_all(const char *const *src, size_t n, struct runset *rs)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		if (report_load(src[i], rs) != 0)
			rc = 1;
	/* shards of two runs: nothing to report (the line on stderr says why) */
	if (report_merge_shards(rs, 1) < 0) {
		report_free(rs);
		return 1;
	}
	for (size_t i = 0; i < rs->n; i++)
		report_model(&rs->run[i]);
	return rc;
}
