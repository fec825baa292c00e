/* core/command/lvmcmd.h: the exact lvm commands of a cell on an lvm level (core/model/level.h's
 * lvm rows): one PV per disk, one VG of them, one LV of the level's type over all of them,
 * and their removal; what such an LV can hold; and dm-raid's status line, read while the
 * LV syncs. Pure: cell/lvm.c runs these vectors and `fsmatrix check` prints them. Every
 * command names its disks with --devices, so lvm neither opens nor writes any other disk. */
#ifndef FSM_LVMCMD_H
#define FSM_LVMCMD_H
#include <stddef.h>
#include <stdint.h>
#include "lib/argv.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"

#define LVM_VG "fsm"                    /* its dm devices are fsm-*: teardown finds them so */
#define LVM_LV "lv"
#define LVM_DEV "/dev/mapper/fsm-lv"    /* what mkfs and mount get */
#define LVM_DM_NAME "fsm-lv"
#define LVM_DM_PREFIX "fsm-lv"         /* the LV's dm devices: fsm-lv, fsm-lv_rimage_0, ... */
#define LVM_EXTENT (4ull << 20)         /* vgcreate's default physical extent */
#define LVM_PE_START (1ull << 20)       /* pvcreate's default start of the data area */

enum lvm_step { LVM_PVCREATE, LVM_VGCREATE, LVM_LVCREATE, LVM_STEPS };

/* What an LV of level over devices PVs of pv_bytes each can hold, in bytes: each PV's
 * extents after its 1 MiB of label and metadata, less one extent per leg for a raid
 * level's metadata sub-LV (rmeta), times the data legs. 0 for a level that is not lvm's. */
uint64_t lvm_capacity(int level, int devices, uint64_t pv_bytes);

/* The three commands that make the cell's LV, in order (pvcreate, vgcreate, lvcreate), over
 * the first devices of disks. pv_bytes, the smallest disk's size, is 0 when unknown (as in
 * `check` without --disk-size); else an lv_size the VG cannot hold is refused here, with the
 * plan's FILE:LINE, before anything is written. Returns 0, n = 0 vectors for a level that is
 * not lvm's, or -1 with err. */
int lvm_create_argv(const struct plan *p, const struct cell *c, const char *const *disks,
		    int ndisks, uint64_t pv_bytes, struct argv a[LVM_STEPS], char *err,
		    size_t errlen);

/* The teardown: vgremove (its LVs with it) and pvremove of the same disks. */
void lvm_remove_argv(const char *const *disks, int n, struct argv *vgremove,
		     struct argv *pvremove);

/* What lvs reads back of the LV, for the record. */
void lvm_lvs_argv(const char *const *disks, int n, struct argv *a);
#define LVM_LVS_FIELDS "segtype,stripes,stripe_size,region_size,lv_size"

/* What lvs says of the LV (LVM_LVS_FIELDS, in bytes): lvm's own word for what it made. */
struct lvm_lv {
	char segtype[16];            /* linear, striped, raid1, raid5, raid6, raid10 */
	int stripes;                 /* lvs's #Str: legs, parity and copies counted */
	uint64_t stripe_size, region_size, lv_size;
};
/* Returns 0, or -1 for a line that is not five such fields. */
int lvm_lvs_parse(const char *line, struct lvm_lv *lv);

/* dm-raid's status line as dmsetup status prints it:
 * "0 LEN raid TYPE DEVICES HEALTH DONE/TOTAL ACTION MISMATCHES DATA_OFFSET JOURNAL". */
struct lvm_raid_status {
	char type[16];               /* raid5_ls, raid1, raid10, ... */
	int devices;
	char health[40];             /* one letter per leg: A alive and in sync, a alive and
	                                not in sync, D dead */
	uint64_t done, total;        /* sectors in sync, of */
	char action[16];             /* idle, resync, recover, check, repair, frozen */
};
/* Returns 0, or -1 for a line that is not dm-raid's. */
int lvm_raid_status_parse(const char *line, struct lvm_raid_status *st);
/* Whether the LV is in sync: every leg A, done == total, nothing running. */
int lvm_raid_in_sync(const struct lvm_raid_status *st);

#endif
