/* cli/history_db.c: the history's SQLite file: opened with its schema checked, and runs
 * added to it. SQLite keeps the whole history in one file that survives a crash mid-write
 * (its rollback journal), and its schema version sits in the file's own header (PRAGMA
 * user_version), so a file of a newer fsmatrix is known before anything is read. */
#include "cli/history.h"
#include "report/sections.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One row per run (its plan's sha256, whether it was complete and how many cell records it
 * held, so that a fuller copy can complete it), one per kernel set the run ran under (with
 * that boot's header, for its conditions), one per cell, kernel set and metric with the
 * figure over its repeats and the cell's definition (report/definition.c). */
static const char schema[] =
	"CREATE TABLE runs(run TEXT PRIMARY KEY, time INTEGER, source TEXT NOT NULL, plan TEXT, "
	"complete INTEGER, records INTEGER, why TEXT);"
	"CREATE TABLE kernels(run TEXT NOT NULL, kset TEXT NOT NULL, release TEXT, "
	"fingerprint TEXT, header TEXT, PRIMARY KEY(run, kset));"
	"CREATE TABLE figures(run TEXT NOT NULL, cell TEXT NOT NULL, kset TEXT NOT NULL, "
	"metric TEXT NOT NULL, unit TEXT, label TEXT, higher_better INTEGER, n INTEGER, "
	"mean REAL, stddev REAL, median REAL, verdict TEXT, definition TEXT, "
	"PRIMARY KEY(run, cell, kset, metric));"
	"PRAGMA user_version = 2;";
/* A history of schema 1 (no plan, completeness or definitions) is brought to 2 by the first
 * add; its runs count as complete, its figures as of no known definition. */
static const char migrate_1[] =
	"ALTER TABLE runs ADD COLUMN plan TEXT; ALTER TABLE runs ADD COLUMN complete INTEGER; "
	"ALTER TABLE runs ADD COLUMN records INTEGER; ALTER TABLE runs ADD COLUMN why TEXT; "
	"ALTER TABLE figures ADD COLUMN definition TEXT; PRAGMA user_version = 2;";
_Static_assert(HISTORY_SCHEMA == 2, "the schema above writes user_version 2");

static int refuse(sqlite3 *h, const char *db, const char *what)
{
	fprintf(stderr, "fsmatrix history: %s %s\n", db, what);
	sqlite3_close(h);
	return -1;
}

/* The integer the one-row query sql answers, in *out: 0, or -1 (its statement is finalized
 * here in either case, once). */
static int query_int(sqlite3 *h, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* 0 when h is a history of a schema this program reads (or, with create, an empty database
 * it may make one of: *empty set), else -1 after one line. */
static int check_schema(sqlite3 *h, const char *db, int *empty)
{
	char why[256];
	int v = -1, ntab = -1, nall = -1;
	if (query_int(h, "PRAGMA user_version", &v) < 0) {
		snprintf(why, sizeof why, "is not a history: not an SQLite database (%s)", sqlite3_errmsg(h));
		return refuse(h, db, why);
	}
	if (v > HISTORY_SCHEMA) {
		snprintf(why, sizeof why, "was written by a newer fsmatrix (history schema %d; this "
			 "one reads %d and older)", v, HISTORY_SCHEMA);
		return refuse(h, db, why);
	}
	query_int(h, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
		  "name IN ('runs', 'kernels', 'figures')", &ntab);
	query_int(h, "SELECT count(*) FROM sqlite_master", &nall);
	*empty = v == 0 && nall == 0;
	if ((v >= 1 && v <= HISTORY_SCHEMA && ntab == 3) || *empty)
		return 0;
	return refuse(h, db, "is an SQLite database but not an fsmatrix history (no runs, kernels "
		      "and figures tables of history schema 1 or 2)");
}

int history_version(sqlite3 *h)
{
	int v = 0;
	query_int(h, "PRAGMA user_version", &v);
	return v;
}

sqlite3 *history_open(const char *db, int create)
{
	struct stat sb;
	sqlite3 *h = NULL;
	int empty;
	if (stat(db, &sb) != 0) {
		if (!create) {
			fprintf(stderr, "fsmatrix history: no history at %s (fsmatrix history add RUN... "
				"starts one; --db FILE names another)\n", db);
			return NULL;
		}
	} else if (!S_ISREG(sb.st_mode)) {
		fprintf(stderr, "fsmatrix history: %s is not a regular file\n", db);
		return NULL;
	}
	int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	if (sqlite3_open_v2(db, &h, flags, NULL) != SQLITE_OK) {
		fprintf(stderr, "fsmatrix history: unable to open %s: %s\n", db, h ? sqlite3_errmsg(h) :
			"out of memory");
		sqlite3_close(h);
		return NULL;
	}
	sqlite3_busy_timeout(h, 5000);
	if (check_schema(h, db, &empty) != 0)
		return NULL;
	if (empty && !create) {
		refuse(h, db, "holds no history (an empty database)");
		return NULL;
	}
	return h;
}

/* The header of the boot under kernel set kset (the run's first when none names it). */
static json_t *kset_header(const struct rrun *r, const char *kset)
{
	size_t i;
	json_t *hd;
	json_array_foreach(r->headers, i, hd) {
		const char *s = json_string_value(json_object_get(json_object_get(hd, "kernel"), "set"));
		if (s && strcmp(s, kset) == 0)
			return hd;
	}
	return r->header;
}

struct adder {
	sqlite3 *h;
	sqlite3_stmt *run, *kern, *fig, *lim, *old, *del[4];
	struct cell_answer *ans;   /* the run's cells' limits (cli/history_limits.c) */
	int cells, figs, kept;   /* of the run being added: cells with figures, rows new */
};

static int bind_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The kernel set's row, then the cell's figures. -1 on a database error. */
static int add_cell(struct adder *a, const struct rrun *r, const struct rcell *c)
{
	json_t *kx = json_object_get(c->axes, "kernel");
	const char *kset = json_is_string(kx) ? json_string_value(kx) : "";
	char base[512];
	size_t len = strlen(c->id), kl = strlen(kset);
	/* a run under several kernels names its cells ID@KERNEL: the history keeps ID and the set */
	if (kl && len > kl + 1 && c->id[len - kl - 1] == '@' && strcmp(c->id + len - kl, kset) == 0)
		len -= kl + 1;
	snprintf(base, sizeof base, "%.*s", (int)len, c->id);
	json_t *hd = kset_header(r, kset);
	char *htext = json_dumps(hd, JSON_COMPACT | JSON_SORT_KEYS);
	const char *fp = json_string_value(json_object_get(json_object_get(hd, "conditions"), "fingerprint"));
	sqlite3_bind_text(a->kern, 1, r->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(a->kern, 2, kset, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(a->kern, 3, report_str(json_object_get(hd, "kernel"), "release"), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(a->kern, 4, fp ? fp : report_fingerprint(r), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(a->kern, 5, htext, -1, SQLITE_TRANSIENT);
	free(htext);
	if (bind_step(a->kern) < 0)
		return -1;
	int any = 0;
	json_t *dj = report_cell_definition(r, c);
	char *def = json_dumps(dj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(dj);
	for (size_t i = 0; i < c->nm; i++) {
		if (!c->has[i])
			continue;
		const struct metric *m = c->m[i];
		const struct summary *s = &c->st[i];
		sqlite3_stmt *f = a->fig;
		sqlite3_bind_text(f, 1, r->id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(f, 2, base, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(f, 3, kset, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(f, 4, m->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(f, 5, m->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(f, 6, m->label, -1, SQLITE_STATIC);
		sqlite3_bind_int(f, 7, m->higher_better);
		sqlite3_bind_int(f, 8, (int)s->n);
		sqlite3_bind_double(f, 9, s->mean);
		sqlite3_bind_double(f, 10, s->stddev);
		sqlite3_bind_double(f, 11, s->median);
		sqlite3_bind_text(f, 12, c->vd[i].stable ? "stable" : c->vd[i].reason, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(f, 13, def, -1, SQLITE_TRANSIENT);
		if (bind_step(f) < 0) {
			free(def);
			return -1;
		}
		int changed = sqlite3_changes(a->h);
		a->figs++;
		a->kept += changed;
		any = 1;
	}
	free(def);
	a->cells += any;
	return history_limits_put(a->lim, r->id, base, kset, a->ans ? &a->ans[c - r->cells] : NULL);
}

/* Whether a run has a figure to keep: an ok repeat of some cell with a usable metric. */
static int has_figures(const struct rrun *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t m = 0; m < r->cells[i].nm; m++)
			if (r->cells[i].has[m])
				return 1;
	return 0;
}

/* The sha256 of the plan a header names, or NULL. */
static const char *plan_of(json_t *header)
{
	return json_string_value(json_object_get(json_object_get(header, "plan"), "sha256"));
}

/* Why r is incomplete ("no trailer; 2 record lines rejected"), "" when it is complete. */
static void incomplete_why(const struct rrun *r, char *why, size_t len)
{
	size_t k = 0;
	int rej = report_rejected(r);
	why[0] = '\0';
	if (report_run_status(r) != REPORT_STATUS_INCOMPLETE)
		return;
	if (!r->trailer)
		k += (size_t)snprintf(why + k, len - k, "no trailer");
	if (rej && k < len)
		k += (size_t)snprintf(why + k, len - k, "%s%d record line%s rejected", k ? "; " : "",
				      rej, rej == 1 ? "" : "s");
	int lost = r->nlost;
	/* records that number cells, not repetitions, lose a repetition only so */
	for (size_t i = 0; !r->nlost && !r->bisect && i < r->ncells; i++)
		if (!r->cells[i].missing && r->cells[i].seen < r->cells[i].reps)
			lost += r->cells[i].reps - r->cells[i].seen;
	if (lost && k < len)
		k += (size_t)snprintf(why + k, len - k, "%s%d repetition%s without a record",
				      k ? "; " : "", lost, lost == 1 ? "" : "s");
	if (!k)
		snprintf(why, len, "cells missing");
}

/* One run: its row, then its cells'. -1 on a database error. */
static int add_run(struct adder *a, const struct rrun *r)
{
	char why[160];
	a->cells = a->figs = a->kept = 0;
	json_t *t = json_object_get(r->header, "time");
	incomplete_why(r, why, sizeof why);
	sqlite3_bind_text(a->run, 1, r->id, -1, SQLITE_TRANSIENT);
	if (json_is_integer(t))
		sqlite3_bind_int64(a->run, 2, json_integer_value(t));
	else
		sqlite3_bind_null(a->run, 2);
	sqlite3_bind_text(a->run, 3, r->source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(a->run, 4, plan_of(r->header), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(a->run, 5, !why[0]);
	sqlite3_bind_int64(a->run, 6, (sqlite3_int64)json_array_size(r->records));
	if (why[0])
		sqlite3_bind_text(a->run, 7, why, -1, SQLITE_TRANSIENT);
	if (bind_step(a->run) < 0)
		return -1;
	a->ans = report_answers(r);
	int rc = 0;
	for (size_t i = 0; i < r->ncells && rc == 0; i++)
		rc = add_cell(a, r, &r->cells[i]);
	free(a->ans);
	return rc;
}

static int prepare(struct adder *a)
{
	/* the limits table first (made if missing), so that a fuller copy's forget clears it too */
	static const char *const del[] = { "DELETE FROM figures WHERE run = ?",
					   "DELETE FROM kernels WHERE run = ?",
					   "DELETE FROM runs WHERE run = ?",
					   "DELETE FROM limits WHERE run = ?" };
	if (history_limits_prepare(a->h, &a->lim) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (sqlite3_prepare_v2(a->h, del[i], -1, &a->del[i], NULL) != SQLITE_OK)
			return -1;
	return sqlite3_prepare_v2(a->h, "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
				  -1, &a->run, NULL) != SQLITE_OK ||
	       sqlite3_prepare_v2(a->h, "INSERT OR IGNORE INTO kernels VALUES (?, ?, ?, ?, ?)", -1,
				  &a->kern, NULL) != SQLITE_OK ||
	       sqlite3_prepare_v2(a->h, "INSERT OR IGNORE INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, "
				  "?, ?, ?, ?, ?, ?)", -1, &a->fig, NULL) != SQLITE_OK ||
	       sqlite3_prepare_v2(a->h, "SELECT plan, complete, records FROM runs WHERE run = ?", -1,
				  &a->old, NULL) != SQLITE_OK ? -1 : 0;
}

/* What the history holds of run id already: 0 nothing; else 1 with its plan (into plan, ""
 * when unknown), whether it was complete (a run of schema 1: yes) and its cell records. */
static int held(struct adder *a, const char *id, char *plan, size_t len, int *complete,
		long long *records)
{
	sqlite3_bind_text(a->old, 1, id, -1, SQLITE_TRANSIENT);
	int found = sqlite3_step(a->old) == SQLITE_ROW;
	if (found) {
		const unsigned char *p = sqlite3_column_text(a->old, 0);
		snprintf(plan, len, "%s", p ? (const char *)p : "");
		*complete = sqlite3_column_type(a->old, 1) == SQLITE_NULL || sqlite3_column_int(a->old, 1);
		*records = sqlite3_column_int64(a->old, 2);
	}
	sqlite3_reset(a->old);
	sqlite3_clear_bindings(a->old);
	return found;
}

/* The run's rows gone, for a fuller copy of it. -1 on a database error. */
static int forget(struct adder *a, const char *id)
{
	for (int i = 0; i < 4; i++) {
		sqlite3_bind_text(a->del[i], 1, id, -1, SQLITE_TRANSIENT);
		if (bind_step(a->del[i]) < 0)
			return -1;
	}
	return 0;
}

/* Two plans under one run id, in the sources (two copies, or the boots of one) or against
 * what the history holds: 1 after one line, else 0. */
static int plan_clash(const struct rrun *r, const char *held_plan, const char *db)
{
	const char *p = plan_of(r->header), *q = NULL, *where = db;
	size_t i;
	json_t *hd;
	json_array_foreach(r->headers, i, hd)
		if (p && plan_of(hd) && strcmp(p, plan_of(hd)) != 0)
			q = plan_of(hd), where = "another boot of it";
	if (!q && p && held_plan && *held_plan && strcmp(p, held_plan) != 0)
		q = held_plan;
	if (!q)
		return 0;
	char id[256];
	snprintf(id, sizeof id, "%s", r->id);
	fprintf(stderr, "fsmatrix history: run %s of %s is of plan %.12s, %s holds it of plan %.12s: "
		"two plans under one run id (nothing added)\n", report_plain(id), r->source, p,
		where, q);
	return 1;
}

/* A run's id as a line may show it (report_plain), in id (RUN_ID_MAX bytes). */
#define RUN_ID_MAX 256
static const char *plain_id(const struct rrun *r, char *id)
{
	snprintf(id, RUN_ID_MAX, "%s", r->id);
	return report_plain(id);
}

/* One run of rs, with what the history holds of it: a run it holds whole is left as it is
 * (its new cells added), one it holds incomplete is replaced by a fuller copy. -1 on a
 * database error. */
static int add_one(struct adder *a, const struct rrun *r, int *isnew)
{
	char plan[80] = "", why[160], id[RUN_ID_MAX];
	int complete = 1;
	long long recs = 0;
	int have = held(a, r->id, plan, sizeof plan, &complete, &recs);
	incomplete_why(r, why, sizeof why);
	long long now = (long long)json_array_size(r->records);
	int fuller = have && !complete && (!why[0] || now > recs);
	if ((fuller && forget(a, r->id) < 0) || add_run(a, r) < 0)
		return -1;
	*isnew = a->kept > 0;
	if (fuller)
		printf("run %s: %d cells, %d figures, a fuller copy (%lld cell records, %lld before)%s%s%s\n",
		       plain_id(r, id), a->cells, a->figs, now, recs, why[0] ? ", still incomplete (" :
		       ": completed", why, why[0] ? ")" : "");
	else
		printf("run %s: %d cells, %d figures, %s%s%s%s\n", plain_id(r, id), a->cells, a->figs,
		       a->kept == 0 ? "all there already" : a->kept == a->figs ? "added" :
		       "the new ones added", why[0] ? ", incomplete (" : "", why,
		       why[0] ? "): a fuller copy of the run completes it" : "");
	return 0;
}

/* Two plans under one run id anywhere among rs and the history: 1 after one line, else 0.
 * Judged before anything is written or said. */
static int clashes(struct adder *a, const struct runset *rs, const char *db)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct rrun *r = &rs->run[i];
		char plan[80] = "";
		int complete;
		long long recs;
		int have = held(a, r->id, plan, sizeof plan, &complete, &recs);
		if (plan_clash(r, have ? plan : NULL, db))
			return 1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(rs->run[j].id, r->id) == 0 && plan_of(rs->run[j].header) &&
			    plan_clash(r, plan_of(rs->run[j].header), rs->run[j].source))
				return 1;
	}
	return 0;
}

/* Every run of rs with figures, in one transaction. 0, or 1 after a line (nothing written). */
static int add_all(sqlite3 *h, const char *db, const struct runset *rs, int fresh)
{
	struct adder a = { .h = h };
	int rc = 1, said = 0;
	if (sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
	    (fresh && sqlite3_exec(h, schema, NULL, NULL, NULL) != SQLITE_OK) ||
	    (!fresh && history_version(h) == 1 && sqlite3_exec(h, migrate_1, NULL, NULL, NULL) != SQLITE_OK) ||
	    prepare(&a) < 0)
		goto out;
	size_t nruns = 0, nnew = 0;
	char id[RUN_ID_MAX];
	if (clashes(&a, rs, db)) {
		said = 1;
		goto out;
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct rrun *r = &rs->run[i];
		int isnew = 0, k;
		if (!has_figures(r)) {
			printf("run %s: no cell with a figure (no ok repeat): skipped\n", plain_id(r, id));
			continue;
		}
		if ((k = add_one(&a, r, &isnew)) < 0)
			goto out;
		nruns++;
		nnew += isnew;
	}
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	printf("%s: %zu run%s with figures, %zu of them new to it\n", db, nruns, nruns == 1 ? "" : "s", nnew);
	rc = 0;
out:
	if (rc && said) {
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	} else if (rc) {
		fprintf(stderr, "fsmatrix history: unable to write %s: %s (nothing added)\n", db,
			sqlite3_errmsg(h));
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_finalize(a.run);
	sqlite3_finalize(a.kern);
	sqlite3_finalize(a.fig);
	sqlite3_finalize(a.lim);
	sqlite3_finalize(a.old);
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(a.del[i]);
	return rc;
}

int history_add(const char *db, const char *const *sources, size_t n)
{
	struct runset rs = { .no_charts = 1 };
	int rc = 1;
	/* every source read before the file is touched: a bad one adds nothing */
	if (report_load_all(sources, n, &rs) != 0)
		goto out;
	size_t with = 0;
	for (size_t i = 0; i < rs.n; i++) {
		if (!rs.run[i].header) {
			fprintf(stderr, "fsmatrix history: %s: a run without its header (no run id): "
				"nothing added\n", rs.run[i].source);
			goto out;
		}
		with += has_figures(&rs.run[i]);
	}
	if (with == 0) {
		fprintf(stderr, "fsmatrix history: no run of the %zu source%s has a cell with a figure "
			"(no ok repeat): nothing added\n", n, n == 1 ? "" : "s");
		goto out;
	}
	struct stat sb;
	int existed = stat(db, &sb) == 0, empty = 0;
	sqlite3 *h = history_open(db, 1);
	if (!h)
		goto out;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		empty = sqlite3_column_int(st, 0) == 0;
	sqlite3_finalize(st);
	rc = add_all(h, db, &rs, empty);
	sqlite3_close(h);
	if (rc && !existed)
		unlink(db);
out:
	report_free(&rs);
	return rc;
}
