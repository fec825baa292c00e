/* cli/kcidb.c: `fsmatrix kcidb RUN... --origin NAME [-o FILE]`: runs as one KCIDB v5 document
 * (KernelCI's common report database, schema 5.3 of kernelci/kcidb-io) for a lab's own
 * submitter: a checkout per kernel source (the upstream stable tag a Debian kernel is built
 * from), a build per kernel, a test per cell and metric with its median as the number. The
 * names follow core/figures/kcidb.h; nothing is sent anywhere. */
#include "cli/cli.h"
#include "core/figures/kcidb.h"
#include "core/model/kversion.h"
#include "lib/sha256.h"
#include "report/model.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char host_kcidb_usage[] =
	"usage: fsmatrix kcidb --origin NAME [-o FILE] SOURCE...\n"
	"  SOURCE  runs, as for fsmatrix report (run dir, .jsonl, console log, results partition)\n"
	"  --origin NAME  the CI system the objects are from (KCIDB: [a-z0-9_]+), the prefix of\n"
	"          every id (\"NAME:...\"); required\n"
	"  -o FILE  write the document there (whole or not at all); default stdout\n"
	"  a KCIDB v5.3 JSON document: a checkout per kernel source (the upstream stable tag of a\n"
	"  Debian kernel, its package version in misc), a build per kernel, a test per cell and\n"
	"  metric (status DONE, or ERROR when a repeat failed; number = the median over its ok\n"
	"  repeats; spread, verdict and conditions fingerprint in misc), path\n"
	"  fsmatrix.ARRAY.FS.MOUNT.WORKLOAD.METRIC with each byte but [A-Za-z0-9-] as _XX\n"
	"  (docs/host-cli.md#kcidb); a run given twice is written once; nothing is sent anywhere\n";

#define STABLE_URL "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git"

struct doc {
	const char *origin;
	json_t *root, *checkouts, *builds, *tests, *issues, *incidents;
	json_t *seen;          /* ids of checkouts, builds and issues already written */
};

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* KCIDB's objects hold no null: a value that is missing or not a number is left out. */
static void set_num(json_t *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v && *v)
		json_object_set_new(o, key, json_string(v));
}

/* "ORIGIN:" and fmt's text, malloc'd; NULL when memory runs out. */
static char *idof(const struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *idof(const struct doc *d, const char *fmt, ...)
{
	char *rest = NULL, *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&rest, fmt, ap);
	va_end(ap);
	if (n < 0 || asprintf(&s, "%s:%s", d->origin, rest) < 0)
		s = NULL;
	free(rest);
	return s;
}

/* The checkout of a kernel: its Debian version's upstream release as the stable tag, or, for
 * a kernel that names no Debian version, its release alone (the source is not known).
 * Returns its id (malloc'd). */
static char *add_checkout(struct doc *d, json_t *kernel)
{
	const char *rel = jstr(kernel, "release"), *ver = jstr(kernel, "version");
	char deb[64], up[64], tag[64], branch[64];
	int debian = kversion_debian(ver, deb, sizeof deb, up, sizeof up) == 0 &&
		kversion_git(up, tag, sizeof tag, branch, sizeof branch) == 0;
	char *id = debian ? idof(d, "debian-linux-%s", deb) : idof(d, "kernel-%s", rel ? rel : "unknown");
	if (!id || json_object_get(d->seen, id))
		return id;
	json_object_set_new(d->seen, id, json_true());
	json_t *c = json_pack("{s:s, s:s}", "id", id, "origin", d->origin);
	json_t *misc = json_object();
	if (debian) {
		json_object_set_new(c, "tree_name", json_string("stable"));
		json_object_set_new(c, "git_repository_url", json_string(STABLE_URL));
		json_object_set_new(c, "git_repository_branch", json_string(branch));
		json_object_set_new(c, "git_commit_name", json_string(tag));
		json_object_set_new(c, "git_commit_tags", json_pack("[s]", tag));
		char cm[256];
		snprintf(cm, sizeof cm, "Debian's linux %s: upstream %s with Debian's patches", deb, tag);
		json_object_set_new(c, "comment", json_string(cm));
		json_object_set_new(misc, "debian_version", json_string(deb));
		json_object_set_new(misc, "upstream", json_string(up));
		/* the tag's commit is not in any record: a submitter that knows it adds it */
		json_object_set_new(misc, "git_commit_hash_known", json_false());
	} else {
		json_object_set_new(c, "comment", json_string("a kernel that names no Debian version: "
							      "its source is not known"));
	}
	set_str(misc, "kernel_version", ver);
	json_object_set_new(c, "misc", misc);
	json_array_append_new(d->checkouts, c);
	return id;
}

/* A kernel set that never booted in the run (its kernel given up: the cells that named it
 * are errors saying why): a build of status MISS whose kernel is not known, and a checkout
 * of it. Returns the build's id (malloc'd). */
static char *add_unbooted(struct doc *d, const char *set)
{
	char *id = idof(d, "kernel-set-%s", set);
	if (!id || json_object_get(d->seen, id))
		return id;
	json_object_set_new(d->seen, id, json_true());
	char cm[160];
	snprintf(cm, sizeof cm, "kernel set %s never booted in the run: its kernel is not known", set);
	json_array_append_new(d->checkouts, json_pack("{s:s, s:s, s:s}", "id", id,
		"origin", d->origin, "comment", cm));
	json_array_append_new(d->builds, json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s}}", "id", id,
		"origin", d->origin, "checkout_id", id, "status", "MISS", "comment", cm,
		"misc", "kernel_set", set));
	return id;
}

/* The build of a kernel set, from the header of a boot under it. Returns its id (malloc'd). */
static char *add_build(struct doc *d, json_t *header, const char *set)
{
	if (!header)
		return add_unbooted(d, set);
	json_t *k = json_object_get(header, "kernel");
	const char *rel = jstr(k, "release"), *ver = jstr(k, "version");
	char deb[64], up[64], hex[65];
	if (kversion_debian(ver, deb, sizeof deb, up, sizeof up) != 0) {
		sha256_hex(ver ? ver : "", ver ? strlen(ver) : 0, hex);
		snprintf(deb, sizeof deb, "%.12s", hex);
	}
	char *id = idof(d, "%s:%s", rel ? rel : "unknown", deb);
	if (!id || json_object_get(d->seen, id))
		return id;
	json_object_set_new(d->seen, id, json_true());
	char *checkout = add_checkout(d, k);
	json_t *b = json_pack("{s:s, s:s, s:s, s:s}", "id", id, "origin", d->origin,
			      "checkout_id", checkout ? checkout : "", "status", "PASS");
	free(checkout);
	const char *arch = jstr(k, "machine");
	if (arch && arch[strspn(arch, "abcdefghijklmnopqrstuvwxyz0123456789_")] == '\0')
		json_object_set_new(b, "architecture", json_string(arch));
	json_t *misc = json_object();
	set_str(misc, "kernel_set", set);
	set_str(misc, "kernel_release", rel);
	set_str(misc, "kernel_version", ver);
	set_str(misc, "modules", jstr(k, "modules"));
	set_str(misc, "secure_boot", jstr(k, "secure_boot"));
	json_object_set_new(b, "misc", misc);
	json_array_append_new(d->builds, b);
	return id;
}

/* The header of the boot that ran cells under kernel set set: the first whose kernel.set
 * it is; the run's first header when set is "" or no header names a set (an image older
 * than the field); NULL when the headers name sets but not this one (a set given up
 * before it ever booted). */
static json_t *header_of(const struct rrun *r, const char *set)
{
	size_t i;
	json_t *h;
	int named = 0;
	if (!set || !*set)
		return r->header;
	json_array_foreach(r->headers, i, h) {
		const char *hs = jstr(json_object_get(h, "kernel"), "set");
		named |= hs != NULL;
		if (hs && strcmp(set, hs) == 0)
			return h;
	}
	return named ? NULL : r->header;
}

static json_t *verdict_json(const struct fig_verdict *v)
{
	json_t *o = json_pack("{s:b, s:I}", "stable", v->stable, "n", (json_int_t)v->n);
	set_num(o, "rsd_pct", v->rsd_pct);
	set_num(o, "range_pct", v->range_pct);
	set_str(o, "reason", v->reason);
	return o;
}

/* The misc of a cell's test: the run, the cell, and what the figure's trust rests on. */
static json_t *test_misc(const struct rrun *r, const struct rcell *c)
{
	json_t *first = c->first_ok ? c->first_ok : c->first;
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:i}", "run", r->id, "cell", c->id,
			      "reps", c->reps, "ok", c->ok, "seen", c->seen);
	set_str(o, "fingerprint", jstr(first, "fingerprint"));
	return o;
}

/* The repetitions of c that failed (error, timeout, skipped; not an attempt a reboot cut
 * short, which a later record replaced), and the first one's record in *first. */
static int failed_reps(const struct rcell *c, json_t **first)
{
	size_t k;
	json_t *rec;
	int n = 0;
	*first = NULL;
	json_array_foreach(c->bad, k, rec)
		if (strcmp(jstr(rec, "status") ? jstr(rec, "status") : "", "interrupted") != 0) {
			if (!n++)
				*first = rec;
		}
	return n;
}

static void add_metric_test(struct doc *d, const struct rrun *r, const struct rcell *c, size_t i,
			    const char *build, const char *start)
{
	char path[1024];
	const struct metric *m = c->m[i];
	if (kcidb_test_path(c->id, m->key, path, sizeof path) < 0) {
		fprintf(stderr, "fsmatrix: kcidb: cell %s of run %s: its path is too long; left out\n",
			c->id, r->id);
		return;
	}
	char *id = idof(d, "%s:%s", r->id, c->id);
	char *tid = NULL;
	if (!id || asprintf(&tid, "%s:%s", id, m->key) < 0) {
		free(id);
		return;
	}
	free(id);
	struct kcidb_number n;
	const struct summary *s = &c->st[i];
	kcidb_number(s->median, m->unit, &n);
	json_t *num = json_pack("{s:f, s:s}", "value", n.value, "unit", n.unit);
	if (n.prefix)
		json_object_set_new(num, "prefix", json_string(n.prefix));
	json_t *misc = test_misc(r, c);
	json_object_set_new(misc, "metric", json_string(m->key));
	json_object_set_new(misc, "unit", json_string(m->unit));
	json_object_set_new(misc, "higher_is_better", json_boolean(m->higher_better));
	json_t *st = json_pack("{s:I}", "n", (json_int_t)s->n);
	set_num(st, "min", s->min);
	set_num(st, "median", s->median);
	set_num(st, "mean", s->mean);
	set_num(st, "max", s->max);
	set_num(st, "stddev", s->stddev);
	json_object_set_new(misc, "stats", st);
	json_object_set_new(misc, "verdict", verdict_json(&c->vd[i]));
	json_object_set_new(misc, "main_figure", json_boolean(c->verdict_metric &&
							     strcmp(c->verdict_metric, m->key) == 0));
	/* a repetition that failed beside the ok ones makes the test no plain measurement */
	json_t *bad;
	int failed = failed_reps(c, &bad);
	if (failed) {
		json_object_set_new(misc, "failed", json_integer(failed));
		set_str(misc, "error", jstr(bad, "error"));
	}
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "id", tid, "build_id", build,
			      "origin", d->origin, "path", path, "status",
			      kcidb_cell_status(c->ok, failed, c->status), "number", num, "misc", misc);
	if (start)
		json_object_set_new(t, "start_time", json_string(start));
	free(tid);
	json_array_append_new(d->tests, t);
}

/* A cell with no ok repeat: one test at the cell's path, its status and the first error. */
static void add_failed_test(struct doc *d, const struct rrun *r, const struct rcell *c,
			    const char *build, const char *start)
{
	char path[1024];
	if (kcidb_test_path(c->id, NULL, path, sizeof path) < 0)
		return;
	char *id = idof(d, "%s:%s", r->id, c->id);
	if (!id)
		return;
	json_t *misc = test_misc(r, c);
	json_t *bad = json_array_get(c->bad, 0);
	set_str(misc, "error", jstr(bad, "error"));
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "id", id, "build_id", build,
			      "origin", d->origin, "path", path, "status",
			      kcidb_status(c->missing ? "missing" : c->status), "misc", misc);
	if (start)
		json_object_set_new(t, "start_time", json_string(start));
	free(id);
	json_array_append_new(d->tests, t);
}

/* An issue the kernel met (a hang, an oops, a BUG, a WARN), once per kind and signature
 * (the stuck tasks' top frames, the fault's line), and its incident in record rec, linking
 * the cell's test and build. */
static void add_incident(struct doc *d, const struct rrun *r, json_t *rec, const char *kind,
			 const char *signature, const char *subject, const char *test, const char *build)
{
	char sha[65], cat[64];
	sha256_hex(signature, strlen(signature), sha);
	char *iid = idof(d, "issue:%s:%.16s", kind, sha);
	char *nid = idof(d, "incident:%s:%s:rep%lld:attempt%lld:%s:%.16s", r->id, jstr(rec, "cell"),
			 (long long)json_integer_value(json_object_get(rec, "rep")),
			 (long long)json_integer_value(json_object_get(rec, "attempt")), kind, sha);
	if (iid && nid && !json_object_get(d->seen, nid)) {
		if (!json_object_get(d->seen, iid)) {
			snprintf(cat, sizeof cat, "runtime.%s", kind);
			json_array_append_new(d->issues, json_pack(
				"{s:s, s:i, s:s, s:s, s:[s], s:{s:b}, s:{s:s, s:s}}", "id", iid, "version", 1,
				"origin", d->origin, "comment", subject, "categories", cat, "culprit",
				"code", 1, "misc", "kind", kind, "signature", signature));
			json_object_set_new(d->seen, iid, json_true());
		}
		json_t *n = json_pack("{s:s, s:s, s:s, s:i, s:b, s:s, s:s}", "id", nid, "origin",
				      d->origin, "issue_id", iid, "issue_version", 1, "present", 1,
				      "build_id", build, "comment", subject);
		if (test)
			json_object_set_new(n, "test_id", json_string(test));
		json_object_set_new(n, "misc", json_pack("{s:s, s:s, s:I, s:I}", "run", r->id, "cell",
							  jstr(rec, "cell"), "rep", json_integer_value(json_object_get(rec, "rep")),
							  "attempt", json_integer_value(json_object_get(rec, "attempt"))));
		json_array_append_new(d->incidents, n);
		json_object_set_new(d->seen, nid, json_true());
	}
	free(iid);
	free(nid);
}

/* The issues cell c's records met: a hang with its stuck tasks' top frames, each kernel
 * fault line. test: the cell's test (its main figure's, else its failed test). */
static void add_issues(struct doc *d, const struct rrun *r, const struct rcell *c, const char *test,
		       const char *build)
{
	size_t i, k;
	json_t *rec, *t;
	json_array_foreach(r->records, i, rec) {
		if (strcmp(jstr(rec, "cell") ? jstr(rec, "cell") : "", c->id) != 0)
			continue;
		if (jstr(rec, "status") && strcmp(jstr(rec, "status"), "hung") == 0) {
			char sig[2048] = "", subject[2300];
			size_t n = 0;
			json_array_foreach(json_object_get(json_object_get(rec, "hang"), "tasks"), k, t)
				if (n < sizeof sig && jstr(t, "top") && *jstr(t, "top"))
					n += (size_t)snprintf(sig + n, sizeof sig - n, "%s%s", n ? "; " : "",
							      jstr(t, "top"));
			snprintf(subject, sizeof subject, "hung: tasks in D state, no I/O completing: %s",
				 sig[0] ? sig : "(no stack)");
			add_incident(d, r, rec, "hang", sig, subject, test, build);
		}
		json_array_foreach(json_object_get(rec, "kernel_faults"), k, t) {
			const char *line = jstr(t, "line") ? jstr(t, "line") : "";
			char subject[400];
			snprintf(subject, sizeof subject, "kernel %s: %s", jstr(t, "kind"), line);
			add_incident(d, r, rec, jstr(t, "kind") ? jstr(t, "kind") : "fault", line, subject,
				     test, build);
		}
	}
}

/* The run's start as RFC 3339 (the header's epoch seconds), or NULL without one. */
static const char *run_start(const struct rrun *r, char *buf, size_t len)
{
	json_t *t = json_object_get(r->header, "time");
	if (!json_is_integer(t))
		return NULL;
	time_t s = (time_t)json_integer_value(t);
	struct tm tm;
	if (!gmtime_r(&s, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%S+00:00", &tm))
		return NULL;
	return buf;
}

static void add_run(struct doc *d, const struct rrun *r)
{
	/* the plan event says a dry run, as does a trailer's status */
	if (json_is_true(json_object_get(r->plan, "dry")) ||
	    json_is_true(json_object_get(r->header, "dry"))) {
		fprintf(stderr, "fsmatrix: kcidb: run %s is a dry run: no cell ran, no test written\n", r->id);
		return;
	}
	char sbuf[40];
	const char *start = run_start(r, sbuf, sizeof sbuf);
	for (size_t ci = 0; ci < r->ncells; ci++) {
		const struct rcell *c = &r->cells[ci];
		char kb[128];
		const char *set = report_cell_axis(c, "kernel", kb, sizeof kb);
		json_t *h = header_of(r, set);
		char *build = add_build(d, h, set);
		if (!build)
			continue;
		size_t done = 0;
		char *test = NULL;
		for (size_t i = 0; i < c->nm; i++)
			if (c->ok > 0 && c->has[i]) {
				add_metric_test(d, r, c, i, build, start);
				if (!done++)
					test = idof(d, "%s:%s:%s", r->id, c->id, c->m[i]->key);
			}
		if (!done) {
			add_failed_test(d, r, c, build, start);
			test = idof(d, "%s:%s", r->id, c->id);
		}
		add_issues(d, r, c, test, build);
		free(test);
		free(build);
	}
}

/* A run given twice (one source named twice, or the same run in two sources): its tests
 * would share their ids, and KCIDB keeps one object of an id, whichever came last. The copy
 * with more cell records stays (the first of equals), and a line says which was left out. */
static void drop_doubles(struct runset *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		for (size_t j = i + 1; j < rs->n;) {
			struct rrun *a = &rs->run[i], *b = &rs->run[j];
			if (!a->id || !b->id || strcmp(a->id, b->id) != 0) {
				j++;
				continue;
			}
			if (json_array_size(b->records) > json_array_size(a->records)) {
				struct rrun t = *a;
				*a = *b;
				*b = t;
			}
			fprintf(stderr, "fsmatrix: kcidb: run %s is given twice: the copy from %s (%zu "
				"cell records) is left out, the one from %s (%zu) kept\n", a->id,
				b->source, json_array_size(b->records), a->source,
				json_array_size(a->records));
			report_free_run(b);
			memmove(b, b + 1, (rs->n - j - 1) * sizeof *b);
			rs->n--;
		}
}

/* Writes the document to path (NULL: stdout) whole: a temporary file renamed over it. */
static int write_doc(json_t *root, const char *path)
{
	size_t flags = JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12);
	if (!path)
		return json_dumpf(root, stdout, flags) == 0 && fputc('\n', stdout) != EOF ? 0 : 1;
	char *tmp = NULL;
	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		return 1;
	FILE *f = fopen(tmp, "w");
	int ok = f && json_dumpf(root, f, flags) == 0 && fputc('\n', f) != EOF;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(stderr, "fsmatrix: kcidb: unable to write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return 1;
	}
	free(tmp);
	return 0;
}

static int parse(int argc, char **argv, const char **origin, const char **out,
		 const char **src, size_t *nsrc)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--origin") == 0 || strcmp(a, "-o") == 0) {
			if (i + 1 >= argc)
				return host_usage_error("kcidb", "%s needs a value", a);
			*(a[1] == 'o' ? out : origin) = argv[++i];
		} else if (strncmp(a, "--origin=", 9) == 0) {
			*origin = a + 9;
		} else if (a[0] == '-' && a[1]) {
			return host_usage_error("kcidb", "unknown option \"%s\"", a);
		} else if (*nsrc < REPORT_MAX_SOURCES) {
			src[(*nsrc)++] = a;
		} else {
			return host_usage_error("kcidb", "more than %d sources", REPORT_MAX_SOURCES);
		}
	}
	if (!*origin)
		return host_usage_error("kcidb", "--origin NAME is required (the CI system's name, "
					"[a-z0-9_]+)");
	if (!kcidb_origin_ok(*origin))
		return host_usage_error("kcidb", "--origin \"%s\" is not a KCIDB origin: lower-case "
					"letters, digits and '_' only", *origin);
	if (*nsrc == 0)
		return host_usage_error("kcidb", "no SOURCE given (a run directory, .jsonl or console log)");
	return 0;
}

int host_cmd_kcidb(int argc, char **argv)
{
	const char *origin = NULL, *out = NULL, *src[REPORT_MAX_SOURCES];
	size_t nsrc = 0;
	int rc = parse(argc, argv, &origin, &out, src, &nsrc);
	if (rc)
		return rc;
	if (out && host_check_operand("kcidb", out, ROLE_FILE) < 0)
		return 1;
	if (out && host_out_not_source("kcidb", out, src, nsrc) < 0)
		return 2;
	struct runset rs = { .no_charts = 1 };
	for (size_t i = 0; i < nsrc; i++)
		if (report_load(src[i], &rs) != 0) {
			report_free(&rs);
			return 1;
		}
	if (report_merge_shards(&rs, 0) < 0) {
		report_free(&rs);
		return 1;
	}
	drop_doubles(&rs);
	struct doc d = { .origin = origin, .checkouts = json_array(), .builds = json_array(),
			 .tests = json_array(), .issues = json_array(), .incidents = json_array(),
			 .seen = json_object() };
	for (size_t i = 0; i < rs.n; i++) {
		report_model(&rs.run[i]);
		add_run(&d, &rs.run[i]);
	}
	d.root = json_pack("{s:{s:i, s:i}, s:o, s:o, s:o}", "version", "major", KCIDB_MAJOR,
			   "minor", KCIDB_MINOR, "checkouts", d.checkouts, "builds", d.builds,
			   "tests", d.tests);
	/* what the kernel did wrong: only when it did, so a clean run's document is as before */
	if (json_array_size(d.issues)) {
		json_object_set(d.root, "issues", d.issues);
		json_object_set(d.root, "incidents", d.incidents);
	}
	json_decref(d.issues);
	json_decref(d.incidents);
	rc = write_doc(d.root, out);
	json_decref(d.root);
	json_decref(d.seen);
	report_free(&rs);
	return rc;
}
