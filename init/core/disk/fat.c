/* core/disk/fat.c: a FAT boot sector's BIOS parameter block, read once for the probe and the
 * results mount. */
#include "core/disk/fat.h"
#include "lib/ondisk.h"
#include <string.h>

static int power_of_two(unsigned x) { return x && !(x & (x - 1)); }

int fat_layout(const unsigned char *b, size_t len, struct fat_layout *out)
{
	if (len < 512 || !((b[0] == 0xEB && b[2] == 0x90) || b[0] == 0xE9))
		return -1;
	unsigned bps = le16(b + 11), spc = b[13], reserved = le16(b + 14), fats = b[16];
	if (bps < 512 || bps > 4096 || !power_of_two(bps) || !power_of_two(spc) || !reserved ||
	    fats < 1 || fats > 2)
		return -1;
	int fat32 = le16(b + 22) == 0 && le32(b + 36) != 0;
	unsigned ext = fat32 ? 0x40 : 0x24;
	if (memcmp(b + ext + 0x12, "FAT", 3) != 0 && !(b[510] == 0x55 && b[511] == 0xAA))
		return -1;
	uint64_t fat_sectors = fat32 ? le32(b + 36) : le16(b + 22);
	uint64_t root_bytes = fat32 ? 0 : (uint64_t)le16(b + 17) * 32;
	out->sector = bps;
	out->fat32 = fat32;
	out->ext = ext;
	out->fat_off = (uint64_t)reserved * bps;
	out->fat_bytes = fat_sectors * bps;
	out->root_off = out->fat_off + fats * out->fat_bytes;
	out->data_off = out->root_off + (root_bytes + bps - 1) / bps * bps;
	return 0;
}
