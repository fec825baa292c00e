/* report/sitename.h: the names `fsmatrix site` gives its pages, and a cell id's parts, from
 * what a history holds. Pure: no I/O. */
#ifndef FSM_SITENAME_H
#define FSM_SITENAME_H
#include <stddef.h>

/* room for any name sitename writes, with its NUL */
#define SITENAME_MAX 200

/* name as a file name that is also a URL path segment needing no escaping: [A-Za-z0-9.-]
 * kept (a leading '.' not: no hidden file, no ".."), '/' as '~', any other byte as "_XX"
 * (its hex), so that two names never meet. A name that would pass SITENAME_MAX - 1 bytes
 * is cut and ends in '_' and 16 hex digits of a hash of the whole name. Returns out. */
char *sitename(const char *name, char *out, size_t len);

/* The parts of a cell id ARRAY[+LAYER...]/FS/MOUNT/WORKLOAD (an "@SET" already taken off):
 * each into its buffer of len bytes; layer "" when the array has none. Returns 0, or -1 when
 * the id has fewer than four parts (each part then the id whole, or ""). */
struct cell_parts {
	char array[96], layer[96], fs[96], mount[160], workload[96];
};
int cell_parts(const char *id, struct cell_parts *p);

#endif
