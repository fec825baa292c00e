/* core/parse/plan_check.c: what only makes sense once a section, or the whole plan, has been read:
 * required keys, keys that do not apply to a level, type or engine, devices against the
 * level's rules, a workload's size against its blocks, the sections a plan needs, its size. */
#include "core/matrix/matrix.h"
#include "core/parse/plan_keys.h"
#include "core/parse/plan_parse.h"
#include "core/parse/plan_error.h"
#include "core/parse/plan_size.h"
#include "core/model/skip.h"

#include <stdio.h>
#include <string.h>

/* Reports keys given for a type they do not apply to. */
static void check_applies(struct plan *p, const struct key *keys, const int *key_line,
			  unsigned bit, const char *what, const char *type_name)
{
	for (int i = 0; keys[i].name; i++) {
		int l = key_line[i];
		if (l && keys[i].only && !(keys[i].only & bit))
			plan_add_error(p, l < 0 ? -l : l, "%s: \"%s\" does not apply to %s", what,
				  keys[i].name, type_name);
	}
}

/* Tunables the array's level has no place for (a stripe cache on raid0), and pairs the kernel
 * keeps only one of (writing dirty_bytes zeroes dirty_ratio): the later line is the error. */
static void check_tunables(struct plan *p, const struct plan_array *a, const struct md_level *l,
			   const char *what)
{
	for (int t = 0; t < TUN_COUNT; t++) {
		int line = a->tun_line[t] < 0 ? -a->tun_line[t] : a->tun_line[t];
		if (!line)
			continue;
		if (!tun_fits(t, l)) {
			char fits[128];
			tun_fits_text(t, fits, sizeof fits);
			plan_add_error(p, line, "%s: \"%s\" does not apply to %s (only to %s)", what,
				       tun_rows[t].name, l->md ? l->name : "level none", fits);
		}
		int x = tun_rows[t].excludes;
		int xline = x >= 0 ? (a->tun_line[x] < 0 ? -a->tun_line[x] : a->tun_line[x]) : 0;
		if (xline && xline < line)
			plan_add_error(p, line, "%s: \"%s\" and \"%s\" exclude each other (the kernel "
				       "keeps one: writing either zeroes the other)", what,
				       tun_rows[t].name, tun_rows[x].name);
	}
}

/* The metadata profile of a btrfs level needs its own fewest devices (raid1c3: 3). */
static void check_btrfs_metadata(struct plan *p, const struct plan_array *a, const char *what)
{
	int ki = key_index(array_keys, "metadata");
	const char *m = btrfs_profiles[a->metadata];
	if (a->key_line[ki] > 0 && a->devices < btrfs_profile_min(m))
		plan_add_error(p, a->key_line[ki], "%s: metadata = %s needs at least %d devices, "
			       "plan gives %d", what, m, btrfs_profile_min(m), a->devices);
}

/* What lvcreate itself refuses, said before a disk is written: raid10's legs are mirrored
 * pairs, and a raid6 LV cannot be made without its sync (lvcreate: "nosync option prohibited
 * on RAID6"). */
static void check_lvm(struct plan *p, const struct plan_array *a, const struct md_level *l,
		      const char *what)
{
	int di = key_index(array_keys, "devices");
	if (l->copies > 1 && a->devices % l->copies)
		plan_add_error(p, a->key_line[di], "%s: %s is made of mirrored pairs of disks: "
			       "devices = %d is odd", what, l->name, a->devices);
	int rl = plan_global_line(p, "resync");
	if (l->parity == 2 && p->resync == RESYNC_ASSUME_CLEAN)
		plan_add_error(p, rl > 0 ? rl : a->line, "%s: resync = assume-clean: lvm makes no "
			       "%s without its sync (lvcreate --nosync is refused for raid6)", what,
			       l->name);
}

static void check_array(struct plan *p, struct plan_array *a)
{
	char what[PLAN_NAME_MAX + 16];
	int li = key_index(array_keys, "level"), di = key_index(array_keys, "devices");
	int mi = key_index(array_keys, "missing");

	snprintf(what, sizeof what, "[array %s]", a->name);
	if (!a->key_line[li]) {
		plan_add_error(p, a->line, "%s: missing required key \"level\"", what);
		return;
	}
	if (a->key_line[li] < 0)
		return;
	const struct md_level *l = level_find(a->level);
	check_applies(p, array_keys, a->key_line, level_bits(l), what,
		      level_spans(a->level) ? l->name : "level none");
	check_tunables(p, a, l, what);
	if (!level_spans(a->level)) {
		if (a->key_line[di] > 0 && a->devices != 1)
			plan_add_error(p, a->key_line[di], "%s: level none is one disk: devices = 1",
				  what);
		a->devices = 1;
		a->missing = 0;
		return;
	}
	if (!a->key_line[di]) {
		plan_add_error(p, a->line, "%s: missing required key \"devices\"", what);
		return;
	}
	if (a->key_line[di] < 0 || a->key_line[mi] < 0)
		return;
	if (a->devices < l->min_devices) {
		plan_add_error(p, a->key_line[di], "%s: %s needs at least %d devices, plan gives %d",
			  what, l->name, l->min_devices, a->devices);
		return;
	}
	if (l->profile)
		check_btrfs_metadata(p, a, what);
	if (l->lvm)
		check_lvm(p, a, l, what);
	int max = level_max_missing(a->level, a->devices);
	if (a->missing > max) {
		if (max == 0)
			plan_add_error(p, a->key_line[mi], "%s: %s cannot run with missing members",
				  what, l->name);
		else
			plan_add_error(p, a->key_line[mi], "%s: %s over %d devices runs with at most "
				  "%d missing, plan gives %d", what, l->name, a->devices, max,
				  a->missing);
	}
}

static void check_fs(struct plan *p, struct plan_fs *f)
{
	char what[PLAN_NAME_MAX + 16];
	int ti = key_index(fs_keys, "type");

	snprintf(what, sizeof what, "[fs %s]", f->name);
	if (!f->key_line[ti]) {
		plan_add_error(p, f->line, "%s: missing required key \"type\"", what);
		return;
	}
	if (f->key_line[ti] > 0)
		check_applies(p, fs_keys, f->key_line, 1u << f->type, what, plan_fs_name(f->type));
	if (f->nmount == 0) {
		strcpy(f->mount[0], "defaults");
		f->nmount = 1;
	}
}

static void check_workload(struct plan *p, struct plan_workload *w)
{
	char what[PLAN_NAME_MAX + 16];
	int ti = key_index(wl_keys, "type"), si = key_index(wl_keys, "size");
	int bi = key_index(wl_keys, "bs"), di = key_index(wl_keys, "direct");

	snprintf(what, sizeof what, "[workload %s]", w->name);
	if (!w->key_line[ti]) {
		plan_add_error(p, w->line, "%s: missing required key \"type\"", what);
		return;
	}
	if (w->key_line[ti] < 0)
		return;
	const struct wl_kind *wk = wl_kind_of(w->type);
	for (int i = 0; wl_keys[i].name; i++) {
		int l = w->key_line[i];
		if (l && !wl_key_applies(&wl_keys[i], wk))
			plan_add_error(p, l < 0 ? -l : l, "%s: \"%s\" does not apply to a %s workload",
				       what, wl_keys[i].name, wk->name);
	}
	for (int i = 0; wl_keys[i].name; i++)
		if (wl_kind_has(wk->required, wl_keys[i].name) && !w->key_line[i]) {
			plan_add_error(p, w->line, "%s: missing required key \"%s\"", what,
				       wl_keys[i].name);
			return;
		}
	char key[32], msg[256];
	if (wk->check && wk->check(w, plan_workload_given, key, sizeof key, msg, sizeof msg) < 0) {
		int l = key[0] ? w->key_line[key_index(wl_keys, key)] : 0;
		plan_add_error(p, l > 0 ? l : w->line, "%s: %s", what, msg);
		return;
	}
	/* Engines that write in blocks: the size must hold one, and O_DIRECT wants them
	 * aligned. */
	if (!wl_kind_has(wk->keys, "bs") || w->key_line[si] <= 0 || w->key_line[bi] < 0)
		return;
	char s1[32], s2[32];
	plan_fmt_size(w->size, s1, sizeof s1);
	plan_fmt_size(w->bs, s2, sizeof s2);
	if (w->size < w->bs)
		plan_add_error(p, w->key_line[si], "%s: size %s is smaller than bs %s", what, s1, s2);
	/* O_DIRECT needs buffers and lengths aligned to the logical block; 4k covers 4Kn disks. */
	if (w->direct && w->bs % 4096)
		plan_add_error(p, w->key_line[di] > 0 ? w->key_line[di] : w->line,
			  "%s: direct = yes needs bs a multiple of 4k, plan gives %s", what, s2);
}

/* Sections a plan cannot do without, missing together, as one error. */
static void check_sections(struct plan *p, int end)
{
	const struct { int n; const char *name; } kinds[] = {
		{ p->narrays, "[array NAME]" }, { p->nfs, "[fs NAME]" },
		{ p->nworkloads, "[workload NAME]" },
	};
	char list[64] = "";
	int nmissing = 0, k = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		nmissing += !kinds[i].n;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!kinds[i].n) {
			k++;
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 k == 1 ? "" : k == nmissing ? " or " : ", ", kinds[i].name);
		}
	if (nmissing)
		plan_add_error(p, end, "no %s section: a plan needs at least one%s%s", list,
			       nmissing > 1 ? " of each" : "",
			       p->narrays ? "" : " (level = none for a raw disk)");
}

/* A seed orders only a shuffle: given with another order it would look like it did. A
 * bound bounds only repeat = auto, which then expands to it. */
static void check_global(struct plan *p)
{
	int si = key_index(global_keys, "seed"), oi = key_index(global_keys, "order");
	int mi = key_index(global_keys, "repeat_max"), ri = key_index(global_keys, "repeat");
	if (p->key_line[mi] > 0 && p->key_line[ri] >= 0 && !p->repeat_auto)
		plan_add_error(p, p->key_line[mi], "[global]: \"repeat_max\" applies to repeat = auto "
			       "only (repeat = %d)", p->repeat);
	int di = key_index(global_keys, "detect");
	if (p->key_line[di] > 0 && p->key_line[ri] >= 0 && !p->repeat_auto)
		plan_add_error(p, p->key_line[di], "[global]: \"detect\" applies to repeat = auto "
			       "only (repeat = %d)", p->repeat);
	if (p->repeat_auto)
		p->repeat = p->repeat_max;
	if (p->key_line[si] > 0 && p->key_line[oi] >= 0 && p->order != ORDER_SHUFFLE)
		plan_add_error(p, p->key_line[si], "[global]: \"seed\" applies to order = shuffle "
			       "only (order = %s)", plan_order_name(p->order));
	else if (p->key_line[si] > 0 && p->seed > PLAN_SEED_MAX)
		plan_add_error(p, p->key_line[si], "[global]: seed: expected a whole number from 0 "
			       "to %llu", PLAN_SEED_MAX);
}

/* Kernels take turns by repetition (core/matrix/kernels.h): that needs every cell once per
 * repetition in a row, and repetitions known in advance. */
static void check_kernels(struct plan *p)
{
	int ki = key_index(global_keys, "kernels");
	if (p->key_line[ki] <= 0)
		return;
	if (p->order == ORDER_SEQUENTIAL)
		plan_add_error(p, p->key_line[ki], "[global]: \"kernels\" needs order = interleave or "
			       "shuffle (sequential would switch kernels between every two cells)");
	if (p->repeat_auto && !p->bisect.line)
		plan_add_error(p, p->key_line[ki], "[global]: \"kernels\" needs a fixed repeat (not "
			       "auto): each kernel runs the same repetitions");
}

/* Two arrays whose cells would share an id would be one row of the report, one cell to
 * resume: the later section is the error. */
static void check_ids(struct plan *p)
{
	int a, b;
	char part[PLAN_NAME_MAX + 256];
	if (matrix_id_clash(p, &a, &b, part, sizeof part))
		plan_add_error(p, p->arrays[b].line, "[array %s]: its cells' ids (%s/...) are also "
			       "those of [array %s] (line %d): rename one", p->arrays[b].name, part,
			       p->arrays[a].name, p->arrays[a].line);
}

void plan_validate(struct plan *p, int end, int content, int comments)
{
	plan_bisect_defaults(p);
	check_global(p);
	check_kernels(p);
	if (!content)
		plan_add_error(p, end, "the plan %s: it needs an [array NAME], an [fs NAME] and a "
			       "[workload NAME] section", comments ? "holds only comments and blank "
			       "lines" : "is empty");
	else
		check_sections(p, end);
	for (int i = 0; i < p->narrays; i++)
		check_array(p, &p->arrays[i]);
	for (int i = 0; i < p->nfs; i++)
		check_fs(p, &p->fs[i]);
	for (int i = 0; i < p->nworkloads; i++)
		check_workload(p, &p->workloads[i]);
	plan_check_layers(p);
	plan_check_durability(p);
	/* Counted only in a plan that is right otherwise: the sections are then what the
	 * user meant. */
	if (!p->nerrors)
		check_ids(p);
	plan_bisect_check(p);
	if (!p->nerrors)
		plan_check_size(p, end);
	plan_sort_errors(p);
}

int plan_check_disks(struct plan *p, int ndisks)
{
	int before = p->nerrors;
	int di = key_index(array_keys, "devices");

	for (int i = 0; i < p->narrays; i++) {
		const struct plan_array *a = &p->arrays[i];
		char why[PLAN_NAME_MAX + 64];
		if (cell_skip_reason(a->name, plan_array_disks(a), ndisks, 0, "", why, sizeof why) < 0)
			plan_add_error(p, a->key_line[di] > 0 ? a->key_line[di] : a->line, "%s", why);
		else if (plan_layers_max_disk(p, a) > ndisks)
			plan_add_error(p, a->line, "[array %s]: its layers take disk %d as a cache, of "
				       "%d disks", a->name, plan_layers_max_disk(p, a), ndisks);
		else if (p->durability && p->log_disk > ndisks)
			plan_add_error(p, a->line, "[array %s]: durability takes disk %d for the log, "
				       "of %d disks", a->name, p->log_disk, ndisks);
	}
	plan_sort_errors(p);
	return p->nerrors > before ? -1 : 0;
}
