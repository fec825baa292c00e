/* core/command/removedopts.c: the table of mount options removed from (or deprecated in) the filesystems
 * of the image, as the kernel's own sources have them:
 * - ext4 (fs/ext4/super.c): bh, nobh, oldalloc and orlov map to Opt_removed, whose handler
 *   logs "Ignoring removed %s option" and mounts; the same in the 3.x match_table and in the
 *   fs_context parser of 5.17 and later, so in 6.1. When each was removed is not pinned here.
 * - xfs (Documentation/admin-guide/xfs.rst, "Removed Mount Options"): barrier and nobarrier
 *   were removed in v4.19; xfs_fs_parameters has no entry for them since, so mount(2) fails
 *   with an unknown parameter. "Deprecated Mount Options": ikeep/noikeep and attr2/noattr2,
 *   removal scheduled for September 2025; 6.1 still parses them.
 * Only rows checked against those sources belong here. */
#include "core/command/removedopts.h"

#include <stdio.h>
#include <string.h>

#define EXT ((1u << FS_EXT2) | (1u << FS_EXT3) | (1u << FS_EXT4))
#define XFS (1u << FS_XFS)

static const struct removed_opt table[] = {
	{ EXT, "ext4", "bh", NULL, RM_IGNORED },
	{ EXT, "ext4", "nobh", NULL, RM_IGNORED },
	{ EXT, "ext4", "oldalloc", NULL, RM_IGNORED },
	{ EXT, "ext4", "orlov", NULL, RM_IGNORED },
	{ XFS, "xfs", "barrier", "Linux 4.19", RM_REFUSED },
	{ XFS, "xfs", "nobarrier", "Linux 4.19", RM_REFUSED },
	{ XFS, "xfs", "ikeep", "September 2025", RM_DEPRECATED },
	{ XFS, "xfs", "noikeep", "September 2025", RM_DEPRECATED },
	{ XFS, "xfs", "attr2", "September 2025", RM_DEPRECATED },
	{ XFS, "xfs", "noattr2", "September 2025", RM_DEPRECATED },
};

const struct removed_opt *removed_opt_find(enum fs_type t, const char *option)
{
	size_t n = strcspn(option, "=");
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if ((table[i].fs & (1u << t)) && strlen(table[i].option) == n &&
		    strncmp(table[i].option, option, n) == 0)
			return &table[i];
	return NULL;
}

static void warn(const struct plan *p, int line, const struct removed_opt *r, show_line_fn out,
		 void *ctx)
{
	char msg[PLAN_ERROR_LEN + 256], when[64] = "";
	if (r->removed && r->now != RM_DEPRECATED)
		snprintf(when, sizeof when, " in %s", r->removed);
	switch (r->now) {
	case RM_IGNORED:
		snprintf(msg, sizeof msg, "%s:%d: warning: mount option %s was removed from %s%s "
			 "(the image's kernel " IMAGE_KERNEL " ignores it, logging \"Ignoring "
			 "removed %s option\"): the cell measures the defaults", p->file, line,
			 r->option, r->driver, when, r->option);
		break;
	case RM_REFUSED:
		snprintf(msg, sizeof msg, "%s:%d: warning: mount option %s was removed from %s%s "
			 "(the image's kernel " IMAGE_KERNEL " refuses it): the cells with it fail "
			 "at mount", p->file, line, r->option, r->driver, when);
		break;
	case RM_DEPRECATED:
		snprintf(msg, sizeof msg, "%s:%d: warning: mount option %s is deprecated in %s, "
			 "with its removal scheduled for %s (the image's kernel " IMAGE_KERNEL
			 " still honours it)", p->file, line, r->option, r->driver, r->removed);
		break;
	}
	out(ctx, msg);
}

int removed_opts_warn(const struct plan *p, show_line_fn out, void *ctx)
{
	int n = 0;
	for (int i = 0; i < p->nfs; i++) {
		const struct plan_fs *f = &p->fs[i];
		for (int m = 0; m < f->nmount; m++) {
			char opts[PLAN_STR_MAX];
			snprintf(opts, sizeof opts, "%s", f->mount[m]);
			for (char *save, *o = strtok_r(opts, ",", &save); o;
			     o = strtok_r(NULL, ",", &save)) {
				const struct removed_opt *r = removed_opt_find(f->type, o);
				if (r) {
					warn(p, f->mount_line[m] ? f->mount_line[m] : f->line, r,
					     out, ctx);
					n++;
				}
			}
		}
	}
	return n;
}
