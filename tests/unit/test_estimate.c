/* test_estimate.c: the time model (core/matrix/estimate.c) against the formulas of docs/plans.md
 * ("Time estimate"): md's resync at the member's rate up to sync_speed_max, what mkfs writes
 * as mke2fs and mkfs.xfs size it, the workload at the array's data members' rate, relative
 * sizes on the model's machine, create/resync/mkfs charged only to the cells that pay them
 * under reuse, and the ETA's scaling. */
#include "check.h"
#include "plan_text.h"
#include "core/matrix/estimate.h"
#include "core/model/plan.h"
#include "core/matrix/reuse.h"
#include "core/parse/plan_parse.h"
#include <math.h>

#define MIB (1024.0 * 1024)
#define GIB (1024.0 * MIB)
#define TIB (1024.0 * GIB)

static struct plan p;

static int load(const char *text)
{
	return plan_text("e.ini", text, &p);
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-6 * fabs(want) + 1e-9;
}

static const struct cell_case {
	const char *array;        /* the [array] section's keys */
	const char *fs;           /* [fs] keys */
	double disk;              /* bytes per member */
	double mbps;              /* MB/s (10^6) per member */
	double want_resync_s;
	double want_mkfs_bytes;
	double want_fs_free;
} cell_cases[] = {
	/* resync: member / min(rate, 200000 KiB/s); 200 MB/s is under the cap */
	{ "level = 5\ndevices = 12\n", "type = ext4\n", 4 * TIB, 200, 4 * TIB / 200e6,
	  44 * TIB / 65536 * 256 + 262144 * 4096.0, (44 * TIB - 44 * TIB / 256 - GIB) * 0.95 },
	/* 300 MB/s is over it: md's limit sets the pace */
	{ "level = 5\ndevices = 12\n", "type = xfs\n", 4 * TIB, 300, 4 * TIB / (200000 * 1024.0),
	  2 * GIB, 44 * TIB - 2 * GIB },
	/* ext2 has no journal; a 1 TiB raid1 is "default" (16384 bytes per inode) */
	{ "level = 1\ndevices = 2\n", "type = ext2\n", TIB, 100, TIB / 100e6,
	  TIB / 16384 * 256, (TIB - TIB / 64) * 0.95 },
	/* the plan's -i, -I and -m are mke2fs's */
	{ "level = 6\ndevices = 6\n", "type = ext3\nmkfs = -i 65536 -I 512 -m 1\n", TIB, 100,
	  TIB / 100e6, 4 * TIB / 65536 * 512 + 262144 * 4096.0,
	  (4 * TIB - 4 * TIB / 128 - GIB) * 0.99 },
	/* an -m over mke2fs's 50% (which it refuses, failing the cell) counts as 50: never
	 * less than nothing free */
	{ "level = 6\ndevices = 6\n", "type = ext3\nmkfs = -i 65536 -I 512 -m 210\n", TIB, 100,
	  TIB / 100e6, 4 * TIB / 65536 * 512 + 262144 * 4096.0,
	  (4 * TIB - 4 * TIB / 128 - GIB) * 0.5 },
	/* -J size= is the journal's size in MiB */
	{ "level = 5\ndevices = 12\n", "type = ext4\nmkfs = -i 4194304 -J size=64\n", 64 * GIB, 100,
	  64 * GIB / 100e6, 704 * GIB / 4194304 * 256 + 64 * MIB,
	  (704 * GIB - 704 * GIB / 16384 - 64 * MIB) * 0.95 },
	/* "big" past 4 TiB: 32768 bytes per inode; raid10 n2 keeps half */
	{ "level = 10\ndevices = 12\nlayout = n2\n", "type = ext4\n", TIB, 150, TIB / 150e6,
	  6 * TIB / 32768 * 256 + 262144 * 4096.0, (6 * TIB - 6 * TIB / 128 - GIB) * 0.95 },
	/* xfs: its log is fs / 2048 from 16 GiB; 10 MiB below */
	{ "level = 0\ndevices = 2\n", "type = xfs\n", 50 * GIB, 100, 0, 100 * GIB / 2048,
	  100 * GIB - 100 * GIB / 2048 },
	{ "level = none\n", "type = xfs\n", 8 * GIB, 100, 0, 10 * MIB, 8 * GIB - 10 * MIB },
	/* a degraded raid5 short of its redundancy has nothing to resync */
	{ "level = 5\ndevices = 3\nmissing = 1\n", "type = xfs\n", 64 * GIB, 100, 0, 64 * MIB,
	  128 * GIB - 64 * MIB },
};

static void test_cells(void)
{
	for (size_t i = 0; i < sizeof cell_cases / sizeof cell_cases[0]; i++) {
		const struct cell_case *t = &cell_cases[i];
		char text[1024];
		struct estimate_model m;
		struct cell c;
		struct cell_est e;
		snprintf(text, sizeof text, "[array a]\n%s[fs f]\n%s[workload w]\ntype = seqwrite\n"
			 "size = 10g\n", t->array, t->fs);
		if (load(text) != 0)
			continue;
		estimate_model_default(&m);
		m.disk_bytes = t->disk;
		m.disk_mbps = t->mbps * 1e6 / MIB;
		matrix_cell(&p, 0, &c);
		cell_estimate_parts(&p, &c, &m, REUSE_NONE, &e);
		CHECK(near(e.resync_s, t->want_resync_s), "case %zu: resync %.3f s, want %.3f", i,
		      e.resync_s, t->want_resync_s);
		CHECK(near(e.mkfs_bytes, t->want_mkfs_bytes), "case %zu: mkfs writes %.0f, want %.0f",
		      i, e.mkfs_bytes, t->want_mkfs_bytes);
		CHECK(near(e.fs_free, t->want_fs_free), "case %zu: free %.0f, want %.0f", i,
		      e.fs_free, t->want_fs_free);
		/* mkfs and the stream at the data members' rate */
		double rate = e.fs_bytes / t->disk * m.disk_mbps;
		CHECK(near(e.mkfs_s, m.mkfs_s + e.mkfs_bytes / MIB / rate), "case %zu: mkfs %.3f s",
		      i, e.mkfs_s);
		CHECK(near(e.workload_s, 10 * 1024 / rate), "case %zu: workload %.3f s", i,
		      e.workload_s);
		CHECK(near(e.total_s, e.create_s + e.resync_s + e.mkfs_s + e.workload_s + e.other_s),
		      "case %zu: the parts sum to the total", i);
		CHECK(near(cell_estimate(&p, &c, &m, NULL), e.total_s), "case %zu: cell_estimate", i);
	}
}

static const struct size_case {
	const char *size;
	double mem;
	double want;
} size_cases[] = {
	{ "2x ram", GIB, 2 * GIB },
	{ "2x ram", 64 * GIB, 128 * GIB },
	{ "1g", 64 * GIB, GIB },
	/* 10% of an xfs over 4 x 1 TiB of raid5 data, less its 2 GiB log, in whole MiB */
	{ "10% fs", GIB, floor((3 * TIB - 1.5 * GIB) / 10 / MIB) * MIB },
};

static void test_sizes(void)
{
	for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
		char text[512];
		struct estimate_model m;
		struct cell c;
		snprintf(text, sizeof text, "[array a]\nlevel = 5\ndevices = 4\n[fs f]\ntype = xfs\n"
			 "[workload w]\ntype = seqwrite\nsize = %s\n", size_cases[i].size);
		if (load(text) != 0)
			continue;
		estimate_model_default(&m);
		m.mem_bytes = size_cases[i].mem;
		m.disk_bytes = TIB;
		matrix_cell(&p, 0, &c);
		double got = (double)est_workload_size(&p, &c, &m);
		CHECK(near(got, size_cases[i].want), "%s: %.0f, want %.0f", size_cases[i].size, got,
		      size_cases[i].want);
	}
}

/* 4 filesystems on one raid5, 2 repetitions: reuse = array creates and resyncs 2 arrays,
 * each cell its own mkfs; reuse = fs makes one filesystem per cell still (four fs
 * sections); reuse = none pays everything 8 times. */
static const struct reuse_case {
	const char *reuse;
	int arrays, filesystems;
} reuse_cases[] = {
	{ "array", 2, 8 },
	{ "fs", 2, 8 },
	{ "none", 8, 8 },
};

static void test_reuse(void)
{
	for (size_t i = 0; i < sizeof reuse_cases / sizeof reuse_cases[0]; i++) {
		const struct reuse_case *t = &reuse_cases[i];
		char text[1024];
		struct estimate_model m;
		struct run_est r;
		snprintf(text, sizeof text, "[global]\nrepeat = 2\nreuse = %s\n[array r5]\nlevel = 5\n"
			 "devices = 4\n[fs e2]\ntype = ext2\n[fs e3]\ntype = ext3\n[fs e4]\ntype = ext4\n"
			 "[fs x]\ntype = xfs\n[workload w]\ntype = seqwrite\nsize = 1g\n", t->reuse);
		if (load(text) != 0)
			continue;
		estimate_model_default(&m);
		m.disk_bytes = TIB;
		m.disk_mbps = 100;
		run_estimate(&p, &m, &r);
		CHECK_INT(r.arrays, t->arrays);
		CHECK_INT(r.filesystems, t->filesystems);
		double one = TIB / MIB / 100;
		CHECK(near(r.resync_s, t->arrays * one), "%s: resync %.1f s, want %.1f", t->reuse,
		      r.resync_s, t->arrays * one);
		CHECK(near(r.longest_resync_s, one), "%s: one resync %.1f", t->reuse,
		      r.longest_resync_s);
		CHECK(near(r.total_noreuse_s - r.total_s, (8 - t->arrays) * (one + m.create_s)),
		      "%s: reuse saves %.1f s", t->reuse, r.total_noreuse_s - r.total_s);
		double est[8], sum = 0;
		run_estimate_cells(&p, &m, NULL, est);
		for (int k = 0; k < 8; k++)
			sum += est[k];
		CHECK(near(sum, r.total_s), "%s: the cells sum to the run", t->reuse);
	}
}

static int odd(int i)
{
	return i % 2;
}

/* A shard's cells are charged against the last cell it took, not the plan's neighbour. */
static void test_shard_cells(void)
{
	struct estimate_model m;
	double est[8];
	CHECK_INT(load("[global]\nrepeat = 2\n[array r5]\nlevel = 5\ndevices = 4\n"
		       "[fs e2]\ntype = ext2\n[fs e3]\ntype = ext3\n[fs e4]\ntype = ext4\n"
		       "[fs x]\ntype = xfs\n[workload w]\ntype = seqwrite\nsize = 1g\n"), 0);
	estimate_model_default(&m);
	run_estimate_cells(&p, &m, odd, est);
	double resync = m.disk_bytes / MIB / m.resync_mbps;
	CHECK(est[0] == 0 && est[2] == 0, "cells not taken: %g %g", est[0], est[2]);
	CHECK(est[1] > resync && est[3] < resync, "the shard's first cell of a repetition "
	      "resyncs (%g), the next does not (%g)", est[1], est[3]);
}

static const struct eta_case {
	double elapsed, done, left, want;
} eta_cases[] = {
	{ 100, 50, 200, 400 },     /* twice as slow as the model */
	{ 10, 40, 80, 20 },        /* four times as fast */
	{ 0, 0, 100, -1 },         /* nothing measured yet */
	{ 30, 30, 0, 0 },
};

static void test_eta(void)
{
	for (size_t i = 0; i < sizeof eta_cases / sizeof eta_cases[0]; i++) {
		const struct eta_case *t = &eta_cases[i];
		double got = eta_seconds(t->elapsed, t->done, t->left);
		CHECK(near(got, t->want), "case %zu: %g, want %g", i, got, t->want);
	}
}

int main(void)
{
	test_cells();
	test_sizes();
	test_reuse();
	test_shard_cells();
	test_eta();
	return check_done("test_estimate");
}
