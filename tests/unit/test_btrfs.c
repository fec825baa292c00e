/* test_btrfs.c: btrfs's own RAID as array levels and btrfs as a filesystem type: the rows of
 * the level table (fewest devices as btrfs-progs 6.2's btrfs_raid_array has them, missing
 * members, data disks, streams), the plan's checks with FILE:LINE, the cells a btrfs level
 * cannot build, mkfs.btrfs's command line and the mount data, the profiles read back, and
 * the options btrfs shows in /proc/mounts. */
#include "check.h"
#include "lib/argv.h"
#include "core/command/btrfscmd.h"
#include "core/command/cellcmd.h"
#include "core/command/geometry.h"
#include "core/model/level.h"
#include "core/figures/limit.h"
#include "core/matrix/matrix.h"
#include "core/command/mountcheck.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

static struct plan p;

static const char *const disks[] = { "/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", NULL };

/* key, fewest devices, most missing, data disks and write streams over 4 */
static const struct {
	const char *key, *profile;
	int min, max_missing, data4;
	double streams4;
} rows[] = {
	{ "btrfs-single", "single", 1, 0, 4, 4 },
	{ "btrfs-raid0", "raid0", 1, 0, 4, 4 },
	{ "btrfs-raid1", "raid1", 2, 1, 2, 2 },
	{ "btrfs-raid1c3", "raid1c3", 3, 2, 1, 4.0 / 3 },
	{ "btrfs-raid10", "raid10", 2, 1, 2, 2 },
	{ "btrfs-raid5", "raid5", 2, 1, 3, 3 },
	{ "btrfs-raid6", "raid6", 3, 2, 2, 2 },
};
#define NROWS (sizeof rows / sizeof rows[0])

static int parse(const char *array, const char *fs)
{
	char text[1024];
	snprintf(text, sizeof text, "[array a]\n%s[fs f]\n%s[workload w]\ntype = seqwrite\n"
		 "size = 1m\n", array, fs);
	return plan_parse("t.ini", text, strlen(text), &p);
}

static void test_rows(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		const struct md_level *l = level_by_key(rows[i].key);
		CHECK(l != NULL, "%s: no row", rows[i].key);
		if (!l)
			continue;
		CHECK_STR(l->name, rows[i].key);
		CHECK_STR(l->profile, rows[i].profile);
		CHECK_INT(l->md, 0);
		CHECK_INT(l->min_devices, rows[i].min);
		CHECK_INT(l->min_devices, btrfs_profile_min(rows[i].profile));
		CHECK_INT(level_spans(l->level), 1);
		CHECK_INT(level_max_missing(l->level, 4), rows[i].max_missing);
		CHECK_INT(geom_data_disks(l->level, 4, ""), rows[i].data4);
		CHECK(limit_streams(l->level, 4, "", LIMIT_WRITE) == rows[i].streams4,
		      "%s: %g streams", rows[i].key, limit_streams(l->level, 4, "", LIMIT_WRITE));
		CHECK(level_find(l->level) == l, "%s: level_find", rows[i].key);
	}
	CHECK_INT(level_spans(LEVEL_NONE), 0);
	CHECK_INT(level_spans(10), 1);
	CHECK_INT(btrfs_profile_min("raid1c4"), 4);
	CHECK_INT(btrfs_profile_min("bytes_used"), 0);
}

/* What check refuses, with the line, before any disk is written. */
static void test_check(void)
{
	static const struct {
		const char *array, *fs, *err;
	} bad[] = {
		{ "level = btrfs-raid1\ndevices = 1\n", "type = btrfs\n",
		  "t.ini:3: [array a]: btrfs-raid1 needs at least 2 devices, plan gives 1" },
		{ "level = btrfs-raid6\ndevices = 2\n", "type = btrfs\n",
		  "t.ini:3: [array a]: btrfs-raid6 needs at least 3 devices, plan gives 2" },
		{ "level = btrfs-raid1\ndevices = 2\nmetadata = raid1c3\n", "type = btrfs\n",
		  "t.ini:4: [array a]: metadata = raid1c3 needs at least 3 devices, plan gives 2" },
		{ "level = btrfs-raid10\ndevices = 4\nmissing = 2\n", "type = btrfs\n",
		  "t.ini:4: [array a]: btrfs-raid10 over 4 devices runs with at most 1 missing, "
		  "plan gives 2" },
		{ "level = btrfs-raid0\ndevices = 2\nmissing = 1\n", "type = btrfs\n",
		  "t.ini:4: [array a]: btrfs-raid0 cannot run with missing members" },
		{ "level = btrfs-raid1\ndevices = 2\nmetadata = raid7\n", "type = btrfs\n",
		  "t.ini:4: metadata: expected single, dup, raid0, raid1, raid1c3, raid1c4, raid10, "
		  "raid5 or raid6 (metadata = raid7)" },
		{ "level = btrfs-raid1\ndevices = 2\nchunk = 64k\n", "type = btrfs\n",
		  "t.ini:4: [array a]: \"chunk\" does not apply to btrfs-raid1" },
		{ "level = 10\ndevices = 4\nmetadata = raid1\n", "type = btrfs\n",
		  "t.ini:4: [array a]: \"metadata\" does not apply to raid10" },
		{ "level = btrfs-raid1\n", "type = btrfs\n",
		  "t.ini:1: [array a]: missing required key \"devices\"" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(parse(bad[i].array, bad[i].fs) == -1, "case %zu accepted", i);
		CHECK(strcmp(p.errors[0], bad[i].err) == 0, "case %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], bad[i].err);
	}
	CHECK(parse("level = btrfs-raid1\ndevices = 3\nmetadata = raid1c3\nmissing = 1\n",
		    "type = btrfs\n") == 0, "%s", p.errors[0]);
	/* every disk is needed: mkfs.btrfs takes them all, the missing one is wiped after */
	CHECK_INT(plan_array_disks(&p.arrays[0]), 3);
}

static void test_commands(void)
{
	struct cell c;
	struct argv a;
	char err[256], line[1024], data[PLAN_STR_MAX];

	CHECK(parse("level = btrfs-raid10\ndevices = 4\nmetadata = raid1c3\n",
		    "type = btrfs\nmkfs = -n 16k\nmount = compress=zstd:1\n") == 0, "%s", p.errors[0]);
	CHECK_INT(matrix_cell(&p, 0, &c), 0);
	CHECK_INT(btrfs_cell_spans(&p, &c), 1);
	CHECK_INT(btrfs_cell_skip(&p, &c, err, sizeof err), 0);
	CHECK_INT(cell_btrfs_mkfs_argv(&p, &c, disks, 4, &a, err, sizeof err), 0);
	argv_join(&a, line, sizeof line);
	CHECK_STR(line, "mkfs.btrfs -f -d raid10 -m raid1c3 -n 16k /dev/vdb /dev/vdc /dev/vdd "
		  "/dev/vde");
	snprintf(data, sizeof data, "compress=zstd:1");
	CHECK_INT(btrfs_mount_data(&p.arrays[0], disks, data, sizeof data), 0);
	CHECK_STR(data, "compress=zstd:1,device=/dev/vdb,device=/dev/vdc,device=/dev/vdd,"
		  "device=/dev/vde");

	/* degraded: the last member left out, and said */
	CHECK(parse("level = btrfs-raid1\ndevices = 2\nmissing = 1\n", "type = btrfs\n") == 0,
	      "%s", p.errors[0]);
	CHECK_INT(btrfs_member_missing(&p.arrays[0], 0), 0);
	CHECK_INT(btrfs_member_missing(&p.arrays[0], 1), 1);
	data[0] = '\0';
	CHECK_INT(btrfs_mount_data(&p.arrays[0], disks, data, sizeof data), 0);
	CHECK_STR(data, "device=/dev/vdb,degraded");
	CHECK_INT(btrfs_mount_data(&p.arrays[0], disks, data, 20), -1);
	data[0] = '\0';
	CHECK_INT(btrfs_mount_data(&p.arrays[0], disks, data, 20), -1);

	/* btrfs on md or one disk: no profile asked, no geometry; discard = no gives -K */
	CHECK(parse("level = 5\ndevices = 3\nchunk = 64k\n", "type = btrfs\n") == 0, "%s",
	      p.errors[0]);
	p.discard = 0;
	matrix_cell(&p, 0, &c);
	struct geometry g;
	struct warnings w = { 0 };
	CHECK_INT(cell_mkfs_argv(&p, &c, "/dev/md0", &a, &g, &w, err, sizeof err), 0);
	argv_join(&a, line, sizeof line);
	CHECK_STR(line, "mkfs.btrfs -f -K /dev/md0");
	CHECK_INT(g.valid, 0);
	CHECK_INT(cell_tune_argv(&p, &c, "/dev/md0", &a, err, sizeof err), 0);
	CHECK_INT(a.n, 0);

	/* a btrfs level under ext4 is a cell that cannot be built */
	CHECK(parse("level = btrfs-raid1\ndevices = 2\n", "type = ext4\n") == 0, "%s", p.errors[0]);
	matrix_cell(&p, 0, &c);
	CHECK_INT(btrfs_cell_skip(&p, &c, err, sizeof err), -1);
	CHECK_STR(err, "[array a] is btrfs's own raid1 over 2 disks: only type = btrfs spans them, "
		  "not ext4 ([fs f])");
}

static void test_profiles(void)
{
	static const char *const one[] = { "bytes_used", "raid1", "total_bytes" };
	static const char *const two[] = { "raid1", "single" };
	char out[64];
	CHECK_INT(btrfs_profile_text(one, 3, "raid1", out, sizeof out), 1);
	CHECK_STR(out, "raid1");
	CHECK_INT(btrfs_profile_text(two, 2, "raid1", out, sizeof out), 0);
	CHECK_STR(out, "raid1+single");
	CHECK_INT(btrfs_profile_text(one, 3, "raid10", out, sizeof out), 0);
	CHECK_INT(btrfs_profile_text(one, 1, "raid1", out, sizeof out), -1);
}

/* What btrfs_show_options prints, against what a plan asks. */
static void test_mount_options(void)
{
	static const struct {
		const char *asked, *shown, *absent;
	} rows[] = {
		{ "compress=zstd:1,space_cache=v2,noatime",
		  "/dev/vdb /mnt/test btrfs rw,noatime,compress=zstd:1,space_cache=v2,subvolid=5,subvol=/ 0 0", "" },
		{ "compress=zstd", "rw,relatime,compress=zstd:3,space_cache=v2", "" },
		{ "commit=30,datacow,datasum,nodiscard", "rw,relatime,space_cache=v2", "" },
		{ "commit=60", "rw,relatime,space_cache=v2", "commit=60" },
		{ "discard=async,ssd", "rw,relatime,space_cache=v2", "discard=async,ssd" },
		{ "nodiscard", "rw,relatime,discard=async,space_cache=v2", "nodiscard" },
		{ "nossd", "rw,relatime,nossd,space_cache=v2", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char absent[256] = "";
		mount_not_in_effect("btrfs", rows[i].asked, rows[i].shown, absent, sizeof absent);
		CHECK(strcmp(absent, rows[i].absent) == 0, "case %zu: \"%s\", want \"%s\"", i, absent,
		      rows[i].absent);
	}
}

int main(void)
{
	test_rows();
	test_check();
	test_commands();
	test_profiles();
	test_mount_options();
	return check_done("test_btrfs");
}
