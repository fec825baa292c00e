/* test_toolmsg.c: the line of a failed tool's output a cell's error quotes (core/command/toolmsg.c):
 * the reason, never mke2fs's version banner. */
#include "check.h"
#include "core/command/toolmsg.h"

static void test_reason(void)
{
	static const struct {
		const char *err, *out, *want;
	} rows[] = {
		/* mke2fs prints its banner first: the error is the line after it */
		{ "mke2fs 1.47.0 (5-Feb-2023)\nmkfs.ext4: invalid block size - 3000\n", "",
		  "mkfs.ext4: invalid block size - 3000" },
		{ "mke2fs 1.47.0 (5-Feb-2023)\n/dev/md0 is apparently in use by the system; will not "
		  "make a filesystem here!\n", "", "/dev/md0 is apparently in use by the system; will "
		  "not make a filesystem here!" },
		{ "\n  mke2fs 1.47.0 (5-Feb-2023)\r\n\n  mkfs.ext4: Device size reported to be zero.\n"
		  "  Invalid partition specified\n", "", "mkfs.ext4: Device size reported to be zero." },
		/* the reason first, usage after: the first line */
		{ "mdadm: invalid chunk size: 3k\nUsage: mdadm --help\n", "",
		  "mdadm: invalid chunk size: 3k" },
		{ "unknown option -Z\nUsage: mkfs.xfs\n/* blocksize */\t\t[-b size=num]\n", "",
		  "unknown option -Z" },
		{ "mkfs.xfs version 6.1.0\nmkfs.xfs: cannot open /dev/md0: Device busy\n", "",
		  "mkfs.xfs: cannot open /dev/md0: Device busy" },
		/* only a banner on stderr: stdout's line, else nothing */
		{ "mke2fs 1.47.0 (5-Feb-2023)\n", "Discarding device blocks: failed\n",
		  "Discarding device blocks: failed" },
		{ "mke2fs 1.47.0 (5-Feb-2023)\n", "", "" },
		{ "", "", "" },
		{ NULL, NULL, "" },
		/* lines that look like a banner but say more are reasons */
		{ "mke2fs 1.47.0 (5-Feb-2023) failed\n", "", "mke2fs 1.47.0 (5-Feb-2023) failed" },
		{ "mkfs.ext4 2 arguments expected\n", "", "mkfs.ext4 2 arguments expected" },
		{ "tune2fs: Bad options specified.\n", "", "tune2fs: Bad options specified." },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[300] = "x";
		tool_reason(rows[i].err, rows[i].out, buf, sizeof buf);
		CHECK(strcmp(buf, rows[i].want) == 0, "row %zu: \"%s\", want \"%s\"", i, buf,
		      rows[i].want);
	}
}

int main(void)
{
	test_reason();
	return check_done("test_toolmsg");
}
