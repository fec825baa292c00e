/* report/compare_defs.c: what compare names before it tests, beyond the conditions
 * (report/conditions.c) and the workloads (report/workdiff.c): the runs' kernels and plans,
 * and each difference in the cells' definitions (report/definition.c: mkfs, mount, tunables,
 * layers, bitmap, drop_caches, scale, and the plan where the records do not give mkfs's
 * options), each once with how many cells it is. A cell whose definition differs is not
 * tested unless --across-definitions: its figures would differ by the definition too. */
#include "report/compare.h"

#include <stdio.h>
#include <string.h>

static const char *release_of(const struct rrun *r)
{
	return json_string_value(json_object_get(json_object_get(r->header, "kernel"), "release"));
}

static const char *plan_of(const struct rrun *r)
{
	return json_string_value(json_object_get(json_object_get(r->header, "plan"), "sha256"));
}

int compare_cell_defs(struct compare_defs *d, const struct rrun *a, const struct rcell *ca,
		      const struct rrun *b, const struct rcell *cb)
{
	json_t *da = report_cell_definition(a, ca), *db = report_cell_definition(b, cb);
	char why[REPORT_COND_LINE - 32];
	json_object_del(da, "workload");   /* compare's own rule: report_workload_differs */
	json_object_del(db, "workload");
	int n = report_definition_diff(da, db, why, sizeof why);
	json_decref(da);
	json_decref(db);
	if (!n)
		return 0;
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->line[i], why) == 0) {
			d->cells[i]++;
			return 1;
		}
	if (d->n < 8) {
		snprintf(d->line[d->n], sizeof d->line[d->n], "%s", why);
		d->cells[d->n++] = 1;
	} else {
		d->more++;
	}
	return 1;
}

void compare_defs_lines(const struct compare_defs *d, const struct rrun *a, const struct rrun *b,
			int across, void (*line)(void *ctx, const char *s), void *ctx)
{
	char buf[REPORT_COND_LINE + 64];
	const char *ka = release_of(a), *kb = release_of(b), *pa = plan_of(a), *pb = plan_of(b);
	if (ka && kb && strcmp(ka, kb) != 0) {
		snprintf(buf, sizeof buf, "kernels differ: %s / %s (the kernel is compared, not taken "
			 "as a condition)", ka, kb);
		line(ctx, buf);
	}
	if (pa && pb && strcmp(pa, pb) != 0) {
		snprintf(buf, sizeof buf, "plans differ: sha256 %.12s / %.12s%s", pa, pb, d->n ? "" :
			 " (no cell's own definition does: workload, mkfs, mount, tunables, layers, "
			 "bitmap, drop_caches)");
		line(ctx, buf);
	}
	for (int i = 0; i < d->n; i++) {
		snprintf(buf, sizeof buf, "definitions differ: %s (%d cell%s)", d->line[i], d->cells[i],
			 d->cells[i] == 1 ? "" : "s");
		line(ctx, buf);
	}
	if (d->more) {
		snprintf(buf, sizeof buf, "definitions differ: and in %d more cell%s", d->more,
			 d->more == 1 ? "" : "s");
		line(ctx, buf);
	}
	if (d->n)
		line(ctx, across ? "Tested across different definitions (--across-definitions): a "
				   "difference may come from the definitions as much as from anything else."
				 : "No difference is called significant between cells whose definitions "
				   "differ: the figures would differ by the definition too "
				   "(--across-definitions tests anyway).");
}
