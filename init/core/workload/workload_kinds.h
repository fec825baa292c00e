/* core/workload/workload_kinds.h: what plans, `fsmatrix check` and reports know of each workload engine,
 * one row per engine: its name, the plan keys it takes and requires, the figures it measures
 * (with units and which way is better), its time estimate and its one-line description.
 * Pure data and pure functions. The code that runs an engine is one layer up (engines/engine.h,
 * whose rows point back here by type); the report library, which may not use engines, finds
 * metrics here. A key's meaning, limits and default are the plan's (core/parse/plan.c), the same
 * for every engine that takes it. */
#ifndef FSM_WORKLOAD_KINDS_H
#define FSM_WORKLOAD_KINDS_H
#include <stddef.h>
#include "core/model/plan.h"

struct estimate_model;   /* core/workload/estimate_model.h */

/* One figure of a workload's result. */
struct metric {
	const char *key;     /* field in the record's "result", and name in summaries */
	const char *label;   /* column heading */
	const char *unit;
	int higher_better;   /* 1 for rates (MB/s), 0 for times and latencies */
	int decimals;
	int report;          /* column of the report's tables, from 1; 0: in summaries only */
};

struct wl_kind {
	const char *name;               /* as a plan's "type =" spells it */
	enum wl_type type;              /* its index in wl_kinds[] */
	const char *keys;               /* the plan keys it takes besides type, space-separated */
	const char *required;           /* those of them a plan must give */
	const struct metric *metrics;   /* in the order of /init's summaries; key NULL ends it */
	/* Seconds the workload takes under the rough model of `fsmatrix check`. */
	double (*estimate)(const struct plan_workload *w, const struct estimate_model *m);
	/* "seqwrite 512m in 1m blocks, random data": the line check and a dry run show. */
	void (*describe)(const struct plan_workload *w, char *buf, size_t len);
	/* What only this engine asks of its keys, or NULL: returns 0, or -1 with msg and the
	 * key (kbuf) whose line the error points at ("" for the section's). given says
	 * whether the plan gave a key (the parser's plan_workload_given). */
	int (*check)(const struct plan_workload *w,
		     int (*given)(const struct plan_workload *w, const char *key), char *kbuf,
		     size_t klen, char *msg, size_t mlen);
	/* The fields of its record's "result" that say what it ran rather than what it
	 * measured, space-separated: two cells that differ in one ran another workload, and
	 * compare does not test one against the other (report/workdiff.c). */
	const char *defines;
};

/* Indexed by enum wl_type; a row with name NULL ends it. */
extern const struct wl_kind wl_kinds[];

/* The row of a type, or NULL for a value that is no type (an unset -1). */
const struct wl_kind *wl_kind_of(int type);
/* The row a plan names, or NULL. */
const struct wl_kind *wl_kind_named(const char *name);
/* 1 when key (a plan key) is among the words of list ("size bs direct"), else 0. */
int wl_kind_has(const char *list, const char *key);
/* The metric of the report's column col (1, 2, ...), or NULL past the last. A cell record's
 * "figure" (what a lab's result view shows) is the first of them the cell measured: an fio
 * job that only wrote has no read figures, the first columns. */
const struct metric *wl_kind_column(const struct wl_kind *k, int col);
/* "seqwrite, smallfiles or tar": every name, for messages. */
void wl_kind_names(char *buf, size_t len);

/* A workload type's name, for records and for `fsmatrix check` ("unknown" for none). */
const char *plan_wl_name(enum wl_type t);

#endif
