/* report/kind.c: a record's workload kind (core/workload/workload_kinds.c) from the type it names,
 * and the record's figures that no device gives (core/figures/figure_bound.c), which the loader
 * rejects before anything is made of them. */
#include "report/model.h"
#include "core/figures/figure_bound.h"

#include <string.h>

/* Workload types records may carry under another name than the engine's. */
static const struct { const char *wtype, *engine; } aliases[] = {
	{ "untar", "tar" },
};

const struct wl_kind *report_kind(const char *wtype)
{
	if (!wtype)
		return NULL;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(aliases[i].wtype, wtype) == 0)
			wtype = aliases[i].engine;
	return wl_kind_named(wtype);
}

const char *report_impossible_figure(json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	json_t *res = json_object_get(rec, "result");
	const struct wl_kind *k = report_kind(json_string_value(json_object_get(json_object_get(rec, "axes"),
										"wtype")));
	if (!k || !st || strcmp(st, "ok") != 0)
		return NULL;
	for (const struct metric *m = k->metrics; m->key; m++) {
		json_t *v = json_object_get(res, m->key);
		if (json_is_number(v) && !figure_possible(m->unit, json_number_value(v)))
			return m->key;
	}
	return NULL;
}
