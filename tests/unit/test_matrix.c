/* test_matrix.c: expansion of plans into cells: counts, ids, order, repetitions. */
#include "check.h"
#include "plan_text.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

static struct plan p;

static int load(const char *text)
{
	return plan_text("m.ini", text, &p);
}

/* The example plan: 1 array x (4 + 3 mount lines) x 2 workloads = 14 cells. */
static void test_issue_plan(void)
{
	static const char *const ids[] = {
		"md6-c16k/ext3/data=ordered,barrier=1,commit=4/untar",
		"md6-c16k/ext3/data=ordered,barrier=1,commit=4/dd",
		"md6-c16k/ext3/data=ordered,barrier=1,commit=60/untar",
		"md6-c16k/ext3/data=ordered,barrier=1,commit=60/dd",
		"md6-c16k/ext3/data=ordered,barrier=0,commit=60/untar",
		"md6-c16k/ext3/data=ordered,barrier=0,commit=60/dd",
		"md6-c16k/ext3/data=writeback,barrier=1,commit=4/untar",
		"md6-c16k/ext3/data=writeback,barrier=1,commit=4/dd",
		"md6-c16k/ext4/data=ordered,barrier=1,commit=4/untar",
		"md6-c16k/ext4/data=ordered,barrier=1,commit=4/dd",
		"md6-c16k/ext4/data=writeback,barrier=1,commit=4/untar",
		"md6-c16k/ext4/data=writeback,barrier=1,commit=4/dd",
		"md6-c16k/ext4/data=journal,barrier=1,commit=4/untar",
		"md6-c16k/ext4/data=journal,barrier=1,commit=4/dd",
	};
	struct cell c;

	CHECK_INT(plan_load("rootfs/plans/raid6-degraded-ext3-vs-ext4.ini", &p), 0);
	CHECK_INT(matrix_per_rep(&p), 14);
	CHECK_INT(matrix_count(&p), 14);
	for (int i = 0; i < 14; i++) {
		CHECK_INT(matrix_cell(&p, i, &c), 0);
		CHECK_STR(c.id, ids[i]);
		CHECK_INT(c.index, i);
		CHECK_INT(c.rep, 1);
		CHECK_INT(c.chunk, 16384);
	}
	CHECK_INT(matrix_cell(&p, 14, &c), -1);
	CHECK_INT(matrix_cell(&p, -1, &c), -1);
	/* Cell 10 by its parts. */
	matrix_cell(&p, 10, &c);
	CHECK_INT(c.array, 0);
	CHECK_INT(c.fs, 1);
	CHECK_INT(c.mount, 1);
	CHECK_INT(c.workload, 0);
}

/* Chunk lists, level none, default mounts, several sections, and repetitions outermost. */
static void test_axes(void)
{
	static const char text[] =
		"[global]\nrepeat = 3\n"
		"[array disk]\nlevel = none\n"
		"[array r5]\nlevel = 5\ndevices = 3\nchunk = 16k, 64k, 1m\n"
		"[array r1]\nlevel = 1\ndevices = 2\n"
		"[fs e2]\ntype = ext2\n"
		"[fs x]\ntype = xfs\nmount = noatime\nmount = noatime,logbsize=256k\n"
		"[workload w]\ntype = seqwrite\nsize = 1m\n";
	static const char *const ids[] = {
		"disk/e2/defaults/w", "disk/x/noatime/w", "disk/x/noatime,logbsize=256k/w",
		"r5-c16k/e2/defaults/w", "r5-c16k/x/noatime/w", "r5-c16k/x/noatime,logbsize=256k/w",
		"r5-c64k/e2/defaults/w", "r5-c64k/x/noatime/w", "r5-c64k/x/noatime,logbsize=256k/w",
		"r5-c1m/e2/defaults/w", "r5-c1m/x/noatime/w", "r5-c1m/x/noatime,logbsize=256k/w",
		"r1/e2/defaults/w", "r1/x/noatime/w", "r1/x/noatime,logbsize=256k/w",
	};
	struct cell c;

	CHECK_INT(load(text), 0);
	/* (1 + 3 chunks + 1) arrays x (1 + 2) mount slots x 1 workload, x 3 repetitions. */
	CHECK_INT(matrix_per_rep(&p), 15);
	CHECK_INT(matrix_count(&p), 45);
	for (int rep = 0; rep < 3; rep++)
		for (int i = 0; i < 15; i++) {
			CHECK_INT(matrix_cell(&p, rep * 15 + i, &c), 0);
			CHECK_STR(c.id, ids[i]);   /* the id does not carry the repetition */
			CHECK_INT(c.rep, rep + 1);
		}
	matrix_cell(&p, 44, &c);
	CHECK_INT(c.array, 2);
	CHECK_INT(c.chunk, 0);
	matrix_cell(&p, 15 + 10, &c);
	CHECK_INT(c.array, 1);
	CHECK_INT(c.chunk, 1 << 20);
	CHECK_INT(c.fs, 1);
	CHECK_INT(c.mount, 0);

	/* Ids are unique within a repetition. */
	struct cell a, b;
	for (int i = 0; i < 15; i++)
		for (int j = i + 1; j < 15; j++) {
			matrix_cell(&p, i, &a);
			matrix_cell(&p, j, &b);
			CHECK(strcmp(a.id, b.id) != 0, "cells %d and %d share %s", i, j, a.id);
		}
}

/* Several workloads and fs: workload is the innermost axis. */
static void test_order(void)
{
	static const char text[] =
		"[array a]\nlevel = 0\ndevices = 2\nchunk = 512k\n"
		"[fs f1]\ntype = ext3\n[fs f2]\ntype = ext4\n"
		"[workload w1]\ntype = seqwrite\nsize = 1m\n"
		"[workload w2]\ntype = smallfiles\nsize = 1m\n"
		"[workload w3]\ntype = tar\nfile = t.tar\n";
	static const char *const ids[] = {
		"a-c512k/f1/defaults/w1", "a-c512k/f1/defaults/w2", "a-c512k/f1/defaults/w3",
		"a-c512k/f2/defaults/w1", "a-c512k/f2/defaults/w2", "a-c512k/f2/defaults/w3",
	};
	struct cell c;

	CHECK_INT(load(text), 0);
	CHECK_INT(matrix_count(&p), 6);
	for (int i = 0; i < 6; i++) {
		matrix_cell(&p, i, &c);
		CHECK_STR(c.id, ids[i]);
	}
}

/* A plan of nwl workloads and the given sections, repeated rep times. */
static const char *big_plan(int narrays, int nchunks, int nfs, int nmounts, int nwl, int rep)
{
	static char text[256 * 1024];
	static const char *const chunks[] = { "4k", "8k", "16k", "32k", "64k", "128k", "256k",
		"512k", "1m", "2m", "4m", "8m", "16m", "32m", "64m", "128m" };
	size_t n = (size_t)snprintf(text, sizeof text, "[global]\nrepeat = %d\n", rep);
	for (int a = 0; a < narrays; a++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "[array a%d]\nlevel = 0\n"
				      "devices = 2\n", a);
		for (int c = 0; c < nchunks; c++)
			n += (size_t)snprintf(text + n, sizeof text - n, "%s%s%s",
					      c ? ", " : "chunk = ", chunks[c],
					      c == nchunks - 1 ? "\n" : "");
	}
	for (int f = 0; f < nfs; f++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "[fs f%d]\ntype = ext4\n", f);
		for (int m = 0; m < nmounts; m++)
			n += (size_t)snprintf(text + n, sizeof text - n, "mount = commit=%d\n",
					      m + 1);
	}
	for (int w = 0; w < nwl; w++)
		n += (size_t)snprintf(text + n, sizeof text - n, "[workload w%d]\n"
				      "type = seqwrite\nsize = 1m\n", w);
	return text;
}

/* A matrix past the limit is refused, with the factors it multiplies up from; at the limit
 * it is not. */
static void test_limit(void)
{
	static const struct {
		int arrays, chunks, fs, mounts, workloads, repeat;
		const char *err;   /* NULL: accepted */
	} rows[] = {
		{ 16, 16, 16, 16, 16, 1000, "the matrix has 1048576000 cells (16 arrays x 16 chunks "
		  "x 16 fs x 16 mounts x 16 workloads x repeat 1000), over the limit of 10000" },
		{ 1, 0, 1, 1, 10, 1000, NULL },
		{ 1, 0, 1, 1, 11, 1000, "the matrix has 11000 cells (1 array x 1 fs x 11 workloads "
		  "x repeat 1000), over the limit of 10000" },
		{ 2, 5, 4, 5, 5, 21, "the matrix has 21000 cells (2 arrays x 5 chunks x 4 fs x 5 "
		  "mounts x 5 workloads x repeat 21), over the limit of 10000" },
		{ 16, 16, 16, 16, 16, 1, "the matrix has 1048576 cells (16 arrays x 16 chunks x 16 "
		  "fs x 16 mounts x 16 workloads), over the limit of 10000" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *text = big_plan(rows[i].arrays, rows[i].chunks, rows[i].fs,
					    rows[i].mounts, rows[i].workloads, rows[i].repeat);
		int rc = plan_parse("m.ini", text, strlen(text), &p);
		if (!rows[i].err) {
			CHECK(rc == 0, "row %zu: %s", i, p.errors[0]);
			continue;
		}
		CHECK(rc == -1 && p.nerrors == 1, "row %zu: rc %d, %d errors", i, rc, p.nerrors);
		const char *msg = strchr(p.errors[0] + 5, ' ');
		CHECK(msg && strcmp(msg + 1, rows[i].err) == 0, "row %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], rows[i].err);
	}
	/* Sections of different sizes are counted as they are, not as a product. */
	CHECK_INT(load("[global]\nrepeat = 1000\n[array a]\nlevel = 0\ndevices = 2\n"
		       "chunk = 4k, 8k\n[array b]\nlevel = none\n[fs f]\ntype = ext4\n"
		       "mount = noatime\nmount = relatime\nmount = sync\n[fs g]\ntype = xfs\n"
		       "[workload w]\ntype = seqwrite\nsize = 1m\n"), -1);
	CHECK_STR(p.errors[0], "m.ini:18: the matrix has 12000 cells (2 arrays with 3 chunk "
		  "sizes in all x 2 fs with 4 mounts in all x 1 workload x repeat 1000), over the "
		  "limit of 10000");
}

int main(void)
{
	test_issue_plan();
	test_axes();
	test_order();
	test_limit();
	return check_done("test_matrix");
}
