/* core/disk/disk.h: what fsmatrix knows about one block device, read from sysfs and its first and
 * last sectors. Discovery takes a sysfs root and a /dev root so that the host tests run
 * the same code against fixture trees in tests/fixtures/. */
#ifndef FSM_DISK_H
#define FSM_DISK_H
#include <stdint.h>
#include <stddef.h>

#define DISK_MAX 64
#define DISK_PART_MAX 16

struct disk {
	char name[32];             /* kernel name: vdb, sda, nvme0n1 */
	uint64_t size;             /* bytes */
	unsigned logical_bs, physical_bs;
	int rotational, removable, readonly;
	char model[64], serial[64], wwn[64];
	char transport[16];        /* virtio, sata, nvme, usb, scsi, unknown */
	char by_path[160];         /* the /dev/disk/by-path name udev would give */
	int nparts;
	char parts[DISK_PART_MAX][32];
	char signature[64];        /* "" when blank; else what was found, e.g. "ext4", "gpt",
	                              "md", "lvm", "vfat", "xfs", "mbr"; found at start or end */
	char sig_where[64];        /* where the signature was found, for reasons: "backup header
	                              at end of device", "on partition vdc1"; or why the device
	                              could not be read (signature is then "unreadable") */
	char label[64];            /* filesystem label when one was seen (whole disk or partition) */
	int holds_results;         /* a FAT filesystem labelled FSMRESULTS on it or a partition */
	char results_dev[40];      /* that device's name: vdb or sdb1 */
	int is_boot;               /* the medium the image booted from */
};

/* 1 for a block device name that is never a disk: virtual, stacked or optical (loop, ram,
 * zram, md, dm, sr, nbd, fd), or a dot entry. */
int disk_name_skipped(const char *name);

/* Reads every disk under SYSROOT/block (skipping those disk_name_skipped() names),
 * sorted by name. Device nodes are opened read-only as DEVROOT/<name>; a disk that cannot be
 * read gets the signature "unreadable", so no rule mistakes it for blank.
 * Returns the count, or -1 with err set (no SYSROOT/block, or more than max disks). */
int disks_discover(const char *sysroot, const char *devroot, struct disk *out, int max,
		   char *err, size_t errlen);

/* Marks the boot medium. name is a disk (sdb) or one of its partitions (sdb1); how the boot
 * medium is found is the caller's business. Returns 1 if a disk was marked, else 0. */
int disks_mark_boot(struct disk *d, int n, const char *name);

/* The serial in a raw SCSI Unit Serial Number VPD page (sysfs device/vpd_pg80): 4 header
 * bytes, then ASCII padded with blanks. Returns 0, or -1 (and "") if there is none. */
int vpd_pg80_serial(const unsigned char *page, size_t n, char *out, size_t len);

#endif
