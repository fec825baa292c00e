/* report/bisect.c: a [bisect] run in the report (report/sections.h): the result first, then each
 * probe in the order the search made it, with its figures and the rule that classified it,
 * so that the decisions can be followed step by step. From the "bisect" record alone. */
#include "report/model.h"

#include <stdio.h>
#include <string.h>

static void figures(json_t *step, char *buf, size_t len)
{
	size_t i, at = 0;
	json_t *v;
	buf[0] = '\0';
	json_array_foreach(json_object_get(step, "figures"), i, v) {
		int n = snprintf(buf + at, len - at, "%s%.2f", i ? " " : "", json_number_value(v));
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += (size_t)n;
	}
}

void report_bisect_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	json_t *b = r->bisect, *step;
	size_t i;
	char figs[512];
	if (!b)
		return;
	const char *first = report_str(b, "first_bad"), *last = report_str(b, "last_good");
	report_line(line, ctx, "bisect: %s: first bad %s, last good %s (cell %s, %s, %s; %lld "
		    "probes)", report_str(b, "status"), *first ? first : "none",
		    *last ? last : "none", report_str(b, "cell"), report_str(b, "metric"),
		    report_str(b, "direction"), (long long)json_integer_value(json_object_get(b, "probes")));
	report_line(line, ctx, "  %s", report_str(b, "result"));
	json_array_foreach(json_object_get(b, "steps"), i, step) {
		figures(step, figs, sizeof figs);
		report_line(line, ctx, "  probe %lld  %-10s %-8s %-7s n %lld  mean %.3f  [%s]",
			    (long long)json_integer_value(json_object_get(step, "order")),
			    report_str(step, "set"), report_str(step, "role"), report_str(step, "class"),
			    (long long)json_integer_value(json_object_get(step, "n")),
			    json_number_value(json_object_get(step, "mean")), figs);
		report_line(line, ctx, "    %s", report_str(step, "rule"));
	}
}
