/* cell/btrfs.c: a btrfs cell's own steps: the members a degraded cell leaves out, wiped and
 * forgotten by the kernel after mkfs, and the profiles the kernel holds, read back from
 * sysfs after the workload (a degraded mount writes new chunks as single). */
#include "cell/ctx.h"
#include "core/command/btrfscmd.h"
#include "core/model/level.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BTRFS_SYSFS "/sys/fs/btrfs"

int cell_btrfs_degrade(struct cell_ctx *x)
{
	const struct plan_array *a = &x->p->arrays[x->c->array];
	const char *forget[] = { "btrfs", "device", "scan", "--forget", NULL };
	if (!level_find(a->level)->profile || !a->missing)
		return 0;
	for (int i = 0; i < x->n; i++)
		if (btrfs_member_missing(a, i) && cell_wipe(x, i) < 0) {
			cell_fail(x, CELL_ERROR, "%s", x->steps[x->nsteps - 1].err);
			return -1;
		}
	/* mkfs.btrfs registered every member with the kernel: forget the unmounted ones, so
	 * the mount's device= options are all it knows of */
	return step_must(x, forget, NULL) < 0 ? -1 : 0;
}

/* /sys/fs/btrfs/UUID of the filesystem that holds device name. */
static int fs_dir(const char *name, char *dir, size_t len)
{
	DIR *d = opendir(BTRFS_SYSFS);
	struct dirent *e;
	char path[512];
	int found = 0;
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "features") == 0)
			continue;
		snprintf(path, sizeof path, BTRFS_SYSFS "/%s/devices/%s", e->d_name, name);
		if (access(path, F_OK) == 0) {
			snprintf(dir, len, BTRFS_SYSFS "/%s", e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found ? 0 : -1;
}

/* The profile names under DIR/allocation/TYPE, sorted, as btrfs_profile_text takes them. */
static int read_type(const char *dir, const char *type, char names[][16], int max)
{
	char path[600];
	snprintf(path, sizeof path, "%s/allocation/%s", dir, type);
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;
	while (d && n < max && (e = readdir(d)))
		if (btrfs_profile_min(e->d_name)) {
			int at = n++;
			while (at > 0 && strcmp(names[at - 1], e->d_name) > 0) {
				memcpy(names[at], names[at - 1], sizeof names[at]);
				at--;
			}
			snprintf(names[at], sizeof names[at], "%.15s", e->d_name);
		}
	if (d)
		closedir(d);
	return n;
}

/* What mkfs.btrfs 6.2 was asked for, or makes by default: data single and metadata dup on
 * one device, metadata raid1 on several; system follows metadata. */
static const char *wanted(const struct cell_ctx *x, int meta)
{
	const struct plan_array *a = &x->p->arrays[x->c->array];
	const char *profile = level_find(a->level)->profile;
	if (!meta)
		return profile ? profile : "single";
	if (profile && a->metadata)
		return btrfs_profiles[a->metadata];
	return profile && a->devices > 1 ? "raid1" : "dup";
}

void cell_btrfs_profiles(struct cell_ctx *x)
{
	static const char *const types[] = { "data", "metadata", "system" };
	char dir[300], names[8][16], text[96];
	size_t used = 0;
	if (x->p->fs[x->c->fs].type != FS_BTRFS || fs_dir(x->target_name, dir, sizeof dir) < 0)
		return;
	for (int t = 0; t < 3; t++) {
		int n = read_type(dir, types[t], names, 8);
		const char *v[8];
		for (int i = 0; i < n; i++)
			v[i] = names[i];
		const char *want = wanted(x, t > 0);
		int same = btrfs_profile_text(v, n, want, text, sizeof text);
		used += (size_t)snprintf(x->btrfs_profile + used, sizeof x->btrfs_profile - used,
					 "%s%s=%s", used ? "," : "", types[t], same < 0 ? "none" : text);
		if (same == 1)
			continue;
		char item[64];
		snprintf(item, sizeof item, "%s=%s", types[t], want);
		size_t m = strlen(x->mount_ignored);
		snprintf(x->mount_ignored + m, sizeof x->mount_ignored - m, "%s%s", m ? "," : "",
			 item);
		warn_add(&x->warn, "btrfs %s profile %s asked, the kernel holds %s", types[t], want,
			 same < 0 ? "none" : text);
		x->env->ops->say("  warning   btrfs %s profile %s asked, the kernel holds %s: this "
				 "cell measures another layout", types[t], want,
				 same < 0 ? "none" : text);
	}
}

int cell_watched(const struct cell_ctx *x, char *const **members)
{
	int many = x->md || btrfs_cell_spans(x->p, x->c);
	*members = many ? x->name_v : NULL;
	return many ? x->n : 0;
}
