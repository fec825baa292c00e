/* core/command/layerfit.h: a plan's layer stacks against the size of the disks they will sit on,
 * judged by the rule the boot applies to each cell (core/model/layer.c's layer_plan_build): a thin
 * volume is never larger than its pool (no over-provisioning), a cache disk holds a cache
 * block. `fsmatrix check --disk-size` refuses what does not fit before any disk is written.
 * Pure: no I/O. */
#ifndef FSM_LAYERFIT_H
#define FSM_LAYERFIT_H
#include "core/command/cellshow.h"

/* For each array variant and stack of p that does not fit disks of m->disk_bytes (its data
 * disks' worth below the layers): one "FILE:LINE: [layer NAME] ..." line to out, at the thin
 * layer's size line (else its array's). Returns how many. */
int plan_layer_fit_errors(const struct plan *p, const struct estimate_model *m,
			  show_line_fn out, void *ctx);

#endif
