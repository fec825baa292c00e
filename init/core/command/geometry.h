/* core/command/geometry.h: stripe geometry an md array implies for the filesystem on it, and how it is
 * merged into mkfs options the plan may already give. Pure. */
#ifndef FSM_GEOMETRY_H
#define FSM_GEOMETRY_H
#include <stddef.h>
#include <stdint.h>

#define GEOM_WARN_MAX 8
#define GEOM_WARN_LEN 256

struct geometry {
	int valid;               /* 0: no stripe (a level without one, or no chunk in the plan) */
	int data_disks;          /* members minus parity; missing members count */
	uint64_t chunk;          /* bytes */
	unsigned block_size;     /* ext*: bytes per block the stride is counted in */
	unsigned stride;         /* ext*: chunk / block size */
	unsigned stripe_width;   /* ext*: stride * data disks */
};

/* What a cell's commands carry besides their argv: a plan value that disagrees with the
 * array, for instance. */
struct warnings {
	int n;
	char msg[GEOM_WARN_MAX][GEOM_WARN_LEN];
};

void warn_add(struct warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Data disks for a level over devices members with the plan's layout ("" = mdadm's
 * default), as md itself counts them for its optimal I/O size: raid5/4 n-1, raid6 n-2,
 * raid10 n / near copies when that divides evenly else n (n2 on 4: 2; n2 on 5, f2, o2: n),
 * raid1 and none 1, raid0 n; at least 1. */
int geom_data_disks(int level, int devices, const char *layout);

/* Fills g; chunk 0 (mdadm's default) or a level without striping gives valid = 0. */
void geom_derive(int level, int devices, const char *layout, uint64_t chunk,
		 unsigned block_size, struct geometry *g);

/* ext*: the value for mke2fs -E. plan_e is what the plan gave (comma-separated, may be ""):
 * its options come first and win; stride and stripe_width are added when g is valid, and
 * for ext4 lazy_itable_init=0,lazy_journal_init=0, each unless the plan gave it. A plan value
 * that disagrees with g adds a warning. Returns 0, or -1 if out is too small. */
int geom_ext_extended(const struct geometry *g, int ext4, const char *plan_e, char *out,
		      size_t len, struct warnings *w);

/* xfs: the value for mkfs.xfs -d. The plan's suboptions come first; su=CHUNK,sw=DATA_DISKS
 * are added when g is valid and the plan gives none of su, sw, sunit, swidth (mkfs.xfs
 * refuses a mix). Disagreeing plan values add a warning. Returns 0, or -1 if out is too
 * small. */
int geom_xfs_data(const struct geometry *g, const char *plan_d, char *out, size_t len,
		  struct warnings *w);

#endif
