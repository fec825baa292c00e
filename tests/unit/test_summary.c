/* test_summary.c: the report's figures of a cell are the figures of the summary record PID 1
 * writes for it. For each cell of the report fixtures, the ok records' figures are gathered
 * as PID 1 gathers what it measured (every numeric figure of the result, NaN for one that
 * is not a number: PID 1 writes an unmeasured figure as null), the record's "stats" are
 * written with PID 1's writer (jw_summary_stats) and read back, and every metric the report
 * shows must have the same min, median, mean, max, stddev and cv at the record's 6 decimals
 * (a metric the report shows as n/a must be absent). The fixtures' figures are the figures
 * PID 1 would have measured: the records hold them at their full precision. The record's
 * "verdict", written by PID 1's writer from those figures, must be the report's verdict on
 * the cell, to the letter. */
#include "check.h"
#include "lib/record.h"
#include "report/model.h"
#include <math.h>

/* The summary record's stats object for cell c of run r, parsed; NULL on a writer error.
 * verdict gets the record's "verdict" as PID 1 writes it. */
static json_t *summary_stats(const struct rrun *r, const struct rcell *c, int *n, char *verdict,
			     size_t vlen)
{
	struct stats_cell fig = { 0 };
	size_t i;
	json_t *rec;
	*n = 0;
	json_array_foreach(r->records, i, rec) {
		const char *id = json_string_value(json_object_get(rec, "cell"));
		const char *st = json_string_value(json_object_get(rec, "status"));
		if (!id || strcmp(id, c->id) != 0 || !st || strcmp(st, "ok") != 0)
			continue;
		const char *key;
		json_t *v;
		int rep = (int)json_integer_value(json_object_get(rec, "rep"));
		json_object_foreach(json_object_get(rec, "result"), key, v) {
			if (json_is_number(v))
				stats_cell_add_rep(&fig, key, json_number_value(v), rep);
			else if (json_is_string(v) || json_is_null(v))
				stats_cell_add_rep(&fig, key, NAN, rep);
		}
		(*n)++;
	}
	static char buf[16 * 1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	jw_summary_stats(&w, &fig);
	json_t *stats = jw_done(&w) == 0 ? json_loadb(w.buf, w.len, 0, NULL) : NULL;
	struct fig_verdict fv;
	const char *metric = verdict_cell(&fig, wl_kind_named(c->wtype), &fv);
	jw_init(&w, verdict, vlen);
	jw_verdict(&w, metric, &fv);
	stats_cell_free(&fig);
	return stats;
}

/* One figure: the report's value and the record's, both at the record's 6 decimals. */
static void same(const char *what, const struct rcell *c, const char *key, double report,
		 json_t *record)
{
	char a[64], b[64];
	if (isnan(report)) {
		CHECK(json_is_null(record), "%s %s %s: the report has NaN, the record not null",
		      c->id, key, what);
		return;
	}
	snprintf(a, sizeof a, "%.6f", report);
	snprintf(b, sizeof b, "%.6f", json_number_value(record));
	CHECK(json_is_number(record) && strcmp(a, b) == 0, "%s %s %s: report %s, summary record %s",
	      c->id, key, what, a, json_is_number(record) ? b : "not a number");
}

static size_t check_cell(const struct rrun *r, const struct rcell *c)
{
	int n;
	char want[512], got[512];
	json_t *stats = summary_stats(r, c, &n, want, sizeof want);
	CHECK(stats != NULL, "%s: the summary record's stats do not parse", c->id);
	CHECK_INT(n, c->ok);
	/* the report's verdict on the cell is the summary record's, to the letter */
	struct jw w;
	jw_init(&w, got, sizeof got);
	jw_verdict(&w, c->verdict_metric, &c->verdict);
	CHECK(strcmp(got, want) == 0, "%s: the report's verdict %s, the summary record's %s", c->id,
	      got, want);
	size_t compared = 0;
	for (size_t m = 0; stats && m < c->nm; m++) {
		const char *key = c->m[m]->key;
		json_t *s = json_object_get(stats, key);
		if (!c->has[m]) {
			CHECK(s == NULL, "%s %s: n/a in the report, summarised in the record", c->id,
			      key);
			continue;
		}
		CHECK(json_is_object(s), "%s %s: in the report, not in the summary record", c->id,
		      key);
		if (!json_is_object(s))
			continue;
		const struct summary *st = &c->st[m];
		same("min", c, key, st->min, json_object_get(s, "min"));
		same("median", c, key, st->median, json_object_get(s, "median"));
		same("mean", c, key, st->mean, json_object_get(s, "mean"));
		same("max", c, key, st->max, json_object_get(s, "max"));
		same("stddev", c, key, st->stddev, json_object_get(s, "stddev"));
		same("cv", c, key, st->cv, json_object_get(s, "cv"));
		CHECK_INT(st->n, (size_t)c->ok - (size_t)c->fig.unusable[m]);
		compared++;
	}
	json_decref(stats);
	return compared;
}

int main(void)
{
	/* repeats with an error among them, skipped cells, figures that are not numbers,
	 * ignored mount options, an unfinished run */
	static const struct {
		const char *source;
		size_t figures;   /* cell x metric figures the report shows, each compared */
	} rows[] = {
		{ "tests/fixtures/report/run-a.jsonl", 24 },
		{ "tests/fixtures/report/run-b.jsonl", 20 },
		{ "tests/fixtures/report/unusable.jsonl", 23 },
		{ "tests/fixtures/report/ignored.jsonl", 24 },
		{ "tests/fixtures/report/partial.jsonl", 8 },
		/* outliers, spread and a lost repeat: the verdicts differ from cell to cell */
		{ "tests/fixtures/report/trust-a.jsonl", 24 },
		{ "tests/fixtures/report/trust-b.jsonl", 24 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct runset rs = { 0 };
		const char *src = rows[i].source;
		CHECK_INT(report_load_all(&src, 1, &rs), 0);
		size_t compared = 0;
		for (size_t k = 0; k < rs.n; k++)
			for (size_t j = 0; j < rs.run[k].ncells; j++)
				if (rs.run[k].cells[j].ok)
					compared += check_cell(&rs.run[k], &rs.run[k].cells[j]);
		CHECK(compared == rows[i].figures, "%s: %zu figures compared, want %zu", src,
		      compared, rows[i].figures);
		report_free(&rs);
	}
	return check_done("test_summary");
}
