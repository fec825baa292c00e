/* report/findings.c: what a run says before the tables do. The disks' own speed (the
 * disk-speed event), each streaming cell against the limit its disks set and what held it
 * back (report/answers.c), cells set against each other (report/contrasts.c), then what
 * the run cannot say: figures not stable over their repeats, cells with no limit, a machine
 * that is a model (qemu). Text, markdown and HTML print the same lines and the same table. */
#include "report/sections.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The disk-speed events of the run, one line each (a resumed run measures at every boot). */
static void speed_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	size_t i, j;
	json_t *ev, *d;
	json_array_foreach(r->speeds, i, ev) {
		char buf[2048];
		size_t n = 0;
		json_array_foreach(json_object_get(ev, "disks"), j, d) {
			json_t *w = json_object_get(json_object_get(d, "write"), "mbps");
			json_t *rd = json_object_get(json_object_get(d, "read"), "mbps");
			if (n < sizeof buf)
				n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s %.1f/%.1f", j ? ", " : "",
						      report_str(d, "name"), json_number_value(w),
						      json_number_value(rd));
		}
		json_t *ag = json_object_get(ev, "aggregate");
		report_line(line, ctx, "  disks: each alone, write/read MB/s: %s; all %zu at once: write "
			    "%.1f, read %.1f MB/s", buf, json_array_size(json_object_get(ev, "disks")),
			    json_number_value(json_object_get(ag, "write_mbps")),
			    json_number_value(json_object_get(ag, "read_mbps")));
	}
}

void report_findings_lines(const struct rrun *r, const struct report_opts *o, report_line_fn line,
			   void *ctx)
{
	report_kfault_lines(r, o, line, ctx);
	speed_lines(r, line, ctx);
	int limited = 0, unlimited = 0, unstable = 0;
	struct cell_answer *all = report_answers(r);
	for (size_t i = 0; all && i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c) || !c->ok)
			continue;
		int shaky = c->verdict.n >= 2 && !c->verdict.stable;
		unstable += shaky;
		struct cell_answer a = all[i];
		if (!a.rule)
			continue;
		if (!(a.limit > 0)) {
			unlimited += a.direction && *a.direction;
			continue;
		}
		limited++;
		report_line(line, ctx, "  %s: %.1f MB/s %s, %.0f%% of the limit its disks set (%.1f "
			    "MB/s: %s)%s", c->id, a.figure, a.direction, 100 * a.efficiency, a.limit,
			    a.rule, shaky ? "; not stable over its repeats" : "");
		if (a.kind)
			report_line(line, ctx, "    held back by: %s (%d of %d repeats): %s", a.kind,
				    a.kind_n, a.judged, a.evidence ? a.evidence : "");
	}
	free(all);
	report_contrast_lines(r, o, line, ctx);
	if (!limited && !json_array_size(r->speeds))
		report_line(line, ctx, "  no limit: the disks' own speed was not measured (disk_speed "
			    "= off, or a run from before it was measured)");
	else if (unlimited)
		report_line(line, ctx, "  %d streaming %s no limit: a member's speed was not measured",
			    unlimited, unlimited == 1 ? "cell has" : "cells have");
	if (unstable)
		report_line(line, ctx, "  cannot say: %d %s not stable over %s repeats (~ in the "
			    "tables): differences within their spread are not findings", unstable,
			    unstable == 1 ? "cell is" : "cells are", unstable == 1 ? "its" : "their");
	/* a stream too short to judge its steady state is not "never steady": say which */
	int shortn = 0;
	char names[400] = "";
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		int unjudged = 0;
		for (size_t k = 0; k < c->nser; k++)
			unjudged |= c->ser[k].usable && !c->ser[k].steady.judged;
		if (!report_cell_selected(o, c) || strcmp(c->wtype, "seqwrite") || !unjudged)
			continue;
		if (shortn++ < 3)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
				 shortn > 1 ? ", " : "", c->id);
	}
	if (shortn)
		report_line(line, ctx, "  cannot say: whether %d stream%s reached a steady rate: %s%s "
			    "ran under %.0f s, too short to judge (a longer size does)", shortn,
			    shortn == 1 ? "" : "s", names, shortn > 3 ? " ..." : "", SERIES_STEADY_MIN_S);
	if (strstr(report_str(json_object_get(r->header, "cpu"), "model"), "QEMU"))
		report_line(line, ctx, "  cannot say: the machine is qemu (%s): its figures are a model, "
			    "whatever held them back is the emulator's as much as the stack's",
			    report_str(json_object_get(r->header, "cpu"), "model"));
}

struct grid *report_limits_grid(const struct rrun *r, const struct report_opts *o)
{
	struct grid *g = NULL;
	struct cell_answer *all = report_answers(r);
	for (size_t i = 0; all && i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!report_cell_selected(o, c) || !c->ok)
			continue;
		struct cell_answer a = all[i];
		if (!a.rule && !a.kind)
			continue;
		if (!g) {
			g = grid_new("limits: each cell against what its disks could stream, and why", 5);
			grid_set(g, 0, 0, "cell");
			grid_set(g, 0, 1, "MB/s");
			grid_set(g, 0, 2, "limit");
			grid_set(g, 0, 3, "of limit");
			grid_set(g, 0, 4, "why");
		}
		grid_add_row(g);
		size_t row = g->nrows - 1;
		grid_set(g, row, 0, "%s", c->id);
		if (a.limit > 0) {
			grid_set(g, row, 1, "%.1f", a.figure);
			grid_set(g, row, 2, "%.1f", a.limit);
			grid_set(g, row, 3, "%.0f%%", 100 * a.efficiency);
		} else {
			/* no limit (disk_speed = off): the figure still, against nothing */
			if (isfinite(a.figure))
				grid_set(g, row, 1, "%.1f", a.figure);
			else
				grid_set(g, row, 1, "-");
			grid_set(g, row, 2, "-");
			grid_set(g, row, 3, "-");
		}
		grid_set(g, row, 4, "%s", a.kind ? a.kind : "-");
		if (a.evidence)
			grid_tip(g, row, 4, a.evidence);
	}
	free(all);
	if (g)
		grid_legend(g, "limit: the MB/s the array could stream from its members' own speed, measured at boot (rule in Findings); why: the bottleneck most repeats named");
	return g;
}
