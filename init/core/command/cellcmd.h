/* core/command/cellcmd.h: the exact commands one cell runs (mdadm --create, mkfs, tune2fs), its mount(2)
 * flags and data, and a rough time estimate. Pure: PID 1 executes these vectors and
 * `fsmatrix check` prints them, so what a user checks is what runs. */
#ifndef FSM_CELLCMD_H
#define FSM_CELLCMD_H
#include <stddef.h>
#include "lib/argv.h"
#include "core/command/geometry.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/model/skip.h"

/* mdadm --create for the cell, or an empty vector (n = 0) for a level without md (none).
 * members are the test disks' device paths; the array takes the first devices - missing of
 * them, and missing members are spelled "missing" in the slots level_slot_missing names.
 * Returns 0, or -1 with err (too few disks, overflow). */
int cell_mdadm_argv(const struct plan *p, const struct cell *c, const char *md_dev,
		    const char *const *disks, int ndisks, struct argv *a, char *err, size_t errlen);

/* The block device mkfs and mount use: md_dev, or the first test disk for level none. */
const char *cell_target(const struct plan *p, const struct cell *c, const char *md_dev,
			const char *const *disks);

/* mkfs.<type> with -F/-f, the plan's words, and the derived stripe geometry merged in.
 * g receives the geometry, w any disagreement between the plan and the array. */
int cell_mkfs_argv(const struct plan *p, const struct cell *c, const char *dev,
		   struct argv *a, struct geometry *g, struct warnings *w, char *err,
		   size_t errlen);

/* tune2fs with the plan's words, or an empty vector when the fs has no tune. */
int cell_tune_argv(const struct plan *p, const struct cell *c, const char *dev,
		   struct argv *a, char *err, size_t errlen);

/* Splits a mount option string into mount(2) flags and the data string the filesystem
 * parses ("defaults" and empty items vanish). Returns 0, or -1 if data is too small. */
int mount_opts_split(const char *opts, unsigned long *flags, char *data, size_t len);

/* Names the flags for printing: "noatime,nodiratime", or "" for none. */
void mount_flags_names(unsigned long flags, char *buf, size_t len);

/* The time model (struct estimate_model, cell_estimate): core/matrix/estimate.h. */
#include "core/matrix/estimate.h"

#endif
