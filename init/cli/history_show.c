/* cli/history_show.c: `fsmatrix history list`, `cells` and `show CELL METRIC`: a cell's metric
 * over the runs of the history, each run's mean and spread, the runs grouped by their
 * conditions (report/conditions.c judges, as compare does), and the change points of each
 * group's series (core/figures/changepoint.h). */
#include "cli/history.h"
#include "report/sections.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One line on stdout, made with printf's fmt: the history's strings come from records, and a
 * control character among them is shown as report and compare show it (report_plain). */
void history_line(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	puts(report_plain(s));
	free(s);
}

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

int history_list(const char *db)
{
	sqlite3 *h = history_open(db, 0);
	sqlite3_stmt *st;
	if (!h)
		return 1;
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT r.run, r.time, (SELECT group_concat(release, ' ') FROM "
		 "kernels k WHERE k.run = r.run), (SELECT count(DISTINCT cell || '@' || kset) FROM "
		 "figures f WHERE f.run = r.run), r.source, %s FROM runs r ORDER BY r.time, r.run",
		 history_version(h) >= 2 ? "r.complete, r.why" : "NULL, NULL");
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "fsmatrix history: unable to read %s: %s\n", db, sqlite3_errmsg(h));
		sqlite3_close(h);
		return 1;
	}
	history_line("%-24s %-16s %5s  %-24s %s", "run", "date (UTC)", "cells", "kernel", "source");
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char date[32];
		history_date(sqlite3_column_int64(st, 1), date, sizeof date);
		int part = sqlite3_column_type(st, 5) != SQLITE_NULL && !sqlite3_column_int(st, 5);
		history_line("%-24s %-16s %5d  %-24s %s%s%s%s", col(st, 0), date, sqlite3_column_int(st, 3),
			     col(st, 2), col(st, 4), part ? "  incomplete (" : "", part ? col(st, 6) : "",
			     part ? ")" : "");
		n++;
	}
	history_line("%d run%s in %s", n, n == 1 ? "" : "s", db);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return 0;
}

/* The cells of the history, each with its metrics and how many runs hold it. */
int history_cells(const char *db)
{
	sqlite3 *h = history_open(db, 0);
	sqlite3_stmt *st;
	if (!h)
		return 1;
	if (sqlite3_prepare_v2(h, "SELECT cell, group_concat(DISTINCT metric), count(DISTINCT run || "
			       "'@' || kset) FROM figures GROUP BY cell ORDER BY cell", -1, &st,
			       NULL) != SQLITE_OK) {
		fprintf(stderr, "fsmatrix history: unable to read %s: %s\n", db, sqlite3_errmsg(h));
		sqlite3_close(h);
		return 1;
	}
	history_line("%-50s %6s  %s", "cell", "points", "metrics");
	while (sqlite3_step(st) == SQLITE_ROW)
		history_line("%-50s %6d  %s", col(st, 0), sqlite3_column_int(st, 2), col(st, 1));
	sqlite3_finalize(st);
	sqlite3_close(h);
	return 0;
}

/* An int from a query with one text parameter (and an optional second). */
static int count_of(sqlite3 *h, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *st;
	int n = -1;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
		if (b)
			sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* 0 when the history holds cell (ID, or ID@SET) with metric, else 1 after one line saying
 * which of the two it lacks. */
static int check_names(sqlite3 *h, const char *db, const char *cell, const char *kset,
		       const char *metric)
{
	if (count_of(h, "SELECT count(*) FROM figures WHERE cell = ?1 AND (?2 IS NULL OR kset = ?2)",
		     cell, kset) <= 0) {
		fprintf(stderr, "fsmatrix history: no cell %s%s%s in %s (fsmatrix history cells "
			"lists them)\n", cell, kset ? "@" : "", kset ? kset : "", db);
		return 1;
	}
	if (count_of(h, "SELECT count(*) FROM figures WHERE metric = ?1", metric, NULL) <= 0) {
		fprintf(stderr, "fsmatrix history: no cell in %s has a metric %s (fsmatrix history "
			"cells lists each cell's)\n", db, metric);
		return 1;
	}
	if (count_of(h, "SELECT count(*) FROM figures WHERE cell = ?1 AND metric = ?2", cell,
		     metric) <= 0) {
		fprintf(stderr, "fsmatrix history: cell %s has no metric %s in %s (fsmatrix history "
			"cells lists each cell's)\n", cell, metric, db);
		return 1;
	}
	return 0;
}

static char *dup(const char *s)
{
	return strdup(s ? s : "");
}

/* The points of the series, unordered. 0, or -1 on a database error. */
static int load_points(sqlite3 *h, struct hseries *s, const char *kset)
{
	sqlite3_stmt *st;
	char sql[700];
	snprintf(sql, sizeof sql, "SELECT f.run, f.kset, k.release, r.time, f.n, f.mean, f.stddev, "
		 "f.median, f.verdict, ifnull(k.fingerprint, '') || ' ' || ifnull(k.release, ''), "
		 "f.unit, f.label, f.higher_better, %s FROM figures f JOIN runs r ON r.run = f.run "
		 "LEFT JOIN kernels k ON k.run = f.run AND k.kset = f.kset WHERE f.cell = ?1 AND "
		 "f.metric = ?2 AND (?3 IS NULL OR f.kset = ?3) AND f.mean IS NOT NULL",
		 history_version(h) >= 2 ? "f.definition, r.complete" : "NULL, NULL");
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, s->cell, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, s->metric, -1, SQLITE_STATIC);
	if (kset)
		sqlite3_bind_text(st, 3, kset, -1, SQLITE_STATIC);
	size_t cap = 0;
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (s->n == cap) {
			cap = cap ? 2 * cap : 64;
			struct hpoint *p = realloc(s->pt, cap * sizeof *p);
			if (!p)
				break;
			s->pt = p;
		}
		struct hpoint *p = &s->pt[s->n++];
		*p = (struct hpoint){ .run = dup(col(st, 0)), .kset = dup(col(st, 1)),
				      .kernel = dup(col(st, 2)), .time = sqlite3_column_int64(st, 3),
				      .n = sqlite3_column_int(st, 4), .mean = sqlite3_column_double(st, 5),
				      .stddev = sqlite3_column_double(st, 6),
				      .median = sqlite3_column_double(st, 7), .verdict = dup(col(st, 8)),
				      .cond = dup(col(st, 9)), .definition = dup(col(st, 13)),
				      .incomplete = sqlite3_column_type(st, 14) != SQLITE_NULL &&
						    !sqlite3_column_int(st, 14) };
		if (!s->unit) {
			s->unit = dup(col(st, 10));
			s->label = dup(col(st, 11));
			s->higher_better = sqlite3_column_int(st, 12);
		}
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE || step == SQLITE_ROW ? 0 : -1;   /* ROW: out of memory, cut */
}

static int cmp_date(const void *a, const void *b)
{
	const struct hpoint *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	int c = strcmp(x->run, y->run);
	return c ? c : strcmp(x->kset, y->kset);
}

/* Kernel releases in version order ("6.1.0-9" before "6.1.0-57", "6.1" before "6.12"),
 * then by date. */
static int cmp_kernel(const void *a, const void *b)
{
	const struct hpoint *x = a, *y = b;
	int c = strverscmp(x->kernel, y->kernel);
	return c ? c : cmp_date(a, b);
}

/* A run as report_conditions_diff reads it: its header, with the kernel's release as its
 * kernel set, so that two releases compare as two kernels (their release and image are the
 * point, not a condition) and one release under two images does not. */
static int as_run(const struct hpoint *p, struct rrun *r)
{
	*r = (struct rrun){ .header = json_loads(p->header, 0, NULL) };
	if (!r->header)
		return -1;
	r->records = json_array();
	json_t *k = json_object_get(r->header, "kernel");
	if (json_is_object(k))
		json_object_set_new(k, "set", json_string(p->kernel));
	return 0;
}

/* The header of a point's boot, into p->header: 0, or -1 on a database error. */
static int load_header(sqlite3 *h, sqlite3_stmt **st, struct hpoint *p)
{
	if (!*st && sqlite3_prepare_v2(h, "SELECT header FROM kernels WHERE run = ?1 AND kset = ?2",
				       -1, st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(*st, 1, p->run, -1, SQLITE_STATIC);
	sqlite3_bind_text(*st, 2, p->kset, -1, SQLITE_STATIC);
	int rc = sqlite3_step(*st);
	p->header = dup(rc == SQLITE_ROW ? col(*st, 0) : "");
	sqlite3_reset(*st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Whether two points' definitions are one: both unknown, or both known and the same
 * (report_definition_diff); why gets the difference. */
static int same_definition(json_t *a, json_t *b, char *why, size_t len)
{
	snprintf(why, len, "no definition recorded (a history of schema 1)");
	if (!a || !b)
		return !a && !b;
	return report_definition_diff(a, b, why, len) == 0;
}

/* What separates group g (its first point r, definition d) from group A, into s->group_why. */
static void group_why(struct hseries *s, int g, struct rrun *rep, json_t **def, struct rrun *r,
		      json_t *d)
{
	char lines[1][REPORT_COND_LINE], why[512];
	const char *fp = report_fingerprint(r);
	s->group_why[g][0] = '\0';
	if (!fp)
		snprintf(s->group_why[g], sizeof s->group_why[g], "no conditions "
			 "recorded (an image older than the conditions record)");
	else if (g > 0 && report_conditions_diff(&rep[0], r, lines, 1) > 0)
		snprintf(s->group_why[g], sizeof s->group_why[g], "%.150s", lines[0]);
	else if (g > 0 && !same_definition(def[0], d, why, sizeof why))
		snprintf(s->group_why[g], sizeof s->group_why[g], "definition: %.300s", why);
}

/* Each point's group: the first group whose first point's conditions are the same as its
 * own, apart from the kernel's own, and whose cell definition is the same; a new group (up to
 * 26) otherwise. Points whose headers record no conditions cannot be judged: they are a
 * group of their own. Points of one fingerprint, kernel release (p->cond) and definition have
 * the same group, so the group of the first is theirs: a header is read and parsed once per
 * fingerprint and definition, not once per point (a site reads a thousand runs' series). 0,
 * or -1 on a database error. */
static int group_points(sqlite3 *h, struct hseries *s)
{
	struct rrun rep[26] = { { 0 } };
	json_t *def[26] = { NULL };
	char lines[4][REPORT_COND_LINE], why[512];
	sqlite3_stmt *st = NULL;
	size_t *first = malloc((s->n + 1) * sizeof *first), nfirst = 0;
	int rc = first ? 0 : -1;
	s->ngroups = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		struct rrun r;
		int g = 0;
		size_t k = 0;
		while (k < nfirst && (strcmp(s->pt[first[k]].cond, s->pt[i].cond) != 0 ||
				      strcmp(s->pt[first[k]].definition, s->pt[i].definition) != 0))
			k++;
		if (k < nfirst) {
			s->pt[i].group = s->pt[first[k]].group;
			continue;
		}
		first[nfirst++] = i;
		json_t *d = *s->pt[i].definition ? json_loads(s->pt[i].definition, 0, NULL) : NULL;
		if (load_header(h, &st, &s->pt[i]) < 0)
			rc = -1;
		else if (as_run(&s->pt[i], &r) == 0) {
			const char *fp = report_fingerprint(&r);
			for (g = 0; g < s->ngroups; g++)
				if ((fp ? report_fingerprint(&rep[g]) &&
					  report_conditions_diff(&rep[g], &r, lines, 4) == 0
					: !report_fingerprint(&rep[g])) &&
				    same_definition(def[g], d, why, sizeof why))
					break;
			if (g == s->ngroups && g < 26) {
				rep[s->ngroups] = r;
				def[s->ngroups++] = json_incref(d);
				snprintf(s->group_fp[g], sizeof s->group_fp[g], "%.12s", fp ? fp : "none");
				group_why(s, g, rep, def, &r, d);
			} else {
				g = g < 26 ? g : 25;
				json_decref(r.header);
				json_decref(r.records);
			}
		}
		json_decref(d);
		free(s->pt[i].header);
		s->pt[i].header = NULL;
		s->pt[i].group = g;
	}
	sqlite3_finalize(st);
	free(first);
	if (s->ngroups == 0) {
		s->ngroups = 1;
		snprintf(s->group_fp[0], sizeof s->group_fp[0], "unknown");
	}
	for (int g = 0; g < 26; g++) {
		json_decref(rep[g].header);
		json_decref(rep[g].records);
		json_decref(def[g]);
	}
	return rc;
}

/* The change points of each group's series of means. 0, or -1 on no memory. */
static int detect(struct hseries *s)
{
	double *x = malloc((s->n + 1) * sizeof *x);
	size_t *at = malloc((s->n + 1) * sizeof *at);
	struct cp_point *out = malloc((s->n + 1) * sizeof *out);
	s->cp = malloc((s->n + 1) * sizeof *s->cp);
	s->cp_group = malloc((s->n + 1) * sizeof *s->cp_group);
	int rc = -1;
	if (!x || !at || !out || !s->cp || !s->cp_group)
		goto out;
	for (int g = 0; g < s->ngroups; g++) {
		size_t m = 0;
		for (size_t i = 0; i < s->n; i++)
			if (s->pt[i].group == g) {
				at[m] = i;
				x[m++] = s->pt[i].mean;
			}
		long k = cp_detect(x, m, &s->opts, out);
		if (k < 0)
			goto out;
		for (long j = 0; j < k; j++) {
			out[j].index = at[out[j].index];
			s->pt[out[j].index].change = (int)s->ncp + 1;
			s->cp_group[s->ncp] = g;
			s->cp[s->ncp++] = out[j];
		}
	}
	rc = 0;
out:
	free(x);
	free(at);
	free(out);
	return rc;
}

static void num(double v, char *out, size_t len)
{
	double a = fabs(v);
	snprintf(out, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.4g", v);
}

static void print_table(const struct hseries *s)
{
	history_line("%4s  %-24s %-16s %-28s %3s %10s %9s  %-8s %-5s %s", "#", "run", "date (UTC)",
		     "kernel", "n", "mean", "stddev", "change", "cond", "verdict");
	for (size_t i = 0; i < s->n; i++) {
		const struct hpoint *p = &s->pt[i];
		char date[32], mean[32], sd[32], ch[32] = "", kern[80];
		history_date(p->time, date, sizeof date);
		num(p->mean, mean, sizeof mean);
		num(p->stddev, sd, sizeof sd);
		if (p->change)
			snprintf(ch, sizeof ch, "%+.1f%%", 100 * s->cp[p->change - 1].rel_change);
		snprintf(kern, sizeof kern, "%s%s%s%s", p->kernel, *p->kset ? " (" : "", p->kset,
			 *p->kset ? ")" : "");
		history_line("%4zu  %-24s %-16s %-28s %3d %10s %9s  %-8s %-5c %s%s", i + 1, p->run, date,
			     kern, p->n, mean, sd, ch, 'A' + p->group, p->verdict,
			     p->incomplete ? " (run incomplete)" : "");
	}
}

static void print_changes(const struct hseries *s)
{
	putchar('\n');
	history_line("change points: E-divisive means with Student's t-test, as Apache Otava (window "
		     "%zu, p %g, magnitude %g%s), within each conditions group", s->opts.window,
		     s->opts.max_p, s->opts.min_magnitude, s->opts.otava_retest ? ", Otava's retest" : "");
	for (size_t j = 0; j < s->ncp; j++) {
		const struct cp_point *c = &s->cp[j];
		const struct hpoint *p = &s->pt[c->index];
		char mb[32], ma[32], sb[32], sa[32];
		num(c->mean_before, mb, sizeof mb);
		num(c->mean_after, ma, sizeof ma);
		num(c->sd_before, sb, sizeof sb);
		num(c->sd_after, sa, sizeof sa);
		history_line("  at #%zu, run %s (%s), cond %c: mean %s -> %s %s (%+.1f%%, %s), stddev %s "
			     "-> %s, p %.2g, %zu runs before, %zu after", c->index + 1, p->run, p->kernel,
			     'A' + s->cp_group[j], mb, ma, s->unit, 100 * c->rel_change,
			     (c->rel_change > 0) == (s->higher_better != 0) ? "better" : "worse", sb, sa,
			     c->p, c->n_before, c->n_after);
	}
	if (s->ncp == 0)
		history_line("  none");
	char conds[26 * 200] = "";
	size_t k = 0;
	for (int g = 0; g < s->ngroups && k < sizeof conds; g++)
		k += (size_t)snprintf(conds + k, sizeof conds - k, "%s %c fingerprint %s%s%s", g ? ";" : "",
				      'A' + g, s->group_fp[g], !*s->group_why[g] ? ""
				      : strcmp(s->group_fp[g], "none") ? ", differs from A: " : ", ",
				      s->group_why[g]);
	int bydef = 0;
	for (int g = 1; g < s->ngroups; g++)
		bydef |= strncmp(s->group_why[g], "definition: ", 12) == 0;
	history_line("conditions:%s%s", conds, s->ngroups < 2 ? "" : bydef ? " (runs of different "
		     "conditions or definitions are never one series)" : " (runs of different "
		     "conditions are never one series)");
}

void history_series_free(struct hseries *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->pt[i].run);
		free(s->pt[i].kset);
		free(s->pt[i].kernel);
		free(s->pt[i].verdict);
		free(s->pt[i].header);
		free(s->pt[i].cond);
		free(s->pt[i].definition);
	}
	free(s->pt);
	free(s->unit);
	free(s->label);
	free(s->cp);
	free(s->cp_group);
}

int history_series(sqlite3 *h, struct hseries *s, const char *kset)
{
	if (load_points(h, s, kset) < 0)
		return -1;
	if (s->n)   /* none: pt is NULL, which qsort may not be handed */
		qsort(s->pt, s->n, sizeof *s->pt, s->by_kernel ? cmp_kernel : cmp_date);
	if (group_points(h, s) < 0)
		return -1;
	return detect(s) < 0 ? -2 : 0;
}

/* The page, written whole to html (a name for it; refused when it is the database). */
static int write_html(const struct hseries *s, const char *db, const char *html)
{
	FILE *f = fopen(html, "w");
	if (!f) {
		fprintf(stderr, "fsmatrix history: unable to write %s: %s\n", html, strerror(errno));
		return 1;
	}
	history_html(f, s, db);
	if (fclose(f) != 0) {
		fprintf(stderr, "fsmatrix history: unable to write %s: %s\n", html, strerror(errno));
		return 1;
	}
	return 0;
}

int history_show(const char *db, const char *cell, const char *metric, int by_kernel,
		 const struct cp_opts *o, const char *html)
{
	struct hseries s = { .metric = (char *)metric, .by_kernel = by_kernel, .opts = *o };
	char id[512];
	snprintf(id, sizeof id, "%s", cell);
	char *at = strchr(id, '@');
	if (at)
		*at++ = '\0';
	s.cell = id;
	sqlite3 *h = history_open(db, 0);
	if (!h)
		return 1;
	int rc = check_names(h, db, id, at, metric), got = rc ? 0 : history_series(h, &s, at);
	if (got == -1)
		fprintf(stderr, "fsmatrix history: unable to read %s: %s\n", db, sqlite3_errmsg(h));
	else if (got == -2)
		fprintf(stderr, "fsmatrix history: out of memory\n");
	rc = rc || got;
	sqlite3_close(h);
	if (rc == 0 && s.n == 0) {
		/* figures of runs it does not list: a file damaged, or edited by hand */
		fprintf(stderr, "fsmatrix history: %s holds figures of %s %s but of no run it lists "
			"(a damaged history)\n", db, cell, metric);
		rc = 1;
	}
	if (rc)
		goto out;
	history_line("%s %s (%s, %s is better): %zu point%s by %s, from %s", cell, metric, s.unit,
		     s.higher_better ? "higher" : "lower", s.n, s.n == 1 ? "" : "s",
		     by_kernel ? "kernel version" : "date", db);
	putchar('\n');
	print_table(&s);
	print_changes(&s);
	if (html)
		rc = write_html(&s, db, html);
out:
	s.metric = s.cell = NULL;
	history_series_free(&s);
	return rc;
}
