/* report/series.c: the time series inside the cells ("series" records): each ok repeat's
 * record is attached to its cell with the figures core/figures/series.c derives from it (peak and
 * p99 write throughput, the longest stall, max Dirty, the busiest member), the cell's
 * figures over its repeats, and the stalls the report lists under Problems. */
#include "report/timeseries.h"
#include "report/lean.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first n values of a series record's column name (malloc'd; a null as 0), or NULL when
 * it has none. */
static double *series_column(json_t *rec, const struct series_rows *m, const char *name, size_t n)
{
	json_t *cols = json_object_get(rec, "columns"), *v;
	size_t i, ci = (size_t)-1;
	json_array_foreach(cols, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
			ci = i;
	if (ci == (size_t)-1 || ci >= m->nc || n == 0)
		return NULL;
	double *out = malloc(n * sizeof *out);
	for (i = 0; out && i < n; i++) {
		double x = m->v[i * m->nc + ci];
		out[i] = isnan(x) ? 0 : x;
	}
	return out;
}

/* Beyond this, a value is no measurement (MB/s, %, MB, s): printed with %.1f it would run
 * to hundreds of digits. */
#define SERIES_VALUE_BOUND 1e12

/* The columns of a record of nr rows: names, and within the limits; *ti the column of t. */
static int columns_invalid(json_t *cols, size_t nr, size_t *ti, char *why, size_t len)
{
	size_t nc = json_array_size(cols), k;
	json_t *v;
	*ti = (size_t)-1;
	json_array_foreach(cols, k, v) {
		if (!json_is_string(v)) {
			snprintf(why, len, "column %zu is not a name", k + 1);
			return -1;
		}
		if (strcmp(json_string_value(v), "t") == 0)
			*ti = k;
	}
	if (nr > SERIES_ROWS_MAX || nr * nc > SERIES_VALUES_MAX) {
		snprintf(why, len, "%zu rows of %zu columns, past the limit of %d rows and %d numbers",
			 nr, nc, SERIES_ROWS_MAX, SERIES_VALUES_MAX);
		return -1;
	}
	return 0;
}

/* Value x (a number) at row i, column k: plausible, and time never going back. */
static int value_invalid(json_t *cols, double x, size_t i, size_t k, size_t ti, double *last_t,
			 char *why, size_t len)
{
	if (!isfinite(x) || fabs(x) > SERIES_VALUE_BOUND) {
		snprintf(why, len, "row %zu, column %s: not a plausible value", i + 1,
			 json_string_value(json_array_get(cols, k)));
		return -1;
	}
	if (k == ti && x < *last_t) {
		snprintf(why, len, "time goes back at row %zu (%.3f s after %.3f s)", i + 1, x, *last_t);
		return -1;
	}
	if (k == ti)
		*last_t = x;
	return 0;
}

/* Why a series record cannot be read as the documented shape (SERIES_ROWS_MAX rows and
 * SERIES_VALUES_MAX numbers at most, every row as long as columns, numbers or null, time
 * never going back), into why; 0 when it can, with its rows as numbers in *m. Such a record
 * gives no figure and is a Problem, rather than a table that vanishes or a figure of 309
 * digits. The rows are in the record, or already numbers in *m (fast: report/lean.h). */
static int series_invalid(json_t *rec, struct series_rows *m, int fast, char *why, size_t len)
{
	json_t *cols = json_object_get(rec, "columns"), *rows = json_object_get(rec, "rows"), *row, *v;
	if (!json_is_array(cols) || (!fast && !json_is_array(rows))) {
		snprintf(why, len, "no columns or rows");
		return -1;
	}
	size_t nc = json_array_size(cols), nr = fast ? m->nr : json_array_size(rows), i, k, ti;
	double last_t = -INFINITY;
	if (columns_invalid(cols, nr, &ti, why, len) < 0)
		return -1;
	if (fast && nr && m->nc != nc) {
		snprintf(why, len, "row 1 has %zu values for %zu columns", m->nc, nc);
		return -1;
	}
	if (!fast && !(m->v = malloc((nr * nc + 1) * sizeof *m->v))) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!fast)
		*m = (struct series_rows){ .nr = nr, .nc = nc, .cap = nr * nc, .v = m->v };
	for (i = 0; i < nr; i++) {
		row = fast ? NULL : json_array_get(rows, i);
		if (!fast && json_array_size(row) != nc) {
			snprintf(why, len, "row %zu has %zu values for %zu columns", i + 1,
				 json_array_size(row), nc);
			return -1;
		}
		for (k = 0; k < nc; k++) {
			v = fast ? NULL : json_array_get(row, k);
			if (!fast && !json_is_null(v) && !json_is_number(v)) {
				snprintf(why, len, "row %zu, column %s: not a number", i + 1,
					 json_string_value(json_array_get(cols, k)));
				return -1;
			}
			double *x = &m->v[i * nc + k];
			if (!fast)
				*x = json_is_null(v) ? NAN : json_number_value(v);
			if (!isnan(*x) && value_invalid(cols, *x, i, k, ti, &last_t, why, len) < 0)
				return -1;
		}
	}
	return 0;
}

/* Each member's utilisation over the whole series (the target's when there are no
 * members), for the chart's bars. */
static void chart_members(json_t *rec, const struct series_rows *rows, struct rchart *ch)
{
	json_t *members = json_object_get(rec, "members");
	size_t nm = json_array_size(members);
	ch->nm = nm ? nm : 1;
	ch->name = calloc(ch->nm, sizeof *ch->name);
	ch->busy = calloc(ch->nm, sizeof *ch->busy);
	for (size_t m = 0; m < ch->nm; m++) {
		char col[64];
		const char *name = nm ? json_string_value(json_array_get(members, m))
				      : json_string_value(json_object_get(rec, "target"));
		snprintf(col, sizeof col, nm ? "%s:util_pct" : "util_pct", name ? name : "");
		double *u = series_column(rec, rows, col, ch->n), busy = 0;
		for (size_t i = 0; u && i < ch->n; i++)
			busy += u[i] * (ch->t[i] - (i ? ch->t[i - 1] : 0));
		ch->busy[m] = ch->t[ch->n - 1] > 0 ? busy / ch->t[ch->n - 1] : 0;
		ch->name[m] = strdup(name ? name : "?");
		free(u);
	}
}

/* The figures of one record, and with keep_chart what its chart draws; -1 when it lacks t
 * or write_mbps. */
static int record_figs(json_t *rec, const struct series_rows *rows, struct rseries *s, int keep_chart)
{
	size_t n = rows->nr;
	json_t *members = json_object_get(rec, "members");
	size_t nm = json_array_size(members);
	double *t = series_column(rec, rows, "t", n), *w = series_column(rec, rows, "write_mbps", n);
	double *d = series_column(rec, rows, "dirty_mb", n), *wb = series_column(rec, rows, "writeback_mb", n);
	double *util[SAMPLE_DISKS_MAX] = { 0 };
	const char *names[SAMPLE_DISKS_MAX] = { 0 };
	int nd = 0, rc = -1;
	char col[64];
	/* the members; a single disk is its own busiest member */
	for (size_t m = 0; m < nm && nd < SAMPLE_DISKS_MAX; m++, nd++) {
		names[nd] = json_string_value(json_array_get(members, m));
		snprintf(col, sizeof col, "%s:util_pct", names[nd] ? names[nd] : "");
		util[nd] = series_column(rec, rows, col, n);
	}
	if (nm == 0) {
		names[0] = json_string_value(json_object_get(rec, "target"));
		util[nd++] = series_column(rec, rows, "util_pct", n);
	}
	if (t && w) {
		if (keep_chart) {
			s->chart = calloc(1, sizeof *s->chart);
			*s->chart = (struct rchart){ .n = n, .t = t, .w = w, .d = d, .wb = wb };
			chart_members(rec, rows, s->chart);
		}
		double *dz = d ? d : calloc(n ? n : 1, sizeof *dz);
		series_figures(t, w, dz, wb, (const double *const *)util, nd, n, &s->f);
		series_steady(t, w, n, &s->steady);
		snprintf(s->busiest, sizeof s->busiest, "%s",
			 s->f.busiest >= 0 && names[s->f.busiest] ? names[s->f.busiest] : "");
		if (dz != d)
			free(dz);
		rc = 0;
	}
	for (int i = 0; i < nd; i++)
		free(util[i]);
	if (!s->chart)
		free(t), free(w), free(d), free(wb);
	return rc;
}

/* A record's attempt: 1 when it names none. */
static json_int_t attempt_of(json_t *rec)
{
	json_t *a = json_object_get(rec, "attempt");
	return json_is_integer(a) ? json_integer_value(a) : 1;
}

/* What ties a series to its cell record: the cell, the repetition (as JSON text, so that
 * only equal values match) and the attempt. NULL when the record names no cell or rep. */
static char *series_key(const char *cell, const char *rep_key, json_int_t attempt)
{
	char *k = NULL;
	if (!cell || !rep_key || asprintf(&k, "%s\x1f%s\x1f%lld", cell, rep_key, (long long)attempt) < 0)
		return NULL;
	return k;
}

static char *rep_text(json_t *rec)
{
	json_t *rep = json_object_get(rec, "rep");
	return rep ? json_dumps(rep, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
}

void report_series_note_cell(struct rrun *r, json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	char *rep = rep_text(rec);
	char *k = st && strcmp(st, "ok") == 0
		? series_key(json_string_value(json_object_get(rec, "cell")), rep, attempt_of(rec)) : NULL;
	if (k)
		json_object_set_new_nocheck(r->ok_recs, k, json_true());
	free(k);
	free(rep);
}

void report_series_take(struct rrun *r, json_t *rec, const struct series_rows *fast, int charts)
{
	const char *id = json_string_value(json_object_get(rec, "cell"));
	if (!id)
		return;   /* belongs to no cell: nothing shows it */
	struct rseries s = { .cell = strdup(id), .rep_key = rep_text(rec), .attempt = attempt_of(rec),
			     .rep = (int)json_integer_value(json_object_get(rec, "rep")) };
	char why[200];
	struct series_rows rows = fast ? *fast : (struct series_rows){ 0 };
	if (series_invalid(rec, &rows, fast != NULL, why, sizeof why) < 0) {
		s.invalid = strdup(why);
	} else {
		/* The chart shows a cell's first ok repeat: a later one of a cell whose first ok
		 * repeat is already read keeps its figures only. Ahead of its cell record (never
		 * so in a run's own order), a series keeps its columns. */
		char *k = series_key(id, s.rep_key, s.attempt);
		int ok = k && json_object_get(r->ok_recs, k);
		int keep = charts && (!ok || !json_object_get(r->charted, id));
		s.usable = record_figs(rec, &rows, &s, keep) == 0;
		if (ok && s.chart)
			json_object_set_new_nocheck(r->charted, id, json_true());
		free(k);
	}
	if (!fast)
		free(rows.v);
	if ((r->nseries & (r->nseries - 1)) == 0)   /* doubled at each power of two */
		r->series = realloc(r->series, (r->nseries ? 2 * r->nseries : 1) * sizeof *r->series);
	r->series[r->nseries++] = s;
}

void report_series_free(struct rseries *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].cell);
		free(s[i].rep_key);
		free(s[i].invalid);
		if (s[i].chart) {
			struct rchart *c = s[i].chart;
			free(c->t), free(c->w), free(c->d), free(c->wb);
			for (size_t m = 0; m < c->nm; m++)
				free(c->name[m]);
			free(c->name);
			free(c->busy);
			free(c);
		}
	}
	free(s);
}

void report_series_attach(struct rrun *r)
{
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rseries *s = &r->series[i];
		char *k = series_key(s->cell, s->rep_key, s->attempt);
		json_t *ix = json_object_get(r->cell_ix, s->cell);
		int ok = k && json_object_get(r->ok_recs, k);
		free(k);
		if (!ok || !ix)
			continue;
		struct rcell *x = &r->cells[json_integer_value(ix)];
		if (s->invalid) {
			char line[260];
			if (!x->ser_bad)
				x->ser_bad = json_array();
			snprintf(line, sizeof line, "rep %d/%d: time series left out: %s", s->rep,
				 x->reps, s->invalid);
			json_array_append_new(x->ser_bad, json_string(line));
			continue;
		}
		struct rseries *more = s->usable ? realloc(x->ser, (x->nser + 1) * sizeof *more) : NULL;
		if (more) {
			x->ser = more;
			x->ser[x->nser++] = *s;
		}
	}
}

static double median_of(const struct rcell *c, size_t off)
{
	double v[64];
	size_t n = 0;
	for (size_t i = 0; i < c->nser && n < 64; i++)
		v[n++] = *(const double *)((const char *)&c->ser[i].f + off);
	struct summary s;
	return stats_summary(v, n, &s) == 0 ? s.median : NAN;
}

int report_series_cell(const struct rcell *c, struct series_figs *out, char *busiest, size_t len)
{
	memset(out, 0, sizeof *out);
	if (!c->nser)
		return -1;
	out->peak_mbps = median_of(c, offsetof(struct series_figs, peak_mbps));
	out->p99_mbps = median_of(c, offsetof(struct series_figs, p99_mbps));
	out->max_dirty_mb = median_of(c, offsetof(struct series_figs, max_dirty_mb));
	out->busiest_util_pct = median_of(c, offsetof(struct series_figs, busiest_util_pct));
	out->written_mb = median_of(c, offsetof(struct series_figs, written_mb));
	/* the worst repeat's stall: one is enough to be worth a look */
	size_t worst = 0;
	for (size_t i = 0; i < c->nser; i++)
		if (c->ser[i].f.stall_s > c->ser[worst].f.stall_s)
			worst = i;
	out->stall_s = c->ser[worst].f.stall_s;
	out->stall_at = c->ser[worst].f.stall_at;
	/* the member busiest most often; the first repeat's on a tie */
	snprintf(busiest, len, "%s", c->ser[0].busiest);
	int best = 0;
	for (size_t i = 0; i < c->nser; i++) {
		int k = 0;
		for (size_t j = 0; j < c->nser; j++)
			k += strcmp(c->ser[i].busiest, c->ser[j].busiest) == 0;
		if (k > best) {
			best = k;
			snprintf(busiest, len, "%s", c->ser[i].busiest);
		}
	}
	return 0;
}

int report_series_problems(const struct rcell *c, void (*line)(void *ctx, const char *s), void *ctx)
{
	int n = 0;
	size_t i;
	json_t *v;
	json_array_foreach(c->ser_bad, i, v) {
		char buf[600];
		snprintf(buf, sizeof buf, "  %s %s", c->id, json_string_value(v));
		line(ctx, buf);
		n++;
	}
	/* a stream that never settled measured its ramp, not the rate it would hold */
	for (i = 0; strcmp(c->wtype, "seqwrite") == 0 && i < c->nser; i++) {
		const struct series_steady *st = &c->ser[i].steady;
		if (!st->judged || st->steady)
			continue;
		char buf[600];
		snprintf(buf, sizeof buf, "  %s rep %d/%d: the write rate never reached steady state "
			 "(last %d of %d time windows: %s)", c->id, c->ser[i].rep, c->reps,
			 SERIES_STEADY_LAST, SERIES_STEADY_WINDOWS, st->why);
		line(ctx, buf);
		n++;
	}
	for (i = 0; i < c->nser; i++) {
		const struct series_figs *f = &c->ser[i].f;
		if (f->stall_s <= REPORT_STALL_S)
			continue;
		char buf[600];
		snprintf(buf, sizeof buf, "  %s rep %d/%d: stall of %.1f s from t=%.1f s: pages dirty "
			 "(at least %.0f MB) and no write completed on the target", c->id, c->ser[i].rep,
			 c->reps, f->stall_s, f->stall_at, SERIES_STALL_DIRTY_MB);
		line(ctx, buf);
		n++;
	}
	return n;
}
