/* cli/cli.h: the subcommands of the host CLI out/fsmatrix. Each is main-shaped: argv[0] is the
 * subcommand's name; it returns the exit status (0 ok, 1 failure, 2 usage). Its usage text
 * (what --help prints) sits beside its options. To add one, write init/host_<name>.c,
 * declare both here and add a row to the table in cli/main.c. */
#ifndef FSM_HOST_H
#define FSM_HOST_H
#include "engines/engine.h"   /* enum engine_role */

int host_cmd_disks(int argc, char **argv);
int host_cmd_keys(int argc, char **argv);
int host_cmd_check(int argc, char **argv);
int host_cmd_report(int argc, char **argv);
int host_cmd_compare(int argc, char **argv);
int host_cmd_html(int argc, char **argv);
int host_cmd_workload(int argc, char **argv);
int host_cmd_lava(int argc, char **argv);
int host_cmd_history(int argc, char **argv);
int host_cmd_kcidb(int argc, char **argv);
int host_cmd_site(int argc, char **argv);

extern const char host_keys_usage[];
extern const char host_disks_usage[], host_check_usage[], host_report_usage[],
	host_compare_usage[], host_html_usage[], host_lava_usage[], host_history_usage[],
	host_kcidb_usage[], host_site_usage[];
/* workload's is made from the table of engines, the first time it is asked for */
const char *host_workload_usage(void);

/* cli/report.c: the options and sources of report, compare and html from argv[1..]; -o is
 * accepted when outfile is not NULL. A mistake is one line on stderr and -1. */
#define REPORT_MAX_SOURCES 256
struct report_opts;
int report_args(int argc, char **argv, struct report_opts *o, const char **sources, size_t *nsrc,
		const char **outfile);

/* cli/html.c: the page fsmatrix html writes of rs, with nav (HTML, or NULL) first in its
 * body: a page of `fsmatrix site` links back with it. */
#include <stdio.h>
struct runset;
void html_report(FILE *f, const struct runset *rs, const struct report_opts *o, const char *nav);

/* cli/shards.c: after check's totals with --shards N, each shard's cells and estimated
 * time, and the run group. Returns 0, or 1 after a line on stderr. */
struct plan;
struct estimate_model;
int shards_print(const struct plan *p, const char *path, const struct estimate_model *m, int n);

/* cli/operand.c: 0 when path may serve in role (a file to write, a directory to write in, a
 * file to read), else -1 after "fsmatrix CMD: refusing to write PATH: it is a block device;
 * ..." on stderr. A name for a new file or directory will do where one is written. Symbolic
 * links are judged by what they lead to; the engines check again on the descriptor they
 * open. */
int host_check_operand(const char *cmd, const char *path, enum engine_role role);
/* Whether a and b name one file (by name, a symbolic link or a hard link). */
int host_same_file(const char *a, const char *b);
/* 0 when out names none of the n sources, else -1 after "fsmatrix CMD: refusing to write
 * OUT: it is the source SRC; FILE must be another file" on stderr (a results file written
 * over with what was read from it). */
int host_out_not_source(const char *cmd, const char *out, const char *const *src, size_t n);

/* cli/usage.c: whether --help or -h comes before any "--" in argv[1..]; and a usage mistake
 * as "fsmatrix CMD: MESSAGE (try 'fsmatrix CMD --help')" on stderr, returning 2. CMD may
 * name more than the subcommand ("workload seqwrite"); the hint names its first word. */
int host_wants_help(int argc, char **argv);
int host_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
