/* test_limit: the disks' speed from block times (warm-up left out, the windows' spread) and
 * each level's streaming limit from its members' speeds. */
#include "check.h"
#include "core/model/level.h"
#include "core/figures/limit.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NEAR(a, b, eps) CHECK(fabs((a) - (b)) <= (eps), "got %g, want %g", (double)(a), (double)(b))

static void speeds(void)
{
	double t[64];
	struct speed_fig f;
	/* 1 MB blocks every 0.125 s: 8 MB/s, even windows */
	for (int i = 0; i < 64; i++)
		t[i] = 0.125 * (i + 1);
	CHECK_INT(speed_from_blocks(t, 64, 1e6, &f), 0);
	NEAR(f.mbps, 8.0, 1e-9);
	NEAR(f.rsd_pct, 0.0, 1e-9);
	NEAR(f.bytes, 64e6, 1e-3);
	/* a burst: the first 8 blocks at once (a throttle's allowance), then 8 MB/s: the burst
	 * lies in the warm-up and does not raise the figure */
	for (int i = 0; i < 8; i++)
		t[i] = 0.001 * (i + 1);
	for (int i = 8; i < 64; i++)
		t[i] = 0.008 + 0.125 * (i - 7);
	CHECK_INT(speed_from_blocks(t, 64, 1e6, &f), 0);
	NEAR(f.mbps, 8.0, 1e-6);
	/* uneven: the second half at half speed shows in the spread */
	for (int i = 0; i < 32; i++)
		t[i] = 0.1 * (i + 1);
	for (int i = 32; i < 64; i++)
		t[i] = 3.2 + 0.2 * (i - 31);
	CHECK_INT(speed_from_blocks(t, 64, 1e6, &f), 0);
	CHECK(f.rsd_pct > 20, "rsd %g", f.rsd_pct);
	/* too few blocks: no figure, not a division by zero */
	CHECK_INT(speed_from_blocks(t, 1, 1e6, &f), -1);
	CHECK(isnan(f.mbps), "mbps %g", f.mbps);
	CHECK_INT(speed_from_blocks(t, 0, 1e6, &f), -1);
	double zero[3] = { 0, 0, 0 };
	CHECK_INT(speed_from_blocks(zero, 3, 1e6, &f), -1);
}

static const struct {
	int level, devices, missing;
	const char *layout;
	enum limit_dir dir;
	double mbps[6];
	int n;
	double aggregate, want;
	const char *rule;
} rows[] = {
	{ LEVEL_NONE, 1, 0, "", LIMIT_WRITE, { 8 }, 1, NAN, 8, "one disk: 1 stream x the slowest member d0 (8.0 MB/s write)" },
	{ 0, 4, 0, "", LIMIT_WRITE, { 8, 8, 8, 8 }, 4, NAN, 32, "raid0 of 4, 0 missing: 4 streams x the slowest member d0 (8.0 MB/s write)" },
	{ 0, 4, 0, "", LIMIT_READ, { 8, 8, 8, 4 }, 4, NAN, 16, "raid0 of 4, 0 missing: 4 streams x the slowest member d3 (4.0 MB/s read)" },
	/* a shared bus: the members moved 20 MB/s at once, less than 4 x 8 */
	{ 0, 4, 0, "", LIMIT_WRITE, { 8, 8, 8, 8 }, 4, 20, 20, "raid0 of 4, 0 missing: 4 streams x what the 4 members moved at once (20.0 MB/s write), less than 4 x the slowest alone" },
	{ 1, 2, 0, "", LIMIT_WRITE, { 8, 6 }, 2, NAN, 6, "raid1 of 2, 0 missing: 1 stream x the slowest member d1 (6.0 MB/s write)" },
	{ 1, 3, 0, "", LIMIT_READ, { 8, 8, 8 }, 3, NAN, 8, NULL },
	{ 5, 4, 0, "", LIMIT_WRITE, { 8, 8, 8, 4 }, 4, NAN, 12, "raid5 of 4, 0 missing: 3 streams x the slowest member d3 (4.0 MB/s write)" },
	/* parity moves member bytes too: 4 members at 32 MB/s at once carry 24 of data */
	{ 5, 4, 0, "", LIMIT_WRITE, { 10, 10, 10, 10 }, 4, 32, 24, NULL },
	{ 6, 6, 2, "", LIMIT_WRITE, { 8, 8, 8, 8 }, 4, NAN, 32, "raid6 of 6, 2 missing: 4 streams x the slowest member d0 (8.0 MB/s write)" },
	{ 4, 3, 0, "", LIMIT_WRITE, { 8, 8, 8 }, 3, NAN, 16, NULL },
	{ 10, 4, 0, "", LIMIT_WRITE, { 8, 8, 8, 8 }, 4, NAN, 16, NULL },
	{ 10, 4, 0, "n2", LIMIT_READ, { 8, 8, 8, 8 }, 4, NAN, 16, NULL },
	{ 10, 4, 0, "f2", LIMIT_WRITE, { 8, 8, 8, 8 }, 4, NAN, 16, NULL },
	{ 10, 4, 0, "f2", LIMIT_READ, { 8, 8, 8, 8 }, 4, NAN, 32, NULL },
	{ 10, 6, 0, "n3", LIMIT_WRITE, { 8, 8, 8, 8, 8, 8 }, 6, NAN, 16, NULL },
};

static void limits(void)
{
	static const char *const names[] = { "d0", "d1", "d2", "d3", "d4", "d5" };
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct limit l;
		CHECK_INT(limit_of(rows[i].level, rows[i].devices, rows[i].missing, rows[i].layout,
				   rows[i].mbps, names, rows[i].n, rows[i].aggregate, rows[i].dir, &l), 0);
		NEAR(l.mbps, rows[i].want, 1e-9);
		if (rows[i].rule)
			CHECK_STR(l.rule, rows[i].rule);
	}
	struct limit l;
	double unknown[2] = { 8, NAN };
	CHECK_INT(limit_of(1, 2, 0, "", unknown, names, 2, NAN, LIMIT_WRITE, &l), -1);
	CHECK(isnan(l.mbps), "mbps %g", l.mbps);
	CHECK_STR(l.rule, "no limit measured: d1's write speed is unknown (disk_speed off, or its measurement failed)");
	double zero[1] = { 0 };
	CHECK_INT(limit_of(LEVEL_NONE, 1, 0, "", zero, names, 1, NAN, LIMIT_WRITE, &l), -1);
	CHECK_INT(limit_of(0, 2, 0, "", unknown, names, 0, NAN, LIMIT_WRITE, &l), -1);
	CHECK_STR(l.rule, "no member disk");
	CHECK_INT(limit_of(0, 2, 0, "", unknown, names, 1, NAN, LIMIT_NONE, &l), -1);
	CHECK_STR(l.rule, "not a streaming workload: no limit");
}

/* The figures measured at once count for a cell on the very disks measured together, not for
 * one on fewer: make run's one-disk cell among four taken disks was held to its share of the
 * four at once (73.8 MB/s where it wrote 477 alone) and shown at 158% of its limit. */
static void together(void)
{
	static struct disk_speeds s;
	memset(&s, 0, sizeof s);
	s.n = 4;
	for (int i = 0; i < 4; i++) {
		snprintf(s.name[i], sizeof s.name[i], "vd%c", 'b' + i);
		s.write[i].mbps = 400, s.read[i].mbps = 500;
		s.together_write[i].mbps = 100, s.together_read[i].mbps = 130;
	}
	const char *all[] = { "vde", "vdd", "vdc", "vdb" }, *one[] = { "vdb" }, *three[] = { "vdb", "vdc", "vdd" };
	NEAR(speeds_together(&s, all, 4, LIMIT_WRITE), 400, 1e-9);
	NEAR(speeds_together(&s, all, 4, LIMIT_READ), 520, 1e-9);
	CHECK(isnan(speeds_together(&s, one, 1, LIMIT_WRITE)), "one of four");
	CHECK(isnan(speeds_together(&s, three, 3, LIMIT_WRITE)), "three of four");
	const char *other[] = { "vdb", "vdc", "vdd", "sda" };
	CHECK(isnan(speeds_together(&s, other, 4, LIMIT_WRITE)), "a disk not measured");
	CHECK(isnan(speeds_together(&s, all, 4, LIMIT_NONE)), "no direction");
	/* so a one-disk cell's limit is what its disk gave alone */
	struct limit l;
	double alone[1] = { 400 };
	CHECK_INT(limit_of(LEVEL_NONE, 1, 0, "", alone, one, 1, speeds_together(&s, one, 1, LIMIT_WRITE),
			   LIMIT_WRITE, &l), 0);
	NEAR(l.mbps, 400, 1e-9);
}

int main(void)
{
	speeds();
	limits();
	together();
	return check_done("test_limit");
}
