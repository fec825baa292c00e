/* core/parse/plan_parse.h: the plan parser's public side: a plan file (INI) into a struct plan or
 * FILE:LINE errors, and what only the parser knows of a plan once read: which keys were given
 * and on which line. The model it fills is core/model/plan.h; the parser's own tables are
 * core/parse/plan_keys.h. */
#ifndef FSM_PLAN_PARSE_H
#define FSM_PLAN_PARSE_H
#include <stddef.h>
#include "core/model/plan.h"

/* Parses len bytes of buf; file names the plan in error lines. Returns 0, or -1 with
 * out->nerrors > 0 and out->errors[] holding "FILE:LINE: message" lines. The parser goes on
 * after most errors, so a user sees every mistake at once. */
int plan_parse(const char *file, const char *buf, size_t len, struct plan *out);

/* Reads path (at most PLAN_FILE_MAX bytes) and parses it. A file that cannot be read gives
 * "PATH:0: unable to read: strerror"; one that is not a regular file (a FIFO, a device) is
 * not read, "PATH:0: unable to read: it is a FIFO, not a regular file". */
int plan_load(const char *path, struct plan *out);

/* Multiplies workload sizes by factor (fsmatrix.scale=), keeping a seqwrite a whole number
 * of blocks and every size at least 4 KiB. */
void plan_scale(struct plan *p, double factor);

/* Disks a cell of this array may take: its members, and the cache disk a layer of its
 * stacks names by position (core/parse/plan_layer.c). */
int plan_array_disks_taken(const struct plan *p, const struct plan_array *a);

/* Adds an error for every array needing more than ndisks test disks. Returns 0 or -1. */
int plan_check_disks(struct plan *p, int ndisks);

/* The name of an order, as the plan spells it (the parser's table of them). */
const char *plan_order_name(enum plan_order o);
/* 1 when the plan gave [global] key (a name of the global key table), else 0. */
int plan_global_given(const struct plan *p, const char *key);
/* The line [global] key was given on, 0 when not. */
int plan_global_line(const struct plan *p, const char *key);
/* The line an [array] key was given on, 0 when not. */
int plan_array_line(const struct plan_array *a, const char *key);
/* The line [bisect] key was given on, 0 when not (core/parse/plan_bisect.c). */
int plan_bisect_line(const struct plan *p, const char *key);

/* The values a workload section starts from (type unset), as the plan's keys default. */
void plan_workload_defaults(struct plan_workload *w);
/* One key of a workload section from text, with the plan's own parser and limits (what
 * `fsmatrix workload` options share with plans): w->type must be set. Returns 0, or -1 with
 * msg saying what was expected. */
int plan_workload_set(struct plan_workload *w, const char *key, const char *val, char *msg,
		      size_t mlen);
/* 1 when the plan gave workload key key (a name of the workload key table), else 0. */
int plan_workload_given(const struct plan_workload *w, const char *key);

#endif
