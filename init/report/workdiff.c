/* report/workdiff.c: whether two cells of one id ran the same workload (report/grid.h,
 * report_workload_differs). A cell id names the workload's section, not its keys: a plan
 * edited between two runs (size = 64m, then 48m) gives the same ids to other workloads, whose
 * figures differ by the edit. What each engine ran is in its record's result, in the fields
 * its row of core/workload/workload_kinds.c lists as defining it. */
#include "report/model.h"
#include "core/model/plan.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct diff {
	char *s;
	size_t len, used;
};

static void add(struct diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct diff *d, const char *fmt, ...)
{
	if (d->used + 2 >= d->len)
		return;
	if (d->used)
		d->used += (size_t)snprintf(d->s + d->used, d->len - d->used, "; ");
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->s + d->used, d->len - d->used, fmt, ap);
	va_end(ap);
	d->used += n > 0 ? (size_t)n : 0;
	if (d->used >= d->len)
		d->used = d->len - 1;
}

/* A size in bytes, shown as a plan writes it (64m); an fio option's too (--bs=196608). */
static int size_key(const char *k, size_t n)
{
	return (n == 5 && strncmp(k, "bytes", 5) == 0) || (n >= 2 && strncmp(k + n - 2, "bs", 2) == 0) ||
	       (n >= 4 && strncmp(k + n - 4, "size", 4) == 0) || (n == 10 && strncmp(k, "background", 10) == 0);
}

static void value_text(const char *key, json_t *v, char *out, size_t len)
{
	if (json_is_integer(v) && size_key(key, strlen(key)) && json_integer_value(v) > 0)
		plan_fmt_size((uint64_t)json_integer_value(v), out, len);
	else if (json_is_string(v))
		snprintf(out, len, "%s", json_string_length(v) ? json_string_value(v) : "none");
	else if (json_is_boolean(v))
		snprintf(out, len, "%s", json_is_true(v) ? "yes" : "no");
	else if (json_is_number(v))
		snprintf(out, len, "%g", json_number_value(v));
	else
		snprintf(out, len, "-");
}

/* Both sides resolved a relative size from the same formula and scale (the record's "size"):
 * the bytes they wrote follow the machine, and the machines are compared as conditions. */
static int same_formula(json_t *ra, json_t *rb)
{
	json_t *sa = json_object_get(ra, "size"), *sb = json_object_get(rb, "size");
	const char *fa = json_string_value(json_object_get(sa, "formula"));
	const char *fb = json_string_value(json_object_get(sb, "formula"));
	return fa && fb && strcmp(fa, fb) == 0 &&
	       json_equal(json_object_get(sa, "scale"), json_object_get(sb, "scale"));
}

/* The value of option --key (n bytes) in an fio command line: its text after '=', "yes" for
 * a bare --key, NULL when absent. *vl gets its length. */
static const char *option(const char *cmd, const char *key, size_t n, size_t *vl)
{
	for (const char *p = strstr(cmd, " --"); p; p = strstr(p + 1, " --")) {
		const char *k = p + 3;
		size_t kl = strcspn(k, "= ");
		if (kl != n || strncmp(k, key, n) != 0)
			continue;
		if (k[kl] != '=') {
			*vl = 3;
			return "yes";
		}
		*vl = strcspn(k + kl + 1, " ");
		return k + kl + 1;
	}
	return NULL;
}

static void option_text(const char *key, size_t n, const char *v, size_t vl, char *out, size_t len)
{
	char num[32];
	unsigned long long x;
	if (!v)
		snprintf(out, len, "-");
	else if (size_key(key, n) && vl && vl < sizeof num && strspn(v, "0123456789") == vl &&
		 snprintf(num, sizeof num, "%.*s", (int)vl, v) > 0 && sscanf(num, "%llu", &x) == 1 && x)
		plan_fmt_size(x, out, len);
	else
		snprintf(out, len, "%.*s", (int)vl, v);
}

/* fio's command lines option by option: A's options, then those only B gives. */
static void fio_commands(struct diff *d, const char *ca, const char *cb, int skip_size)
{
	size_t before = d->used;
	const char *cmds[2] = { ca, cb };
	for (int side = 0; side < 2; side++)
		for (const char *p = strstr(cmds[side], " --"); p; p = strstr(p + 1, " --")) {
			const char *k = p + 3;
			size_t n = strcspn(k, "= "), la = 0, lb = 0;
			const char *va = option(ca, k, n, &la), *vb = option(cb, k, n, &lb);
			if ((side == 1 && va) || (skip_size && n == 4 && strncmp(k, "size", 4) == 0) ||
			    (va && vb && la == lb && strncmp(va, vb, la) == 0))
				continue;
			char ta[64], tb[64];
			option_text(k, n, va, la, ta, sizeof ta);
			option_text(k, n, vb, lb, tb, sizeof tb);
			add(d, "%.*s %s / %s", (int)n, k, ta, tb);
		}
	if (d->used == before && !skip_size)
		add(d, "the fio command");
}

int report_workload_differs(const struct rcell *a, const struct rcell *b, char *why, size_t len)
{
	struct diff d = { why, len, 0 };
	why[0] = '\0';
	if (!a->first_ok || !b->first_ok || !len)
		return 0;
	if (strcmp(a->wtype, b->wtype) != 0) {
		add(&d, "type %s / %s", a->wtype, b->wtype);
		return 1;
	}
	const struct wl_kind *k = wl_kind_named(a->wtype);
	json_t *ra = json_object_get(a->first_ok, "result"), *rb = json_object_get(b->first_ok, "result");
	int formula = same_formula(a->first_ok, b->first_ok);
	for (const char *s = k && k->defines ? k->defines : ""; *s; s += strspn(s, " ")) {
		size_t n = strcspn(s, " ");
		char key[32];
		snprintf(key, sizeof key, "%.*s", (int)n, s);
		s += n;
		json_t *va = json_object_get(ra, key), *vb = json_object_get(rb, key);
		if (json_equal(va, vb) || !va || !vb)   /* a field an older image did not write */
			continue;
		if (formula && (!strcmp(key, "bytes") || !strcmp(key, "files") || !strcmp(key, "dirs")))
			continue;
		if (strcmp(key, "command") == 0 && json_is_string(va) && json_is_string(vb)) {
			fio_commands(&d, json_string_value(va), json_string_value(vb), formula);
			continue;
		}
		if (strcmp(key, "job") == 0) {
			add(&d, "the job file's text");
			continue;
		}
		char ta[64], tb[64];
		value_text(key, va, ta, sizeof ta);
		value_text(key, vb, tb, sizeof tb);
		add(&d, "%s %s / %s", strcmp(key, "bytes") ? key : "size", ta, tb);
	}
	return why[0] != '\0';
}
