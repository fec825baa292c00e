/* core/model/level.c: the md level table and the rules derived from its rows. */
#include "core/model/level.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* raid10 is counted as mdadm's default layout, near-2. Other layouts (f2, o2, n3) keep other
 * copies and tolerate other patterns of missing members; mdadm itself refuses what cannot
 * work. raid4, 5 and 6 share one kernel personality. */
const struct md_level md_levels[] = {
	/* key     name      level    md min parity copies          striped module profile lvm dm */
	{ "none", "none",   LEVEL_NONE, 0, 1, 0, LEVEL_COPIES_ALL, 0, NULL, NULL, NULL, NULL },
	{ "0",    "raid0",  0,          1, 2, 0, 1,                1, "raid0", NULL, NULL, NULL },
	{ "1",    "raid1",  1,          1, 2, 0, LEVEL_COPIES_ALL, 0, "raid1", NULL, NULL, NULL },
	{ "4",    "raid4",  4,          1, 2, 1, 1,                1, "raid456", NULL, NULL, NULL },
	{ "5",    "raid5",  5,          1, 2, 1, 1,                1, "raid456", NULL, NULL, NULL },
	{ "6",    "raid6",  6,          1, 4, 2, 1,                1, "raid456", NULL, NULL, NULL },
	{ "10",   "raid10", 10,         1, 2, 0, 2,                1, "raid10", NULL, NULL, NULL },
	/* btrfs's own RAID (the data profile; metadata = in [array] for its own): no md, the
	 * disks go to mkfs.btrfs. min is devs_min of btrfs-progs 6.2's btrfs_raid_array;
	 * copies are btrfs's own (raid1 keeps 2 whatever the disks, raid1c3 3). */
	{ "btrfs-single",  "btrfs-single",  LEVEL_BTRFS + 0,  0, 1, 0, 1, 0, NULL, "single", NULL, NULL },
	{ "btrfs-raid0",   "btrfs-raid0",   LEVEL_BTRFS + 1,  0, 1, 0, 1, 0, NULL, "raid0", NULL, NULL },
	{ "btrfs-raid1",   "btrfs-raid1",   LEVEL_BTRFS + 2,  0, 2, 0, 2, 0, NULL, "raid1", NULL, NULL },
	{ "btrfs-raid1c3", "btrfs-raid1c3", LEVEL_BTRFS + 3,  0, 3, 0, 3, 0, NULL, "raid1c3", NULL, NULL },
	{ "btrfs-raid10",  "btrfs-raid10",  LEVEL_BTRFS + 4,  0, 2, 0, 2, 0, NULL, "raid10", NULL, NULL },
	{ "btrfs-raid5",   "btrfs-raid5",   LEVEL_BTRFS + 5,  0, 2, 1, 1, 0, NULL, "raid5", NULL, NULL },
	{ "btrfs-raid6",   "btrfs-raid6",   LEVEL_BTRFS + 6,  0, 3, 2, 1, 0, NULL, "raid6", NULL, NULL },
	/* lvm's own volumes (lvcreate --type TYPE over one PV per disk, one VG): no md device,
	 * dm-raid's raid1/5/6/10 reach md's personalities through device-mapper. min is what
	 * lvcreate 2.03.16 takes: 2 stripes for striped and raid5, 3 for raid6, 2 mirrored
	 * pairs for raid10 (its data disks are devices / 2: near copies). */
	{ "lvm-linear",  "lvm-linear",  LEVEL_LVM + 0, 0, 1, 0, 1, 0, NULL, NULL, "linear", "dm_mod" },
	{ "lvm-striped", "lvm-striped", LEVEL_LVM + 1, 0, 2, 0, 1, 1, NULL, NULL, "striped", "dm_mod" },
	{ "lvm-raid1",   "lvm-raid1",   LEVEL_LVM + 2, 0, 2, 0, LEVEL_COPIES_ALL, 0, "raid1", NULL, "raid1", "dm_raid" },
	{ "lvm-raid5",   "lvm-raid5",   LEVEL_LVM + 3, 0, 3, 1, 1, 1, "raid456", NULL, "raid5", "dm_raid" },
	{ "lvm-raid6",   "lvm-raid6",   LEVEL_LVM + 4, 0, 5, 2, 1, 1, "raid456", NULL, "raid6", "dm_raid" },
	{ "lvm-raid10",  "lvm-raid10",  LEVEL_LVM + 5, 0, 4, 0, 2, 1, "raid10", NULL, "raid10", "dm_raid" },
	{ NULL,   "unknown", -2,        0, 0, 0, 0,                0, NULL, NULL, NULL, NULL },  /* -2: no level */
};

const char *const btrfs_profiles[] = {
	"", "single", "dup", "raid0", "raid1", "raid1c3", "raid1c4", "raid10", "raid5", "raid6",
	NULL,
};

int btrfs_profile_min(const char *profile)
{
	static const struct { const char *name; int min; } mins[] = {
		{ "single", 1 }, { "dup", 1 }, { "raid0", 1 }, { "raid1", 2 }, { "raid1c3", 3 },
		{ "raid1c4", 4 }, { "raid10", 2 }, { "raid5", 2 }, { "raid6", 3 },
	};
	for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++)
		if (strcmp(mins[i].name, profile) == 0)
			return mins[i].min;
	return 0;
}

const struct md_level *level_find(int level)
{
	const struct md_level *l = md_levels;
	while (l->key && l->level != level)
		l++;
	return l;
}

const struct md_level *level_by_key(const char *key)
{
	for (const struct md_level *l = md_levels; l->key; l++)
		if (strcmp(l->key, key) == 0)
			return l;
	return NULL;
}

int level_near_copies(int level, const char *layout)
{
	const struct md_level *l = level_find(level);
	int copies = l->copies > 0 ? l->copies : 1;
	if (l->copies < 2 || !layout || !layout[0] || !layout[1])
		return copies;
	int n = atoi(layout + 1);
	if (n < 1)
		return copies;
	return layout[0] == 'n' ? n : layout[0] == 'f' || layout[0] == 'o' ? 1 : copies;
}

const char *level_name(int level)
{
	return level_find(level)->name;
}

void level_keys_text(char *buf, size_t len, const char *prefix)
{
	size_t n = 0, plen = strlen(prefix);
	const struct md_level *first = md_levels, *last = md_levels;
	if (len)
		buf[0] = '\0';
	for (const struct md_level *l = md_levels; l->key; l++)
		if (strncmp(l->key, prefix, plen) == 0)
			last = l;
	while (first->key && strncmp(first->key, prefix, plen) != 0)
		first++;
	for (const struct md_level *l = first; l->key && l <= last && n < len; l++) {
		const char *sep = l == first ? "" : l < last ? ", " : " or ";
		if (strncmp(l->key, prefix, plen) != 0)
			continue;
		int w = snprintf(buf + n, len - n, "%s%s", sep, l->key);
		if (w < 0)
			return;
		n += (size_t)w;
	}
}

int level_spans(int level)
{
	const struct md_level *l = level_find(level);
	return l->md || l->profile || l->lvm;
}

int level_has_redundancy(int level)
{
	const struct md_level *l = level_find(level);
	return level_spans(level) && (l->parity > 0 || l->copies != 1);
}

int level_max_missing(int level, int devices)
{
	const struct md_level *l = level_find(level);
	if (l->profile)   /* btrfs keeps its copies or parity per chunk, not per disk pair */
		return l->parity + l->copies - 1;
	if (!l->md && !l->lvm)
		return 0;
	if (l->copies == LEVEL_COPIES_ALL)
		return devices - 1;
	/* Each parity member, and all but one copy of each group of copies. */
	return l->parity + devices / l->copies * (l->copies - 1);
}

int level_slot_missing(int level, int devices, int missing, int slot)
{
	int c = level_find(level)->copies;
	if (c > 1 && !level_find(level)->profile)   /* the nth slot of all that are not the first of their group */
		return slot % c != 0 && slot / c * (c - 1) + slot % c - 1 < missing;
	return slot >= devices - missing;
}

int level_resyncs(int level, int devices, int missing)
{
	return missing < level_max_missing(level, devices);
}

uint64_t level_chunk(int level, uint64_t chunk)
{
	const struct md_level *l = level_find(level);
	return !chunk && l->lvm && l->striped ? LEVEL_LVM_STRIPESIZE : chunk;
}

/* In name order, so the load order (and the lines it prints) does not depend on the order
 * of the plan's arrays: dm_raid, raid0, raid1, raid10, raid456. */
int level_modules(const int *levels, int nlevels, const char **names, int max)
{
	int n = 0;
	for (int k = 0; k < 2 * nlevels; k++) {
		const struct md_level *l = level_find(levels[k / 2]);
		const char *m = k % 2 ? l->dm : l->module;
		int at = 0;
		if (!m)
			continue;
		while (at < n && strcmp(names[at], m) < 0)
			at++;
		if ((at < n && strcmp(names[at], m) == 0) || n >= max)
			continue;
		memmove(names + at + 1, names + at, sizeof *names * (size_t)(n - at));
		names[at] = m;
		n++;
	}
	return n;
}
