/* cli/history.h: `fsmatrix history`, runs kept in one SQLite file (cli/history_db.c), a
 * cell's metric over them with its change points (cli/history_show.c) and their chart
 * (cli/history_html.c). */
#ifndef FSM_CLI_HISTORY_H
#define FSM_CLI_HISTORY_H
#include <stddef.h>
#include <stdio.h>
#include <sqlite3.h>

#include "core/figures/changepoint.h"

/* The schema this program writes, kept in PRAGMA user_version; a file of a larger one was
 * written by a newer fsmatrix and is refused. */
#define HISTORY_SCHEMA 2
#define HISTORY_DEFAULT_DB "out/history.sqlite"

/* Opens db. create: make the file and its tables when it does not exist (add); otherwise
 * it is opened read-only. A file that is not an SQLite database, one of a newer schema, or
 * a database that is not a history is refused: one line on stderr naming it, NULL, the file
 * untouched. */
sqlite3 *history_open(const char *db, int create);
/* The schema version of an open history (1: no plans, completeness or definitions kept). */
int history_version(sqlite3 *h);

/* Adds the runs of sources[0..n) to db in one transaction (nothing on an error). A run's
 * cells already there, by run id and cell, are left as they are. Returns 0, or 1 after a
 * line on stderr. */
int history_add(const char *db, const char *const *sources, size_t n);

/* One point of a cell's metric: a run (under one kernel set) with its figure. */
struct hpoint {
	char *run, *kset, *kernel, *verdict;
	char *cond;          /* its boot's conditions fingerprint and kernel release */
	char *header;        /* its boot's header (JSON), while its group is sought */
	char *definition;    /* the cell's definition, JSON (report/definition.c); "" unknown */
	int incomplete;      /* the run was kept incomplete (no trailer, a record lost) */
	long long time;
	int n;
	double mean, stddev, median;
	int group;           /* its conditions group, 0 = A (history_show) */
	int change;          /* 1 + the index of the change point starting here, 0 none */
};

struct hseries {
	char *cell, *metric, *unit, *label;
	int higher_better;
	struct hpoint *pt;
	size_t n;
	int by_kernel;
	int ngroups;
	char group_fp[26][13];         /* each group's fingerprint, its first 12 digits */
	char group_why[26][320];       /* what differs from group A ("" for A) */
	struct cp_opts opts;
	struct cp_point *cp;           /* change points; cp[i].index is a position in pt[] */
	int *cp_group;
	size_t ncp;
	const char *run_href;          /* the page's points link to this + the run's page */
};

/* cli/history_show.c; history_line: one line on stdout of fmt, its control characters shown
 * as '?' (report_plain), for every line that holds a record's string */
void history_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli/history_ack.c: a change point (CELL[@SET] METRIC RUN) acknowledged with a note, in
 * the history's triage table: 0, 1 or 2 (usage) after a line. history_ack_note: its note
 * (malloc'd) and time, 1; or 0 when none is kept. */
int history_ack(const char *db, const char *cell, const char *metric, const char *run,
		const char *note);
int history_ack_note(sqlite3 *h, const char *cell, const char *metric, const char *run,
		     const char *kset, char **note, long long *time);

/* cli/history_limits.c: the limits table, made if missing, and its insert (prepare); a
 * cell's answer kept (put: 0, -1 on a database error; nothing without a limit); the limit
 * of a point's metric in MB/s, 0 when none is kept. */
struct cell_answer;
int history_limits_prepare(sqlite3 *h, sqlite3_stmt **st);
int history_limits_put(sqlite3_stmt *st, const char *run, const char *cell, const char *kset,
		       const struct cell_answer *a);
double history_limit(sqlite3 *h, const char *run, const char *cell, const char *kset,
		     const char *metric);

/* cli/history_show.c. history_series: s's points for s->cell and s->metric (one kernel set
 * when kset is not NULL; a point without a mean is left out), in s->by_kernel's order, put
 * in conditions groups, with each group's change points under s->opts: 0, -1 on a database
 * error, -2 on no memory. history_series_free frees what it made (not cell and metric). */
int history_series(sqlite3 *h, struct hseries *s, const char *kset);
void history_series_free(struct hseries *s);
int history_list(const char *db);
int history_cells(const char *db);
int history_show(const char *db, const char *cell, const char *metric, int by_kernel,
		 const struct cp_opts *o, const char *html);
/* cli/history_html.c: the page of one series, its chart and table; and a run's date as
 * "2026-01-01 12:00" (UTC), "-" when unknown. */
void history_html(FILE *f, const struct hseries *s, const char *db);
/* The page's body (heading, chart, conditions, table) and its style sheet, for a page of
 * another's making (cli/site_pages.c). */
void history_html_body(FILE *f, const struct hseries *s, const char *db);
extern const char history_html_style[];
void history_date(long long t, char *out, size_t len);

#endif
