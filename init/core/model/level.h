/* core/model/level.h: the md levels, one row each. How a plan spells a level and what records call
 * it, the fewest members, parity, copies, striping and the kernel module: the plan's checks,
 * the geometry, the mdadm command, the resync estimate and the module loader all read them
 * here, so that a new level is a new row. Pure. */
#ifndef FSM_LEVEL_H
#define FSM_LEVEL_H
#include <stddef.h>
#include <stdint.h>

#define LEVEL_NONE (-1)           /* one raw disk, no md */
#define LEVEL_BTRFS 100           /* btrfs's own profiles: LEVEL_BTRFS + n, never mdadm's */
#define LEVEL_LVM 200             /* lvm's own volumes: LEVEL_LVM + n, never mdadm's */
#define LEVEL_LVM_STRIPESIZE 65536 /* lvcreate's --stripesize when the plan gives no chunk */
#define LEVEL_COPIES_ALL 0        /* copies: as many as there are members (raid1) */

struct md_level {
	const char *key;          /* level = KEY in a plan; NULL ends the table */
	const char *name;         /* in records and in what `fsmatrix check` shows */
	int level;                /* mdadm --level; LEVEL_NONE for a raw disk */
	int md;                   /* built by mdadm; 0: the one test disk is used as it is */
	int min_devices;          /* the fewest mdadm 4.2 creates without --force */
	int parity;               /* members' worth of parity */
	int copies;               /* of each data block: 1, 2 (near-2) or LEVEL_COPIES_ALL */
	int striped;              /* takes a chunk, and so has a stripe geometry */
	const char *module;       /* the md personality it needs; NULL for none */
	const char *profile;      /* btrfs's own RAID: the disks handed to mkfs.btrfs -d
	                             PROFILE without md; NULL for md and none */
	const char *lvm;          /* lvm's own volume: lvcreate --type LVM over a VG of the
	                             disks, without md; NULL for the others */
	const char *dm;           /* the device-mapper target's module an lvm volume needs */
};

/* In the order plans list them; the last row has key NULL and is what level_find gives for
 * a number no row has: named "unknown", not md. */
extern const struct md_level md_levels[];

/* btrfs's block group profiles as mkfs.btrfs -d/-m spells them, NULL-terminated; index 0
 * is "" (not given: mkfs's default). */
extern const char *const btrfs_profiles[];
/* The fewest devices btrfs-progs 6.2 makes a profile with (its btrfs_raid_array's devs_min);
 * 0 for a name it does not know. */
int btrfs_profile_min(const char *profile);

/* The row for an mdadm level number (LEVEL_NONE for none); never NULL. */
const struct md_level *level_find(int level);
/* The row a plan's level = KEY names, or NULL. */
const struct md_level *level_by_key(const char *key);
/* "none", "raid0", ...; "unknown" for a number no row has. */
const char *level_name(int level);
/* The keys plans may give that start with prefix ("" for all), as an error lists them:
 * "none, 0, 1, 4, 5, 6 or 10". */
void level_keys_text(char *buf, size_t len, const char *prefix);

/* The near copies of a raid10 layout as mdadm spells it ("n2", "f2", "o3"; "" = mdadm's
 * default, near-2): N for nN, 1 for far and offset layouts. The level's copies for other
 * levels or a layout it cannot read. */
int level_near_copies(int level, const char *layout);
/* Whether the level spans several disks: md's, btrfs's own profiles, or lvm's volumes. */
int level_spans(int level);
/* Whether the level keeps redundancy (copies or parity), and so may carry a write-intent
 * bitmap. */
int level_has_redundancy(int level);
/* How many of devices members may be missing while the array still has all its data. */
int level_max_missing(int level, int devices);
/* Whether member slot (0 .. devices-1) is one of the missing ones: the later copies of each
 * near-layout group, a group at a time, so every group keeps one; else the last slots. */
int level_slot_missing(int level, int devices, int missing, int slot);
/* Whether md resyncs (or recovers) at create: while it has redundancy left to compute, i.e.
 * fewer members are missing than the level can lose. */
int level_resyncs(int level, int devices, int missing);
/* The chunk a cell's stripes have: the plan's, else lvm's own default stripe size for an
 * lvm level that stripes (passed to lvcreate as --stripesize, so it is known), else 0. */
uint64_t level_chunk(int level, uint64_t chunk);
/* The md and device-mapper modules nlevels arrays need, each once, in name order, into
 * names (at most max). Returns how many. */
int level_modules(const int *levels, int nlevels, const char **names, int max);

#endif
