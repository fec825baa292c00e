/* report/definition.c: what a cell's figures were measured under, as its records say it
 * (report.h, report_cell_definition): the plan's sha256 and scale, the workload's defining
 * fields, the mkfs options, the mount options in effect, the tunables asked, the layer stack,
 * md's bitmap and whether caches were dropped. The history keeps it with each figure and never
 * puts two definitions in one series; compare names every difference before it tests. */
#include "report/model.h"
#include "report/lean.h"
#include "core/model/plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The workload's defining fields (its row's `defines`); a size relative to the machine as
 * its formula, since the bytes follow the machine, which conditions compare. */
static json_t *workload_of(json_t *rec, const char *wtype)
{
	const struct wl_kind *k = report_kind(wtype);
	json_t *res = json_object_get(rec, "result"), *size = json_object_get(rec, "size");
	const char *formula = json_string_value(json_object_get(size, "formula"));
	json_t *w = json_object();
	json_object_set_new(w, "type", json_string(wtype ? wtype : ""));
	for (const char *s = k && k->defines ? k->defines : ""; *s; s += strspn(s, " ")) {
		size_t n = strcspn(s, " ");
		char key[32];
		snprintf(key, sizeof key, "%.*s", (int)n, s);
		s += n;
		json_t *v = json_object_get(res, key);
		if (formula && (!strcmp(key, "bytes") || !strcmp(key, "files") || !strcmp(key, "dirs")))
			continue;
		if (v)
			json_object_set(w, key, v);
	}
	if (formula) {
		json_object_set_new(w, "size", json_string(formula));
		json_object_set(w, "size_scale", json_object_get(size, "scale"));
	}
	return w;
}

/* mkfs's options: its argv less the devices it was given (/dev/...: the array's name). */
static json_t *mkfs_options(json_t *argv)
{
	json_t *o = json_array(), *v;
	size_t i;
	json_array_foreach(argv, i, v) {
		const char *s = json_string_value(v);
		if (s && strncmp(s, "/dev/", 5) != 0)
			json_array_append(o, v);
	}
	return o;
}

/* The options field of a /proc/mounts line ("/dev/md0 /mnt/test ext4 rw,relatime 0 0"). */
static json_t *mount_options(const char *line)
{
	char dev[256], dir[256], type[64], opts[1024];
	if (!line || sscanf(line, "%255s %255s %63s %1023s", dev, dir, type, opts) != 4)
		return NULL;
	return json_string(opts);
}

json_t *report_cell_definition(const struct rrun *r, const struct rcell *c)
{
	json_t *rec = c->first_ok ? c->first_ok : c->first, *plan = json_object_get(r->header, "plan");
	json_t *d = json_object(), *v;
	if (!rec)
		return d;
	if ((v = json_object_get(plan, "sha256")) && json_is_string(v))
		json_object_set(d, "plan", v);
	if ((v = json_object_get(plan, "scale")))
		json_object_set(d, "scale", v);
	json_object_set_new(d, "workload", workload_of(rec, c->wtype));
	if ((v = json_object_get(rec, REPORT_MKFS_KEY)))
		json_object_set_new(d, "mkfs", mkfs_options(v));
	if ((v = mount_options(json_string_value(json_object_get(rec, "mount_effective")))))
		json_object_set_new(d, "mount", v);
	if ((v = json_object_get(json_object_get(rec, "tunables"), "asked")))
		json_object_set(d, "tunables", v);
	if ((v = json_object_get(c->axes, "layers")))
		json_object_set(d, "layers", v);
	if ((v = json_object_get(rec, "bitmap")) && !json_is_null(v))
		json_object_set(d, "bitmap", v);
	if ((v = json_object_get(r->plan, "drop_caches")))
		json_object_set(d, "drop_caches", v);
	return d;
}

/* A value as a person reads it: a string as it is, a size in bytes as a plan writes it,
 * true/false as yes/no, anything else as compact JSON. */
static void text_of(const char *key, json_t *v, char *out, size_t len)
{
	if (!v) {
		snprintf(out, len, "-");
	} else if (json_is_string(v)) {
		snprintf(out, len, "%s", json_string_length(v) ? json_string_value(v) : "none");
	} else if (json_is_boolean(v)) {
		snprintf(out, len, "%s", json_is_true(v) ? "yes" : "no");
	} else if (json_is_integer(v) && json_integer_value(v) > 0 &&
		   (!strcmp(key, "bytes") || !strcmp(key, "bs") || !strcmp(key, "background"))) {
		plan_fmt_size((uint64_t)json_integer_value(v), out, len);
	} else if (json_is_array(v)) {
		size_t k = 0, i;
		json_t *x;
		snprintf(out, len, "%s", json_array_size(v) ? "" : "none");
		json_array_foreach(v, i, x)
			if (k < len)
				k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " " : "",
						      json_is_string(x) ? json_string_value(x) : "?");
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		snprintf(out, len, "%s", s ? s : "?");
		free(s);
	}
}

/* The strings of a that b lacks (an argv's options one side gave), in a's order. */
static json_t *only_in(json_t *a, json_t *b)
{
	json_t *o = json_array(), *x, *y;
	size_t i, j;
	json_array_foreach(a, i, x) {
		int found = 0;
		json_array_foreach(b, j, y)
			found |= json_equal(x, y);
		if (!found)
			json_array_append(o, x);
	}
	return o;
}

struct diff {
	char *s;
	size_t len, used;
	int n;
};

static void add(struct diff *d, const char *what, const char *key, json_t *a, json_t *b)
{
	char ta[160], tb[160];
	text_of(key, a, ta, sizeof ta);
	text_of(key, b, tb, sizeof tb);
	d->n++;
	if (d->used + 2 < d->len)
		d->used += (size_t)snprintf(d->s + d->used, d->len - d->used, "%s%s%s%s %s / %s",
					    d->used ? "; " : "", what, *key && *what ? " " : "", key,
					    ta, tb);
	if (d->used >= d->len)
		d->used = d->len - 1;
}

int report_definition_diff(json_t *a, json_t *b, char *why, size_t len)
{
	static const char *const parts[] = { "workload", "mkfs", "mount", "tunables", "layers",
					     "bitmap", "drop_caches", "scale", "plan" };
	struct diff d = { why, len, 0, 0 };
	if (len)
		why[0] = '\0';
	/* the plan's sha256 covers every cell: with both cells' mkfs known, all a cell's own
	 * definition is above, and an edit elsewhere in the plan is not this cell's; one plan
	 * defines its cells alike, but for the scale it ran at: what else differs then (the
	 * options in effect as two kernels show them) is the kernel's or the machine's */
	int own = json_object_get(a, "mkfs") && json_object_get(b, "mkfs");
	json_t *pa = json_object_get(a, "plan"), *pb = json_object_get(b, "plan");
	int one_plan = pa && pb && json_equal(pa, pb);
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		const char *p = parts[i];
		json_t *va = json_object_get(a, p), *vb = json_object_get(b, p);
		if (!va || !vb || json_equal(va, vb) || (own && !strcmp(p, "plan")) ||
		    (one_plan && strcmp(p, "scale") != 0))
			continue;   /* a field an older record lacks is not a difference */
		if (json_is_object(va) && json_is_object(vb)) {
			/* a workload field an older record lacks is no difference; a tunable one
			 * side does not set is */
			int all = strcmp(p, "workload") != 0;
			const char *k;
			json_t *x;
			json_object_foreach(va, k, x)
				if ((all || json_object_get(vb, k)) && !json_equal(x, json_object_get(vb, k)))
					add(&d, p, k, x, json_object_get(vb, k));
			json_object_foreach(vb, k, x)
				if (all && !json_object_get(va, k))
					add(&d, p, k, NULL, x);
		} else if (json_is_array(va) && json_is_array(vb)) {
			json_t *oa = only_in(va, vb), *ob = only_in(vb, va);
			add(&d, p, "", oa, ob);
			json_decref(oa);
			json_decref(ob);
		} else if (!strcmp(p, "plan") && json_is_string(va) && json_is_string(vb)) {
			json_t *sa = json_sprintf("%.12s", json_string_value(va));
			json_t *sb = json_sprintf("%.12s", json_string_value(vb));
			add(&d, "plan sha256", "", sa, sb);
			json_decref(sa);
			json_decref(sb);
		} else {
			add(&d, p, "", va, vb);
		}
	}
	return d.n;
}
