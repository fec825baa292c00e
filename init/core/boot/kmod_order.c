/* core/boot/kmod_order.c: the order to load a set of modules in (their softdeps and dependencies
 * first), and which of them can load side by side (kmod_groups). */
#include "core/boot/kmod.h"
#include <stdlib.h>

struct walk {
	const struct kmod_db *db;
	const unsigned char *done;
	unsigned char *state; /* 0 new, 1 in progress, 2 placed */
	int *order, n, max, overflow;
};

static void visit(struct walk *w, int i);

static void visit_names(struct walk *w, char **names, int n)
{
	for (int k = 0; k < n; k++) {
		int hits[16];
		int nh = kmod_lookup(w->db, names[k], hits, 16);
		for (int h = 0; h < nh; h++)
			visit(w, hits[h]);
	}
}

static void visit(struct walk *w, int i)
{
	const struct kmod_mod *m = &w->db->mods[i];
	if (w->state[i] || !m->path || (w->done && w->done[i]))
		return;
	w->state[i] = 1; /* a softdep cycle stops here instead of looping */
	visit_names(w, m->pre, m->npre);
	for (int k = 0; k < m->ndeps; k++) {
		int d = kmod_find(w->db, m->deps[k]);
		if (d >= 0)
			visit(w, d);
	}
	if (w->n < w->max)
		w->order[w->n++] = i;
	else
		w->overflow = 1;
	w->state[i] = 2;
	visit_names(w, m->post, m->npost);
}

int kmod_order(const struct kmod_db *db, const int *want, int nwant, const unsigned char *done,
	       int *order, int max)
{
	struct walk w = { db, done, calloc((size_t)db->nmods + 1, 1), order, 0, max, 0 };
	if (!w.state)
		return -1;
	for (int k = 0; k < nwant; k++)
		if (want[k] >= 0 && want[k] < db->nmods)
			visit(&w, want[k]);
	free(w.state);
	return w.overflow ? -1 : w.n;
}

/* Union-find root, paths halved. */
static int root_of(int *parent, int k)
{
	while (parent[k] != k)
		k = parent[k] = parent[parent[k]];
	return k;
}

int kmod_groups(const struct kmod_db *db, const int *want, int nwant, const unsigned char *done,
		int *group, int max_order)
{
	int rc = -1, ngroups = 0;
	int *parent = malloc(sizeof *parent * (size_t)(nwant + 1));
	int *owner = malloc(sizeof *owner * (size_t)(db->nmods + 1)); /* module -> a want */
	int *order = malloc(sizeof *order * (size_t)(max_order + 1));
	if (!parent || !owner || !order)
		goto out;
	for (int m = 0; m < db->nmods; m++)
		owner[m] = -1;
	for (int k = 0; k < nwant; k++) {
		parent[k] = k;
		group[k] = -1;
		int w = want[k], repeat = w < 0 || w >= db->nmods;
		for (int j = 0; j < k && !repeat; j++)
			repeat = want[j] == w;
		if (repeat) {
			parent[k] = -1;
			continue;
		}
		int n = kmod_order(db, &w, 1, done, order, max_order);
		if (n < 0)
			goto out;
		for (int i = 0; i < n; i++) {
			int m = order[i];
			if (owner[m] < 0)
				owner[m] = k;
			else
				parent[root_of(parent, k)] = root_of(parent, owner[m]);
		}
	}
	/* number the groups by their first member */
	for (int k = 0; k < nwant; k++) {
		if (parent[k] < 0)
			continue;
		int r = root_of(parent, k), first = 0;
		while (first < k && (parent[first] < 0 || root_of(parent, first) != r))
			first++;
		group[k] = first == k ? ngroups++ : group[first];
	}
	rc = ngroups;
out:
	free(parent);
	free(owner);
	free(order);
	return rc;
}
