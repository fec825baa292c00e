/* report/header.c: the lines above and below a run's tables: what ran on what (kernel,
 * CPU, memory, disks with verdicts, tools), whether the run finished, and every cell that
 * did not give figures, with its reason. */
#include "report/timeseries.h"
#include "report/sections.h"
#include "lib/bytes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* An error message on one line, cut to what a table footnote can hold. */
static void one_line(const char *s, char *out, size_t len)
{
	size_t n = 0;
	for (; s && *s && n + 4 < len; s++)
		out[n++] = *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s;
	if (s && *s)
		memcpy(out + n, "...", 3), n += 3;
	out[n] = 0;
	while (n && out[n - 1] == ' ')
		out[--n] = 0;
}

/* "mdadm - v4.2, mke2fs 1.47.0, ...": most tools open their version line with their own
 * name, which is then said once. */
static void tools_text(json_t *tools, char *tl, size_t len)
{
	size_t n = 0;
	const char *key;
	json_t *v;
	tl[0] = '\0';
	json_object_foreach(tools, key, v) {
		const char *ver = json_string_value(v) ? json_string_value(v) : "?";
		int named = strncasecmp(ver, key, strlen(key)) == 0;
		if (n < len)
			n += (size_t)snprintf(tl + n, len - n, "%s%s%s%s", n ? ", " : "",
					      named ? "" : key, named ? "" : " ", ver);
	}
}

/* The header record's lines: when, kernel, machine, plan, tools and every disk's verdict. */
static void header_record_lines(json_t *h, report_line_fn line, void *ctx)
{
	char b[256], tl[1024];
	json_int_t t = json_integer_value(json_object_get(h, "time"));
	if (t) {
		time_t tt = (time_t)t;
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S UTC", &tm);
		report_line(line, ctx, "  started   %s%s", b,
			 json_is_true(json_object_get(h, "dry")) ? " (dry run: nothing measured)" : "");
	}
	json_t *k = json_object_get(h, "kernel");
	report_line(line, ctx, "  kernel    %s %s", report_str(k, "release"), report_str(k, "version"));
	if (*report_str(k, "cmdline"))
		report_line(line, ctx, "  cmdline   %s", report_str(k, "cmdline"));
	/* the boot's trust chain, from headers that record it */
	if (*report_str(k, "secure_boot") || *report_str(k, "modules"))
		report_line(line, ctx, "  boot      secure boot %s%s%s%s, lockdown %s, modules %s",
			    *report_str(k, "secure_boot") ? report_str(k, "secure_boot") : "unknown",
			    *report_str(k, "secure_boot_from") ? " (" : "",
			    report_str(k, "secure_boot_from"), *report_str(k, "secure_boot_from") ? ")" : "",
			    *report_str(k, "lockdown") ? report_str(k, "lockdown") : "unknown",
			    *report_str(k, "modules") ? report_str(k, "modules") : "unknown");
	json_t *cpu = json_object_get(h, "cpu");
	report_line(line, ctx, "  cpu       %s x %lld", report_str(cpu, "model"),
		 (long long)json_integer_value(json_object_get(cpu, "count")));
	bytes_human(json_number_value(json_object_get(h, "mem_bytes")), b, sizeof b);
	report_line(line, ctx, "  memory    %s", b);
	json_t *p = json_object_get(h, "plan");
	if (*report_str(p, "name") || *report_str(p, "source"))
		report_line(line, ctx, "  plan      %s (%s, sha256 %.12s)", report_str(p, "name"), report_str(p, "source"),
			 report_str(p, "sha256"));
	json_t *sh = json_object_get(h, "shard"), *k1;
	if (json_is_object(sh)) {
		size_t n = 0, i1;
		tl[0] = '\0';
		json_array_foreach(json_object_get(sh, "given"), i1, k1)
			n += (size_t)snprintf(tl + n, n < sizeof tl ? sizeof tl - n : 0, "%s%lld",
					      i1 ? ", " : "", (long long)json_integer_value(k1));
		report_line(line, ctx, "  shards    %zu of %lld given (%s), run group %.12s",
			 json_array_size(json_object_get(sh, "given")),
			 (long long)json_integer_value(json_object_get(sh, "n")), tl, report_str(h, "run_group"));
	}
	tools_text(json_object_get(h, "tools"), tl, sizeof tl);
	report_line(line, ctx, "  tools     %s", tl);
	if (*report_str(h, "manifest_sha256"))
		report_line(line, ctx, "  manifest  sha256 %.12s", report_str(h, "manifest_sha256"));
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(h, "disks"), i, d) {
		bytes_human(json_number_value(json_object_get(d, "size")), b, sizeof b);
		report_line(line, ctx, "  disk      %s %s %s%s%s%s%s%s%s%s%s", report_str(d, "name"), b, report_str(d, "transport"),
			 *report_str(d, "model") ? " " : "", report_str(d, "model"),
			 *report_str(d, "serial") ? " serial " : "", report_str(d, "serial"),
			 *report_str(d, "verdict") ? ": " : "", report_str(d, "verdict"),
			 *report_str(d, "reason") ? " - " : "", report_str(d, "reason"));
	}
}

/* Whether the run finished: the trailer's counts, or what is known without one. */
static void status_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	if (r->trailer) {
		json_t *c = json_object_get(r->trailer, "counts");
		json_t *nn = json_object_get(r->trailer, "not_needed");
		char autos[96] = "";
		if (json_is_integer(nn))
			snprintf(autos, sizeof autos, ", not needed %lld (repeat = auto: stable before)",
				 (long long)json_integer_value(nn));
		json_t *hung = json_object_get(c, "hung");
		char hungs[48] = "";
		if (json_integer_value(hung))
			snprintf(hungs, sizeof hungs, ", hung %lld", (long long)json_integer_value(hung));
		report_line(line, ctx, "  status    complete: %d cells planned; ok %lld, error %lld, skipped %lld, "
			 "timeout %lld, interrupted %lld%s%s; %.1f s",
			 r->total, (long long)json_integer_value(json_object_get(c, "ok")),
			 (long long)json_integer_value(json_object_get(c, "error")),
			 (long long)json_integer_value(json_object_get(c, "skipped")),
			 (long long)json_integer_value(json_object_get(c, "timeout")),
			 (long long)json_integer_value(json_object_get(c, "interrupted")), hungs, autos,
			 json_number_value(json_object_get(r->trailer, "elapsed_s")));
		return;
	}
	size_t ran = 0;
	for (size_t i = 0; i < r->ncells; i++)
		ran += !r->cells[i].missing;
	char lost[64] = "";
	if (r->nlost)
		snprintf(lost, sizeof lost, ", %d of them without a readable record", r->nlost);
	/* in positions when the records carry them, as the trailer and Problems count */
	if (json_is_object(json_object_get(r->header, "shard")))
		report_line(line, ctx, "  status    INCOMPLETE: not every shard finished; %d cell%s ran of %d "
			 "planned%s", r->ran, r->ran == 1 ? "" : "s", r->total, lost);
	else if (r->reached)
		report_line(line, ctx, "  status    INCOMPLETE: no trailer; %d cell%s ran of %d planned%s",
			 r->reached, r->reached == 1 ? "" : "s", r->total, lost);
	else if (r->total)
		report_line(line, ctx, "  status    INCOMPLETE: no trailer; %zu cell%s ran of %d planned", ran,
			 ran == 1 ? "" : "s", r->total);
	else
		report_line(line, ctx, "  status    INCOMPLETE: no trailer; %zu cell%s ran", ran, ran == 1 ? "" : "s");
}

/* The warm-ups, for what they show (a first cell of a boot slower than its repeats), and
 * that no figure holds them: "disk/ext4/defaults/last 15.66 MB/s" each, the first three. */
static void warmup_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	size_t n = json_array_size(r->warmups), i, k = 0;
	char list[400] = "";
	json_t *w;
	if (!n)
		return;
	json_array_foreach(r->warmups, i, w) {
		json_t *f = json_object_get(w, "figure");
		if (i == 3 || k >= sizeof list)
			break;
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%s %s", i ? ", " : "", report_str(w, "cell"),
				      report_str(w, "status"));
		const char *unit = json_string_value(json_object_get(f, "unit"));
		if (json_is_number(json_object_get(f, "value")) && k < sizeof list)
			k += (size_t)snprintf(list + k, sizeof list - k, " %g%s%s",
					      json_number_value(json_object_get(f, "value")),
					      unit ? " " : "", unit ? unit : "");
	}
	report_line(line, ctx, "  warm-up   %zu before a boot's first cell, in no figure: %s%s", n, list,
		    n > 3 ? ", ..." : "");
}

int report_rejected(const struct rrun *r)
{
	return r->rejected_crc + r->rejected_trunc + r->rejected_json + r->rejected_long +
	       r->rejected_figure;
}

void report_header_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	report_line(line, ctx, "Run %s (from %s)", r->id, r->source);
	if (!r->header)
		report_line(line, ctx, "  header    none (the run's first records were lost)");
	else
		header_record_lines(r->header, line, ctx);
	status_lines(r, line, ctx);
	warmup_lines(r, line, ctx);
	int rejected = report_rejected(r);
	if (r->from_console || rejected) {
		char toolong[64] = "", impossible[96] = "";
		if (r->rejected_long)
			snprintf(toolong, sizeof toolong, ", %d too long (over %d MiB)", r->rejected_long,
				 REPORT_LINE_MAX >> 20);
		if (r->rejected_figure)
			snprintf(impossible, sizeof impossible, ", %d with a figure no device gives",
				 r->rejected_figure);
		report_line(line, ctx, "  rejected  %d record line%s: %d bad checksum, %d truncated, %d not JSON%s%s",
			 rejected, rejected == 1 ? "" : "s", r->rejected_crc, r->rejected_trunc,
			 r->rejected_json, toolong, impossible);
	}
}

/* The cells without a readable record and those that never ran, named as check --shards
 * numbers them when the cells per repetition are known, else by position. Returns whether
 * it said anything. */
static int missing_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	char what[2048];
	int any = 0;
	if (r->lost_idx) {
		int rejected = report_rejected(r);
		if (r->lost_cells)
			snprintf(what, sizeof what, "%s", r->lost_cells);
		else
			snprintf(what, sizeof what, "cell%s %s of %d", r->nlost == 1 ? "" : "s", r->lost_idx, r->total);
		report_line(line, ctx, "  %s: no readable record, though the run went past %s (%d record "
			 "line%s rejected)", what, r->nlost == 1 ? "it" : "them", rejected,
			 rejected == 1 ? "" : "s");
		any = 1;
	}
	if (r->missing_idx) {
		if (r->missing_cells)
			snprintf(what, sizeof what, "%s", r->missing_cells);
		else
			snprintf(what, sizeof what, "cell%s %s of %d", r->nmissing == 1 ? "" : "s",
				 r->missing_idx, r->total);
		report_line(line, ctx, "  %s: never ran (%s)", what, json_array_size(r->notes) ?
			 "a shard is missing, or stopped part way" : "the run stopped part way");
		any = 1;
	}
	return any;
}

/* Tunables the kernel refused or changed: the cell measured without them there. */
static int tunables_problem(const struct rcell *c, report_line_fn line, void *ctx)
{
	char list[512];
	size_t k = 0, t;
	json_t *v;
	if (!json_array_size(c->tun_ignored))
		return 0;
	list[0] = '\0';
	json_array_foreach(c->tun_ignored, t, v)
		k += (size_t)snprintf(list + k, k < sizeof list ? sizeof list - k : 0, "%s%s",
				      t ? ", " : "", json_string_value(v));
	report_line(line, ctx, "  %s: tunables not in effect: %s (the kernel refused or changed "
		    "them: the cell measured without them there)", c->id, list);
	return 1;
}

void report_problem_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line, void *ctx)
{
	char e[600];
	int any = report_kfault_lines(r, o, line, ctx);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c))
			continue;
		if (c->missing) {
			report_line(line, ctx, "  %s: missing (planned, never ran)", c->id);
			any = 1;
			continue;
		}
		size_t k;
		json_t *rec;
		json_array_foreach(c->bad, k, rec) {
			if (strcmp(report_str(rec, "status"), "hung") == 0)
				continue;   /* first, with its frames: report_kfault_lines */
			one_line(json_string_value(json_object_get(rec, "error")), e, sizeof e);
			report_line(line, ctx, "  %s rep %lld/%d: %s: %s", c->id,
				 (long long)json_integer_value(json_object_get(rec, "rep")), c->reps,
				 report_str(rec, "status"), *e ? e : "(no reason given)");
			any = 1;
		}
		if (report_ignored_text(c, e, sizeof e)) {
			/* the kernel's own word for it, when it named one of the options */
			const char *why = NULL;
			size_t a, b;
			json_t *kl, *opt;
			json_array_foreach(c->kernel, a, kl)
				json_array_foreach(c->ignored, b, opt)
					if (!why && strstr(json_string_value(kl), json_string_value(opt)))
						why = json_string_value(kl);
			report_line(line, ctx, "  %s: %s%s%s%s", c->id, e, why ? " (" : "", why ? why : "",
				 why ? ")" : "");
			any = 1;
		}
		any |= tunables_problem(c, line, ctx);
		for (size_t m = 0; m < c->nm; m++) {
			/* a figure the workload never measures is no problem (a write's read MB/s) */
			if (!c->fig.unusable[m] || (c->nulls[m] == c->ok && c->nulls[m] == c->fig.unusable[m]))
				continue;
			report_line(line, ctx, "  %s: %s (%s) unusable in %d of %d ok repeat%s: the record holds no "
				 "number there%s", c->id, c->m[m]->label, c->m[m]->key, c->fig.unusable[m],
				 c->ok, c->ok == 1 ? "" : "s", c->has[m] ? "" : "; shown as n/a");
			any = 1;
		}
		size_t di;
		json_t *dv;
		json_array_foreach(c->device, di, dv) {
			report_line(line, ctx, "  %s %s", c->id, json_string_value(dv));
			any = 1;
		}
		if (c->seen < c->reps && !r->bisect) {
			report_line(line, ctx, "  %s: %d of %d repeats ran", c->id, c->seen, c->reps);
			any = 1;
		}
		if (report_series_problems(c, line, ctx))
			any = 1;
	}
	if (missing_lines(r, line, ctx))
		any = 1;
	if (report_device_gap_lines(r, line, ctx))
		any = 1;
	if (report_drift_lines(r, "  ", line, ctx))
		any = 1;
	size_t ni;
	json_t *nv;
	json_array_foreach(r->notes, ni, nv) {
		report_line(line, ctx, "  %s", json_string_value(nv));
		any = 1;
	}
	if (!any)
		report_line(line, ctx, "  none");
}

const char *header_kv(const char *s, size_t *klen, const char **value)
{
	while (*s == ' ')
		s++;
	if (strncmp(s, "Run ", 4) == 0)
		return NULL;
	*klen = strcspn(s, " ");
	*value = s + *klen + strspn(s + *klen, " ");
	return s;
}

