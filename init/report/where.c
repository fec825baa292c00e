/* report/where.c: which cells --by and --where select, and the one line that says when a
 * --where selects none. */
#include "report/model.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int report_opts_axes(struct report_opts *o, const char *list)
{
	char *s = strdup(list), *save = NULL;
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nby == REPORT_MAX_AXES)
			return -1;
		o->by[o->nby++] = strdup(t);
	}
	free(s);
	return 0;
}

int report_opts_where(struct report_opts *o, const char *expr)
{
	const char *eq = strchr(expr, '=');
	/* An empty value is a mistake, not a filter: a cell without the axis has "". */
	if (!eq || eq == expr || !eq[1] || o->nwhere == REPORT_MAX_AXES)
		return -1;
	o->where_axis[o->nwhere] = strndup(expr, (size_t)(eq - expr));
	o->where_val[o->nwhere++] = eq + 1;
	return 0;
}

/* Whether cell c passes --where number i. */
static int where_holds(const struct report_opts *o, size_t i, const struct rcell *c)
{
	char v[256];
	json_t *raw = json_object_get(c->axes, o->where_axis[i]);
	axis_text(c->axes, o->where_axis[i], v, sizeof v);
	if (strcmp(v, o->where_val[i]) == 0)
		return 1;
	/* chunk=65536 and chunk=64k both select a 64 KiB chunk */
	char rawv[64];
	if (!json_is_integer(raw))
		return 0;
	snprintf(rawv, sizeof rawv, "%lld", (long long)json_integer_value(raw));
	return strcmp(rawv, o->where_val[i]) == 0;
}

int report_cell_selected(const struct report_opts *o, const struct rcell *c)
{
	for (size_t i = 0; i < o->nwhere; i++)
		if (!where_holds(o, i, c))
			return 0;
	return 1;
}

/* After "no cell matches": for a --where whose value no cell has at all (a typo, most
 * likely), the values the cells do have, in the order they come: " (known fs: ext4, xfs)". */
static void known_values(const struct runset *rs, const struct report_opts *o, size_t w)
{
	json_t *seen = json_array();
	char v[256], list[400];
	size_t k = 0, i;
	json_t *x;
	for (size_t r = 0; r < rs->n; r++)
		for (size_t c = 0; c < rs->run[r].ncells; c++) {
			if (where_holds(o, w, &rs->run[r].cells[c]))
				goto out;   /* the value is there: the combination is not */
			axis_text(rs->run[r].cells[c].axes, o->where_axis[w], v, sizeof v);
			int dup = !v[0];
			json_array_foreach(seen, i, x)
				dup |= strcmp(json_string_value(x), v) == 0;
			if (!dup)
				json_array_append_new(seen, json_string(v));
		}
	list[0] = '\0';
	json_array_foreach(seen, i, x)
		if (k < sizeof list)
			k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
					      json_string_value(x));
	if (k >= sizeof list)
		strcpy(list + sizeof list - 4, "...");
	fprintf(stderr, " (known %s: %s)", o->where_axis[w], list[0] ? list : "none");
out:
	json_decref(seen);
}

int report_where_check(const char *cmd, const struct runset *rs, const struct report_opts *o)
{
	if (!o->nwhere)
		return 0;
	for (size_t r = 0; r < rs->n; r++)
		for (size_t i = 0; i < rs->run[r].ncells; i++)
			if (report_cell_selected(o, &rs->run[r].cells[i]))
				return 0;
	fprintf(stderr, "fsmatrix %s: no cell matches", cmd);
	for (size_t i = 0; i < o->nwhere; i++)
		fprintf(stderr, " --where %s=%s", o->where_axis[i], o->where_val[i]);
	for (size_t i = 0; i < o->nwhere; i++)
		known_values(rs, o, i);
	fprintf(stderr, "\n");
	return 1;
}

