/* core/parse/plan_size.c: the size of a plan's matrix, counted from its sections, and the limits on it
 * (plan_size.h says why). Pure. */
#include "core/parse/plan_size.h"
#include "core/parse/plan_error.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "16 arrays x 16 chunks", "1 array", or "2 arrays with 3 chunk sizes in all" when the
 * sections differ: one axis of the matrix as the plan spells it. */
static void axis(char *buf, size_t len, int sections, const int *per, const char *one,
		 const char *many, const char *sub, const char *subs)
{
	int total = 0, same = 1;
	for (int i = 0; i < sections; i++) {
		total += per[i];
		same &= per[i] == per[0];
	}
	const char *name = sections == 1 ? one : many;
	if (same && per[0] == 1)
		snprintf(buf, len, "%d %s", sections, name);
	else if (same)
		snprintf(buf, len, "%d %s x %d %s", sections, name, per[0], subs);
	else
		snprintf(buf, len, "%d %s with %d %s in all", sections, name, total, sub);
}

void plan_check_size(struct plan *p, int line)
{
	int chunks[PLAN_SECTIONS_MAX], mounts[PLAN_SECTIONS_MAX];
	uint64_t arrays = 0, fs = 0;
	int tunables = 0;   /* an array lists values of a tunable: its variants are more than chunks */

	for (int i = 0; i < p->narrays; i++) {
		const struct plan_array *ar = &p->arrays[i];
		arrays += (uint64_t)(chunks[i] = (int)plan_array_variants(ar));
		tunables |= chunks[i] != (ar->nchunk ? ar->nchunk : 1);
	}
	for (int i = 0; i < p->nfs; i++)
		fs += (uint64_t)(mounts[i] = p->fs[i].nmount ? p->fs[i].nmount : 1);
	uint64_t cells = arrays * fs * (uint64_t)p->nworkloads * (uint64_t)p->repeat;
	if (cells <= MATRIX_CELLS_MAX)
		return;
	char a[96], f[96], r[32] = "";
	if (tunables)
		axis(a, sizeof a, p->narrays, chunks, "array", "arrays", "variants (chunks and "
		     "tunables)", "variants");
	else
		axis(a, sizeof a, p->narrays, chunks, "array", "arrays", "chunk sizes", "chunks");
	axis(f, sizeof f, p->nfs, mounts, "fs", "fs", "mounts", "mounts");
	if (p->repeat > 1)
		snprintf(r, sizeof r, " x repeat %d", p->repeat);
	plan_add_error(p, line, "the matrix has %llu cells (%s x %s x %d workload%s%s), over the "
		       "limit of %d", (unsigned long long)cells, a, f, p->nworkloads,
		       p->nworkloads == 1 ? "" : "s", r, MATRIX_CELLS_MAX);
}
