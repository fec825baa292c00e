/* core/command/lvmcmd.c: lvm's commands for a cell on an lvm level, what its LV can hold, and
 * dm-raid's status line. Pure. */
#include "core/command/lvmcmd.h"
#include "core/model/level.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Legs that hold data once: all of them for linear and striped, one for raid1, those past
 * the parity for raid5/6, half for raid10 (near copies). */
static int data_legs(const struct md_level *l, int devices)
{
	if (l->copies == LEVEL_COPIES_ALL)
		return 1;
	return (devices - l->parity) / (l->copies > 0 ? l->copies : 1);
}

uint64_t lvm_capacity(int level, int devices, uint64_t pv_bytes)
{
	const struct md_level *l = level_find(level);
	if (!l->lvm || pv_bytes <= LVM_PE_START)
		return 0;
	uint64_t extents = (pv_bytes - LVM_PE_START) / LVM_EXTENT;
	if (l->module)   /* dm-raid: each leg's metadata sub-LV takes one extent of its PV */
		extents = extents ? extents - 1 : 0;
	return extents * (uint64_t)data_legs(l, devices) * LVM_EXTENT;
}

/* "--devices /dev/vdb,/dev/vdc": the only disks lvm may see. */
static void add_devices(struct argv *a, const char *const *disks, int n)
{
	char list[PLAN_DEVICES_MAX * 24] = "";
	size_t used = 0;
	for (int i = 0; i < n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "",
					 disks[i]);
	argv_add(a, "--devices");
	argv_add(a, list);
}

static void start(struct argv *a, const char *cmd, const char *const *disks, int n)
{
	argv_init(a);
	argv_add(a, "lvm");
	argv_add(a, cmd);
	add_devices(a, disks, n);
	argv_add(a, "--yes");
}

/* -L as lvm rounds it: up to whole extents on each data leg. */
static uint64_t rounded(uint64_t bytes, int legs)
{
	uint64_t unit = LVM_EXTENT * (uint64_t)legs;
	return (bytes + unit - 1) / unit * unit;
}

static int check_fit(const struct plan *p, const struct plan_array *ar, uint64_t pv_bytes,
		     char *err, size_t errlen)
{
	const struct md_level *l = level_find(ar->level);
	uint64_t cap = lvm_capacity(ar->level, ar->devices, pv_bytes);
	uint64_t want = rounded(ar->lv_size, l->striped ? data_legs(l, ar->devices) : 1);
	if (!ar->lv_size || !pv_bytes || want <= cap)
		return 0;
	snprintf(err, errlen, "%s:%d: [array %s] lv_size = %llu MiB: more than %s over %d disks "
		 "of %llu MiB holds (%llu MiB in extents of 4 MiB, less one per leg for a raid's "
		 "metadata)", p->file, plan_array_key_line(ar, "lv_size"), ar->name,
		 (unsigned long long)(want >> 20), l->name, ar->devices,
		 (unsigned long long)(pv_bytes >> 20), (unsigned long long)(cap >> 20));
	return -1;
}

static void lvcreate(const struct plan *p, const struct cell *c, const char *const *disks,
		     struct argv *a)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct md_level *l = level_find(ar->level);
	start(a, "lvcreate", disks, ar->devices);
	argv_add(a, "--type");
	argv_add(a, l->lvm);
	if (l->striped) {
		argv_addf(a, "--stripes=%d", data_legs(l, ar->devices));
		argv_addf(a, "--stripesize=%lluk",
			  (unsigned long long)(level_chunk(ar->level, c->chunk) / 1024));
	}
	if (l->copies == LEVEL_COPIES_ALL)
		argv_addf(a, "--mirrors=%d", ar->devices - 1);
	else if (l->copies > 1)
		argv_addf(a, "--mirrors=%d", l->copies - 1);
	/* resync = assume-clean: as mdadm --assume-clean, the legs are not synced at create */
	if (p->resync == RESYNC_ASSUME_CLEAN && level_has_redundancy(ar->level))
		argv_add(a, "--nosync");
	if (ar->lv_size)
		argv_addf(a, "--size=%llub", (unsigned long long)ar->lv_size);
	else
		argv_add(a, "--extents=100%FREE");
	argv_add(a, "--name=" LVM_LV);
	argv_add(a, LVM_VG);
}

int lvm_create_argv(const struct plan *p, const struct cell *c, const char *const *disks,
		    int ndisks, uint64_t pv_bytes, struct argv a[LVM_STEPS], char *err,
		    size_t errlen)
{
	const struct plan_array *ar = &p->arrays[c->array];
	for (int i = 0; i < LVM_STEPS; i++)
		argv_init(&a[i]);
	if (!level_find(ar->level)->lvm)
		return 0;
	if (ndisks < ar->devices) {
		snprintf(err, errlen, "[array %s] needs %d disks, %d available", ar->name,
			 ar->devices, ndisks);
		return -1;
	}
	if (check_fit(p, ar, pv_bytes, err, errlen) < 0)
		return -1;
	start(&a[LVM_PVCREATE], "pvcreate", disks, ar->devices);
	start(&a[LVM_VGCREATE], "vgcreate", disks, ar->devices);
	argv_add(&a[LVM_VGCREATE], LVM_VG);
	for (int i = 0; i < ar->devices; i++) {
		argv_add(&a[LVM_PVCREATE], disks[i]);
		argv_add(&a[LVM_VGCREATE], disks[i]);
	}
	lvcreate(p, c, disks, &a[LVM_LVCREATE]);
	for (int i = 0; i < LVM_STEPS; i++)
		if (a[i].overflow) {
			snprintf(err, errlen, "[array %s]: lvm command too long", ar->name);
			return -1;
		}
	return 0;
}

void lvm_remove_argv(const char *const *disks, int n, struct argv *vgremove,
		     struct argv *pvremove)
{
	/* --force: its LVs go with it, deactivated first */
	start(vgremove, "vgremove", disks, n);
	argv_add(vgremove, "--force");
	argv_add(vgremove, LVM_VG);
	start(pvremove, "pvremove", disks, n);
	for (int i = 0; i < n; i++)
		argv_add(pvremove, disks[i]);
}

void lvm_lvs_argv(const char *const *disks, int n, struct argv *a)
{
	argv_init(a);
	argv_add(a, "lvm");
	argv_add(a, "lvs");
	add_devices(a, disks, n);
	argv_add(a, "--noheadings");
	argv_add(a, "--nosuffix");
	argv_add(a, "--units=b");
	argv_add(a, "--separator= ");
	argv_add(a, "--options=" LVM_LVS_FIELDS);
	argv_add(a, LVM_VG "/" LVM_LV);
}

int lvm_lvs_parse(const char *line, struct lvm_lv *lv)
{
	unsigned long long ss, rs, size;
	char tail;
	memset(lv, 0, sizeof *lv);
	if (sscanf(line, " %15s %d %llu %llu %llu %c", lv->segtype, &lv->stripes, &ss, &rs, &size,
		   &tail) != 5 || lv->stripes < 1)
		return -1;
	lv->stripe_size = ss;
	lv->region_size = rs;
	lv->lv_size = size;
	return 0;
}

int lvm_raid_status_parse(const char *line, struct lvm_raid_status *st)
{
	unsigned long long start, len, done, total;
	char target[16];
	memset(st, 0, sizeof *st);
	if (sscanf(line, "%llu %llu %15s %15s %d %39s %llu/%llu %15s", &start, &len, target,
		   st->type, &st->devices, st->health, &done, &total, st->action) != 9 ||
	    strcmp(target, "raid") != 0 || st->devices < 1 ||
	    (int)strlen(st->health) != st->devices || done > total)
		return -1;
	st->done = done;
	st->total = total;
	return 0;
}

int lvm_raid_in_sync(const struct lvm_raid_status *st)
{
	for (const char *h = st->health; *h; h++)
		if (*h != 'A')
			return 0;
	return st->done == st->total && strcmp(st->action, "idle") == 0;
}
