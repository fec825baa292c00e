/* core/disk/mbr.c: see core/disk/mbr.h. */
#include "core/disk/mbr.h"
#include "lib/ondisk.h"

int mbr_parts(const unsigned char *s, struct mbr_part out[MBR_PARTS])
{
	if (s[510] != 0x55 || s[511] != 0xAA)
		return -1;
	for (int i = 0; i < MBR_PARTS; i++) {
		const unsigned char *e = s + 446 + 16 * i;
		out[i].boot = e[0];
		out[i].type = e[4];
		out[i].lba = le32(e + 8);
	}
	return 0;
}
