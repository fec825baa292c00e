/* report/grid.h: tables of text, the form every renderer takes (report/table.c lays cells out
 * as grids; report/render.c prints them as text, markdown, csv or html without knowing what
 * they hold), and what a cell's entry in one says. */
#ifndef FSM_REPORT_GRID_H
#define FSM_REPORT_GRID_H
#include "report/model.h"

/* A table of text, the form every renderer takes. */
struct grid {
	char *title;
	char *note;          /* a line under the title, or NULL */
	size_t ncols, nrows; /* row 0 is the heading */
	char **cell;         /* nrows * ncols, each malloc'd (never NULL) */
	char *cls;           /* per cell: 0, or 'g' better, 'b' worse, 'e' error, 'm' missing,
			      * 'i' a figure measured without an option the kernel ignored,
			      * 'u' a figure not stable over its repeats */
	char **tip;          /* per cell: a tooltip for HTML, or NULL (all NULL until grid_tip) */
	const char *legend[8];   /* lines under the table explaining its marks, each once */
	size_t nlegend;
};
struct grid *grid_new(const char *title, size_t ncols);
void grid_add_row(struct grid *g);
void grid_set(struct grid *g, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void grid_free(struct grid *g);
void grid_tip(struct grid *g, size_t row, size_t col, const char *tip);
void grid_legend(struct grid *g, const char *line);   /* a static string; added once */

/* Layout: the distinct workloads of a run in plan order, the cells of one workload in the
 * order --by asks for, and one pivot grid per metric of that workload. */
size_t report_workloads(const struct rrun *r, const struct report_opts *o, const char **out,
			size_t max);
size_t report_cells_of(const struct rrun *r, const struct report_opts *o, const char *workload,
		       struct rcell **out, size_t max);
/* The axes that take more than one value among cells[], in --by order then plan order. */
size_t report_varying_axes(struct rcell **cells, size_t n, const struct report_opts *o,
			   const char **out, size_t max);
struct grid *report_pivot(struct rcell **cells, size_t n, const struct report_opts *o,
			  const struct metric *m, const char *workload);
struct grid *report_flat(const struct runset *rs, const struct report_opts *o); /* for csv */
/* A cell's figure for metric mi: "median ±stddev", "error", "missing", "n/a" (it ran but
 * gave no usable number), with the marks the legends below explain. */
void report_cell_text(const struct rcell *c, size_t mi, char *out, size_t len);
/* After grid_set of report_cell_text's entry (metric mi) at row, col: its legends, tooltip
 * and class. */
void report_grid_marks(struct grid *g, size_t row, size_t col, const struct rcell *c, size_t mi);
/* The legend line of "n/a", of the mark after a figure measured without a mount option
 * the kernel ignored, and of the mark after a figure not stable over its repeats. */
extern const char report_legend_na[], report_legend_ignored[], report_legend_unstable[];
/* For a cell with mount options the kernel ignored: "nobh was ignored by the kernel: the cell
 * measured the defaults". Returns 0 (and out "") when there are none. */
int report_ignored_text(const struct rcell *c, char *out, size_t len);
/* What one cell's arrays in two runs differed in that its id does not say: md's bitmap, the
 * discard before the workload. 1 with the text in why. */
int report_array_differs(const struct rcell *a, const struct rcell *b, char *why, size_t len);
/* report/workdiff.c: what the two sides' cells ran differently although their ids are the
 * same (the plan's size, bs or fio job edited between the runs): the result fields of their
 * type's "defines" (core/workload/workload_kinds.h) in their first ok records, "size 64m / 48m; bs 1m
 * / 4k" (A's, then B's). A relative size (size = 2x ram) that both resolved from the same
 * formula and scale is the same workload whatever the bytes: a machine with more RAM is a
 * condition, not another plan. 1 with the text in why. */
int report_workload_differs(const struct rcell *a, const struct rcell *b, char *why, size_t len);


/* Renderers. */
void render_text(FILE *f, const struct grid *g);
void render_md(FILE *f, const struct grid *g);
void render_csv(FILE *f, const struct grid *g, int heading);
void render_html_table(FILE *f, const struct grid *g);
void html_escape(FILE *f, const char *s);

#endif
