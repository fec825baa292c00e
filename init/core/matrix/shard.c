/* core/matrix/shard.c: the split of a plan's cells over N machines, and their run group. */
#include "core/matrix/shard.h"
#include "core/matrix/matrix.h"
#include "core/matrix/reuse.h"
#include "lib/sha256.h"
#include "core/matrix/estimate.h"

#include <stdio.h>
#include <stdlib.h>

struct job {
	double est;
	int cell;
};

static int longest_first(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	if (x->est != y->est)
		return x->est > y->est ? -1 : 1;
	return (x->cell > y->cell) - (x->cell < y->cell);
}

int shard_split(const double *est, int ncells, int n, int *owner)
{
	if (n < 1 || ncells < 0)
		return -1;
	struct job *jobs = malloc(((size_t)ncells + 1) * sizeof *jobs);
	double *load = calloc((size_t)n, sizeof *load);
	if (!jobs || !load) {
		free(jobs);
		free(load);
		return -1;
	}
	for (int i = 0; i < ncells; i++)
		jobs[i] = (struct job){ est[i] > 0 ? est[i] : 0, i };
	qsort(jobs, (size_t)ncells, sizeof *jobs, longest_first);
	for (int i = 0; i < ncells; i++) {
		int best = 0;
		for (int s = 1; s < n; s++)
			if (load[s] < load[best])
				best = s;
		owner[jobs[i].cell] = best;
		load[best] += jobs[i].est;
	}
	free(jobs);
	free(load);
	return 0;
}

/* Slots run back to back on one array (core/matrix/reuse.h) go to one shard, so that the split
 * does not make an array per shard: group[i] numbers slot i's group, in the plan's order.
 * Returns how many groups. */
static int slot_groups(const struct plan *p, int per, int *group)
{
	struct cell prev, c;
	int n = 0;
	for (int i = 0; i < per; i++) {
		if (matrix_slot_cell(p, i, 1, &c) < 0)
			return -1;
		if (reuse_from(p, i ? &prev : NULL, &c) == REUSE_NONE)
			n++;
		group[i] = n - 1;
		prev = c;
	}
	return n;
}

int shard_plan(const struct plan *p, const struct estimate_model *m, int n, int *owner,
	       double *load)
{
	int per = matrix_per_rep(p);
	double *est = calloc((size_t)per + 1, sizeof *est);
	int *group = malloc(((size_t)per + 1) * sizeof *group);
	int *gowner = malloc(((size_t)per + 1) * sizeof *gowner);
	struct cell c;
	int ng = est && group && gowner ? slot_groups(p, per, group) : -1;
	int rc = -1;
	if (ng >= 0) {
		double *gest = calloc((size_t)ng + 1, sizeof *gest);
		for (int i = 0; gest && i < per; i++) {
			est[i] = matrix_slot_cell(p, i, 1, &c) == 0 ? cell_estimate(p, &c, m, NULL) : 0;
			gest[group[i]] += est[i];
		}
		rc = gest ? shard_split(gest, ng, n, gowner) : -1;
		free(gest);
	}
	if (rc == 0) {
		for (int i = 0; i < per; i++)
			owner[i] = gowner[group[i]];
		if (load) {
			for (int s = 0; s < n; s++)
				load[s] = 0;
			for (int i = 0; i < per; i++)
				load[owner[i]] += est[i] * p->repeat;
		}
	}
	free(est);
	free(group);
	free(gowner);
	return rc;
}

void shard_run_group(const char *plan_sha256, double scale, int n, char hex[65])
{
	char text[160];
	int len = snprintf(text, sizeof text, "%s\n%.4f\n%d\n", plan_sha256, scale, n);
	sha256_hex(text, (size_t)len, hex);
}
