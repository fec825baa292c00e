/* test_kcidb.c: how results are named in KCIDB (core/figures/kcidb.c): origins, test paths (one to
 * one, and within the schema's pattern), numbers with their units, statuses, and the Debian
 * and upstream versions of a kernel's version string. */
#include "check.h"
#include "core/figures/kcidb.h"
#include "core/model/kversion.h"

#include <regex.h>
#include <stdlib.h>

/* kcidb-io v05_03's test path pattern, as its schema writes it */
static int path_ok(const char *p)
{
	regex_t re;
	if (regcomp(&re, "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$", REG_EXTENDED | REG_NOSUB))
		return 0;
	int ok = regexec(&re, p, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

static void test_origin(void)
{
	static const struct { const char *s; int ok; } rows[] = {
		{ "fsmatrix", 1 }, { "my_lab2", 1 }, { "0", 1 }, { "", 0 }, { "Lab", 0 },
		{ "my-lab", 0 }, { "lab:x", 0 }, { "lab ", 0 }, { "l\xc3\xa4", 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(kcidb_origin_ok(rows[i].s) == rows[i].ok, "row %zu \"%s\"", i, rows[i].s);
	CHECK(!kcidb_origin_ok(NULL), "NULL");
}

static void test_path(void)
{
	static const struct { const char *cell, *metric, *want; } rows[] = {
		{ "disk/ext4/defaults/seq", "mbps", "fsmatrix.disk.ext4.defaults.seq.mbps" },
		/* the kernel set is the build, not the path */
		{ "disk/ext4/defaults/seq@6.12", "mbps", "fsmatrix.disk.ext4.defaults.seq.mbps" },
		{ "r5-c64k/ext4/data=ordered,barrier=1,commit=4/untar", "time_s",
		  "fsmatrix.r5-c64k.ext4.data_3Dordered_2Cbarrier_3D1_2Ccommit_3D4.untar.time_s" },
		{ "r5-c512k-scs4096/xfs/su=64k/fio", "read_mbps",
		  "fsmatrix.r5-c512k-scs4096.xfs.su_3D64k.fio.read_mbps" },
		/* a '.' of a name is no node boundary */
		{ "disk/ext4/commit=1.5/seq", NULL, "fsmatrix.disk.ext4.commit_3D1_2E5.seq" },
		/* '_' stays unless two upper-case hex digits follow it: then it is escaped too */
		{ "a_1A/b_1a/c_/d", NULL, "fsmatrix.a_5F1A.b_1a.c_.d" },
		{ "a//b", NULL, "fsmatrix.a._.b" },
		{ "x@y/z", NULL, "fsmatrix.x_40y.z" },
		{ "sp ace/\xc3\xa4", NULL, "fsmatrix.sp_20ace._C3_A4" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[256];
		CHECK(kcidb_test_path(rows[i].cell, rows[i].metric, buf, sizeof buf) == 0, "row %zu", i);
		CHECK_STR(buf, rows[i].want);
		CHECK(path_ok(buf), "row %zu: %s is no KCIDB path", i, buf);
	}
	char small[12];
	CHECK(kcidb_test_path("disk/ext4/defaults/seq", "mbps", small, sizeof small) == -1, "too small");
	/* one to one: ids that differ give nodes that differ (all 3-byte strings over bytes
	 * that the escape itself writes) */
	static const char alpha[] = "_A1F3a=.";
	enum { NA = sizeof alpha - 1, NS = NA * NA * NA };
	static char seen[NS][16];
	size_t ns = 0;
	for (size_t a = 0; a < NA; a++)
		for (size_t b = 0; b < NA; b++)
			for (size_t c = 0; c < NA; c++) {
				char id[4] = { alpha[a], alpha[b], alpha[c], 0 };
				if (kcidb_path_node(id, 3, seen[ns], sizeof seen[ns]) < 0) {
					CHECK(0, "node of %s", id);
					continue;
				}
				for (size_t k = 0; k < ns; k++)
					if (strcmp(seen[k], seen[ns]) == 0)
						CHECK(0, "%s maps to %s as another id did", id, seen[ns]);
				ns++;
			}
	CHECK_INT(ns, NS);
}

static void test_number(void)
{
	static const struct { double v; const char *unit, *want_unit, *prefix; double want; } rows[] = {
		{ 32.7, "MB/s", "B/s", "metric", 32.7e6 },
		{ 250, "us", "s", "metric", 250e-6 },
		{ 1.25, "s", "s", "metric", 1.25 },
		{ 880, "files/s", "files/s", "metric", 880 },
		{ 4100, "IOPS", "IOPS", "metric", 4100 },
		{ 3, "widgets", "widgets", NULL, 3 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct kcidb_number n;
		kcidb_number(rows[i].v, rows[i].unit, &n);
		CHECK(n.value > rows[i].want * 0.999999 && n.value < rows[i].want * 1.000001,
		      "row %zu: %g, want %g", i, n.value, rows[i].want);
		CHECK_STR(n.unit, rows[i].want_unit);
		CHECK(rows[i].prefix ? n.prefix && strcmp(n.prefix, rows[i].prefix) == 0 : !n.prefix,
		      "row %zu prefix", i);
	}
}

static void test_status(void)
{
	static const char *const rows[][2] = {
		{ "ok", "DONE" }, { "error", "ERROR" }, { "timeout", "ERROR" }, { "skipped", "SKIP" },
		{ "hung", "FAIL" }, { "interrupted", "MISS" }, { "missing", "MISS" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK_STR(kcidb_status(rows[i][0]), rows[i][1]);
	CHECK_STR(kcidb_status(NULL), "MISS");
	/* over a cell's repetitions: one failed beside ok ones is no DONE */
	static const struct { int ok, failed; const char *status, *want; } cells[] = {
		{ 3, 0, "ok", "DONE" }, { 2, 1, "ok", "ERROR" }, { 1, 2, "ok", "ERROR" },
		{ 0, 3, "error", "ERROR" }, { 0, 3, "timeout", "ERROR" }, { 0, 1, "skipped", "SKIP" },
		{ 0, 0, "missing", "MISS" }, { 0, 0, "interrupted", "MISS" },
	};
	for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
		CHECK_STR(kcidb_cell_status(cells[i].ok, cells[i].failed, cells[i].status), cells[i].want);
}

static void test_versions(void)
{
	static const struct { const char *v, *deb, *up, *tag, *branch; } rows[] = {
		{ "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)", "6.1.192-3", "6.1.192",
		  "v6.1.192", "linux-6.1.y" },
		{ "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14)",
		  "6.12.117-1~deb12u1", "6.12.117", "v6.12.117", "linux-6.12.y" },
		{ "#1 SMP Debian 6.13~rc3-1~exp1 (2025-01-01)", "6.13~rc3-1~exp1", "6.13~rc3",
		  "v6.13-rc3", "linux-6.13.y" },
		{ "#1 SMP PREEMPT_DYNAMIC Wed Dec 3 10:00:00 UTC 2026", "", "", "", "" },
		{ "#1 SMP Debian 6.1.192 (2026-11-26)", "", "", "", "" },
		{ "#1 SMP Debian -3 (x)", "", "", "", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char deb[64], up[64], tag[64], br[64];
		int rc = kversion_debian(rows[i].v, deb, sizeof deb, up, sizeof up);
		CHECK(rc == (rows[i].deb[0] ? 0 : -1), "row %zu: rc %d", i, rc);
		CHECK_STR(deb, rows[i].deb);
		CHECK_STR(up, rows[i].up);
		if (rc == 0) {
			CHECK(kversion_git(up, tag, sizeof tag, br, sizeof br) == 0, "row %zu git", i);
			CHECK_STR(tag, rows[i].tag);
			CHECK_STR(br, rows[i].branch);
		}
	}
	static const char *const bad[] = { "", "6", "six.1", "-6.1.2", " 6.1.2", "6.1.2.3", "6.1rc" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char tag[64] = "x", br[64] = "x";
		CHECK(kversion_git(bad[i], tag, sizeof tag, br, sizeof br) == -1, "\"%s\"", bad[i]);
		CHECK_STR(tag, "");
	}
}

int main(void)
{
	test_origin();
	test_path();
	test_number();
	test_status();
	test_versions();
	return check_done("test_kcidb");
}
