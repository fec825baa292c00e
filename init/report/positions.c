/* report/positions.c: where a run got to, in positions (a record's "index": every repetition
 * of every cell, in the run's order, as the trailer counts them): the positions that ran,
 * those that lost their record, those never run, and those that were never this run's to
 * run (another shard's; with repeat = auto, a stable cell's later repetitions). */
#include "report/model.h"
#include "core/matrix/kernels.h"
#include "core/matrix/order.h"
#include "core/parse/plan_parse.h"

#include <stdlib.h>
#include <string.h>

/* Positions from..to that no record carried, as "3, 5-8"; NULL when there are none. */
static char *positions_text(const char *seen, int from, int to, int *count)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);
	s[0] = 0;
	*count = 0;
	for (int i = from; i <= to; i++) {
		if (seen[i])
			continue;
		int j = i;
		while (j < to && !seen[j + 1])
			j++;
		*count += j - i + 1;
		char part[48];
		int n = i == j ? snprintf(part, sizeof part, "%s%d", len ? ", " : "", i)
			       : snprintf(part, sizeof part, "%s%d-%d", len ? ", " : "", i, j);
		if (len + (size_t)n + 1 > cap)
			s = realloc(s, cap = 2 * (len + (size_t)n + 1));
		memcpy(s + len, part, (size_t)n + 1);
		len += (size_t)n;
		i = j;
	}
	if (!*count) {
		free(s);
		return NULL;
	}
	return s;
}

/* Where the run got to, in positions (index 1..total: every repetition of every cell, as
 * the trailer counts them): the matrix runs them in order, so every position up to the last
 * one with a record ran, and those without a record lost it (a garbled console line, say);
 * past it, a run without a trailer stopped. Counting both in positions keeps the status
 * line and the Problems in one unit. */
/* A run under several kernels: their number (the plan event's "kernels"), else 0. */
static int run_kernels(const struct rrun *r)
{
	return (int)json_array_size(json_object_get(r->plan, "kernels"));
}

/* Position pos (0-based) -> its repetition and slot; in a run under nk kernels each kernel's
 * cells are slots of their own, kernel k's cell s the slot k x per + s (core/matrix/kernels.h). */
static int position_at(const struct order_shape *ro, int nk, int pos, int *rep, int *slot)
{
	int k, s;
	if (!nk)
		return order_at(ro, pos, rep, slot);
	if (kernel_order_at(ro, nk, pos, rep, &k, &s) < 0)
		return -1;
	*slot = k * ro->per + s;
	return 0;
}

/* The run's order, from its plan event (none before it had one: interleave; a shuffle
 * that kept blocks together names them: "order_block", "order_runs"). */
static int run_order(const struct rrun *r, int per, struct order_shape *ro)
{
	const char *oname = json_string_value(json_object_get(r->plan, "order"));
	enum plan_order o = ORDER_INTERLEAVE;
	if (oname && strcmp(oname, plan_order_name(ORDER_SEQUENTIAL)) == 0)
		o = ORDER_SEQUENTIAL;
	else if (oname && strcmp(oname, plan_order_name(ORDER_SHUFFLE)) == 0)
		o = ORDER_SHUFFLE;
	uint64_t seed = (uint64_t)json_integer_value(json_object_get(r->plan, "seed"));
	if (per <= 0)
		per = (int)json_integer_value(json_object_get(r->plan, "per_rep"));
	int nk = run_kernels(r) > 0 ? run_kernels(r) : 1;
	*ro = order_flat(o, seed, per, per > 0 ? (r->total + per * nk - 1) / (per * nk) : 0);
	ro->block = (int)json_integer_value(json_object_get(r->plan, "order_block"));
	json_t *runs = json_object_get(r->plan, "order_runs"), *v;
	size_t i;
	json_array_foreach(runs, i, v)
		if (ro->nrun < PLAN_SECTIONS_MAX)
			ro->run[ro->nrun++] = (int)json_integer_value(v);
	return ro->per > 0 ? 0 : -1;
}

/* The positions of the shards given, when the run is sharded (header "shard": the cells of
 * one repetition its shards ran): 1 for a position of theirs. NULL for a run of every cell. */
static char *shard_positions(const struct rrun *r)
{
	json_t *sh = json_object_get(r->header, "shard"), *c;
	json_int_t per = json_integer_value(json_object_get(sh, "per_rep"));
	struct order_shape ro;
	size_t i;
	if (!json_is_object(sh) || per <= 0 || run_order(r, (int)per, &ro) < 0)
		return NULL;
	char *cell = calloc((size_t)per + 1, 1), *own = calloc((size_t)r->total + 2, 1);
	json_array_foreach(json_object_get(sh, "cells"), i, c)
		if (json_integer_value(c) >= 1 && json_integer_value(c) <= per)
			cell[json_integer_value(c)] = 1;
	/* a position's cell by the run's order */
	int rep, slot, nk = run_kernels(r);
	for (int x = 1; x <= r->total; x++)
		own[x] = position_at(&ro, nk, x - 1, &rep, &slot) == 0 &&
			 cell[slot % per + 1];
	free(cell);
	return own;
}

/* repeat = auto: 1 for the positions not run because their cell was stable before (the
 * repetitions after the one its "auto" summary ended it at). NULL when there are none. */
static char *not_needed(const struct rrun *r)
{
	struct order_shape ro;
	size_t i;
	json_t *s;
	/* a finished bisection ran the positions its search asked for, and no other */
	if (r->bisect) {
		char *all = malloc((size_t)r->total + 2);
		if (all)
			memset(all, 1, (size_t)r->total + 2);
		return all;
	}
	if (!json_array_size(r->stops) || run_order(r, 0, &ro) < 0)
		return NULL;
	char *skip = calloc((size_t)r->total + 2, 1);
	json_array_foreach(r->stops, i, s) {
		json_int_t x = json_integer_value(json_object_get(s, "index"));
		int rep, slot;
		if (x < 1 || x > r->total || order_at(&ro, (int)x - 1,
						       &rep, &slot) < 0)
			continue;
		for (int k = rep + 1; k <= ro.repeat; k++) {
			int y = order_position(&ro, k, slot);
			if (y >= 0)
				skip[y + 1] = 1;
		}
	}
	return skip;
}

/* repeat = auto: a cell stopped at repetition N was planned N times, not repeat_max. */
static void stopped_reps(struct rrun *r)
{
	struct rcell *c;
	struct order_shape ro;
	size_t i;
	json_t *s;
	if (!json_array_size(r->stops) || run_order(r, 0, &ro) < 0)
		return;
	json_array_foreach(r->stops, i, s) {
		const char *id = json_string_value(json_object_get(s, "cell"));
		c = NULL;
		for (size_t k = 0; id && !c && k < r->ncells; k++)
			if (strcmp(r->cells[k].id, id) == 0)
				c = &r->cells[k];
		json_int_t x = json_integer_value(json_object_get(s, "index"));
		int rep, slot;
		if (c && x >= 1 && order_at(&ro, (int)x - 1, &rep, &slot) == 0 &&
		    rep >= c->seen)
			c->reps = rep;
	}
}

/* The plan's cells per repetition: the shard header's, the plan event's, else the records'
 * total over their repetitions; 0 when unknown. */
static int per_rep(const struct rrun *r)
{
	json_int_t per = json_integer_value(json_object_get(json_object_get(r->header, "shard"), "per_rep"));
	if (per <= 0)
		per = json_integer_value(json_object_get(r->plan, "per_rep"));
	for (size_t i = 0; per <= 0 && i < r->ncells; i++)
		if (r->cells[i].reps > 0 && r->total % r->cells[i].reps == 0)
			per = r->total / r->cells[i].reps;
	return per > 0 && per <= r->total && r->total % per == 0 ? (int)per : 0;
}

/* flag (by position) as check --shards numbers the cells, per repetition ("cells 1-2, 6 of
 * 9, repetitions 1-3 of 3"): each position moved to where the plan's own order puts its
 * cell and repetition, since a shuffled run's positions are not in that order. In a run
 * under several kernels each kernel's cells are numbered apart, the first kernel's first. */
static char *cells_text(const struct rrun *r, const char *flag, int per, int *n)
{
	struct order_shape ro;
	char *by_cell = calloc((size_t)r->total + 2, 1);
	int nk = run_kernels(r), all = per * (nk ? nk : 1);
	int rep, slot, ordered = per > 0 && run_order(r, per, &ro) == 0;
	for (int x = 1; x <= r->total; x++)
		if (flag[x]) {
			if (ordered && position_at(&ro, nk, x - 1, &rep, &slot) == 0)
				by_cell[(rep - 1) * all + slot + 1] = 1;
			else
				by_cell[x] = 1;
		}
	char *s = report_cells_reps_text(by_cell, r->total, per ? all : 0, n);
	free(by_cell);
	return s;
}

void report_positions(struct rrun *r, int list_missing)
{
	size_t i;
	json_t *rec;
	stopped_reps(r);
	if (r->total <= 0 || r->total >= 1000000)
		return;
	char *seen = calloc((size_t)r->total + 2, 1);
	json_array_foreach(r->records, i, rec) {
		json_int_t x = json_integer_value(json_object_get(rec, "index"));
		if (x >= 1 && x <= r->total) {
			r->ran += !seen[x];
			seen[x] = 1;
			if (x > r->reached)
				r->reached = (int)x;
		}
	}
	/* A shard runs only its own positions: another shard's were never this run's to lose,
	 * and without that shard they never ran. */
	char *own = shard_positions(r), *notrun = calloc((size_t)r->total + 2, 1);
	char *skip = not_needed(r);
	int end = r->trailer ? r->total : r->reached;
	for (int x = 1; x <= r->total; x++) {
		/* another shard's position never ran here (and is named, for a shard alone); a
		 * stable cell's later one was never to run */
		int others = own && !own[x], needless = skip && skip[x];
		notrun[x] = needless || !(others || (list_missing && x > end && !seen[x]));
		if (others || needless)
			seen[x] = 1;
	}
	int per = per_rep(r), n;
	char *flag = calloc((size_t)r->total + 2, 1);
	if (r->reached) {
		r->lost_idx = positions_text(seen, 1, end, &r->nlost);
		for (int x = 1; x <= r->total; x++)
			flag[x] = x <= end && !seen[x];
		r->lost_cells = cells_text(r, flag, per, &n);
	}
	if ((r->reached && list_missing) || own) {
		r->missing_idx = positions_text(notrun, 1, r->total, &n);
		r->nmissing += n;
		for (int x = 1; x <= r->total; x++)
			flag[x] = !notrun[x];
		r->missing_cells = cells_text(r, flag, per, &n);
	}
	free(flag);
	free(own);
	free(skip);
	free(notrun);
	free(seen);
}

