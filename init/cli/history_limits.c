/* cli/history_limits.c: the limit each cell was set against (report/answers.c: what its
 * disks could stream, measured at boot), kept beside its figures by `history add`, so that a
 * site can say what share of it a figure is. A table of its own, made when the first add
 * that knows it meets a history without it: older histories still open, older programs
 * ignore it, and a run added again fills in its limits. */
#include "cli/history.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <math.h>

static const char limits_table[] =
	"CREATE TABLE IF NOT EXISTS limits(run TEXT NOT NULL, cell TEXT NOT NULL, kset TEXT NOT NULL, "
	"metric TEXT NOT NULL, mbps REAL NOT NULL, rule TEXT, PRIMARY KEY(run, cell, kset, metric))";

/* And an index of the figures by cell and metric, made beside it: a series is read by both
 * (history show, and fsmatrix site for each of its rows), and without it each read scans
 * every figure of the history (168 series of 1,000 runs: 1.9 of the site's 3.4 s). */
static const char figures_index[] =
	"CREATE INDEX IF NOT EXISTS figures_by_cell ON figures(cell, metric)";

int history_limits_prepare(sqlite3 *h, sqlite3_stmt **st)
{
	*st = NULL;
	return sqlite3_exec(h, limits_table, NULL, NULL, NULL) != SQLITE_OK ||
	       sqlite3_exec(h, figures_index, NULL, NULL, NULL) != SQLITE_OK ||
	       sqlite3_prepare_v2(h, "INSERT OR IGNORE INTO limits VALUES (?, ?, ?, ?, ?, ?)", -1,
				  st, NULL) != SQLITE_OK ? -1 : 0;
}

int history_limits_put(sqlite3_stmt *st, const char *run, const char *cell, const char *kset,
		       const struct cell_answer *a)
{
	if (!a || !a->metric || !(a->limit > 0) || !isfinite(a->limit))
		return 0;
	sqlite3_bind_text(st, 1, run, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, cell, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, kset, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, a->metric, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 5, a->limit);
	sqlite3_bind_text(st, 6, a->rule, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

double history_limit(sqlite3 *h, const char *run, const char *cell, const char *kset,
		     const char *metric)
{
	sqlite3_stmt *st;
	double v = 0;
	/* a history from before limits were kept has no such table: no limit known */
	if (sqlite3_prepare_v2(h, "SELECT mbps FROM limits WHERE run = ?1 AND cell = ?2 AND kset = ?3 "
			       "AND metric = ?4", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, cell, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kset, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, metric, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}
