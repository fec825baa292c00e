/* test_lvm.c: lvm's levels (core/model/level.c's lvm rows) and their commands
 * (core/command/lvmcmd.c): each level's pvcreate, vgcreate and lvcreate as `check` shows
 * them and the cell runs them, the stripe geometry mkfs gets, the limit's streams, the
 * modules, what an LV can hold, the plans `check` refuses (FILE:LINE), and dm-raid's status
 * line. */
#include "check.h"
#include "lib/argv.h"
#include "core/command/cellcmd.h"
#include "core/command/geometry.h"
#include "core/command/lvmcmd.h"
#include "core/figures/limit.h"
#include "core/matrix/matrix.h"
#include "core/model/level.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

static struct plan p;

#define TAIL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"
#define DEVS "--devices /dev/vdb,/dev/vdc,/dev/vdd,/dev/vde,/dev/vdf"

static const char *const disks[] = { "/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde",
				     "/dev/vdf", "/dev/vdg" };

static int parse(const char *text)
{
	return plan_parse("t.ini", text, strlen(text), &p);
}

static const struct lvm_case {
	const char *plan;          /* the [array a] keys */
	const char *lvcreate;      /* its lvcreate after "lvm lvcreate --devices D --yes " */
	int data;                  /* data disks of its geometry, 0 for none derived */
	double streams_write, streams_read;
	const char *modules;
} cases[] = {
	{ "level = lvm-linear\ndevices = 5\n",
	  "--type linear --extents=100%FREE --name=lv fsm", 0, 1, 1, "dm_mod" },
	{ "level = lvm-striped\ndevices = 5\n",
	  "--type striped --stripes=5 --stripesize=64k --extents=100%FREE --name=lv fsm", 5, 5, 5,
	  "dm_mod" },
	{ "level = lvm-raid1\ndevices = 5\n",
	  "--type raid1 --mirrors=4 --extents=100%FREE --name=lv fsm", 0, 1, 1, "dm_raid raid1" },
	{ "level = lvm-raid5\ndevices = 5\nchunk = 128k\n",
	  "--type raid5 --stripes=4 --stripesize=128k --extents=100%FREE --name=lv fsm", 4, 4, 4,
	  "dm_raid raid456" },
	{ "level = lvm-raid6\ndevices = 5\nlv_size = 1g\n",
	  "--type raid6 --stripes=3 --stripesize=64k --size=1073741824b --name=lv fsm", 3, 3, 3,
	  "dm_raid raid456" },
	{ "level = lvm-raid10\ndevices = 4\nchunk = 256k\n",
	  "--type raid10 --stripes=2 --stripesize=256k --mirrors=1 --extents=100%FREE --name=lv fsm",
	  2, 2, 2, "dm_raid raid10" },
};

static void test_commands(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct lvm_case *k = &cases[i];
		char text[512], got[512], want[512], err[400] = "";
		struct argv a[LVM_STEPS];
		struct cell c;
		snprintf(text, sizeof text, "[array a]\n%s" TAIL, k->plan);
		CHECK(parse(text) == 0, "case %zu: %s", i, p.errors[0]);
		CHECK_INT(matrix_cell(&p, 0, &c), 0);
		const struct plan_array *ar = &p.arrays[0];
		CHECK_INT(lvm_create_argv(&p, &c, disks, 6, 0, a, err, sizeof err), 0);
		const char *devs = ar->devices == 5 ? DEVS : "--devices /dev/vdb,/dev/vdc,/dev/vdd,/dev/vde";
		argv_join(&a[LVM_LVCREATE], got, sizeof got);
		snprintf(want, sizeof want, "lvm lvcreate %s --yes %s", devs, k->lvcreate);
		CHECK_STR(got, want);
		argv_join(&a[LVM_PVCREATE], got, sizeof got);
		CHECK(strncmp(got, "lvm pvcreate ", 13) == 0 && strstr(got, devs) &&
		      strstr(got, ar->devices == 5 ? "--yes /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf"
			     : "--yes /dev/vdb /dev/vdc /dev/vdd /dev/vde") && !strstr(got, "vdg"),
		      "case %zu: %s", i, got);
		argv_join(&a[LVM_VGCREATE], got, sizeof got);
		CHECK(strstr(got, "lvm vgcreate --devices ") == got && strstr(got, " --yes fsm /dev/vdb "),
		      "case %zu: %s", i, got);
		/* mkfs gets the LV, with the LV's stripe: its stripe size times its data stripes */
		CHECK_STR(cell_target(&p, &c, "/dev/md0", disks), LVM_DEV);
		struct argv m;
		struct geometry g;
		struct warnings w = { 0 };
		CHECK_INT(cell_mkfs_argv(&p, &c, LVM_DEV, &m, &g, &w, err, sizeof err), 0);
		CHECK_INT(g.valid ? g.data_disks : 0, k->data);
		if (k->data) {
			uint64_t chunk = ar->nchunk ? ar->chunk[0] : 65536;
			snprintf(want, sizeof want, "stride=%llu,stripe_width=%llu",
				 (unsigned long long)(chunk / 4096),
				 (unsigned long long)(chunk / 4096 * (uint64_t)k->data));
			argv_join(&m, got, sizeof got);
			CHECK(strstr(got, want) != NULL, "case %zu: %s lacks %s", i, got, want);
		}
		CHECK(limit_streams(ar->level, ar->devices, "", LIMIT_WRITE) == k->streams_write,
		      "case %zu: write streams %g", i, limit_streams(ar->level, ar->devices, "",
								       LIMIT_WRITE));
		CHECK(limit_streams(ar->level, ar->devices, "", LIMIT_READ) == k->streams_read,
		      "case %zu: read streams", i);
		const char *names[4];
		int n = level_modules(&ar->level, 1, names, 4);
		got[0] = '\0';
		for (int j = 0; j < n; j++)
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", j ? " " : "",
				 names[j]);
		CHECK_STR(got, k->modules);
		/* no mdadm */
		CHECK_INT(cell_mdadm_argv(&p, &c, "/dev/md0", disks, 6, &m, err, sizeof err), 0);
		CHECK_INT(m.n, 0);
	}
}

/* resync = assume-clean is lvcreate --nosync where the level has redundancy. */
static void test_nosync(void)
{
	struct argv a[LVM_STEPS];
	struct cell c;
	char err[400], got[512];
	CHECK(parse("[global]\nresync = assume-clean\n[array a]\nlevel = lvm-raid5\ndevices = 3\n"
		    TAIL) == 0, "%s", p.errors[0]);
	matrix_cell(&p, 0, &c);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 3, 0, a, err, sizeof err), 0);
	argv_join(&a[LVM_LVCREATE], got, sizeof got);
	CHECK(strstr(got, " --stripesize=64k --nosync --extents=100%FREE ") != NULL, "%s", got);
	CHECK(parse("[global]\nresync = assume-clean\n[array a]\nlevel = lvm-striped\ndevices = 3\n"
		    TAIL) == 0, "%s", p.errors[0]);
	matrix_cell(&p, 0, &c);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 3, 0, a, err, sizeof err), 0);
	argv_join(&a[LVM_LVCREATE], got, sizeof got);
	CHECK(!strstr(got, "--nosync"), "striped has nothing to sync: %s", got);
}

/* What an LV holds on PVs of 1 GiB: 255 extents of 4 MiB after the first MiB, less one per
 * leg for a raid level's metadata. */
static void test_capacity(void)
{
	uint64_t g = 1ull << 30, mib = 1ull << 20;
	CHECK_INT(lvm_capacity(LEVEL_LVM + 0, 3, g) / mib, 3 * 255 * 4);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 1, 3, g) / mib, 3 * 255 * 4);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 2, 3, g) / mib, 254 * 4);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 3, 3, g) / mib, 2 * 254 * 4);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 4, 5, g) / mib, 3 * 254 * 4);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 5, 4, g) / mib, 2 * 254 * 4);
	CHECK_INT(lvm_capacity(5, 3, g), 0);
	CHECK_INT(lvm_capacity(LEVEL_LVM + 3, 3, mib), 0);
}

/* Each refused before a disk is written, naming the plan's line. */
static void test_refused(void)
{
	static const struct { const char *text; const char *err; } bad[] = {
		{ "[array a]\nlevel = lvm-raid10\ndevices = 5\n" TAIL,
		  "t.ini:3: [array a]: lvm-raid10 is made of mirrored pairs of disks: devices = 5 is odd" },
		{ "[global]\nresync = assume-clean\n[array a]\nlevel = lvm-raid6\ndevices = 5\n" TAIL,
		  "t.ini:2: [array a]: resync = assume-clean: lvm makes no lvm-raid6 without its sync "
		  "(lvcreate --nosync is refused for raid6)" },
		{ "[array a]\nlevel = lvm-raid6\ndevices = 4\n" TAIL,
		  "t.ini:3: [array a]: lvm-raid6 needs at least 5 devices, plan gives 4" },
		{ "[array a]\nlevel = lvm-raid5\ndevices = 2\n" TAIL,
		  "t.ini:3: [array a]: lvm-raid5 needs at least 3 devices, plan gives 2" },
		{ "[array a]\nlevel = lvm-raid4\ndevices = 3\n" TAIL,
		  "t.ini:2: level: lvm offers lvm-linear, lvm-striped, lvm-raid1, lvm-raid5, lvm-raid6 "
		  "or lvm-raid10 (level = lvm-raid4)" },
		{ "[array a]\nlevel = 5\ndevices = 3\nlv_size = 1g\n" TAIL,
		  "t.ini:4: [array a]: \"lv_size\" does not apply to raid5" },
		{ "[array a]\nlevel = lvm-raid5\ndevices = 3\nmissing = 1\n" TAIL,
		  "t.ini:4: [array a]: \"missing\" does not apply to lvm-raid5" },
		{ "[array a]\nlevel = lvm-raid5\ndevices = 3\nlv_size = 1m\n" TAIL,
		  "t.ini:4: lv_size: expected at least 4m (lv_size = 1m)" },
		{ "[array a]\nlevel = lvm-raid1\ndevices = 2\nlayers = ssd\n[layer ssd]\ntype = cache\n"
		  "cache = 2\n" TAIL,
		  "t.ini:4: layers: [layer ssd]'s cache disk 2 is a member of the array (its members "
		  "are disks 1 to 2): give cache = 3 or more (layers = ssd)" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(parse(bad[i].text) < 0, "case %zu parses", i);
		size_t n = strlen(bad[i].err);
		const char *dots = strstr(bad[i].err, "...");
		if (dots)
			n = (size_t)(dots - bad[i].err);
		CHECK(strncmp(p.errors[0], bad[i].err, n) == 0, "case %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], bad[i].err);
	}
	/* An LV bigger than its VG: refused with the disks' size known (check's --disk-size, or
	 * the smallest taken disk at a boot), before any command runs. */
	struct argv a[LVM_STEPS];
	struct cell c;
	char err[400];
	CHECK(parse("[array a]\nlevel = lvm-raid5\ndevices = 3\nlv_size = 2033m\n" TAIL) == 0, "%s",
	      p.errors[0]);
	matrix_cell(&p, 0, &c);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 3, 0, a, err, sizeof err), 0);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 3, 1ull << 30, a, err, sizeof err), -1);
	CHECK_STR(err, "t.ini:4: [array a] lv_size = 2040 MiB: more than lvm-raid5 over 3 disks of "
		  "1024 MiB holds (2032 MiB in extents of 4 MiB, less one per leg for a raid's "
		  "metadata)");
	CHECK_INT(a[LVM_PVCREATE].n, 0);
	CHECK(parse("[array a]\nlevel = lvm-raid5\ndevices = 3\nlv_size = 2032m\n" TAIL) == 0, "%s",
	      p.errors[0]);
	matrix_cell(&p, 0, &c);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 3, 1ull << 30, a, err, sizeof err), 0);
	CHECK_INT(lvm_create_argv(&p, &c, disks, 2, 1ull << 30, a, err, sizeof err), -1);
}

static void test_remove(void)
{
	struct argv v, pv, lvs;
	char got[512];
	lvm_remove_argv(disks, 2, &v, &pv);
	argv_join(&v, got, sizeof got);
	CHECK_STR(got, "lvm vgremove --devices /dev/vdb,/dev/vdc --yes --force fsm");
	argv_join(&pv, got, sizeof got);
	CHECK_STR(got, "lvm pvremove --devices /dev/vdb,/dev/vdc --yes /dev/vdb /dev/vdc");
	lvm_lvs_argv(disks, 2, &lvs);
	argv_join(&lvs, got, sizeof got);
	CHECK_STR(got, "lvm lvs --devices /dev/vdb,/dev/vdc --noheadings --nosuffix --units=b "
		  "\"--separator= \" --options=segtype,stripes,stripe_size,region_size,lv_size fsm/lv");
}

static void test_status(void)
{
	struct lvm_raid_status st;
	CHECK_INT(lvm_raid_status_parse("0 4161536 raid raid5_ls 3 aaa 1048576/2080768 resync 0 0 -",
					&st), 0);
	CHECK_STR(st.type, "raid5_ls");
	CHECK_INT(st.devices, 3);
	CHECK_INT(st.done, 1048576);
	CHECK_INT(st.total, 2080768);
	CHECK_STR(st.action, "resync");
	CHECK_INT(lvm_raid_in_sync(&st), 0);
	CHECK_INT(lvm_raid_status_parse("0 4161536 raid raid5_ls 3 AAA 2080768/2080768 idle 0 0 -",
					&st), 0);
	CHECK_INT(lvm_raid_in_sync(&st), 1);
	CHECK_INT(lvm_raid_status_parse("0 4161536 raid raid1 2 AD 2080768/2080768 idle 0 0 -",
					&st), 0);
	CHECK_INT(lvm_raid_in_sync(&st), 0);
	CHECK_INT(lvm_raid_status_parse("0 4161536 raid raid5_ls 3 AA 2080768/2080768 idle 0 0 -",
					&st), -1);
	CHECK_INT(lvm_raid_status_parse("0 4161536 striped 2 128 254:0 0 254:1 0", &st), -1);
	CHECK_INT(lvm_raid_status_parse("0 8 raid raid1 2 AA 9/8 idle 0 0 -", &st), -1);
	CHECK_INT(lvm_raid_status_parse("", &st), -1);
}

static void test_lvs(void)
{
	struct lvm_lv lv;
	CHECK_INT(lvm_lvs_parse("  raid5 3 65536 2097152 2080374784\n", &lv), 0);
	CHECK_STR(lv.segtype, "raid5");
	CHECK_INT(lv.stripes, 3);
	CHECK_INT(lv.stripe_size, 65536);
	CHECK_INT(lv.region_size, 2097152);
	CHECK_INT(lv.lv_size, 2080374784);
	CHECK_INT(lvm_lvs_parse("  linear 1 0 0 4194304", &lv), 0);
	CHECK_INT(lvm_lvs_parse("  raid5 3 65536 2097152", &lv), -1);
	CHECK_INT(lvm_lvs_parse("  raid5 3 65536 2097152 20 x", &lv), -1);
	CHECK_INT(lvm_lvs_parse("  Volume group \"fsm\" not found", &lv), -1);
}

int main(void)
{
	test_lvs();
	test_commands();
	test_nosync();
	test_capacity();
	test_refused();
	test_remove();
	test_status();
	return check_done("test_lvm");
}
