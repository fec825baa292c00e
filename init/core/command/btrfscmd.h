/* core/command/btrfscmd.h: what a btrfs cell runs beyond the common commands: mkfs.btrfs over one
 * device or over the disks of a btrfs level (btrfs's own RAID, no md), the mount data that
 * names every member present (and "degraded" when some are missing), which members a
 * degraded cell leaves out, and the profiles the kernel shows back. Pure. */
#ifndef FSM_BTRFSCMD_H
#define FSM_BTRFSCMD_H
#include <stddef.h>
#include "lib/argv.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"

/* Whether the cell's array is a btrfs level (its disks go to mkfs.btrfs, no md). */
int btrfs_cell_spans(const struct plan *p, const struct cell *c);

/* A cell that cannot be built: a btrfs level under another filesystem than btrfs. 0, or -1
 * with why ("[array b10] is btrfs's own raid10 over 4 disks: only type = btrfs spans them,
 * not ext4"). */
int btrfs_cell_skip(const struct plan *p, const struct cell *c, char *why, size_t len);

/* mkfs.btrfs -f, -d and -m from the level, -K without discard, the plan's words, then devs
 * (one device, or the level's members). Returns 0, or -1 with err. */
int cell_btrfs_mkfs_argv(const struct plan *p, const struct cell *c, const char *const *devs,
			 int ndevs, struct argv *a, char *err, size_t errlen);

/* Whether member slot (0 .. devices-1) of a btrfs level is one a degraded cell leaves out:
 * the last `missing` ones. */
int btrfs_member_missing(const struct plan_array *a, int slot);

/* Appends to mount data (len bytes, holding the plan's data string) device=PATH for each
 * member present and "degraded" when some are missing, so the kernel assembles the
 * filesystem from exactly those disks without a scan. Returns 0, or -1 if it does not fit. */
int btrfs_mount_data(const struct plan_array *a, const char *const *devs, char *data,
		     size_t len);

/* The profiles of one block group type as the kernel shows them: the names of the
 * subdirectories of /sys/fs/btrfs/UUID/allocation/TYPE/ that are profiles ("raid1",
 * "single"), given as names (n of them). Writes "raid1" or "raid1+single" (sorted as given)
 * into out; returns 1 when they are exactly want, 0 when not, -1 when none. */
int btrfs_profile_text(const char *const *names, int n, const char *want, char *out,
		       size_t len);

#endif
