/* core/command/cellcmd.c: argv for mdadm, mkfs and tune2fs, and mount(2) flags. */
#include "core/command/cellcmd.h"
#include "core/command/btrfscmd.h"
#include "core/command/lvmcmd.h"
#include "core/model/level.h"
#include "core/workload/workload_kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

/* ------------------------------------------------------------------ mdadm */

int cell_mdadm_argv(const struct plan *p, const struct cell *c, const char *md_dev,
		    const char *const *disks, int ndisks, struct argv *a, char *err, size_t errlen)
{
	const struct plan_array *ar = &p->arrays[c->array];
	char werr[128];

	argv_init(a);
	if (!level_find(ar->level)->md)
		return 0;
	if (cell_skip_reason(ar->name, plan_array_disks(ar), ndisks, 0, "", err, errlen) < 0)
		return -1;
	argv_add(a, "mdadm");
	argv_add(a, "--create");
	argv_add(a, md_dev);
	/* --run: no "Continue creating array?" when a member carries an old signature or
	 * sizes differ. --metadata: mdadm's default could come from an mdadm.conf; pin it. */
	argv_add(a, "--run");
	argv_add(a, "--metadata=1.2");
	argv_addf(a, "--level=%d", ar->level);
	argv_addf(a, "--raid-devices=%d", ar->devices);
	if (c->chunk)
		argv_addf(a, "--chunk=%lluK", (unsigned long long)(c->chunk / 1024));
	if (ar->layout[0])
		argv_addf(a, "--layout=%s", ar->layout);
	/* mdadm adds an internal write-intent bitmap by itself to members of 100 GB or more, so
	 * one plan would get a bitmap on a server and none on a VM. A plan that says nothing gets
	 * none everywhere; bitmap = auto leaves mdadm its own rule. */
	if (!ar->bitmap[0] && level_has_redundancy(ar->level))
		argv_add(a, "--bitmap=none");
	else if (ar->bitmap[0] && strcmp(ar->bitmap, "auto") != 0)
		argv_addf(a, "--bitmap=%s", ar->bitmap);
	if (p->resync == RESYNC_ASSUME_CLEAN)
		argv_add(a, "--assume-clean");
	if (argv_split(a, ar->options, werr, sizeof werr) < 0) {
		snprintf(err, errlen, "[array %s] options: %s", ar->name, werr);
		return -1;
	}
	int d = 0;
	for (int slot = 0; slot < ar->devices; slot++)
		argv_add(a, level_slot_missing(ar->level, ar->devices, ar->missing, slot)
			    ? "missing" : disks[d++]);
	if (a->overflow) {
		snprintf(err, errlen, "[array %s]: mdadm command too long", ar->name);
		return -1;
	}
	return 0;
}

const char *cell_target(const struct plan *p, const struct cell *c, const char *md_dev,
			const char *const *disks)
{
	const struct md_level *l = level_find(p->arrays[c->array].level);
	return l->md ? md_dev : l->lvm ? LVM_DEV : disks[0];
}

/* ------------------------------------------------------------------ mkfs */

static const char *const mkfs_names[] = { "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs" };

/* Appends an option value to a comma-separated list. */
static void list_add(char *list, size_t len, const char *item)
{
	size_t n = strlen(list);
	snprintf(list + n, len - n, "%s%s", n && *item ? "," : "", item);
}

int cell_mkfs_argv(const struct plan *p, const struct cell *c, const char *dev,
		   struct argv *a, struct geometry *g, struct warnings *w, char *err,
		   size_t errlen)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	int xfs = f->type == FS_XFS;
	/* The option the geometry goes into: mke2fs -E, mkfs.xfs -d. */
	const char *gopt = xfs ? "-d" : "-E";
	const char *force = xfs ? "-f" : "-F";
	struct argv words;
	char werr[128], plan_g[PLAN_STR_MAX] = "", merged[PLAN_STR_MAX + 128];
	unsigned block = 0;

	if (f->type == FS_BTRFS) {
		/* btrfs takes no stripe geometry from md: it reads none, and keeps its own */
		geom_derive(LEVEL_NONE, 1, "", 0, 0, g);
		return cell_btrfs_mkfs_argv(p, c, &dev, 1, a, err, errlen);
	}
	argv_init(a);
	argv_init(&words);
	if (argv_split(&words, f->mkfs, werr, sizeof werr) < 0) {
		snprintf(err, errlen, "[fs %s] mkfs: %s", f->name, werr);
		return -1;
	}
	argv_add(a, mkfs_names[f->type]);
	/* Never prompt: mke2fs asks before overwriting a filesystem when on a terminal,
	 * mkfs.xfs refuses an existing one without -f. */
	if (argv_find(&words, force, 0) < 0)
		argv_add(a, force);
	for (int i = 0; i < words.n; i++) {
		const char *wd = words.v[i];
		size_t glen = strlen(gopt);
		if (strncmp(wd, gopt, glen) == 0) {
			/* -E a=1 or -Ea=1: collected, merged, written once below. */
			const char *v = wd[glen] ? wd + glen : (i + 1 < words.n ? words.v[++i] : "");
			list_add(plan_g, sizeof plan_g, v);
			continue;
		}
		if (!xfs && strncmp(wd, "-b", 2) == 0) {
			const char *v = wd[2] ? wd + 2 : (i + 1 < words.n ? words.v[i + 1] : "");
			block = (unsigned)strtoul(v, NULL, 10);
		}
		argv_add(a, wd);
	}
	/* discard = no: every cell starts on blocks as the cell before left them, whatever the
	 * level passes (raid0/1/10 pass discards, raid4/5/6 drop them). */
	if (!p->discard && !xfs && !strstr(plan_g, "discard"))
		list_add(plan_g, sizeof plan_g, "nodiscard");
	if (!p->discard && xfs && argv_find(&words, "-K", 0) < 0)
		argv_add(a, "-K");
	geom_derive(ar->level, ar->devices, ar->layout, level_chunk(ar->level, c->chunk), block, g);
	/* A stride is counted in blocks, and mke2fs picks 1k blocks on small devices by
	 * itself: name the block size the stride was computed with. */
	if (!xfs && g->valid && !block) {
		argv_add(a, "-b");
		argv_addf(a, "%u", g->block_size);
	}
	int rc = xfs ? geom_xfs_data(g, plan_g, merged, sizeof merged, w)
		     : geom_ext_extended(g, f->type == FS_EXT4, plan_g, merged, sizeof merged, w);
	if (rc < 0) {
		snprintf(err, errlen, "[fs %s]: %s options too long", f->name, gopt);
		return -1;
	}
	if (merged[0]) {
		argv_add(a, gopt);
		argv_add(a, merged);
	}
	argv_add(a, dev);
	if (a->overflow) {
		snprintf(err, errlen, "[fs %s]: mkfs command too long", f->name);
		return -1;
	}
	return 0;
}

int cell_tune_argv(const struct plan *p, const struct cell *c, const char *dev,
		   struct argv *a, char *err, size_t errlen)
{
	const struct plan_fs *f = &p->fs[c->fs];
	char werr[128];

	argv_init(a);
	if (f->type == FS_XFS || f->type == FS_BTRFS || !f->tune[0])
		return 0;
	argv_add(a, "tune2fs");
	if (argv_split(a, f->tune, werr, sizeof werr) < 0) {
		snprintf(err, errlen, "[fs %s] tune: %s", f->name, werr);
		return -1;
	}
	argv_add(a, dev);
	if (a->overflow) {
		snprintf(err, errlen, "[fs %s]: tune2fs command too long", f->name);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ mount */

/* Options mount(8) turns into flags; everything else is the filesystem's data string. */
static const struct mount_flag {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{ "defaults", 0, 0 },
	{ "ro", MS_RDONLY, 0 },              { "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },          { "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },            { "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },          { "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },       { "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "mand", MS_MANDLOCK, 0 },          { "nomand", 0, MS_MANDLOCK },
	{ "noatime", MS_NOATIME, 0 },        { "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 },  { "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, 0 },      { "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, 0 },
	{ "lazytime", MS_LAZYTIME, 0 },      { "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },          { "loud", 0, MS_SILENT },
};

#define NFLAGS (sizeof mount_flags / sizeof mount_flags[0])

int mount_opts_split(const char *opts, unsigned long *flags, char *data, size_t len)
{
	char item[PLAN_STR_MAX];
	size_t used = 0;

	*flags = 0;
	if (len)
		data[0] = '\0';
	while (*opts) {
		const char *comma = strchr(opts, ',');
		size_t n = comma ? (size_t)(comma - opts) : strlen(opts);
		snprintf(item, sizeof item, "%.*s", (int)n, opts);
		opts += n + (comma ? 1 : 0);
		if (!item[0])
			continue;
		size_t i;
		for (i = 0; i < NFLAGS; i++)
			if (strcmp(item, mount_flags[i].name) == 0)
				break;
		if (i < NFLAGS) {
			*flags = (*flags | mount_flags[i].set) & ~mount_flags[i].clear;
			continue;
		}
		int w = snprintf(data + used, len - used, "%s%s", used ? "," : "", item);
		if (w < 0 || (size_t)w >= len - used)
			return -1;
		used += (size_t)w;
	}
	return 0;
}

void mount_flags_names(unsigned long flags, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NFLAGS && used < len; i++)
		if (mount_flags[i].set && (flags & mount_flags[i].set) == mount_flags[i].set) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
					 mount_flags[i].name);
			if (w < 0)
				return;
			used += (size_t)w;
		}
}
