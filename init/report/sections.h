/* report/sections.h: the sections of one run's report and what fills them: the header and
 * its Problems, the Conditions, each cell's answer against its limit, Findings and their
 * contrasts, verdicts, a [bisect] run's search, a run under several kernels as one view per
 * kernel, and the walk that puts them in order for every format (report/walk.c). */
#ifndef FSM_REPORT_SECTIONS_H
#define FSM_REPORT_SECTIONS_H
#include "report/grid.h"

/* report/conditions.c: the Conditions section's lines (controls, fingerprint, each disk's
 * identity, write cache and health at boot and after the last cell). */
void report_conditions_lines(const struct rrun *r, report_line_fn line, void *ctx);
/* report/bisect.c: a [bisect] run's result and its probes in the order the search made them
 * (the "bisect" record); nothing for another run. */
void report_bisect_lines(const struct rrun *r, report_line_fn line, void *ctx);
/* For each boot whose reference set drifted between its start and its end beyond the bound
 * (core/figures/reference.h), a line after prefix naming the figures and the cells measured between;
 * returns whether there was one. */
int report_drift_lines(const struct rrun *r, const char *prefix, report_line_fn line, void *ctx);
/* Problems lines for what a disk's health did while no cell was measuring: between one
 * cell's last reading and the next one's first, before the first, after the last
 * (report/devices.c). Returns how many. */
int report_device_gap_lines(const struct rrun *r, report_line_fn line, void *ctx);
/* The run's conditions fingerprint (the header's, else the first cell record's), or NULL. */
const char *report_fingerprint(const struct rrun *r);
/* When the fingerprints of a and b differ, what differs in their inputs, one line each
 * ("controls thp always vs never", "write_cache on vs off on disk fsm1"), at most max;
 * returns how many (0: the same conditions, or one side unknown). Runs under two kernel sets
 * (their cells' axes.kernel differ) compare the kernels: the kernel's release and the
 * image's manifest are not counted. */
#define REPORT_COND_LINE 300
int report_conditions_diff(const struct rrun *a, const struct rrun *b,
			   char (*out)[REPORT_COND_LINE], int max);

/* Splits a header line "  key  value" into the key (*klen bytes at the returned pointer)
 * and the value. Returns NULL for the "Run ..." line, which renderers use as a title. */
const char *header_kv(const char *s, size_t *klen, const char **value);
/* The run header and the problems (errors, skips, missing cells, rejected lines). */
void report_header_lines(const struct rrun *r, void (*line)(void *ctx, const char *s), void *ctx);
/* The record lines of run r rejected, every kind together. */
int report_rejected(const struct rrun *r);
/* What the ok repeats of one cell say of its limit: the median figure and efficiency, the
 * limit and its rule (the first repeat's), and the kind of bottleneck most of them name
 * with the evidence of the first that named it. */
struct cell_answer {
	int n;                 /* ok repeats with a limit */
	double figure, limit, efficiency;
	const char *metric, *direction, *rule;
	const char *kind, *evidence;
	int kind_n, judged;    /* repeats naming that kind, repeats judged at all */
};
/* report/answers.c: every cell's answer (indexed as r->cells), from one pass over the
 * records; free() it. NULL on no memory. */
struct cell_answer *report_answers(const struct rrun *r);
/* report/durability.c: each cell's figure and what its crash points lost under each model,
 * side by side; nothing when no cell was checked. */
void report_durability_lines(const struct rrun *r, const struct report_opts *o,
			     void (*line)(void *ctx, const char *s), void *ctx);
/* report/kfaults.c: each hung cell with its stuck tasks' top frames, each kernel fault and
 * taint met during a cell; 1 when any line was written. First under Findings and Problems. */
int report_kfault_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			void *ctx);
/* report/findings.c: the lines of the Findings section (the disks' speed, each streaming cell
 * against its limit and what held it back, what the run cannot say), and the limits table
 * (cell, MB/s, limit, of limit, why; NULL when no cell has a limit or a bottleneck). */
void report_findings_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			   void *ctx);
/* report/contrasts.c: Findings' lines setting cells against each other: in each group of
 * cells that differ only by filesystem and mount options, the best against the worst on
 * their main figure (Welch's t-test, Holm-corrected over the groups), at most a few. */
void report_contrast_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			   void *ctx);
struct grid *report_limits_grid(const struct rrun *r, const struct report_opts *o);
void report_problem_lines(const struct rrun *r, const struct report_opts *o,
			  void (*line)(void *ctx, const char *s), void *ctx);
/* report/verdicts.c: how many cells are stable, and why each figure marked unstable is so.
 * Nothing when no cell has figures. */
void report_verdict_lines(const struct rrun *r, const struct report_opts *o,
			  void (*line)(void *ctx, const char *s), void *ctx);

/* report/split.c: a run under several kernels (cell ids "ID@KERNEL") as one view per kernel
 * for compare --by kernel. report_split_kernels: the kernels, the plan's order first (at
 * most max). report_split_view: the view of one, its cells' ids without "@KERNEL"; it
 * borrows the rest from r (modelled), and is freed by report_split_free before r. 0, or -1
 * out of memory. */
size_t report_split_kernels(const struct rrun *r, const char **out, size_t max);
int report_split_view(const struct rrun *r, const char *kernel, struct rrun *view);
void report_split_free(struct rrun *view);

/* report/walk.c: one run's report in its order, the same for every format, which says only
 * how a section opens and closes, a line, a table and a workload's charts are written. */
enum report_section {
	RSEC_RUN,          /* the run: begin's title is its id */
	RSEC_FINDINGS,
	RSEC_MACHINE,      /* the header's lines */
	RSEC_CONDITIONS,
	RSEC_VERDICTS,     /* opened only when it has a line */
	RSEC_PROBLEMS,
	RSEC_BISECT,       /* a [bisect] run's search, first; opened only for such a run */
	RSEC_DURABILITY,   /* durability = log-writes: opened only when a cell has a check */
};
struct report_sink {
	void (*begin)(void *ctx, enum report_section s, const char *title);
	void (*end)(void *ctx, enum report_section s);
	void (*line)(void *ctx, enum report_section s, const char *text);
	void (*limits)(void *ctx, struct grid *g);      /* after Findings; g NULL: no table */
	/* a workload's cells and the metrics of its tables, before the tables (nm 0: none) */
	void (*workload)(void *ctx, const char *name, struct rcell **cells, size_t n,
			 const struct metric **ms, size_t nm);
	void (*grid)(void *ctx, struct grid *g);        /* each metric's table, then the series' */
	void (*series)(void *ctx, const char *name, struct rcell **cells, size_t n);  /* or NULL */
};
void report_walk(const struct rrun *r, const struct report_opts *o, const struct report_sink *s,
		 void *ctx);

#endif
