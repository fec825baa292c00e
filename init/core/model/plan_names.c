/* core/model/plan_names.c: what a plan's model answers by itself: how many disks and variants an
 * array has, the names of its filesystems and resync choices. Pure. */
#include "core/model/plan.h"
#include "core/model/level.h"

#include <stdint.h>

long long plan_array_variants(const struct plan_array *a)
{
	long long n = (a->nchunk ? a->nchunk : 1) * (a->nstacks ? a->nstacks : 1);
	for (int t = 0; t < TUN_COUNT; t++)
		if (a->ntun[t] > 1 && (n *= a->ntun[t]) > INT32_MAX)
			n = INT32_MAX;
	return n;
}

int plan_array_disks(const struct plan_array *a)
{
	const struct md_level *l = level_find(a->level);
	/* btrfs cannot be made with a disk missing: mkfs.btrfs takes them all, and the missing
	 * ones are wiped before the degraded mount (docs/plans.md) */
	return l->profile || l->lvm ? a->devices : l->md ? a->devices - a->missing : 1;
}

const char *plan_fs_name(enum fs_type t)
{
	static const char *const names[] = { "ext2", "ext3", "ext4", "xfs", "btrfs" };
	return (unsigned)t < 5 ? names[t] : "unknown";
}

const char *plan_resync_name(enum resync r)
{
	static const char *const names[] = { "wait", "assume-clean", "ignore" };
	return (unsigned)r < 3 ? names[r] : "unknown";
}
