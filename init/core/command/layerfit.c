/* core/command/layerfit.c: layer stacks against the disks' size (core/command/layerfit.h). The array below
 * the layers is the estimate's (core/matrix/estimate.c): its data disks' worth of the disk size. */
#include "core/command/layerfit.h"
#include "core/model/layer.h"
#include "core/matrix/matrix.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>
#include <string.h>

/* The line to point at: the stack's thin layer's size (or its section), else the array's
 * layers line; *name gets the layer's name ("" for the array's). */
static int fit_line(const struct plan *p, const struct plan_array *a, const struct layer_stack *s,
		    const char **name)
{
	for (int i = 0; i < s->n; i++) {
		const struct plan_layer *l = &p->layers[s->layer[i]];
		if (l->type == LAYER_THIN) {
			int line = plan_layer_key_line(l, "size");
			*name = l->name;
			return line ? line : l->line;
		}
	}
	*name = "";
	return plan_array_key_line(a, "layers");
}

int plan_layer_fit_errors(const struct plan *p, const struct estimate_model *m,
			  show_line_fn out, void *ctx)
{
	static struct layer_plan lp;
	char seen[PLAN_SECTIONS_MAX][LAYER_STACKS_MAX] = { { 0 } };
	struct cell c;
	int n = 0;
	for (int k = 0; matrix_cell(p, k, &c) == 0; k++) {
		const struct plan_array *a = &p->arrays[c.array];
		if (c.stack < 0 || !a->stacks[c.stack].n || seen[c.array][c.stack])
			continue;
		seen[c.array][c.stack] = 1;
		const struct layer_stack *s = &a->stacks[c.stack];
		struct cell_est e;
		cell_estimate_parts(p, &c, m, REUSE_NONE, &e);
		char err[256] = "", below[32], disk[32], line[1024];
		uint64_t sectors = (uint64_t)(e.fs_bytes / 512);
		if (sectors == 0 || layer_plan_build(p->layers, s, "/dev/md0", sectors, "/dev/cache",
						     (uint64_t)(m->disk_bytes / 512), &lp, err,
						     sizeof err) == 0)
			continue;
		const char *name;
		int at = fit_line(p, a, s, &name);
		show_bytes(e.fs_bytes, below, sizeof below);
		show_bytes(m->disk_bytes, disk, sizeof disk);
		snprintf(line, sizeof line, "%s:%d: %s%s%s[array %s] (~%s, disks of %s): %s: over-"
			 "provisioning is refused (no thin volume larger than its pool), and the boot "
			 "would end each of its cells as an error", p->file, at, *name ? "[layer " : "",
			 name, *name ? "] on " : "", a->name, below, disk, err);
		out(ctx, line);
		n++;
	}
	return n;
}
