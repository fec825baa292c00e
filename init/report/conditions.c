/* report/conditions.c: under which conditions a run measured (the header's conditions and
 * devices, the cells' health readings) as report lines, and what differs between the
 * conditions of two runs, for compare. */
#include "report/sections.h"
#include "core/figures/reference.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

static void reference_lines(const struct rrun *r, report_line_fn line, void *ctx);

/* A JSON scalar as text: strings bare, null as "none". */
static void scalar_text(json_t *v, char *out, size_t len)
{
	if (json_is_string(v))
		snprintf(out, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(out, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(out, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(out, len, "%s", json_is_true(v) ? "true" : "false");
	else if (!v || json_is_null(v))
		snprintf(out, len, "none");
	else
		snprintf(out, len, "(%s)", json_is_object(v) ? "object" : "array");
}

/* "31 C, reallocated 0, pending 0", or "unavailable: why". */
static void health_text(json_t *h, char *out, size_t len)
{
	size_t k = 0;
	const char *key;
	json_t *v;
	out[0] = '\0';
	if (!json_is_object(h)) {
		snprintf(out, len, "not read");
		return;
	}
	if (json_is_string(json_object_get(h, "unavailable"))) {
		snprintf(out, len, "unavailable: %s", report_str(h, "unavailable"));
		return;
	}
	json_object_foreach(h, key, v) {
		char t[64];
		scalar_text(v, t, sizeof t);
		if (k >= len)
			break;
		if (strcmp(key, "temperature_c") == 0)
			k += (size_t)snprintf(out + k, len - k, "%s%s C", k ? ", " : "", t);
		else if (strcmp(key, "temperature_warn_c") == 0)
			k += (size_t)snprintf(out + k, len - k, "%s(warning at %s C)", k ? " " : "", t);
		else
			k += (size_t)snprintf(out + k, len - k, "%s%s %s", k ? ", " : "", key, t);
	}
}

const char *report_fingerprint(const struct rrun *r)
{
	const char *f = json_string_value(json_object_get(json_object_get(r->header, "conditions"),
							   "fingerprint"));
	size_t i;
	json_t *rec;
	json_array_foreach(r->records, i, rec)
		if (!f)
			f = json_string_value(json_object_get(rec, "fingerprint"));
	return f;
}

/* The last health reading of disk name: the boot's last (the devices end event), else the
 * last a cell record holds ("after"), or NULL. *where says which. */
static json_t *last_health(const struct rrun *r, const char *name, const char **where)
{
	json_t *found = NULL, *rec, *d;
	size_t i, j;
	*where = "after the last cell";
	json_array_foreach(r->records, i, rec)
		json_array_foreach(json_object_get(rec, "devices"), j, d)
			if (strcmp(report_str(d, "name"), name) == 0 && json_object_get(d, "after"))
				found = json_object_get(d, "after");
	json_array_foreach(r->dev_ends, i, rec)
		json_array_foreach(json_object_get(rec, "disks"), j, d)
			if (strcmp(report_str(d, "name"), name) == 0 && json_is_object(json_object_get(d, "health"))) {
				found = json_object_get(d, "health");
				*where = "at the end";
			}
	return found;
}

void report_conditions_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	json_t *cond = json_object_get(r->header, "conditions");
	json_t *devs = json_object_get(r->header, "devices");
	const char *fp = report_fingerprint(r);
	if (!json_is_object(cond) && !json_is_array(devs) && !fp && !json_array_size(r->refs)) {
		report_line(line, ctx, "  %-12s none: the records come from an image older than "
			    "the conditions record", "recorded");
		return;
	}
	/* cells measured under other conditions than the header's: merged shards, a resume on
	 * another machine, or the boots of a run under several kernels (each kernel's release
	 * and command line are its own) */
	size_t i, nother = 0, nkernel = 0;
	json_t *rec;
	json_array_foreach(r->records, i, rec) {
		const char *f = json_string_value(json_object_get(rec, "fingerprint"));
		int other = f && fp && strcmp(f, fp) != 0;
		nother += other;
		nkernel += other && json_object_get(json_object_get(rec, "axes"), "kernel") &&
			   json_object_get(r->plan, "kernels");
	}
	if (fp)
		report_line(line, ctx, "  %-12s %.12s%s", "fingerprint", fp,
			    nother ? "" : " (every cell's)");
	if (nother)
		report_line(line, ctx, "  %-12s %zu cell record%s carr%s another one: measured under "
			    "other conditions%s", "", nother, nother == 1 ? "" : "s",
			    nother == 1 ? "ies" : "y", nkernel == nother ? " (the other kernels' boots)" : "");
	const char *key;
	json_t *c;
	json_object_foreach(json_object_get(cond, "controls"), key, c) {
		char found[64], eff[64];
		scalar_text(json_object_get(c, "found"), found, sizeof found);
		scalar_text(json_object_get(c, "effective"), eff, sizeof eff);
		const char *st = report_str(c, "status");
		if (strcmp(st, "applied") == 0)
			report_line(line, ctx, "  %-12s %s, applied (found %s)", key, eff, found);
		else if (strcmp(st, "kept") == 0)
			report_line(line, ctx, "  %-12s %s, kept as found%s%s", key, eff,
				    *report_str(c, "why") ? ": " : "", report_str(c, "why"));
		else
			report_line(line, ctx, "  %-12s %s (asked %s)%s%s", key, st, report_str(c, "asked"),
				    *report_str(c, "why") ? ": " : "", report_str(c, "why"));
	}
	reference_lines(r, line, ctx);
	json_t *d;
	json_array_foreach(devs, i, d) {
		json_t *wc = json_object_get(d, "write_cache");
		char h[300], after[300];
		const char *name = report_str(d, "name");
		report_line(line, ctx, "  %-12s %s: %s %s%s%s%s%s; write cache %s (the kernel: %s)%s%s", "device",
			    name, report_str(d, "kind"), report_str(d, "model"),
			    *report_str(d, "serial") ? " serial " : "", report_str(d, "serial"),
			    *report_str(d, "firmware") ? " firmware " : "", report_str(d, "firmware"),
			    *report_str(wc, "device") ? report_str(wc, "device") : "unknown",
			    *report_str(wc, "sysfs") ? report_str(wc, "sysfs") : "unknown",
			    *report_str(wc, "why") ? ": " : "", report_str(wc, "why"));
		health_text(json_object_get(d, "health"), h, sizeof h);
		const char *where;
		json_t *last = last_health(r, name, &where);
		if (last)
			health_text(last, after, sizeof after);
		report_line(line, ctx, "  %-12s %s: at boot %s%s%s%s%s", "health", name, h,
			    last ? "; " : "", last ? where : "", last ? " " : "", last ? after : "");
	}
}

/* ------------------------------------------------------------------ the reference set */

/* The "start" reference record of end's boot, or NULL. */
static json_t *start_of(const struct rrun *r, json_t *end)
{
	json_t *x, *found = NULL;
	size_t i;
	json_int_t boot = json_integer_value(json_object_get(end, "boot"));
	json_array_foreach(r->refs, i, x)
		if (x != end && strcmp(report_str(x, "phase"), "start") == 0 &&
		    json_integer_value(json_object_get(x, "boot")) == boot)
			found = x;
	return found;
}

static double fig_median(json_t *ref, const char *name, double *rsd)
{
	json_t *f = json_object_get(json_object_get(ref, "figures"), name);
	json_t *m = json_object_get(f, "median");
	*rsd = json_is_number(json_object_get(f, "rsd_pct")) ? json_number_value(json_object_get(f, "rsd_pct")) : NAN;
	return json_is_number(m) ? json_number_value(m) : NAN;
}

/* The reference set's lines of the Conditions section: each boot's figures at its start and
 * end, and their ratio against the bound its own spread gives. */
static void reference_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	size_t i;
	json_t *x;
	if (json_array_size(r->refs) == 0 && json_array_size(r->records) > 0) {
		report_line(line, ctx, "  %-12s none recorded (the plan key reference = no, or records from before it): "
			    "no check that the machine held still during the run", "reference");
		return;
	}
	json_array_foreach(r->refs, i, x) {
		int end = strcmp(report_str(x, "phase"), "end") == 0;
		json_t *start = end ? start_of(r, x) : NULL;
		if (!end) {
			/* a start with an end is shown with it */
			int has_end = 0;
			size_t j;
			json_t *y;
			json_array_foreach(r->refs, j, y)
				has_end |= strcmp(report_str(y, "phase"), "end") == 0 && start_of(r, y) == x;
			if (has_end)
				continue;
		}
		for (int k = 0; k < REF_COUNT; k++) {
			const char *name = ref_rows[k].name, *unit = ref_rows[k].unit;
			double rs, re, ratio, bound;
			double ms = fig_median(start ? start : x, name, &rs);
			double me = end ? fig_median(x, name, &re) : NAN;
			json_t *f = json_object_get(json_object_get(end && !start ? x : start ? start : x, "figures"), name);
			long long boot = (long long)json_integer_value(json_object_get(x, "boot"));
			if (!isfinite(ms) && !isfinite(me)) {
				report_line(line, ctx, "  %-12s boot %lld: %s unavailable: %s", "reference", boot, name,
					    *report_str(f, "unavailable") ? report_str(f, "unavailable") : "not measured");
				continue;
			}
			if (!end || !start) {
				report_line(line, ctx, "  %-12s boot %lld: %s %.1f %s (RSD %.1f%%) at the %s only",
					    "reference", boot, name, isfinite(ms) ? ms : me, unit,
					    isfinite(ms) ? rs : re, end ? "end" : "start");
				continue;
			}
			int d = ref_drift_of(k, ms, rs, me, re, &ratio, &bound);
			report_line(line, ctx, "  %-12s boot %lld: %s %.1f %s at the start, %.1f at the end "
				    "(%.3gx%s)", "reference", boot, name, ms, unit, me, ratio,
				    d < 0 ? "" : d ? ", beyond its bound: conditions changed" : ", within its bound");
		}
	}
}

int report_drift_lines(const struct rrun *r, const char *prefix, report_line_fn line, void *ctx)
{
	size_t i;
	json_t *x;
	int any = 0;
	json_array_foreach(r->refs, i, x) {
		json_t *start = strcmp(report_str(x, "phase"), "end") == 0 ? start_of(r, x) : NULL;
		if (!start)
			continue;
		char what[600] = "";
		size_t k = 0;
		for (int f = 0; f < REF_COUNT; f++) {
			double rs, re, ratio, bound;
			double ms = fig_median(start, ref_rows[f].name, &rs);
			double me = fig_median(x, ref_rows[f].name, &re);
			if (ref_drift_of(f, ms, rs, me, re, &ratio, &bound) == 1 && k < sizeof what)
				k += (size_t)snprintf(what + k, sizeof what - k, "%s%s %.3gx its start (bound "
						      "±%.0f%%)", k ? ", " : "", ref_rows[f].name, ratio,
						      bound);
		}
		if (!k)
			continue;
		json_t *between = json_object_get(x, "_between"), *c;
		size_t n = json_array_size(between), j;
		char list[900] = "";
		size_t l = 0;
		json_array_foreach(between, j, c) {
			if (j == 8) {
				snprintf(list + l, l < sizeof list ? sizeof list - l : 0, ", and %zu more", n - 8);
				break;
			}
			if (l < sizeof list)
				l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", j ? ", " : "",
						      json_string_value(c));
		}
		report_line(line, ctx, "%sconditions changed during the run (boot %lld): %s; the %zu cell "
			    "record%s measured between %s in doubt%s%s", prefix,
			    (long long)json_integer_value(json_object_get(x, "boot")), what, n,
			    n == 1 ? "" : "s", n == 1 ? "is" : "are", n ? ": " : "", list);
		any = 1;
	}
	return any;
}

/* ------------------------------------------------------------------ two runs' conditions */

struct diff {
	char (*out)[REPORT_COND_LINE];
	int n, max;
	int kernels_differ;     /* the runs ran under different kernel sets (axes.kernel) */
};

/* What differs between two kernel sets by being the kernel: its release, and the image's
 * manifest, which names the kernel's modules. Runs on two sets compare the kernels: these
 * are the point of the comparison, not a condition that spoils it. */
static const char *const kernel_own[] = { "kernel release", "manifest_sha256", NULL };

/* The kernel set of a run's cells (axes.kernel of its first cell record), or NULL. */
/* The kernel set of a run's header (its boot's fsmatrix.kernel=), else of its first cell
 * record (headers older than the field). */
static const char *run_kernel_set(const struct rrun *r)
{
	const char *set = json_string_value(json_object_get(json_object_get(r->header, "kernel"), "set"));
	json_t *rec = json_array_get(r->records, 0);
	return set ? set : json_string_value(json_object_get(json_object_get(rec, "axes"), "kernel"));
}

/* The memory a kernel reports is the machine's less what that kernel keeps for itself: two
 * kernels on the same RAM differ by a fraction of it (6.1 and 6.12 under qemu with 1 GiB:
 * 0.7%). Within KERNEL_MEM_PCT it is the kernel's own; beyond, other RAM. */
#define KERNEL_MEM_PCT 2.0

static int is_kernel_own(const struct diff *df, const char *what, json_t *a, json_t *b)
{
	if (!df->kernels_differ)
		return 0;
	for (int i = 0; kernel_own[i]; i++)
		if (strcmp(what, kernel_own[i]) == 0)
			return 1;
	if (strcmp(what, "mem_bytes") != 0 || !json_is_number(a) || !json_is_number(b))
		return 0;
	double x = json_number_value(a), y = json_number_value(b);
	return x > 0 && fabs(y - x) / x * 100 <= KERNEL_MEM_PCT;
}

static void diff_add(struct diff *df, const char *what, const char *where, json_t *a, json_t *b)
{
	char ta[128], tb[128];
	if (is_kernel_own(df, what, a, b))
		return;
	if (df->n >= df->max)
		return;
	scalar_text(a, ta, sizeof ta);
	scalar_text(b, tb, sizeof tb);
	snprintf(df->out[df->n++], REPORT_COND_LINE, "%s %s vs %s%s", what, ta, tb, where);
}

/* Every leaf that differs between a and b under path, named by its path; an entry of a list
 * that has a serial (the inputs' disks) by " on disk SERIAL" after it, as kernel names move
 * from boot to boot: "write_cache on vs off on disk fsm1". Such an entry is paired with the
 * other side's of the same serial, wherever it is listed: another kernel may probe the disks
 * in another order. */
static json_t *same_serial(json_t *list, json_t *x, size_t i)
{
	const char *serial = report_str(x, "serial");
	size_t j;
	json_t *y;
	if (!*serial)
		return json_array_get(list, i);
	json_array_foreach(list, j, y)
		if (strcmp(report_str(y, "serial"), serial) == 0)
			return y;
	return NULL;
}

static void diff_walk(struct diff *df, const char *path, const char *where, json_t *a, json_t *b);

/* Entry i of a list on one side (x) against its partner on the other (y); either may be
 * missing. */
static void diff_entry(struct diff *df, const char *path, size_t i, json_t *x, json_t *y)
{
	char at[128];
	const char *serial = report_str(x ? x : y, "serial");
	if (*serial)
		snprintf(at, sizeof at, " on disk %.100s", serial);
	else
		snprintf(at, sizeof at, " at %s %zu", path, i + 1);
	if (!x || !y) {
		json_t *px = x ? json_string("present") : NULL;
		json_t *py = y ? json_string("present") : NULL;
		diff_add(df, *serial ? "disk" : path, at, px, py);
		json_decref(px);
		json_decref(py);
	} else {
		diff_walk(df, "", at, x, y);
	}
}

static void diff_walk(struct diff *df, const char *path, const char *where, json_t *a, json_t *b)
{
	char sub[256];
	if (json_is_object(a) && json_is_object(b)) {
		const char *key;
		json_t *v;
		json_object_foreach(a, key, v) {
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? " " : "", key);
			diff_walk(df, sub, where, v, json_object_get(b, key));
		}
		json_object_foreach(b, key, v)
			if (!json_object_get(a, key)) {
				snprintf(sub, sizeof sub, "%s%s%s", path, *path ? " " : "", key);
				diff_add(df, sub, where, NULL, v);
			}
		return;
	}
	if (json_is_array(a) && json_is_array(b)) {
		size_t i;
		json_t *x, *y;
		json_array_foreach(a, i, x)
			diff_entry(df, path, i, x, same_serial(b, x, i));
		json_array_foreach(b, i, y)
			if (!same_serial(a, y, i))
				diff_entry(df, path, i, NULL, y);
		return;
	}
	if (!json_equal(a, b))
		diff_add(df, path, where, a, b);
}

int report_conditions_diff(const struct rrun *a, const struct rrun *b,
			   char (*out)[REPORT_COND_LINE], int max)
{
	const char *fa = report_fingerprint(a), *fb = report_fingerprint(b);
	if (!fa || !fb || strcmp(fa, fb) == 0)
		return 0;
	const char *ka = run_kernel_set(a), *kb = run_kernel_set(b);
	struct diff df = { out, 0, max, ka && kb && strcmp(ka, kb) != 0 };
	json_t *ia = json_object_get(json_object_get(a->header, "conditions"), "inputs");
	json_t *ib = json_object_get(json_object_get(b->header, "conditions"), "inputs");
	if (json_is_object(ia) && json_is_object(ib))
		diff_walk(&df, "", "", ia, ib);
	else
		df.kernels_differ = 0;   /* nothing to tell the kernel's part from the rest */
	if (df.n == 0 && max > 0 && !df.kernels_differ)
		snprintf(out[df.n++], REPORT_COND_LINE, "fingerprint %.12s vs %.12s", fa, fb);
	return df.n;
}

/* What the two sides' arrays differed in that the cell id does not say: md's write-intent
 * bitmap (mdadm adds one by itself to members of 100 GB or more), and whether the blocks were
 * discarded before the workload. 1 with the text in why. */
int report_array_differs(const struct rcell *a, const struct rcell *b, char *why, size_t len)
{
	const char *ba = json_string_value(json_object_get(a->first, "bitmap"));
	const char *bb = json_string_value(json_object_get(b->first, "bitmap"));
	json_t *da = json_object_get(a->first, "discarded"), *db = json_object_get(b->first, "discarded");
	size_t used = 0;
	why[0] = '\0';
	if (ba && bb && strcmp(ba, bb) != 0)
		used += (size_t)snprintf(why, len, "md's write-intent bitmap %s in A, %s in B (a bitmap "
					 "costs writes: the plan's bitmap key makes it one)", ba, bb);
	if (json_is_boolean(da) && json_is_boolean(db) && json_is_true(da) != json_is_true(db) &&
	    used < len)
		snprintf(why + used, len - used, "%sthe blocks discarded before the workload in %s only",
			 used ? "; " : "", json_is_true(da) ? "A" : "B");
	return why[0] != '\0';
}
