/* core/disk/probe.h: what a device's first and last bytes say it holds. The decision is a pure
 * function of two buffers, so tests can hand it a 1 GiB "disk" as a head and a tail; probe_fd()
 * is the thin reading half. */
#ifndef FSM_PROBE_H
#define FSM_PROBE_H
#include <stddef.h>
#include <stdint.h>

/* How much of the start and of the end of each device is read and checked. The generic rule
 * ("data") is that a nonzero byte anywhere in these windows means the device is not blank. */
#define PROBE_WINDOW (1024 * 1024)

struct probe {
	char type[16];   /* "" when all zeros; else ext2, ext3, ext4, jbd, xfs, btrfs, vfat, swap,
	                    iso9660, md, lvm, luks, bcache, gpt, mbr, or "data" for nonzero bytes nothing claims */
	char where[64];  /* where it was found, for reasons: "v1.2 superblock at 4096" */
	char label[64];  /* filesystem label (or md array name), "" if none */
};

/* A deeper look at each partition start (probe_starts): enough for every signature that
 * content_probers know, the farthest being btrfs' superblock at 64 KiB. */
#define PROBE_DEEP_WINDOW (128 * 1024)
#define PROBE_MAX_STARTS 16
/* btrfs's superblock copies beyond the windows, read PROBE_BTRFS_SB bytes each (its size) */
#define PROBE_BTRFS_COPIES 2
#define PROBE_BTRFS_SB 4096
extern const uint64_t probe_btrfs_copies[PROBE_BTRFS_COPIES];

/* len bytes of a device, read at off */
struct probe_region {
	uint64_t off;
	const unsigned char *buf;
	size_t len;
};

/* Where a partition may start: the usual first-partition offsets (sector 63, 1 MiB, 2 MiB)
 * and the starts an MBR, a GPT or its backup names, as far as the regions hold them; each
 * with why it is looked at. A disk whose table was zapped still holds its partitions. */
struct probe_start {
	uint64_t off;
	const char *why;   /* "probably a partition whose table was erased", ... */
};
size_t probe_starts(const struct probe_region *r, size_t n, uint64_t size,
		    struct probe_start *out, size_t max);

/* The decision over any regions of a device of size bytes: regions 0 and 1 must be its first
 * and its last window (the "data" rule looks at those); more regions let the probes see the
 * partition starts. */
void probe_regions(const struct probe_region *r, size_t n, uint64_t size, struct probe *p);

/* head holds bytes [0, headlen) and tail bytes [size - taillen, size) of a device of size
 * bytes; the two may overlap or be the same buffer on a small device. */
void probe_buffers(const unsigned char *head, size_t headlen, const unsigned char *tail,
		   size_t taillen, uint64_t size, struct probe *p);

/* Reads the first and last window bytes of fd (window = PROBE_WINDOW in real use) and probes
 * them. fd may be opened with O_DIRECT: a read direct I/O refuses (EINVAL, an offset not on a
 * logical block) clears the flag on fd and is done through the page cache. Returns 0, or -1
 * with errno set. */
int probe_fd(int fd, size_t window, struct probe *p);

#endif
