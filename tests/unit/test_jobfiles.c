/* test_jobfiles.c: the files a LAVA job of fsmatrix lava deploys beside the image: the
 * initramfs segment that carries the plan (cpio newc) and the blank qcow2 test disk.
 * tests/hostcli/run.sh reads both with cpio and qemu-img. */
#include "check.h"
#include "lib/cpio.h"
#include "lib/qcow2.h"

#include <stdlib.h>

static unsigned long hexfield(const char *entry, int i)
{
	char f[9];
	memcpy(f, entry + 6 + 8 * i, 8);
	f[8] = '\0';
	return strtoul(f, NULL, 16);
}

static uint64_t be(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

int main(void)
{
	char buf[1024];
	size_t off = 0;
	const char plan[] = "[array disk]\nlevel = none\n";   /* 27 bytes: data padded to 28 */
	CHECK_INT(cpio_newc_entry(buf, sizeof buf, &off, "job", NULL, 0), 0);
	CHECK_INT(off, 116);                       /* 110 + "job\0", padded to 4 */
	CHECK(memcmp(buf, "070701", 6) == 0, "no newc magic");
	CHECK_INT(hexfield(buf, 1), 040755);       /* a directory */
	size_t file = off;
	CHECK_INT(cpio_newc_entry(buf, sizeof buf, &off, "job/default.ini", plan, sizeof plan - 1), 0);
	CHECK_INT(off - file, cpio_newc_size("job/default.ini", sizeof plan - 1));
	CHECK_INT(off - file, 128 + 28);           /* 110 + 16, padded; 27, padded */
	CHECK_INT(hexfield(buf + file, 1), 0100644);
	CHECK_INT(hexfield(buf + file, 6), sizeof plan - 1);   /* filesize */
	CHECK_INT(hexfield(buf + file, 11), 16);   /* namesize with its NUL */
	CHECK(memcmp(buf + file + 128, plan, sizeof plan - 1) == 0, "the plan's bytes moved");
	CHECK_INT(cpio_newc_entry(buf, sizeof buf, &off, NULL, NULL, 0), 0);
	CHECK(memcmp(buf + off - 14, "TRAILER!!!", 11) == 0, "no trailer at the end");
	CHECK_INT(off % 4, 0);
	/* too small a buffer is refused, not overrun */
	size_t small = 0;
	CHECK_INT(cpio_newc_entry(buf, 100, &small, "job", NULL, 0), -1);
	CHECK_INT(small, 0);

	/* 1 GiB: header, refcount table and block, one cluster of L1 (two entries) */
	uint64_t gib = 1ULL << 30;
	CHECK_INT(qcow2_blank_len(gib), 4 * QCOW2_CLUSTER);
	CHECK_INT(qcow2_blank_len(0), 0);
	unsigned char *img = malloc(4 * QCOW2_CLUSTER);
	CHECK_INT(qcow2_blank(gib, img, 4 * QCOW2_CLUSTER), 4 * QCOW2_CLUSTER);
	CHECK(memcmp(img, "QFI\xfb", 4) == 0, "no qcow2 magic");
	CHECK_INT(be(img + 4, 4), 2);
	CHECK_INT(be(img + 24, 8), gib);
	CHECK_INT(be(img + 36, 4), 2);             /* L1 entries: 512 MiB each */
	CHECK_INT(be(img + QCOW2_CLUSTER, 8), 2 * QCOW2_CLUSTER);
	for (int c = 0; c < 4; c++)
		CHECK_INT(be(img + 2 * QCOW2_CLUSTER + 2 * c, 2), 1);
	CHECK_INT(be(img + 2 * QCOW2_CLUSTER + 8, 2), 0);
	CHECK_INT(qcow2_blank(gib, img, 4 * QCOW2_CLUSTER - 1), 0);
	free(img);
	return check_done("test_jobfiles");
}
