/* core/figures/kcidb.h: how fsmatrix's results are named in KernelCI's KCIDB v5 (schema 5.3 of
 * kernelci/kcidb-io): a test's dot-separated path from a cell id and a metric, a figure's
 * number {value, unit, prefix} from a metric's unit, and a cell status as a test status. `fsmatrix kcidb` (cli/kcidb.c)
 * writes the document with them (and core/model/kversion.h's versions); docs/host-cli.md#kcidb
 * documents the mapping. Pure: no I/O. */
#ifndef FSM_KCIDB_H
#define FSM_KCIDB_H
#include <stddef.h>

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3
/* The first node of every test path fsmatrix writes. */
#define KCIDB_PATH_ROOT "fsmatrix"

/* Whether s is an origin KCIDB accepts: ^[a-z0-9_]+$. */
int kcidb_origin_ok(const char *s);

/* One node of a test path (KCIDB: [a-zA-Z0-9_-]+) from n bytes of s: letters, digits and '-'
 * stay; any other byte b becomes "_XX", XX its value in two upper-case hex digits ("=" is
 * "_3D", "," "_2C", "." "_2E"), and so does a '_' that two upper-case hex digits follow;
 * another '_' stays. Nothing at all is "_" alone. The mapping is one to one: "_" then two
 * upper-case hex digits always decodes to that byte. Returns the length written, or -1 when
 * out (len bytes) is too small. */
int kcidb_path_node(const char *s, size_t n, char *out, size_t len);

/* The path of a cell's test: "fsmatrix." then each '/'-separated part of the cell id, less
 * its "@KERNEL" suffix (the kernel is the test's build), as a node, then the metric's node
 * (none when metric is NULL): "r5-c64k/ext4/data=ordered/stream@6.12" and "mbps" give
 * "fsmatrix.r5-c64k.ext4.data_3Dordered.stream.mbps". Returns 0, or -1 when it does not fit. */
int kcidb_test_path(const char *cell, const char *metric, char *out, size_t len);

/* A figure in a metric's unit as KCIDB's number: the unit without its SI prefix, the value
 * scaled to it, and prefix "metric" (a dashboard adds a prefix back as it displays):
 * 32.7 "MB/s" is 32700000 "B/s"; 250 "us" is 0.00025 "s". A unit not in the table is kept
 * as it is, unscaled, and prefix is NULL. */
struct kcidb_number {
	double value;
	const char *unit;
	const char *prefix;    /* "metric", or NULL: no prefix property */
};
void kcidb_number(double value, const char *unit, struct kcidb_number *out);

/* A cell's status as a KCIDB test status: ok DONE (a measurement, not a judgment of the
 * kernel), error and timeout ERROR, skipped SKIP, hung FAIL (the kernel under test hung),
 * interrupted and anything else MISS. */
const char *kcidb_status(const char *cell_status);

/* The status of a cell's tests over its repetitions: ok of them ok and failed not (error,
 * timeout, skipped; an interrupted attempt that a later one replaced is neither). With an ok
 * one: DONE when none failed, else ERROR (the figures are the ok ones', and one repetition's
 * failure is no measurement to pass over). Without: kcidb_status(cell_status). */
const char *kcidb_cell_status(int ok, int failed, const char *cell_status);

#endif
