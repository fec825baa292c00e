/* test_mountcheck: reading the kernel's word on a mount and the options /proc/mounts shows,
 * with lines as kernel 6.1 writes them. */
#include "check.h"
#include "core/command/mountcheck.h"

static void test_kmsg(void)
{
	static const struct {
		const char *rec;
		int rc, level, warning;
		const char *text, *ignored;
	} rows[] = {
		{ "4,612,6021345,-;EXT4-fs: Ignoring removed nobh option\n", 0, 4, 1,
		  "EXT4-fs: Ignoring removed nobh option", "nobh" },
		{ "4,613,6021400,-;EXT4-fs: Ignoring removed oldalloc option\n", 0, 4, 1,
		  "EXT4-fs: Ignoring removed oldalloc option", "oldalloc" },
		{ "6,614,6022000,-;EXT4-fs (md0): mounted filesystem with ordered data mode. Quota mode: none.\n",
		  0, 6, 0, "EXT4-fs (md0): mounted filesystem with ordered data mode. Quota mode: none.", "" },
		{ "3,615,6023000,-;EXT4-fs (vdb): Unrecognized mount option \"data=bogus\" or missing value\n",
		  0, 3, 1, "EXT4-fs (vdb): Unrecognized mount option \"data=bogus\" or missing value", "" },
		{ "5,616,6024000,-;XFS (md0): Mounting V5 Filesystem\n", 0, 5, 0,
		  "XFS (md0): Mounting V5 Filesystem", "" },
		/* a notice that still says an option is on its way out */
		{ "5,617,6025000,-;XFS (md0): ikeep is deprecated\n", 0, 5, 1, "XFS (md0): ikeep is deprecated", "" },
		/* continuation lines (dictionary) are not part of the text */
		{ "4,618,6026000,-;line one\n SUBSYSTEM=block\n DEVICE=b9:0\n", 0, 4, 1, "line one", "" },
		/* userspace writing to /dev/kmsg (facility user = 1: prio 14) is not the kernel */
		{ "14,619,6027000,-;fsmatrix: hello\n", -1, 0, 0, "", "" },
		{ "garbage", -1, 0, 0, "", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int level = -1;
		char text[256] = "", opt[64] = "";
		CHECK_INT(kmsg_record_parse(rows[i].rec, &level, text, sizeof text), rows[i].rc);
		if (rows[i].rc < 0)
			continue;
		CHECK_INT(level, rows[i].level);
		CHECK_STR(text, rows[i].text);
		CHECK_INT(kmsg_is_warning(level, text), rows[i].warning);
		kmsg_ignored_option(text, opt, sizeof opt);
		CHECK_STR(opt, rows[i].ignored);
	}
}

/* Effective lines are /proc/mounts lines from the image's kernel. */
static void test_not_in_effect(void)
{
	static const struct {
		const char *fs, *requested, *effective, *missing;
	} rows[] = {
		/* removed options: mount(2) succeeds and /proc/mounts shows the defaults */
		{ "ext4", "nobh", "/dev/md0 /mnt/test ext4 rw,relatime 0 0", "nobh" },
		{ "ext4", "oldalloc,noatime", "/dev/md0 /mnt/test ext4 rw,noatime 0 0", "oldalloc" },
		/* defaults the kernel never shows */
		{ "ext4", "defaults", "/dev/md0 /mnt/test ext4 rw,relatime 0 0", "" },
		{ "ext4", "data=ordered,barrier=1,commit=5", "/dev/md0 /mnt/test ext4 rw,relatime 0 0", "" },
		{ "ext3", "data=ordered,barrier=1,commit=4", "/dev/md0 /mnt/test ext3 rw,relatime,commit=4 0 0", "" },
		/* the kernel's own words */
		{ "ext4", "data=ordered,barrier=0,commit=60",
		  "/dev/md0 /mnt/test ext4 rw,relatime,nobarrier,commit=60 0 0", "" },
		{ "ext4", "noatime,data=writeback,commit=30",
		  "/dev/md0 /mnt/test ext4 rw,noatime,commit=30,data=writeback 0 0", "" },
		{ "ext4", "data=journal", "/dev/md0 /mnt/test ext4 rw,relatime,data=writeback 0 0", "data=journal" },
		{ "ext4", "commit=30", "/dev/md0 /mnt/test ext4 rw,relatime 0 0", "commit=30" },
		/* xfs spells sizes its own way */
		{ "xfs", "noatime,logbsize=262144", "/dev/md0 /mnt/test xfs rw,noatime,attr2,inode64,logbufs=8,logbsize=256k,sunit=128,swidth=256,noquota 0 0", "" },
		{ "xfs", "logbsize=128k", "/dev/md0 /mnt/test xfs rw,relatime,attr2,inode64,logbufs=8,logbsize=256k,noquota 0 0", "logbsize=128k" },
		{ "xfs", "logbufs=8", "rw,relatime,attr2,inode64,logbufs=8,logbsize=32k,noquota", "" },
		/* VFS flags */
		{ "ext4", "ro,nodiratime", "/dev/vdb /mnt/test ext4 ro,relatime,nodiratime 0 0", "" },
		{ "ext4", "mand", "/dev/vdb /mnt/test ext4 rw,relatime 0 0", "mand" },
		{ "ext4", "", "/dev/vdb /mnt/test ext4 rw,relatime 0 0", "" },
		/* a default the kernel never shows is in effect only if its opposite is not: the
		 * later of two conflicting options wins */
		{ "ext4", "delalloc,nodelalloc", "/dev/vdb /mnt/test ext4 rw,relatime,nodelalloc 0 0",
		  "delalloc" },
		{ "ext4", "barrier,nobarrier", "/dev/vdb /mnt/test ext4 rw,relatime,nobarrier 0 0",
		  "barrier" },
		{ "ext4", "barrier=1", "/dev/vdb /mnt/test ext4 rw,relatime,nobarrier 0 0", "barrier=1" },
		{ "ext4", "data=ordered", "/dev/vdb /mnt/test ext4 rw,relatime,data=writeback 0 0",
		  "data=ordered" },
		{ "ext4", "commit=5", "/dev/vdb /mnt/test ext4 rw,relatime,commit=30 0 0", "commit=5" },
		{ "ext4", "atime", "/dev/vdb /mnt/test ext4 rw,noatime 0 0", "atime" },
		{ "ext4", "strictatime", "/dev/vdb /mnt/test ext4 rw,relatime 0 0", "strictatime" },
		{ "ext4", "diratime", "/dev/vdb /mnt/test ext4 rw,relatime,nodiratime 0 0", "diratime" },
		{ "ext4", "auto_da_alloc", "/dev/vdb /mnt/test ext4 rw,noauto_da_alloc 0 0",
		  "auto_da_alloc" },
		{ "xfs", "barrier", "/dev/vdb /mnt/test xfs rw,relatime,nobarrier 0 0", "barrier" },
		/* and when the opposite is absent, still in effect */
		{ "ext4", "nodelalloc,delalloc", "/dev/vdb /mnt/test ext4 rw,relatime 0 0", "nodelalloc" },
		{ "ext4", "atime,delalloc", "/dev/vdb /mnt/test ext4 rw,relatime 0 0", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char out[256] = "";
		int n = mount_not_in_effect(rows[i].fs, rows[i].requested, rows[i].effective, out, sizeof out);
		CHECK(strcmp(out, rows[i].missing) == 0, "%s on %s: got \"%s\", want \"%s\"",
		      rows[i].requested, rows[i].fs, out, rows[i].missing);
		CHECK_INT(n, rows[i].missing[0] ? 1 : 0);
	}
}

/* The two readings together, as PID 1 records them for a cell. */
static void test_mount_check(void)
{
	const struct kmsg_line nobh[] = {
		{ 4, "EXT4-fs: Ignoring removed nobh option" },
		{ 6, "EXT4-fs (md0): mounted filesystem with ordered data mode. Quota mode: none." },
	};
	struct warnings w = { 0 };
	char ignored[256];
	CHECK_INT(mount_check(nobh, 2, "ext4", "nobh", "/dev/md0 /mnt/test ext4 rw,relatime 0 0", &w,
			      ignored, sizeof ignored), 1);
	CHECK_STR(ignored, "nobh");   /* said by the kernel and absent: named once */
	CHECK_INT(w.n, 1);
	CHECK_STR(w.msg[0], "kernel: EXT4-fs: Ignoring removed nobh option");

	/* applied: no warning, nothing ignored */
	struct warnings w2 = { 0 };
	CHECK_INT(mount_check(nobh + 1, 1, "ext4", "noatime,data=writeback,commit=30",
			      "/dev/md0 /mnt/test ext4 rw,noatime,commit=30,data=writeback 0 0", &w2,
			      ignored, sizeof ignored), 0);
	CHECK_STR(ignored, "");
	CHECK_INT(w2.n, 0);

	/* a failed mount: no /proc/mounts line, the kernel's refusal is kept as a warning */
	const struct kmsg_line bogus[] = {
		{ 3, "EXT4-fs (vdb): Unrecognized mount option \"data=bogus\" or missing value" },
	};
	struct warnings w3 = { 0 };
	CHECK_INT(mount_check(bogus, 1, "ext4", "data=bogus", "", &w3, ignored, sizeof ignored), 0);
	CHECK_STR(ignored, "");
	CHECK_INT(w3.n, 1);
}

int main(void)
{
	test_mount_check();
	test_kmsg();
	test_not_in_effect();
	return check_done("test_mountcheck");
}
