/* core/disk/fat.h: a FAT filesystem's layout, from its boot sector: the disk probe's test of a
 * FAT boot sector (core/disk/probe.c) and the results mount's read-ahead (pid1/results.c) both
 * read it here. */
#ifndef FSM_FAT_H
#define FSM_FAT_H
#include <stddef.h>
#include <stdint.h>

struct fat_layout {
	unsigned sector;        /* bytes per sector: 512, 1024, 2048 or 4096 */
	int fat32;
	unsigned ext;           /* the extended BPB (signature, serial, label, type): 0x24, or
				   0x40 on FAT32, whose own fields come first */
	uint64_t fat_off;       /* the first FAT, in bytes from the boot sector */
	uint64_t fat_bytes;     /* the size of one FAT */
	uint64_t root_off;      /* FAT12/16's root directory (FAT32 keeps it in a cluster) */
	uint64_t data_off;      /* the first cluster */
};

/* 0 and out filled if boot (len bytes, at least 512) is a FAT boot sector: a jump, a sane
 * BIOS parameter block, and the type field or 55 AA. Else -1, out untouched. */
int fat_layout(const unsigned char *boot, size_t len, struct fat_layout *out);

#endif
