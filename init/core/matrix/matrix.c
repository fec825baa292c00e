/* core/matrix/matrix.c: cell number -> cell, by mixed-radix counting over the plan's axes, in the
 * plan's order (core/matrix/order.h).
 *
 * By default repetitions are the outermost loop: the whole matrix runs once, then again. Slow drift
 * (host load, a sparse disk image filling in, a warming machine) then spreads over every
 * cell instead of piling onto one cell's repeats, and a run cut short still has every cell
 * at least once. */
#include "core/matrix/matrix.h"
#include "core/matrix/kernels.h"
#include "core/model/level.h"
#include "core/matrix/order.h"

#include <stdio.h>
#include <string.h>

/* Arrays counted once per variant (chunk and tunable values), and fs once per mount line. */
static int variants_of(const struct plan_array *a)
{
	return (int)plan_array_variants(a);
}

static int array_slots(const struct plan *p)
{
	int n = 0;
	for (int i = 0; i < p->narrays; i++)
		n += variants_of(&p->arrays[i]);
	return n;
}

/* Variant v of array a: its chunk, then each tunable it sets, then its layer stack, the
 * stack counting fastest; a tunable listing several values adds "-<abbr><value>" to the id's
 * array part, a stack "+<layer>" for each of its layers. */
static void array_variant(const struct plan *p, const struct plan_array *a, int v,
			  struct cell *c, char *part, size_t len)
{
	size_t used = 0;
	c->stack = -1;
	if (a->nstacks) {
		c->stack = v % a->nstacks;
		v /= a->nstacks;
	}
	for (int t = TUN_COUNT - 1; t >= 0; t--) {
		if (!a->ntun[t])
			continue;
		c->tun_given |= 1u << t;
		c->tun[t] = a->tun[t][v % a->ntun[t]];
		v /= a->ntun[t];
	}
	c->chunk = a->nchunk ? a->chunk[v] : 0;
	part[0] = '\0';
	if (c->chunk) {
		memcpy(part, "-c", 3);
		plan_fmt_size(c->chunk, part + 2, len - 2);
		used = strlen(part);
	}
	for (int t = 0; t < TUN_COUNT && used < len; t++)
		if (a->ntun[t] > 1) {
			char id[64];
			tun_format_id(t, c->tun[t], id, sizeof id);
			used += (size_t)snprintf(part + used, len - used, "-%s", id);
		}
	if (c->stack >= 0 && used < len)
		layer_stack_id(p->layers, &a->stacks[c->stack], part + used, len - used);
}

/* The id's array part of array slot k (its name and variant part), and which array it is. */
static int array_part(const struct plan *p, int k, char *part, size_t len)
{
	int a = 0;
	while (k >= variants_of(&p->arrays[a]))
		k -= variants_of(&p->arrays[a++]);
	struct cell c;
	char var[256];
	memset(&c, 0, sizeof c);
	array_variant(p, &p->arrays[a], k, &c, var, sizeof var);
	snprintf(part, len, "%s%s", p->arrays[a].name, var);
	return a;
}

int matrix_id_clash(const struct plan *p, int *first, int *second, char *part, size_t len)
{
	int n = array_slots(p);
	char x[PLAN_NAME_MAX + 256], y[PLAN_NAME_MAX + 256];
	for (int j = 1; j < n; j++) {
		int aj = array_part(p, j, y, sizeof y);
		for (int i = 0; i < j; i++) {
			int ai = array_part(p, i, x, sizeof x);
			if (ai != aj && strcmp(x, y) == 0) {
				*first = ai;
				*second = aj;
				snprintf(part, len, "%s", x);
				return 1;
			}
		}
	}
	return 0;
}

static int fs_slots(const struct plan *p)
{
	int n = 0;
	for (int i = 0; i < p->nfs; i++)
		n += p->fs[i].nmount;
	return n;
}

int matrix_per_rep(const struct plan *p)
{
	return array_slots(p) * fs_slots(p) * p->nworkloads;
}

int matrix_count(const struct plan *p)
{
	return matrix_per_rep(p) * p->repeat * (p->nkernels > 0 ? p->nkernels : 1);
}

/* The cell of one repetition numbered slot, by mixed-radix counting: workload fastest. */
static void fill(const struct plan *p, int slot, int rep, int index, struct cell *c)
{
	memset(c, 0, sizeof *c);
	c->kernel = -1;
	c->index = index;
	c->rep = rep;
	c->slot = slot;
	int i = slot;
	c->workload = i % p->nworkloads;
	i /= p->nworkloads;
	int fslot = i % fs_slots(p), aslot = i / fs_slots(p);

	int k = 0;
	while (fslot >= p->fs[k].nmount)
		fslot -= p->fs[k++].nmount;
	c->fs = k;
	c->mount = fslot;
	k = 0;
	while (aslot >= variants_of(&p->arrays[k]))
		aslot -= variants_of(&p->arrays[k++]);
	c->array = k;

	const struct plan_array *a = &p->arrays[c->array];
	char part[256];
	array_variant(p, a, aslot, c, part, sizeof part);
	snprintf(c->id, sizeof c->id, "%s%s/%s/%s/%s", a->name, part, p->fs[c->fs].name,
		 p->fs[c->fs].mount[c->mount], p->workloads[c->workload].name);
}

void matrix_order_shape(const struct plan *p, struct order_shape *s)
{
	*s = order_flat(p->order, p->seed, matrix_per_rep(p), p->repeat);
	/* a shuffle that reuses keeps an array variant's cells (fs slots x workloads, the
	 * innermost axes) together, and with reuse = fs each filesystem's */
	int md = 0;
	for (int i = 0; i < p->narrays; i++)
		md |= level_find(p->arrays[i].level)->md;
	if (p->order != ORDER_SHUFFLE || p->reuse == REUSE_NONE || (p->reuse == REUSE_ARRAY && !md))
		return;
	s->block = fs_slots(p) * p->nworkloads;
	if (p->reuse == REUSE_FS && p->nfs > 1)
		for (int k = 0; k < p->nfs; k++)
			s->run[s->nrun++] = p->fs[k].nmount * p->nworkloads;
}

/* "md0/ext4/defaults/seq@6.12": the same cell under another kernel is another cell of the
 * run, and '@' is no character of a kernel set's name. */
static void under_kernel(const struct plan *p, int kernel, struct cell *c)
{
	size_t n = strlen(c->id);
	c->kernel = kernel;
	snprintf(c->id + n, sizeof c->id - n, "@%s", p->kernels[kernel]);
}

int matrix_cell(const struct plan *p, int index, struct cell *c)
{
	int rep, slot, kernel;
	struct order_shape s;
	matrix_order_shape(p, &s);
	if (p->nkernels > 0) {
		if (kernel_order_at(&s, p->nkernels, index, &rep, &kernel, &slot) < 0)
			return -1;
		fill(p, slot, rep, index, c);
		under_kernel(p, kernel, c);
		return 0;
	}
	if (order_at(&s, index, &rep, &slot) < 0)
		return -1;
	fill(p, slot, rep, index, c);
	return 0;
}

int matrix_slot_cell(const struct plan *p, int slot, int rep, struct cell *c)
{
	return matrix_kernel_cell(p, slot, rep, 0, c);
}

int matrix_kernel_cell(const struct plan *p, int slot, int rep, int kernel, struct cell *c)
{
	struct order_shape s;
	matrix_order_shape(p, &s);
	int index = p->nkernels > 0 ? kernel_order_position(&s, p->nkernels, rep, kernel, slot)
				    : order_position(&s, rep, slot);
	if (index < 0)
		return -1;
	fill(p, slot, rep, index, c);
	if (p->nkernels > 0)
		under_kernel(p, kernel, c);
	return 0;
}
