/* report/compare.h: two runs, or two sets of boots of one plan, set against each other
 * (report/compare.c, report/boots.c). */
#ifndef FSM_REPORT_COMPARE_H
#define FSM_REPORT_COMPARE_H
#include "report/grid.h"
#include "report/sections.h"

/* report/boots.c: n runs of one plan (n boots, modelled) as one side of compare, each run's
 * mean of its repeats one observation of each metric, stable when 2 or more runs have it and
 * each run's own figure is stable. Borrows the rest from runs[0] and is freed by
 * report_pool_free before the runs. 0, or -1 with msg (runs of different plans, no memory).
 * report_spread_text: the comparison's "spread: ..." line, which spread its tests weigh. */
int report_pool_view(const struct rrun *runs, size_t n, struct rrun *view, char *msg, size_t mlen);
void report_pool_free(struct rrun *view);
void report_spread_text(const struct rrun *a, const struct rrun *b, char *out, size_t len);

/* compare (report/compare.c): two runs judged metric by metric, once; then one grid per
 * workload, and the headline. */
struct comparison;
struct comparison *compare_new(const struct rrun *a, const struct rrun *b, const struct report_opts *o);
void compare_free(struct comparison *c);
struct grid *compare_grid(const struct comparison *c, const char *workload);
void compare_lines(const struct comparison *c, void (*line)(void *ctx, const char *s), void *ctx);

/* report/compare_defs.c: the definition differences of a comparison, each once with its
 * cells. compare_cell_defs notes cells ca and cb's (the workload aside) and returns 1 when
 * they differ; compare_defs_lines says them, with the runs' kernels and plans. */
struct compare_defs {
	char line[8][REPORT_COND_LINE];
	int cells[8];
	int n, more;
};
int compare_cell_defs(struct compare_defs *d, const struct rrun *a, const struct rcell *ca,
		      const struct rrun *b, const struct rcell *cb);
void compare_defs_lines(const struct compare_defs *d, const struct rrun *a, const struct rrun *b,
			int across, void (*line)(void *ctx, const char *s), void *ctx);

#endif
