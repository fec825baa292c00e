/* report/kfaults.c: what the kernel did wrong during a run, the first lines under Findings
 * and under Problems: each hung cell (status hung) with its stuck tasks' top frames from
 * its record's evidence (cell/hang_evidence.c), and each cell during which the kernel logged
 * an oops, a BUG or a WARN (kernel_faults) or was tainted. */
#include "report/model.h"
#include <string.h>

/* The cell of record rec, when the report selects it. */
static int selected(const struct rrun *r, const struct report_opts *o, json_t *rec)
{
	json_t *ix = json_object_get(r->cell_ix, report_str(rec, "cell"));
	if (!json_is_integer(ix) || (size_t)json_integer_value(ix) >= r->ncells)
		return 1;
	return report_cell_selected(o, &r->cells[json_integer_value(ix)]);
}

static void hung_lines(json_t *rec, const char *where, report_line_fn line, void *ctx)
{
	json_t *h = json_object_get(rec, "hang"), *t;
	json_t *tasks = json_object_get(h, "tasks");
	size_t i;
	report_line(line, ctx, "  hung: %s: %zu task%s in D state and no I/O completed for %.0f s "
		    "(from %.1f s after boot); the machine rebooted", where, json_array_size(tasks),
		    json_array_size(tasks) == 1 ? "" : "s",
		    json_number_value(json_object_get(h, "declared_s")) -
		    json_number_value(json_object_get(h, "since_s")),
		    json_number_value(json_object_get(h, "since_s")));
	json_array_foreach(tasks, i, t) {
		const char *top = report_str(t, "top");
		report_line(line, ctx, "    %s (pid %lld%s): %s", report_str(t, "comm"),
			    (long long)json_integer_value(json_object_get(t, "pid")),
			    json_is_true(json_object_get(t, "kernel_thread")) ? ", kernel thread" : "",
			    *top ? top : "(no stack)");
	}
	if (!h)
		report_line(line, ctx, "    %s", report_str(rec, "error"));
}

int report_kfault_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			void *ctx)
{
	size_t i, k;
	json_t *rec, *f;
	int any = 0;
	json_array_foreach(r->records, i, rec) {
		if (!selected(r, o, rec))
			continue;
		char where[400];
		snprintf(where, sizeof where, "%s rep %lld/%lld%s", report_str(rec, "cell"),
			 (long long)json_integer_value(json_object_get(rec, "rep")),
			 (long long)json_integer_value(json_object_get(rec, "reps")),
			 json_integer_value(json_object_get(rec, "attempt")) > 1 ? " (a later attempt)" : "");
		if (strcmp(report_str(rec, "status"), "hung") == 0) {
			hung_lines(rec, where, line, ctx);
			any = 1;
		}
		json_array_foreach(json_object_get(rec, "kernel_faults"), k, f) {
			report_line(line, ctx, "  kernel %s: %s: %s", report_str(f, "kind"), where,
				    report_str(f, "line"));
			any = 1;
		}
		if (*report_str(rec, "tainted")) {
			report_line(line, ctx, "  tainted: %s: the kernel was tainted during the cell (%s): "
				    "its figures come from a kernel that went wrong", where,
				    report_str(rec, "tainted"));
			any = 1;
		}
	}
	return any;
}
