/* report/model.h: the results of runs as the report, compare and html subcommands see them.
 * Loading (report/load.c) turns sources into runs of raw records; the model
 * (report/model.c) groups a run's cell records by cell id with statistics over repeats; the
 * options every subcommand shares select cells; one line of a report is made safe for a
 * terminal (report/line.c). Every other report header builds on this one. */
#ifndef FSM_REPORT_MODEL_H
#define FSM_REPORT_MODEL_H
#include <stdio.h>
#include <jansson.h>

#include "core/figures/series.h"
#include "core/figures/verdict.h"
#include "core/workload/workload_kinds.h"
#include "lib/stats.h"

#define REPORT_MAX_METRICS 8
/* a cell's figures (struct rcell's fig) hold every metric the report shows */
_Static_assert(REPORT_MAX_METRICS <= STATS_CELL_METRICS, "a cell's metrics fit its figures");

/* The figures that matter for a workload type: the report columns of its row in
 * core/workload/workload_kinds.c (struct metric), in column order; unknown types get every numeric
 * result field. */
size_t report_metrics(const char *wtype, json_t *result, const struct metric **out, size_t max);
/* report/kind.c: the workload kind of a record's type (an older record's alias included),
 * NULL for a type no engine has. */
const struct wl_kind *report_kind(const char *wtype);
/* The key of the first of an ok cell record's figures that no device can give (not finite,
 * negative, beyond its unit's bound: core/figures/figure_bound.h), or NULL. */
const char *report_impossible_figure(json_t *rec);

/* What a chart of one series shows (report/svg_series.c): the target's write rate, Dirty
 * and Writeback over time, and each member's mean utilisation. */
struct rchart {
	size_t n;
	double *t, *w, *d, *wb;   /* n values each; d and wb NULL when not sampled */
	size_t nm;
	char **name;              /* the members, or the target alone ("?" when unnamed) */
	double *busy;             /* their utilisation over the whole series, % */
};

/* A series record as loaded (report/series.c): what was derived from its rows, which are not
 * kept; only the first ok repeat of a cell keeps the columns its chart draws. */
struct rseries {
	char *cell;             /* its cell's id */
	char *rep_key;          /* its "rep" as JSON text, matched against the cell records' */
	json_int_t attempt;
	int rep;
	char *invalid;          /* why it is not the documented shape; NULL when it is */
	int usable;             /* has t and write_mbps: f, steady and busiest hold */
	struct series_figs f;
	struct series_steady steady;   /* of the target's write rate (core/figures/series.h) */
	char busiest[32];       /* the busiest member's name, "" when none */
	struct rchart *chart;   /* NULL when its rows were dropped */
};

/* A cell of the matrix, with its repeats folded together. */
struct rcell {
	char *id;
	json_t *axes;           /* from the first record, or parsed from the id when missing */
	const char *workload;   /* axes.workload (points into axes) */
	const char *wtype;      /* axes.wtype, else the workload name */
	const char *status;     /* "ok" when every repeat seen was ok, else the first other */
	int reps, seen, ok;     /* planned repeats, records seen, of which ok */
	int missing;            /* planned but never ran */
	long order;             /* first appearance, for plan order */
	json_t *bad;            /* array of the records whose status is not ok */
	json_t *ignored;        /* mount options the kernel did not apply (mount_ignored), each once */
	json_t *kernel;         /* the kernel's lines among the warnings ("kernel: ..."), each once */
	char **axis;            /* axis_text of each of report_axes[], of each tunable and of the
	                           kernel set (report_model), NULL-terminated; NULL before */
	json_t *first;          /* its first record (borrowed from the run's records), or NULL */
	json_t *first_ok;       /* its first ok record (borrowed), or NULL: what its workload was */
	json_t *device;         /* what the disks said changed during a repeat: "rep 1/3: device:
	                           nvme0n1: critical_warning gained 0x04 ...", each a Problem */
	json_t *tun_ignored;    /* tunables the kernel refused or changed (tunables_ignored), each once */
	const struct metric *m[REPORT_MAX_METRICS];
	size_t nm;
	/* the ok repeats' figures of m[i] as metric i, and those that were not a number */
	struct stats_cell fig;
	struct summary st[REPORT_MAX_METRICS];
	int has[REPORT_MAX_METRICS];     /* st is valid */
	int nulls[REPORT_MAX_METRICS];   /* ok repeats whose record holds null there: what the
	                                    workload never does (fio's read figures of a write) */
	/* each metric's verdict over its repeats (core/figures/verdict.h), and the cell's: the one on
	 * its main figure, as PID 1 writes it into the summary record */
	struct fig_verdict vd[REPORT_MAX_METRICS];
	struct fig_verdict verdict;
	const char *verdict_metric;     /* the main figure's key; NULL for a cell without metrics */
	struct rseries *ser;    /* the time series of its ok repeats (report/series.c), copies of
	                           the run's (which owns their strings and charts) */
	size_t nser;
	json_t *ser_bad;        /* why a series record was left out: "rep 2: time goes back at
	                           row 7", each a Problem; NULL when none */
};

struct rrun {
	char *source;           /* as the user named it */
	char *id;               /* run id, or the source's name without a header */
	json_t *header, *trailer;   /* NULL when absent */
	json_t *headers;        /* every header of the run, its boots' in order (a resumed run,
	                           a run under several kernels write one per boot); NULL or [] */
	json_t *plan;           /* the "plan" event: planned count, and the cell list of a dry run */
	json_t *records;        /* the cell records, in order */
	struct rseries *series; /* the series records, in order, reduced as they are read */
	size_t nseries;
	json_t *ok_recs;        /* the ok cell records, as report_series_key's keys */
	json_t *charted;        /* the cells with an ok repeat's series holding its chart */
	json_t *cell_ix;        /* cell id -> its index in cells */
	json_t *refs;           /* the reference records, in order; an "end" one carries
	                           "_between": the cells ("ID rep R/N") measured since its
	                           boot's "start" */
	json_t *warmups;        /* the warmup records: listed, never a figure */
	json_t *stops;          /* repeat = auto: the summaries that ended a cell ("auto") */
	json_t *speeds;         /* the disk-speed events: the disks' own speed, at each boot */
	json_t *dev_ends;       /* the devices end events: each disk's last reading of a boot */
	json_t *bisect;         /* a [bisect] plan's result record; NULL when none */
	int from_console;       /* records came from framed console lines */
	int rejected_crc, rejected_trunc, rejected_json, rejected_long;
	int rejected_figure;    /* cell records holding a figure no device gives */
	struct rcell *cells;
	size_t ncells;
	int total;              /* planned cell count (trailer, else cell records), 0 unknown */
	char *missing_idx;      /* e.g. "5-8": positions that never ran, when no id is known */
	int nmissing;           /* missing cells (by id or by position) */
	int reached;            /* the last position with a record: positions 1..reached ran */
	char *lost_idx;         /* positions that ran but left no readable record */
	int nlost;
	/* the same two as `check --shards` numbers cells: "cells 1-2, 6 of 18, repetitions 1-3
	 * of 3" (NULL when the plan's cells per repetition are not known) */
	char *missing_cells, *lost_cells;
	int ran;                /* positions with a record */
	json_t *notes;          /* problems of the run as a whole (shards missing or doubled) */
	int boots;              /* a view of this many runs of one plan (report/boots.c); 0 one run */
	int interleaved;        /* a view of one kernel of a run under several (report/split.c) */
};

/* A record line is at most REPORT_LINE_MAX bytes (the largest /init writes holds a few KiB
 * of mdadm --detail and filesystem geometry): a longer one is counted as too long and
 * skipped, never held whole. A source that runs on for REPORT_RUNAWAY bytes without any line
 * break (a disk image named by mistake) is no log: reading it stops there. */
#define REPORT_LINE_MAX (4 << 20)
#define REPORT_RUNAWAY (64 << 20)

struct runset {
	struct rrun *run;
	size_t n;
	int no_charts;   /* set before loading when nothing will draw the series (report,
			    compare): each series keeps its figures, not its columns */
};

/* What report, compare and html exit with: 0 for a run complete with every cell ok;
 * REPORT_STATUS_INCOMPLETE when it has no trailer or a planned cell without a readable record
 * (a shard missing, a run stopped part way, a lost record line); else REPORT_STATUS_FAILED
 * when a cell record is not ok (error, timeout, skipped; an interrupted attempt that a later
 * one replaced does not count). A source not read (1) comes first, then 3, then 4. */
#define REPORT_STATUS_INCOMPLETE 3
#define REPORT_STATUS_FAILED 4
int report_run_status(const struct rrun *r);
int report_runs_status(const struct runset *rs);
int report_status_worse(int a, int b);
/* The positions 1..total whose flag is set, as "cells 1-2, 6 of PER, repetitions 1-3 of R"
 * groups joined by "; " (position x is cell (x - 1) % per + 1 of repetition (x - 1) / per
 * + 1), malloc'd; *count gets how many positions. NULL when none, or per does not divide
 * total. */
char *report_cells_reps_text(const char *flag, int total, int per, int *count);

/* Reads one source (file, console log, run directory, FAT image, mounted results partition)
 * and appends its runs. Prints the reason and returns -1 when it cannot be read; a device or
 * a FIFO is not read at all. */
int report_load(const char *source, struct runset *rs);
/* Groups records into cells and computes statistics; call once per run after loading. */
void report_model(struct rrun *r);
/* report/positions.c, for report_model once the cells and r->total are known: the lost and
 * missing positions (list_missing: positions past the last record, in a run without a
 * trailer, are missing), and the repetitions a repeat = auto cell was planned for. */
void report_positions(struct rrun *r, int list_missing);
/* report_load on each of n sources, report_merge_shards (shards of two runs: an error, rs
 * left empty), then report_model on every run: what report and html start with. Returns 0,
 * or 1 when a source could not be read (its runs, if any, are still in rs). */
int report_load_all(const char *const *src, size_t n, struct runset *rs);
void report_free(struct runset *rs);
void report_free_run(struct rrun *r);
/* Shards of one run (headers with "shard" and the same "run_group") become one run, in place
 * of the first; a shard given twice or not at all is noted as a problem of that run. With
 * one_run (report, html), shards of different runs are refused: one line on stderr, -1. */
int report_merge_shards(struct runset *rs, int one_run);

/* The value of an axis as text ("64k" for a chunk of 65536 bytes); "" when absent. */
void axis_text(json_t *axes, const char *axis, char *out, size_t len);
/* The same of a cell, from the texts report_model keeps of every axis of report_axes[] (a
 * sort reads them many times, and they sit together in memory rather than across the
 * records); another axis is written into buf. */
const char *report_cell_axis(const struct rcell *c, const char *axis, char *buf, size_t len);
/* The cell of run r with id id, or NULL; the position of metric key among c's figures when
 * c has a figure for it, else -1 (c may be NULL). */
struct rcell *report_cell_by_id(const struct rrun *r, const char *id);
int report_metric_index(const struct rcell *c, const char *key);
/* Whether the workload of c never measures metric key: each of its ok repeats holds null
 * there (a write stream's read MB/s); 0 for a cell without an ok repeat. */
int report_never_measured(const struct rcell *c, const char *key);

/* report/definition.c: what cell c of run r was measured under, from its first ok record
 * (else its first) and the run's header and plan event: {plan (sha256), scale, workload {type
 * and its defining fields, a relative size as its formula}, mkfs [options], mount (options in
 * effect), tunables (asked), layers, bitmap, drop_caches}, each left out when the records
 * lack it. A new reference. */
json_t *report_cell_definition(const struct rrun *r, const struct rcell *c);
/* How many parts of two definitions differ, each named into why ("workload bytes 512m / 64m;
 * mount rw,relatime / rw,noatime"): a part one side lacks does not count, nor the plan's
 * sha256 when both name their mkfs options (the rest of the plan is other cells'); under one
 * plan only the scale does (the plan defines its cells alike; the options in effect as two
 * kernels show them are the kernel's). */
int report_definition_diff(json_t *a, json_t *b, char *why, size_t len);

/* Options shared by report, compare and html. */
#define REPORT_MAX_AXES 12
struct report_opts {
	const char *format;               /* text, md, csv, json, html */
	const char *by[REPORT_MAX_AXES];  /* grouping and sort order */
	size_t nby;
	const char *where_axis[REPORT_MAX_AXES], *where_val[REPORT_MAX_AXES];
	size_t nwhere;
	const char *group_by;             /* html charts */
	int across_conditions;            /* compare: test across different conditions too */
	int across_workloads;             /* compare: test cells whose workloads differ too */
	size_t vs_at;                     /* compare --vs: the sources from this one on are B's
	                                     (0: no --vs) */
	int across_definitions;           /* compare: test cells whose definitions differ too */
};
int report_opts_axes(struct report_opts *o, const char *list);   /* --by a,b */
int report_opts_where(struct report_opts *o, const char *expr);  /* --where a=v, v not "" */
int report_cell_selected(const struct report_opts *o, const struct rcell *c);
/* The axes of a cell record, in CSV order; whether axis is one of them. */
extern const char *const report_axes[];
extern const size_t report_naxes;
int report_axis_known(const char *axis);
/* 0 when --where selects some cell of rs (or there is no --where), else 1 after one line on
 * stderr saying that nothing matched, with the values the cells have of an axis whose --where
 * value none has. */
int report_where_check(const char *cmd, const struct runset *rs, const struct report_opts *o);

/* One line of a report, made with printf's fmt, handed to line: a record's string that holds
 * a control character (a newline, an escape) shows '?' there, so each line stays one line
 * and a record cannot drive the terminal. */
typedef void (*report_line_fn)(void *ctx, const char *s);
/* A record's string field, "" when absent or not a string (report/line.c). */
const char *report_str(json_t *o, const char *key);
void report_line(report_line_fn line, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same filter on s in place (each byte below ' ' and DEL made '?'); returns s. For
 * what prints records' strings outside report_line (history's lines). */
char *report_plain(char *s);

#endif
