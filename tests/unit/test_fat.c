/* test_fat.c: fat_layout, where the results partition's FAT keeps its label, FATs, root
 * directory and clusters, on filesystems the host's mkfs.vfat makes. */
#include "check.h"
#include "core/disk/fat.h"
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* fat_layout on filesystems mkfs.vfat made: the volume label's directory entry is the first
 * of the root directory (FAT12/16: at root_off; FAT32: cluster 2, at data_off), and each FAT
 * starts with the media byte of the boot sector. */
static void test_fat_layout(void)
{
	static const struct { const char *args; int fat32; } cases[] = {
		{ "-F 16 -s 1 -n FSMRESULTS", 0 },
		{ "-F 32 -n FSMRESULTS", 1 },
		{ "-F 32 -S 4096 -n FSMRESULTS", 1 },
		{ "-F 12 -n FSMRESULTS", 0 },
	};
	static unsigned char img[8 << 20];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[] = "/tmp/fsm-fat-XXXXXX", cmd[200];
		int fd = mkstemp(path);
		CHECK(fd >= 0, "a temporary file");
		close(fd);
		unlink(path);
		/* 8 MiB: FAT12 and FAT16 as asked; mkfs.vfat warns that FAT32 wants more */
		snprintf(cmd, sizeof cmd, "mkfs.vfat -C %s %s 8192 >/dev/null 2>&1", cases[i].args, path);
		if (system(cmd) != 0) {
			CHECK(0, "mkfs.vfat %s (dosfstools, a host dependency) failed", cases[i].args);
			continue;
		}
		FILE *f = fopen(path, "rb");
		size_t n = f ? fread(img, 1, sizeof img, f) : 0;
		if (f)
			fclose(f);
		unlink(path);
		struct fat_layout l;
		CHECK_INT(n, sizeof img);
		CHECK_INT(fat_layout(img, n, &l), 0);
		CHECK_INT(l.fat32, cases[i].fat32);
		CHECK(img[l.ext + 2] == 0x29 && memcmp(img + l.ext + 7, "FSMRESULTS ", 11) == 0,
		      "%s: the extended BPB at %#x holds the label", cases[i].args, l.ext);
		uint64_t root = l.fat32 ? l.data_off : l.root_off;
		CHECK(root + 12 <= n && memcmp(img + root, "FSMRESULTS ", 11) == 0 && img[root + 11] == 0x08,
		      "%s: the label entry at %llu", cases[i].args, (unsigned long long)root);
		CHECK(l.fat_off + 2 * l.fat_bytes <= n && img[l.fat_off] == img[21] &&
		      img[l.fat_off + l.fat_bytes] == img[21],
		      "%s: both FATs begin with the media byte %#x", cases[i].args, img[21]);
		CHECK(l.data_off >= l.root_off && l.root_off >= l.fat_off + l.fat_bytes,
		      "%s: FATs, root directory, clusters in order", cases[i].args);
	}
	memset(img, 0, 512);
	struct fat_layout l;
	CHECK_INT(fat_layout(img, 512, &l), -1);
	img[0] = 0xEB, img[2] = 0x90, img[510] = 0x55, img[511] = 0xAA;   /* boot code, no BPB */
	CHECK_INT(fat_layout(img, 512, &l), -1);
	CHECK_INT(fat_layout(img, 511, &l), -1);
}

int main(void)
{
	test_fat_layout();
	return check_done("test_fat");
}
