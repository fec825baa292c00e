/* core/command/btrfscmd.c: mkfs.btrfs's command line, the mount data of a btrfs level, and the
 * profiles read back. */
#include "core/command/btrfscmd.h"
#include "core/model/level.h"

#include <stdio.h>
#include <string.h>

int btrfs_cell_spans(const struct plan *p, const struct cell *c)
{
	return level_find(p->arrays[c->array].level)->profile != NULL;
}

int btrfs_cell_skip(const struct plan *p, const struct cell *c, char *why, size_t len)
{
	const struct plan_array *a = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	if (!btrfs_cell_spans(p, c) || f->type == FS_BTRFS)
		return 0;
	snprintf(why, len, "[array %s] is btrfs's own %s over %d disks: only type = btrfs spans "
		 "them, not %s ([fs %s])", a->name, level_find(a->level)->profile, a->devices,
		 plan_fs_name(f->type), f->name);
	return -1;
}

int cell_btrfs_mkfs_argv(const struct plan *p, const struct cell *c, const char *const *devs,
			 int ndevs, struct argv *a, char *err, size_t errlen)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	const char *profile = level_find(ar->level)->profile;
	struct argv words;
	char werr[128];

	argv_init(a);
	argv_init(&words);
	if (argv_split(&words, f->mkfs, werr, sizeof werr) < 0) {
		snprintf(err, errlen, "[fs %s] mkfs: %s", f->name, werr);
		return -1;
	}
	argv_add(a, "mkfs.btrfs");
	/* -f: the disks were wiped, but mkfs.btrfs refuses a device with any signature left */
	if (argv_find(&words, "-f", 0) < 0)
		argv_add(a, "-f");
	if (profile) {
		argv_add(a, "-d");
		argv_add(a, profile);
		if (ar->metadata) {
			argv_add(a, "-m");
			argv_add(a, btrfs_profiles[ar->metadata]);
		}
	}
	/* discard = no: mkfs.btrfs trims every device first unless told -K (--nodiscard) */
	if (!p->discard && argv_find(&words, "-K", 0) < 0 && argv_find(&words, "--nodiscard", 0) < 0)
		argv_add(a, "-K");
	for (int i = 0; i < words.n; i++)
		argv_add(a, words.v[i]);
	for (int i = 0; i < ndevs; i++)
		argv_add(a, devs[i]);
	if (a->overflow) {
		snprintf(err, errlen, "[fs %s]: mkfs command too long", f->name);
		return -1;
	}
	return 0;
}

int btrfs_member_missing(const struct plan_array *a, int slot)
{
	return slot >= a->devices - a->missing;
}

int btrfs_mount_data(const struct plan_array *a, const char *const *devs, char *data,
		     size_t len)
{
	size_t used = strnlen(data, len);
	if (used >= len)
		return -1;
	for (int i = 0; i <= a->devices; i++) {
		const char *item = i < a->devices ? devs[i] : "degraded";
		if (i < a->devices && btrfs_member_missing(a, i))
			continue;
		if (i == a->devices && !a->missing)
			break;
		int w = snprintf(data + used, len - used, "%s%s%s", used ? "," : "",
				 i < a->devices ? "device=" : "", item);
		if (w < 0 || (size_t)w >= len - used)
			return -1;
		used += (size_t)w;
	}
	return 0;
}

int btrfs_profile_text(const char *const *names, int n, const char *want, char *out,
		       size_t len)
{
	size_t used = 0;
	int found = 0, other = 0;
	if (len)
		out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (!btrfs_profile_min(names[i]))
			continue;   /* not a profile: bytes_used, total_bytes, ... */
		int w = snprintf(out + used, len > used ? len - used : 0, "%s%s", used ? "+" : "",
				 names[i]);
		if (w > 0 && used + (size_t)w < len)
			used += (size_t)w;
		if (strcmp(names[i], want) == 0)
			found = 1;
		else
			other = 1;
	}
	if (!used)
		return -1;
	return found && !other;
}
