/* core/disk/mbr.h: the partition table of an MBR sector, read the one way that both the disk
 * probe (core/disk/probe.c) and the report's FAT image reader (report/load.c) need. */
#ifndef FSM_MBR_H
#define FSM_MBR_H
#include <stdint.h>

#define MBR_PARTS 4

struct mbr_part {
	unsigned char boot;   /* 0x80 active, 0 not; anything else: not a partition table */
	unsigned char type;   /* 0: unused; 0xEE: GPT's protective entry */
	uint32_t lba;         /* first sector, in 512-byte sectors */
};

/* The four primary entries of a 512-byte sector. 0, or -1 when it does not end in 55 AA
 * (then out is untouched). A boot sector ends in 55 AA too: what the entries mean is the
 * caller's to judge. */
int mbr_parts(const unsigned char *sector, struct mbr_part out[MBR_PARTS]);

#endif
