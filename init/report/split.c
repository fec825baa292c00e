/* report/split.c: one run under several kernels seen as one run per kernel, for `compare
 * --by kernel`. A cell's id names its kernel after an '@' (core/matrix/matrix.h): the view of kernel
 * K holds the run's cells whose id ends in "@K", under the id without it, so that the same
 * cell under the other kernel meets it by id as a cell of another run would, and the header
 * of the first boot under K. The view borrows everything else from the run (plan, records,
 * reference sets): it is freed with report_split_free, before the run. */
#include "report/model.h"

#include <stdlib.h>
#include <string.h>

/* The id's kernel, or NULL when it names none. */
static const char *id_kernel(const char *id)
{
	const char *at = strrchr(id, '@');
	return at && !strchr(at, '/') ? at + 1 : NULL;
}

size_t report_split_kernels(const struct rrun *r, const char **out, size_t max)
{
	size_t n = 0;
	json_t *list = json_object_get(r->plan, "kernels"), *v;
	size_t i;
	/* the plan's order first (its first kernel is A), then any other a cell names */
	json_array_foreach(list, i, v)
		if (json_is_string(v) && n < max)
			out[n++] = json_string_value(v);
	for (i = 0; i < r->ncells; i++) {
		const char *k = id_kernel(r->cells[i].id);
		size_t j;
		for (j = 0; k && j < n; j++)
			if (strcmp(out[j], k) == 0)
				break;
		if (k && j == n && n < max)
			out[n++] = k;
	}
	return n;
}

int report_split_view(const struct rrun *r, const char *kernel, struct rrun *view)
{
	*view = *r;
	view->interleaved = 1;
	view->cells = calloc(r->ncells + 1, sizeof *view->cells);
	view->ncells = 0;
	view->cell_ix = json_object();
	size_t len = strlen(r->id) + strlen(kernel) + 16;
	view->id = malloc(len);
	if (!view->cells || !view->cell_ix || !view->id)
		return -1;
	snprintf(view->id, len, "%s kernel %s", r->id, kernel);
	/* the conditions of the kernel's own first boot: what differs from the other's besides
	 * the kernel itself is then said as between two runs */
	size_t i;
	json_t *h;
	json_array_foreach(r->headers, i, h) {
		const char *set = json_string_value(json_object_get(json_object_get(h, "kernel"), "set"));
		if (set && strcmp(set, kernel) == 0) {
			view->header = h;
			break;
		}
	}
	for (size_t i = 0; i < r->ncells; i++) {
		const char *k = id_kernel(r->cells[i].id);
		if (!k || strcmp(k, kernel) != 0)
			continue;
		struct rcell *c = &view->cells[view->ncells];
		*c = r->cells[i];
		c->id = strndup(r->cells[i].id, (size_t)(k - 1 - r->cells[i].id));
		if (!c->id)
			return -1;
		json_object_set_new_nocheck(view->cell_ix, c->id, json_integer((json_int_t)view->ncells));
		view->ncells++;
	}
	return 0;
}

void report_split_free(struct rrun *view)
{
	for (size_t i = 0; i < view->ncells; i++)
		free(view->cells[i].id);
	free(view->cells);
	json_decref(view->cell_ix);
	free(view->id);
	memset(view, 0, sizeof *view);
}
