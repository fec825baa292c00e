/* cli/history_ack.c: `fsmatrix history ack CELL METRIC RUN NOTE`: a change point marked as
 * seen, with a note, kept in the history's triage table so that a site shows it
 * acknowledged instead of new on every later night. A table of its own, made by the first
 * ack: a history stays readable by an fsmatrix that knows no triage. */
#include "cli/history.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char triage_table[] =
	"CREATE TABLE IF NOT EXISTS triage(cell TEXT NOT NULL, metric TEXT NOT NULL, run TEXT NOT "
	"NULL, kset TEXT NOT NULL, note TEXT NOT NULL, time INTEGER, "
	"PRIMARY KEY(cell, metric, run, kset))";

/* The kernel sets of the run that hold the cell's metric: how many, the first into kset. */
static int ksets_of(sqlite3 *h, const char *cell, const char *metric, const char *run,
		    const char *want, char *kset, size_t len)
{
	sqlite3_stmt *st;
	int n = 0;
	if (sqlite3_prepare_v2(h, "SELECT DISTINCT kset FROM figures WHERE cell = ?1 AND metric = ?2 "
			       "AND run = ?3 AND (?4 IS NULL OR kset = ?4) ORDER BY kset", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, cell, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, run, -1, SQLITE_STATIC);
	if (want)
		sqlite3_bind_text(st, 4, want, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		if (n++ == 0)
			snprintf(kset, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return n;
}

int history_ack(const char *db, const char *cell, const char *metric, const char *run,
		const char *note)
{
	char id[512], kset[128];
	snprintf(id, sizeof id, "%s", cell);
	char *at = strchr(id, '@');
	if (at)
		*at++ = '\0';
	if (!*note) {
		fprintf(stderr, "fsmatrix history: ack: the note is empty (say what was seen)\n");
		return 2;
	}
	/* opened read-write, but never made: an ack names a point of an existing history */
	FILE *probe = fopen(db, "rb");
	if (!probe) {
		fprintf(stderr, "fsmatrix history: no history at %s (fsmatrix history add RUN... "
			"starts one; --db FILE names another)\n", db);
		return 1;
	}
	fclose(probe);
	sqlite3 *h = history_open(db, 1);
	if (!h)
		return 1;
	int n = ksets_of(h, id, metric, run, at, kset, sizeof kset), rc = 1;
	sqlite3_stmt *st = NULL;
	if (n == 0)
		fprintf(stderr, "fsmatrix history: no point of %s %s in run %s in %s (fsmatrix history "
			"show %s %s lists them)\n", cell, metric, run, db, id, metric);
	else if (n > 1)
		fprintf(stderr, "fsmatrix history: run %s holds %s under %d kernel sets: name one as "
			"%s@%s\n", run, id, n, id, kset);
	else if (n < 0 || sqlite3_exec(h, triage_table, NULL, NULL, NULL) != SQLITE_OK ||
		 sqlite3_prepare_v2(h, "INSERT OR REPLACE INTO triage VALUES (?, ?, ?, ?, ?, ?)", -1,
				    &st, NULL) != SQLITE_OK)
		fprintf(stderr, "fsmatrix history: unable to write %s: %s\n", db, sqlite3_errmsg(h));
	else {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, run, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, kset, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, note, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
		if (sqlite3_step(st) != SQLITE_DONE)
			fprintf(stderr, "fsmatrix history: unable to write %s: %s\n", db, sqlite3_errmsg(h));
		else {
			printf("%s %s at run %s%s%s: acknowledged: %s\n", id, metric, run,
			       *kset ? " under " : "", kset, note);
			rc = 0;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return rc;
}

int history_ack_note(sqlite3 *h, const char *cell, const char *metric, const char *run,
		     const char *kset, char **note, long long *time)
{
	sqlite3_stmt *st;
	*note = NULL;
	*time = 0;
	/* no triage table yet: nothing acknowledged */
	if (sqlite3_prepare_v2(h, "SELECT note, time FROM triage WHERE cell = ?1 AND metric = ?2 AND "
			       "run = ?3 AND kset = ?4", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, cell, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, kset, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*note = strdup((const char *)sqlite3_column_text(st, 0));
		*time = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return *note != NULL;
}
