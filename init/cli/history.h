/* cli/history.h: `fsmatrix history`, runs kept in one SQLite file (cli/history_db.c), a
 * cell's metric over them with its change points (cli/history_show.c) and their chart
 * (cli/history_html.c). */
#ifndef FSM_CLI_HISTORY_H
#define FSM_CLI_HISTORY_H
#include <stddef.h>
#include <stdio.h>
#include <sqlite3.h>

#include "core/changepoint.h"

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
	char *run, *kset, *kernel, *verdict, *header;   /* header: the run's conditions, JSON */
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
};

/* cli/history_show.c; history_line: one line on stdout of fmt, its control characters shown
 * as '?' (report_plain), for every line that holds a record's string */
void history_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int history_list(const char *db);
int history_cells(const char *db);
int history_show(const char *db, const char *cell, const char *metric, int by_kernel,
		 const struct cp_opts *o, const char *html);
/* cli/history_html.c: the page of one series, its chart and table; and a run's date as
 * "2026-01-01 12:00" (UTC), "-" when unknown. */
void history_html(FILE *f, const struct hseries *s, const char *db);
void history_date(long long t, char *out, size_t len);

#endif
