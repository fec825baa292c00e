/* core/parse/plan_durability.c: durability = log-writes checked once the whole plan is read:
 * the log disk given, and none of the disks a cell writes otherwise (an array's members, a
 * layer's cache disk); a btrfs over several disks refused (one log logs one device); the
 * keys that only durability uses refused without it. */
#include "core/model/level.h"
#include "core/parse/plan_error.h"
#include "core/parse/plan_keys.h"

#include <stdio.h>

static int line_of(const struct plan *p, const char *key)
{
	int i = key_index(global_keys, key);
	return i >= 0 ? p->key_line[i] : 0;
}

/* A layer of the array's stacks whose cache disk is the log disk, or NULL. */
static const struct plan_layer *cache_on_log(const struct plan *p, const struct plan_array *a)
{
	for (int k = 0; k < a->nstacks; k++)
		for (int i = 0; i < a->stacks[k].n; i++) {
			const struct plan_layer *l = &p->layers[a->stacks[k].layer[i]];
			if (layer_kinds[l->type].cache_disk && l->cache == p->log_disk)
				return l;
		}
	return NULL;
}

static void check_array_log(struct plan *p, const struct plan_array *a, int at)
{
	const struct md_level *lv = level_find(a->level);
	const struct plan_layer *l;
	int members = plan_array_disks(a);
	if (lv && lv->profile)
		plan_add_error(p, a->line, "[array %s]: level = %s hands every disk to mkfs.btrfs: a "
			       "btrfs that spans several disks cannot sit on one log device "
			       "(durability = log-writes)", a->name, lv->key);
	else if (p->log_disk <= members)
		plan_add_error(p, at, "[global]: log_disk = %d is a member of [array %s] (its "
			       "members are disks 1 to %d): give log_disk = %d or more", p->log_disk,
			       a->name, members, members + 1);
	else if ((l = cache_on_log(p, a)))
		plan_add_error(p, at, "[global]: log_disk = %d is the cache disk of [layer %s]",
			       p->log_disk, l->name);
}

void plan_check_durability(struct plan *p)
{
	int dl = line_of(p, "durability"), ll = line_of(p, "log_disk");
	int cl = line_of(p, "crash_points");
	if (p->durability != PLAN_DURABILITY_LOG_WRITES) {
		if (ll > 0 || cl > 0)
			plan_add_error(p, ll > 0 ? ll : cl, "[global]: \"%s\" applies to durability = "
				       "log-writes only", ll > 0 ? "log_disk" : "crash_points");
		return;
	}
	if (!p->log_disk) {
		plan_add_error(p, dl, "[global]: durability = log-writes needs \"log_disk = N\", the "
			       "disk (its position among the disks handed over) that holds the log");
		return;
	}
	for (int i = 0; i < p->narrays; i++)
		check_array_log(p, &p->arrays[i], ll);
}
