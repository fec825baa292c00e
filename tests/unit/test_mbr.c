/* test_mbr.c: the MBR partition entries: a sector without 55 AA is no table, and each
 * entry's boot flag, type and start (little-endian) come out as written. */
#include "check.h"
#include "core/disk/mbr.h"

struct entry { int slot; unsigned char boot, type; uint32_t lba; };

static void put(unsigned char *s, const struct entry *e)
{
	unsigned char *p = s + 446 + 16 * e->slot;
	p[0] = e->boot;
	p[4] = e->type;
	for (int b = 0; b < 4; b++)
		p[8 + b] = (unsigned char)(e->lba >> (8 * b));
}

int main(void)
{
	static const struct {
		const char *name;
		unsigned char sig[2];
		struct entry e[MBR_PARTS];
		int n, rc;
	} rows[] = {
		{ "blank", { 0, 0 }, { { 0 } }, 0, -1 },
		{ "only 55", { 0x55, 0 }, { { 0 } }, 0, -1 },
		{ "swapped", { 0xAA, 0x55 }, { { 0, 0, 0x0c, 2048 } }, 1, -1 },
		{ "empty table", { 0x55, 0xAA }, { { 0 } }, 0, 0 },
		{ "one FAT32 LBA", { 0x55, 0xAA }, { { 0, 0x80, 0x0c, 2048 } }, 1, 0 },
		{ "GPT protective", { 0x55, 0xAA }, { { 0, 0, 0xEE, 1 } }, 1, 0 },
		{ "four, high bytes", { 0x55, 0xAA },
		  { { 0, 0, 0x83, 63 }, { 1, 0x80, 0x07, 0x01020304 }, { 2, 0, 0xef, 0xFFFFFFFFu },
		    { 3, 0x12, 0x0b, 0x80000000u } }, 4, 0 },
		{ "last slot only", { 0x55, 0xAA }, { { 3, 0, 0x06, 4096 } }, 1, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		unsigned char s[512] = { 0 };
		s[510] = rows[i].sig[0];
		s[511] = rows[i].sig[1];
		for (int k = 0; k < rows[i].n; k++)
			put(s, &rows[i].e[k]);
		struct mbr_part out[MBR_PARTS];
		memset(out, 0x5a, sizeof out);
		int rc = mbr_parts(s, out);
		CHECK(rc == rows[i].rc, "%s: rc %d, want %d", rows[i].name, rc, rows[i].rc);
		if (rc < 0) {
			CHECK(out[0].type == 0x5a, "%s: out written without a table", rows[i].name);
			continue;
		}
		struct entry want[MBR_PARTS] = { { 0 } };
		for (int k = 0; k < rows[i].n; k++)
			want[rows[i].e[k].slot] = rows[i].e[k];
		for (int k = 0; k < MBR_PARTS; k++) {
			CHECK(out[k].boot == want[k].boot, "%s slot %d: boot %#x", rows[i].name, k, out[k].boot);
			CHECK(out[k].type == want[k].type, "%s slot %d: type %#x", rows[i].name, k, out[k].type);
			CHECK(out[k].lba == want[k].lba, "%s slot %d: lba %u, want %u", rows[i].name, k,
			      (unsigned)out[k].lba, (unsigned)want[k].lba);
		}
	}
	return check_done("test_mbr");
}
