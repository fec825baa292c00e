/* core/matrix/reuse.c: what a cell takes over from the one before it (core/matrix/reuse.h). */
#include "core/matrix/reuse.h"
#include "core/model/level.h"
#include "core/model/tunable.h"

/* A tunable the array keeps for its life, so that two values of it are two arrays: md's own
 * attributes, each member's device setting, and anything mkfs must run under. The queue's and
 * vm's are put back after every cell and may differ between the cells of one array. */
static int kept_by_array(int id)
{
	return tun_rows[id].where == TUN_MD || tun_rows[id].where == TUN_DEVICE ||
	       tun_rows[id].when == TUN_BEFORE_MKFS;
}

int reuse_same_array(const struct plan *p, const struct cell *a, const struct cell *b)
{
	(void)p;
	if (a->array != b->array || a->chunk != b->chunk)
		return 0;
	for (int id = 0; id < TUN_COUNT; id++) {
		unsigned bit = 1u << id;
		if (!kept_by_array(id) || !((a->tun_given | b->tun_given) & bit))
			continue;
		if ((a->tun_given & bit) != (b->tun_given & bit) || a->tun[id] != b->tun[id])
			return 0;
	}
	return 1;
}

enum plan_reuse reuse_from(const struct plan *p, const struct cell *prev, const struct cell *c)
{
	/* durability = log-writes replays each cell's log onto its array's blocks */
	if (!prev || p->reuse == REUSE_NONE || p->durability || prev->rep != c->rep ||
	    !reuse_same_array(p, prev, c))
		return REUSE_NONE;
	/* lvm's volumes are made and removed by each cell: nothing of them is taken over */
	if (level_find(p->arrays[c->array].level)->lvm)
		return REUSE_NONE;
	if (p->reuse == REUSE_FS && prev->fs == c->fs)
		return REUSE_FS;
	if (!level_find(p->arrays[c->array].level)->md)
		return REUSE_NONE;
	return REUSE_ARRAY;
}

const char *reuse_name(enum plan_reuse r)
{
	static const char *const names[] = { [REUSE_NONE] = "none", [REUSE_ARRAY] = "array",
					     [REUSE_FS] = "fs" };
	return (unsigned)r < sizeof names / sizeof *names ? names[r] : "none";
}
