/* test_select.c: the disk-safety rules, one row per situation, against the disks discovered
 * in tests/fixtures/sys-basic (run from the top of the tree) and a few made-up disks for what
 * a fixture cannot show (read-only, no medium, unreadable). */
#include "check.h"
#include "core/disk/disk.h"
#include "core/disk/select.h"

#include <stdlib.h>

/* The fixture: nvme0n1 sda(removable usb) sdb(data) vdb..vde(blank, serial fsmtest0..3)
 * vdf(ext4) vdg(md member) vdh(results on vdh1) vdi(gpt at end only) vdj(lvm) vdk(swap). */
static const struct row {
	const char *what, *disks, *wipe, *boot;
	int taken;
	const char *verdicts;            /* "name=verdict ..." for the disks this row is about */
	const char *disk, *reason_has;   /* and one reason that must say this */
} rows[] = {
	{ "no fsmatrix.disks=: nothing taken", "", "", NULL, 0,
	  "nvme0n1=not-named sda=not-named vdb=not-named vdf=not-named vdh=results-disk",
	  "vdb", "fsmatrix.disks= is not set" },
	{ "glob over serials", "serial:fsmtest*", "", NULL, 4,
	  "vdb=taken vdc=taken vdd=taken vde=taken vdf=not-named vdh=results-disk nvme0n1=not-named",
	  "vdf", "not named in fsmatrix.disks=serial:fsmtest*" },
	{ "glob with a class", "serial:fsmtest[02]", "", NULL, 2,
	  "vdb=taken vdc=not-named vdd=taken vde=not-named", "vdb", "named by serial:fsmtest[02]" },
	{ "kernel names, blank-separated", "vdb vdc", "", NULL, 2, "vdb=taken vdc=taken vdd=not-named",
	  NULL, NULL },
	{ "ext4 named, no wipe", "vdf", "", NULL, 0, "vdf=has-signature",
	  "vdf", "carries ext4 (superblock at 1024); to destroy it add fsmatrix.wipe=vdf" },
	{ "ext4 named and wiped", "vdf", "vdf", NULL, 1, "vdf=taken", "vdf", "fsmatrix.wipe item vdf" },
	{ "ext4 wiped by serial glob", "serial:data*", "serial:data*", NULL, 1, "vdf=taken", NULL, NULL },
	{ "wipe names another disk", "vdf,vdb", "vdb", NULL, 1, "vdf=has-signature vdb=taken", NULL,
	  NULL },
	{ "md member named", "vdg", "", NULL, 0, "vdg=has-signature",
	  "vdg", "carries md (v1.2 superblock at 4096)" },
	{ "md member named and wiped", "vdg", "vdg", NULL, 1, "vdg=taken", NULL, NULL },
	{ "gpt only at the end", "vdi", "", NULL, 0, "vdi=has-signature",
	  "vdi", "gpt (backup header at end of device)" },
	{ "lvm and swap named", "vdj,vdk", "", NULL, 0, "vdj=has-signature vdk=has-signature", NULL,
	  NULL },
	{ "unknown data named", "sdb", "", NULL, 0, "sdb=has-signature", "sdb", "carries data" },
	{ "blank", "blank", "", NULL, 5,
	  "nvme0n1=taken vdb=taken vdc=taken vdd=taken vde=taken sda=removable sdb=has-signature "
	  "vdf=has-signature vdg=has-signature vdh=results-disk vdi=has-signature vdj=has-signature "
	  "vdk=has-signature", "sda", "removable: blank never takes removable disks" },
	{ "blank is not widened by wipe", "blank", "vdf,vdg", NULL, 5,
	  "vdf=has-signature vdg=has-signature", "vdf", "blank takes only disks with no signature" },
	{ "removable stick named explicitly", "sda", "", NULL, 1, "sda=taken", NULL, NULL },
	{ "results disk named", "vdh", "", NULL, 0, "vdh=results-disk",
	  "vdh", "holds the results partition vdh1 (label FSMRESULTS): never a test disk" },
	{ "results disk named and wiped", "vdh", "vdh", NULL, 0, "vdh=results-disk", NULL, NULL },
	{ "results disk by serial glob", "serial:results*", "serial:*", NULL, 0, "vdh=results-disk",
	  NULL, NULL },
	{ "everything with a serial, wiped", "serial:*", "serial:*", NULL, 11,
	  "vdh=results-disk vdf=taken vdg=taken sda=taken sdb=not-named nvme0n1=taken", NULL,
	  NULL },
	{ "everything by path, wiped", "path:pci-*", "path:*", NULL, 12,
	  "vdh=results-disk sda=taken sdb=taken", NULL, NULL },
	{ "results disk is the boot stick too", "vdh", "vdh", "vdh1", 0, "vdh=results-disk",
	  "vdh", "and is the boot medium" },
	{ "boot disk named by glob", "serial:fsmtest*", "", "vdc", 3, "vdc=boot-disk vdb=taken",
	  "vdc", "the image booted from it: never a test disk" },
	{ "boot disk under blank", "blank", "", "vdb", 4, "vdb=boot-disk", NULL, NULL },
	{ "boot disk named and wiped", "vdc", "vdc", "vdc", 0, "vdc=boot-disk", NULL, NULL },
	{ "by path", "path:pci-0000:00:0[56].0", "", NULL, 2, "vdb=taken vdc=taken vdd=not-named",
	  NULL, NULL },
	{ "usb by path glob", "path:*-usb-*", "", NULL, 1, "sda=taken", NULL, NULL },
	{ "by wwn", "wwn:eui.*", "", NULL, 1, "nvme0n1=taken sdb=not-named", NULL, NULL },
	{ "a name that matches nothing", "vdz", "", NULL, 0, "vdb=not-named", NULL, NULL },
};

static int find(const struct disk *d, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(d[i].name, name) == 0)
			return i;
	return -1;
}

static void check_verdicts(const char *what, const struct disk *d, int n,
			   const struct selection *s, const char *verdicts)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", verdicts);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		*eq = '\0';
		int i = find(d, n, tok);
		CHECK(i >= 0, "%s: no disk %s in the fixture", what, tok);
		if (i >= 0)
			CHECK(strcmp(verdict_name(s[i].verdict), eq + 1) == 0,
			      "%s: %s is %s (%s), want %s", what, tok, verdict_name(s[i].verdict),
			      s[i].reason, eq + 1);
	}
}

static void test_fixture(void)
{
	static struct disk fixture[DISK_MAX], d[DISK_MAX];
	static struct selection s[DISK_MAX];
	char err[256];
	int n = disks_discover("tests/fixtures/sys-basic/sys", "tests/fixtures/sys-basic/dev",
			       fixture, DISK_MAX, err, sizeof err);
	CHECK(n == 13, "discovery: %d disks (%s)", n, err);

	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		const struct row *row = &rows[r];
		memcpy(d, fixture, sizeof d);
		if (row->boot)
			disks_mark_boot(d, n, row->boot);
		err[0] = '\0';
		int taken = select_disks(d, n, row->disks, row->wipe, s, err, sizeof err);
		CHECK(taken == row->taken, "%s: %d taken, want %d (%s)", row->what, taken, row->taken,
		      err);
		check_verdicts(row->what, d, n, s, row->verdicts);
		for (int i = 0; i < n; i++) {
			CHECK(s[i].reason[0], "%s: %s has no reason", row->what, d[i].name);
			/* The two rules no parameter can override. */
			if (d[i].holds_results || d[i].is_boot)
				CHECK(s[i].verdict != VERDICT_TAKEN, "%s: took %s", row->what, d[i].name);
		}
		if (row->disk) {
			int i = find(d, n, row->disk);
			CHECK(i >= 0 && strstr(s[i].reason, row->reason_has),
			      "%s: %s reason \"%s\" lacks \"%s\"", row->what, row->disk,
			      i >= 0 ? s[i].reason : "", row->reason_has);
		}
	}
}

/* What the fixture cannot show: disks that cannot be written, or read. */
static void test_synthetic(void)
{
	struct disk d[4];
	struct selection s[4];
	char err[256];

	memset(d, 0, sizeof d);
	strcpy(d[0].name, "sdx"); d[0].size = 1ULL << 30; d[0].readonly = 1;
	strcpy(d[1].name, "sdy"); d[1].size = 0; d[1].removable = 1;   /* card reader, no card */
	strcpy(d[2].name, "sdz"); d[2].size = 1ULL << 30;
	strcpy(d[2].signature, "unreadable");
	strcpy(d[2].sig_where, "unable to read sdz: Input/output error");
	strcpy(d[3].name, "sdw"); d[3].size = 1ULL << 30;

	CHECK_INT(select_disks(d, 4, "sdx,sdy,sdz,sdw", "", s, err, sizeof err), 1);
	CHECK_STR(verdict_name(s[0].verdict), "unusable");
	CHECK_STR(s[0].reason, "read-only (ro=1): cannot be a test disk");
	CHECK_STR(verdict_name(s[1].verdict), "unusable");
	CHECK_STR(verdict_name(s[2].verdict), "has-signature");
	CHECK(strstr(s[2].reason, "unable to read sdz") != NULL, "got \"%s\"", s[2].reason);
	CHECK_STR(verdict_name(s[3].verdict), "taken");
	CHECK_STR(s[3].reason, "named by sdw; no signature");

	/* An unreadable disk is never blank. */
	CHECK_INT(select_disks(d, 4, "blank", "", s, err, sizeof err), 1);
	CHECK_STR(verdict_name(s[2].verdict), "has-signature");
	/* Read-only stays refused even when wiping is allowed. */
	CHECK_INT(select_disks(d, 4, "sdx", "sdx", s, err, sizeof err), 0);
	CHECK_STR(verdict_name(s[0].verdict), "unusable");
}

static const struct bad {
	const char *disks, *wipe, *err;
} bad[] = {
	{ "/dev/vdb", "", "fsmatrix.disks: unknown form \"/dev/vdb\" (expected NAME (vdb), "
	  "serial:GLOB, wwn:GLOB, path:GLOB or blank)" },
	{ "vdb,label:data", "", "fsmatrix.disks: unknown form \"label:data\" (expected NAME (vdb), "
	  "serial:GLOB, wwn:GLOB, path:GLOB or blank)" },
	{ "vd*", "", "fsmatrix.disks: unknown form \"vd*\" (expected NAME (vdb), serial:GLOB, "
	  "wwn:GLOB, path:GLOB or blank)" },
	{ "serial:", "", "fsmatrix.disks: \"serial:\" has an empty pattern (expected NAME (vdb), "
	  "serial:GLOB, wwn:GLOB, path:GLOB or blank)" },
	{ "vdb", "uuid:1234", "fsmatrix.wipe: unknown form \"uuid:1234\" (expected NAME (vdb), "
	  "serial:GLOB, wwn:GLOB, path:GLOB or blank)" },
	{ "blank", "blank", "fsmatrix.wipe: \"blank\" is not allowed there (blank disks have "
	  "nothing to wipe); name the disks to wipe" },
	{ "a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a", "",
	  "fsmatrix.disks=a: too many items" },
};

static void test_bad_specs(void)
{
	struct disk d[1];
	struct selection s[1];
	char err[256];

	memset(d, 0, sizeof d);
	strcpy(d[0].name, "vdb");
	d[0].size = 1ULL << 30;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		CHECK_INT(select_disks(d, 1, bad[i].disks, bad[i].wipe, s, err, sizeof err), -1);
		CHECK_STR(err, bad[i].err);
	}
}

static void test_unmatched(void)
{
	struct disk d[2];
	char buf[128];

	memset(d, 0, sizeof d);
	strcpy(d[0].name, "vdb");
	strcpy(d[0].serial, "fsmtest0");
	strcpy(d[1].name, "vdc");
	CHECK_INT(select_unmatched(d, 2, "vdb,vdz,serial:nope*,blank,serial:fsm*", buf, sizeof buf), 2);
	CHECK_STR(buf, "vdz serial:nope*");
	CHECK_INT(select_unmatched(d, 2, "", buf, sizeof buf), 0);
	CHECK_STR(buf, "");
}

int main(void)
{
	test_fixture();
	test_synthetic();
	test_bad_specs();
	test_unmatched();
	for (int v = VERDICT_TAKEN; v <= VERDICT_UNUSABLE; v++)
		CHECK(strcmp(verdict_name((enum verdict)v), "unknown") != 0, "verdict %d unnamed", v);
	return check_done("test_select");
}
