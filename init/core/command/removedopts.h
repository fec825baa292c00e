/* core/command/removedopts.h: mount options the image's kernel no longer takes as the plan means them. A
 * kernel that ignores a removed option mounts anyway (ext4 logs "Ignoring removed nobh
 * option"), so a cell would quietly measure the defaults; one that refuses it fails every
 * cell with it. `fsmatrix check` and /init warn about them; nothing is refused. Pure. */
#ifndef FSM_REMOVEDOPTS_H
#define FSM_REMOVEDOPTS_H
#include "core/command/cellshow.h"
#include "core/model/plan.h"

/* The kernel the image ships (recipes/linux); the table rows are checked against it. */
#define IMAGE_KERNEL "6.1"

enum removed_now {
	RM_IGNORED,     /* accepted and ignored: the cell measures the defaults */
	RM_REFUSED,     /* an unknown option: mount(2) fails with EINVAL */
	RM_DEPRECATED,  /* still honoured, with a warning in the kernel log */
};

struct removed_opt {
	unsigned fs;           /* bits of enum fs_type whose driver this is */
	const char *driver;    /* "ext4": it mounts ext2 and ext3 as well */
	const char *option;
	const char *removed;   /* "Linux 4.19", "September 2025" (scheduled), or NULL: gone
				* long before IMAGE_KERNEL, release not pinned down */
	enum removed_now now;
};

/* The row for option (one item of a mount string; "name=value" matches on name) on fs type
 * t, or NULL. */
const struct removed_opt *removed_opt_find(enum fs_type t, const char *option);

/* Calls out with one "FILE:LINE: warning: ..." line for every removed or deprecated option
 * in the plan's mount lines. Returns how many. */
int removed_opts_warn(const struct plan *p, show_line_fn out, void *ctx);

#endif
