/* report/lean.h: a record line parsed into what the report reads of it. Most of a cell
 * record is the steps, the filesystem's and the array's own descriptions and the queue
 * settings, and most of a series record its rows: building a JSON tree of each only to drop
 * it or read numbers out of it was most of the time a large report took. */
#ifndef FSM_REPORT_LEAN_H
#define FSM_REPORT_LEAN_H
#include <stddef.h>
#include <jansson.h>

/* A series record's rows as numbers: nr rows of nc values, row-major, null as NaN (every
 * other value finite). v is reused from line to line (cap values). */
struct series_rows {
	size_t nr, nc, cap;
	double *v;
};

/* One record line (JSON text of jl bytes) as a JSON object, NULL when it is not JSON. An ok
 * cell record holds only the members the report reads. A series record's rows come apart
 * into *rows and *has_rows is set, when they are rows of numbers and nulls of one length;
 * else they stay in the object, as does everything of any other record. The line is checked
 * whole either way: its syntax by lib/jscan.c, and one with a \u escape or a byte beyond
 * ASCII is parsed whole by jansson, whose checks of those (UTF-8, \u0000) go further. */
json_t *report_parse_record(const char *js, size_t jl, struct series_rows *rows, int *has_rows);
/* What an ok cell record keeps of its steps: its mkfs step's argv, under this key. */
#define REPORT_MKFS_KEY "_mkfs_argv"

#endif
