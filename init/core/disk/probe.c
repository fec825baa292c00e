/* core/disk/probe.c: signatures at the start and at the end of a device. Each prober is a row of
 * a table, tried in order; the first that matches names the device. Order matters where formats
 * overlap: filesystems before partition tables (a FAT boot sector also ends in 0x55AA), the
 * primary GPT before the MBR (a GPT disk carries a protective MBR), and "data" last. */
#include "core/disk/probe.h"
#include "core/disk/fat.h"
#include "lib/ondisk.h"
#include "core/disk/mbr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct view {
	const struct probe_region *r;
	size_t n;
	uint64_t size;
};

/* len bytes at off, if one region holds all of them. */
static const unsigned char *at(const struct view *v, uint64_t off, size_t len)
{
	if (off > v->size || len > v->size - off)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (off >= v->r[i].off && off - v->r[i].off + len <= v->r[i].len)
			return v->r[i].buf + (off - v->r[i].off);
	return NULL;
}

static int has(const struct view *v, uint64_t off, const char *magic)
{
	size_t n = strlen(magic);
	const unsigned char *b = at(v, off, n);
	return b && memcmp(b, magic, n) == 0;
}

/* Copies a fixed-size on-disk label: stops at NUL, drops trailing blanks and anything a
 * terminal would choke on. */
static void copy_label(char *dst, size_t dstlen, const unsigned char *src, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && src[i] && j + 1 < dstlen; i++)
		dst[j++] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	while (j > 0 && dst[j - 1] == ' ')
		j--;
	dst[j] = '\0';
}

static void found(struct probe *p, const char *type, const char *where)
{
	snprintf(p->type, sizeof p->type, "%s", type);
	snprintf(p->where, sizeof p->where, "%s", where);
}

#define MD_MAGIC 0xa92b4efcu

static int md_at(const struct view *v, uint64_t off, const char *where, struct probe *p)
{
	const unsigned char *b = at(v, off, 64);
	if (!b || le32(b) != MD_MAGIC)
		return 0;
	found(p, "md", where);
	if (le32(b + 4) == 1)   /* v1.x: set_name at 32 */
		copy_label(p->label, sizeof p->label, b + 32, 32);
	return 1;
}

static int probe_md_start(const struct view *v, uint64_t b, struct probe *p)
{
	return md_at(v, b + 4096, "v1.2 superblock at 4096", p) ||
	       md_at(v, b, "v1.1 superblock at 0", p);
}

/* v1.0 and 0.90 keep the superblock near the end, where a start-only probe never looks. */
static int probe_md_end(const struct view *v, struct probe *p)
{
	uint64_t sectors = v->size / 512;
	if (sectors >= 16 + 8 && md_at(v, ((sectors - 16) & ~(uint64_t)7) * 512,
				     "v1.0 superblock at end of device", p))
		return 1;
	if (sectors >= 256 && md_at(v, ((sectors & ~(uint64_t)127) - 128) * 512,
				    "0.90 superblock at end of device", p))
		return 1;
	return 0;
}

static int probe_lvm(const struct view *v, uint64_t b, struct probe *p)
{
	for (int s = 0; s < 4; s++)
		if (has(v, b + (uint64_t)s * 512, "LABELONE")) {
			char where[64];
			snprintf(where, sizeof where, "physical volume label in sector %d", s);
			found(p, "lvm", where);
			return 1;
		}
	return 0;
}

/* LUKS1 and LUKS2 (cryptsetup's on-disk format): "LUKS\xba\xbe" and a big-endian version
 * at 0; LUKS2 keeps a second binary header ("SKUL\xba\xbe") at one of these offsets, found
 * even when the first was overwritten, and a label at 24. */
static int probe_luks(const struct view *v, uint64_t b, struct probe *p)
{
	static const uint64_t second[] = { 0x4000, 0x8000, 0x10000, 0x20000, 0x40000, 0x80000,
					   0x100000, 0x200000, 0x400000 };
	const unsigned char *h = at(v, b, 72);
	if (h && memcmp(h, "LUKS\xba\xbe", 6) == 0) {
		found(p, "luks", h[7] == 2 ? "LUKS2 header at 0" : "LUKS1 header at 0");
		if (h[7] == 2)
			copy_label(p->label, sizeof p->label, h + 24, 48);
		return 1;
	}
	for (size_t i = 0; i < sizeof second / sizeof second[0]; i++) {
		h = at(v, b + second[i], 72);
		if (h && memcmp(h, "SKUL\xba\xbe", 6) == 0) {
			char where[64];
			snprintf(where, sizeof where, "LUKS2 second header at %llu",
				 (unsigned long long)second[i]);
			found(p, "luks", where);
			copy_label(p->label, sizeof p->label, h + 24, 48);
			return 1;
		}
	}
	return 0;
}

/* bcache (a backing or a caching device): its magic 24 bytes into the superblock at 4 KiB. */
static int probe_bcache(const struct view *v, uint64_t b, struct probe *p)
{
	static const unsigned char magic[16] = { 0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca,
						 0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81 };
	const unsigned char *m = at(v, b + 4096 + 24, 16);
	if (!m || memcmp(m, magic, 16) != 0)
		return 0;
	found(p, "bcache", "superblock at 4096");
	return 1;
}

static int probe_xfs(const struct view *v, uint64_t base, struct probe *p)
{
	const unsigned char *b = at(v, base, 120);
	if (!b || memcmp(b, "XFSB", 4) != 0)
		return 0;
	found(p, "xfs", "superblock at 0");
	copy_label(p->label, sizeof p->label, b + 108, 12);
	return 1;
}

/* ext2/3/4 share one superblock; the feature flags tell them apart, as blkid does: anything
 * beyond what ext3 supports makes it ext4, a journal without that makes it ext3. */
#define EXT_COMPAT_HAS_JOURNAL     0x0004u
#define EXT_INCOMPAT_JOURNAL_DEV   0x0008u
#define EXT3_INCOMPAT_SUPP         (0x0002u | 0x0004u | 0x0010u)  /* filetype recover meta_bg */
#define EXT3_RO_COMPAT_SUPP        (0x0001u | 0x0002u | 0x0004u)  /* sparse large_file btree */

static int probe_ext(const struct view *v, uint64_t b, struct probe *p)
{
	const unsigned char *sb = at(v, b + 1024, 1024);
	if (!sb || le16(sb + 56) != 0xEF53)
		return 0;
	uint32_t compat = le32(sb + 0x5C), incompat = le32(sb + 0x60), ro = le32(sb + 0x64);
	const char *type = "ext2";
	if (incompat & EXT_INCOMPAT_JOURNAL_DEV)
		type = "jbd";
	else if ((incompat & ~EXT3_INCOMPAT_SUPP) || (ro & ~EXT3_RO_COMPAT_SUPP))
		type = "ext4";
	else if (compat & EXT_COMPAT_HAS_JOURNAL)
		type = "ext3";
	found(p, type, "superblock at 1024");
	copy_label(p->label, sizeof p->label, sb + 0x78, 16);
	return 1;
}

static int probe_btrfs(const struct view *v, uint64_t b, struct probe *p)
{
	const unsigned char *sb = at(v, b + 0x10000, 0x12b + 256);
	if (!sb || memcmp(sb + 0x40, "_BHRfS_M", 8) != 0)
		return 0;
	found(p, "btrfs", "superblock at 64 KiB");
	copy_label(p->label, sizeof p->label, sb + 0x12b, 256);
	return 1;
}

/* btrfs keeps copies of its superblock at 64 MiB and 256 GiB: the kernel mounts from the
 * first, but `btrfs rescue super-recover` brings the filesystem back from a copy, so a disk
 * whose first was erased still holds one. */
const uint64_t probe_btrfs_copies[PROBE_BTRFS_COPIES] = { 64ull << 20, 256ull << 30 };

static int probe_btrfs_copy(const struct view *v, struct probe *p)
{
	for (size_t i = 0; i < PROBE_BTRFS_COPIES; i++) {
		const unsigned char *sb = at(v, probe_btrfs_copies[i], 0x12b + 256);
		if (!sb || memcmp(sb + 0x40, "_BHRfS_M", 8) != 0)
			continue;
		found(p, "btrfs", i ? "superblock copy at 256 GiB, the first erased"
				    : "superblock copy at 64 MiB, the first erased");
		copy_label(p->label, sizeof p->label, sb + 0x12b, 256);
		return 1;
	}
	return 0;
}

static int probe_swap(const struct view *v, uint64_t b, struct probe *p)
{
	static const unsigned pagesizes[] = { 4096, 8192, 16384, 65536 };
	for (size_t i = 0; i < sizeof pagesizes / sizeof pagesizes[0]; i++) {
		uint64_t off = b + pagesizes[i] - 10;
		if (has(v, off, "SWAPSPACE2") || has(v, off, "SWAP-SPACE")) {
			found(p, "swap", "signature at end of first page");
			const unsigned char *l = at(v, b + 1024 + 28, 16);   /* volume_name */
			if (l && has(v, off, "SWAPSPACE2"))
				copy_label(p->label, sizeof p->label, l, 16);
			return 1;
		}
	}
	return 0;
}

static int probe_iso(const struct view *v, struct probe *p)
{
	if (!has(v, 0x8001, "CD001"))
		return 0;
	found(p, "iso9660", "volume descriptor at 32 KiB");
	const unsigned char *l = at(v, 0x8028, 32);
	if (l)
		copy_label(p->label, sizeof p->label, l, 32);
	return 1;
}

static int probe_vfat(const struct view *v, struct probe *p)
{
	const unsigned char *b = at(v, 0, 512);
	struct fat_layout fat;
	if (!b || fat_layout(b, 512, &fat) < 0)
		return 0;
	const unsigned char *ext = b + fat.ext;   /* label at 7, type at 0x12 */
	found(p, "vfat", fat.fat32 ? "FAT32 boot sector at 0" : "FAT12/16 boot sector at 0");
	if (ext[2] == 0x29) {   /* extended boot signature: label and type fields are valid */
		copy_label(p->label, sizeof p->label, ext + 7, 11);
		if (strcmp(p->label, "NO NAME") == 0)
			p->label[0] = '\0';
	}
	return 1;
}

static int probe_gpt_primary(const struct view *v, struct probe *p)
{
	if (has(v, 512, "EFI PART") || has(v, 4096, "EFI PART")) {
		found(p, "gpt", "primary header at LBA 1");
		return 1;
	}
	return 0;
}

static int probe_mbr(const struct view *v, struct probe *p)
{
	const unsigned char *b = at(v, 0, 512);
	struct mbr_part e[MBR_PARTS];
	if (!b || mbr_parts(b, e) < 0)
		return 0;
	int used = 0, protective = 0;
	for (int i = 0; i < MBR_PARTS; i++) {
		if (e[i].boot != 0 && e[i].boot != 0x80)
			return 0;   /* not a partition table: boot code or garbage */
		if (e[i].type) {
			used++;
			protective |= e[i].type == 0xEE;
		}
	}
	if (!used)
		return 0;
	if (protective)
		found(p, "gpt", "protective MBR (no valid GPT header)");
	else
		found(p, "mbr", "partition table at 0");
	return 1;
}

/* The backup GPT header sits in the very last logical block: a disk whose start was zeroed
 * still carries its partition table there, and tools will offer to restore it. */
static int probe_gpt_backup(const struct view *v, struct probe *p)
{
	static const unsigned lbs[] = { 512, 4096 };
	for (size_t i = 0; i < 2; i++)
		if (v->size >= 2 * lbs[i] && v->size % lbs[i] == 0 &&
		    has(v, v->size - lbs[i], "EFI PART")) {
			found(p, "gpt", "backup header at end of device");
			return 1;
		}
	return 0;
}

/* A word at a time: a blank disk's windows are megabytes of zeros, and PID 1 is built
 * for size (-Os), where a byte loop stays a byte loop. */
static int nonzero(const unsigned char *b, size_t n)
{
	size_t i = 0;
	for (uint64_t w; i + sizeof w <= n; i += sizeof w) {
		memcpy(&w, b + i, sizeof w);
		if (w)
			return 1;
	}
	for (; i < n; i++)
		if (b[i])
			return 1;
	return 0;
}

static int probe_data(const struct view *v, struct probe *p)
{
	/* regions 0 and 1 are the first and the last window (probe_regions) */
	if (nonzero(v->r[0].buf, v->r[0].len)) {
		found(p, "data", "nonzero bytes in the first MiB, no known signature");
		return 1;
	}
	if (v->n > 1 && nonzero(v->r[1].buf, v->r[1].len)) {
		found(p, "data", "nonzero bytes in the last MiB, no known signature");
		return 1;
	}
	return 0;
}

/* What can live at the start of a partition, as at the start of the disk. */
static int (*const content_probers[])(const struct view *, uint64_t, struct probe *) = {
	probe_md_start, probe_lvm, probe_luks, probe_bcache, probe_xfs, probe_ext, probe_btrfs,
	probe_swap,
};
#define NCONTENT (sizeof content_probers / sizeof content_probers[0])

static int probe_content(const struct view *v, struct probe *p)
{
	for (size_t i = 0; i < NCONTENT; i++)
		if (content_probers[i](v, 0, p))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ partition starts */

/* Where partitioning tools start a first partition (DOS tools at sector 63, today's at 1
 * MiB, some at 2 MiB); a table zapped with `dd bs=1M count=1` leaves its partitions there. */
static const uint64_t usual_starts[] = { 63 * 512, 1 << 20, 2 << 20 };
static const char erased[] = "probably a partition whose table was erased";

static size_t add_start(struct probe_start *out, size_t n, size_t max, uint64_t off,
			const char *why)
{
	if (off == 0 || n >= max)
		return n;
	for (size_t i = 0; i < n; i++)
		if (out[i].off == off)
			return n;
	out[n].off = off;
	out[n].why = why;
	return n + 1;
}

static size_t gpt_starts(const struct view *v, uint64_t hdr, unsigned lb, const char *why,
			 struct probe_start *out, size_t n, size_t max)
{
	const unsigned char *h = at(v, hdr, 92);
	if (!h || memcmp(h, "EFI PART", 8) != 0)
		return n;
	uint64_t lba = le64(h + 72);
	uint32_t count = le32(h + 80), esize = le32(h + 84);
	if (esize < 128 || esize > 4096 || count > 1024 || lba > v->size / lb)
		return n;
	for (uint32_t i = 0; i < count && n < max; i++) {
		const unsigned char *e = at(v, lba * lb + (uint64_t)i * esize, 40);
		static const unsigned char unused[16];
		if (!e || memcmp(e, unused, 16) == 0)
			continue;
		uint64_t start = le64(e + 32);
		if (start < v->size / lb)
			n = add_start(out, n, max, start * lb, why);
	}
	return n;
}

size_t probe_starts(const struct probe_region *r, size_t nr, uint64_t size,
		    struct probe_start *out, size_t max)
{
	struct view v = { r, nr, size };
	size_t n = 0;
	for (size_t i = 0; i < sizeof usual_starts / sizeof usual_starts[0]; i++)
		if (usual_starts[i] < size)
			n = add_start(out, n, max, usual_starts[i], erased);
	const unsigned char *mbr = at(&v, 0, 512);
	struct mbr_part e[MBR_PARTS];
	if (mbr && mbr_parts(mbr, e) == 0)
		for (int i = 0; i < MBR_PARTS; i++) {
			uint64_t start = (uint64_t)e[i].lba * 512;
			if (e[i].type && e[i].type != 0xEE && start < size)
				n = add_start(out, n, max, start, "a partition the MBR names");
		}
	static const unsigned lbs[] = { 512, 4096 };
	for (size_t i = 0; i < 2; i++) {
		n = gpt_starts(&v, lbs[i], lbs[i], "a partition the GPT names", out, n, max);
		if (size >= 2 * lbs[i] && size % lbs[i] == 0)
			n = gpt_starts(&v, size - lbs[i], lbs[i], "a partition the backup GPT names",
				       out, n, max);
	}
	return n;
}

/* A filesystem, md member or LVM volume at a partition start. */
static int probe_partitions(const struct view *v, struct probe *p)
{
	struct probe_start starts[PROBE_MAX_STARTS];
	size_t n = probe_starts(v->r, v->n, v->size, starts, PROBE_MAX_STARTS);
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < NCONTENT; i++)
			if (content_probers[i](v, starts[s].off, p)) {
				uint64_t off = starts[s].off;
				if (off % (1 << 20) == 0)
					snprintf(p->where, sizeof p->where, "at %llu MiB: %s",
						 (unsigned long long)(off >> 20), starts[s].why);
				else
					snprintf(p->where, sizeof p->where, "at sector %llu: %s",
						 (unsigned long long)(off / 512), starts[s].why);
				return 1;
			}
	return 0;
}

/* ------------------------------------------------------------------ the order */

static int (*const probers[])(const struct view *, struct probe *) = {
	probe_content, probe_iso, probe_vfat, probe_gpt_primary, probe_mbr, probe_partitions,
	probe_gpt_backup, probe_md_end, probe_btrfs_copy, probe_data,
};

void probe_regions(const struct probe_region *r, size_t n, uint64_t size, struct probe *p)
{
	struct view v = { r, n, size };
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < sizeof probers / sizeof probers[0]; i++)
		if (probers[i](&v, p))
			return;
}

void probe_buffers(const unsigned char *head, size_t headlen, const unsigned char *tail,
		   size_t taillen, uint64_t size, struct probe *p)
{
	if (headlen > size)
		headlen = (size_t)size;
	if (taillen > size)
		taillen = (size_t)size;
	struct probe_region r[2] = { { 0, head, headlen }, { size - taillen, tail, taillen } };
	probe_regions(r, 2, size, p);
}

/* Reads len bytes at off. A descriptor opened with O_DIRECT (probe_node's) reads straight
 * into buf; where the device or the offset refuses direct I/O (EINVAL: a start not aligned to
 * the logical block), the rest is read through the page cache. */
static int read_full(int fd, unsigned char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t r = pread(fd, buf, len, off);
		if (r < 0 && errno == EINTR)
			continue;
		int fl = r < 0 && errno == EINVAL ? fcntl(fd, F_GETFL) : -1;
		if (fl >= 0 && (fl & O_DIRECT) && fcntl(fd, F_SETFL, fl & ~O_DIRECT) == 0)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = EIO;   /* the device shrank under us */
			return -1;
		}
		buf += r;
		len -= (size_t)r;
		off += r;
	}
	return 0;
}

/* A buffer direct I/O can fill: page-aligned, as the kernel asks of O_DIRECT reads. */
static unsigned char *direct_buf(size_t len)
{
	void *b;
	return posix_memalign(&b, 4096, len ? len : 1) == 0 ? b : NULL;
}

/* Is [off, off + len) inside one of the regions read so far? */
static int covered(const struct probe_region *r, size_t n, uint64_t off, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (off >= r[i].off && off - r[i].off + len <= r[i].len)
			return 1;
	return 0;
}

int probe_fd(int fd, size_t window, struct probe *p)
{
	memset(p, 0, sizeof *p);
	off_t end = lseek(fd, 0, SEEK_END);   /* works for block devices and fixture files */
	if (end < 0)
		return -1;
	uint64_t size = (uint64_t)end;
	size_t w = size < window ? (size_t)size : window;
	if (w == 0)
		return 0;
	struct probe_region r[2 + PROBE_MAX_STARTS + PROBE_BTRFS_COPIES];
	unsigned char *bufs[2 + PROBE_MAX_STARTS + PROBE_BTRFS_COPIES] = { direct_buf(w),
									    direct_buf(w) };
	size_t n = 2;
	int rc = -1;
	r[0] = (struct probe_region){ 0, bufs[0], w };
	r[1] = (struct probe_region){ size - w, bufs[1], w };
	if (!bufs[0] || !bufs[1]) {
		errno = ENOMEM;
		goto out;
	}
	if (read_full(fd, bufs[0], w, 0) < 0 || read_full(fd, bufs[1], w, (off_t)(size - w)) < 0)
		goto out;
	/* The partition starts the windows say nothing about are read too, a little of each. */
	struct probe_start starts[PROBE_MAX_STARTS];
	size_t ns = probe_starts(r, 2, size, starts, PROBE_MAX_STARTS);
	for (size_t i = 0; i < ns; i++) {
		uint64_t off = starts[i].off;
		size_t len = size - off < PROBE_DEEP_WINDOW ? (size_t)(size - off) : PROBE_DEEP_WINDOW;
		if (covered(r, n, off, len))
			continue;
		if (!(bufs[n] = direct_buf(len))) {
			errno = ENOMEM;
			goto out;
		}
		r[n] = (struct probe_region){ off, bufs[n], len };
		n++;
		if (read_full(fd, bufs[n - 1], len, (off_t)off) < 0)
			goto out;
	}
	for (size_t i = 0; i < PROBE_BTRFS_COPIES; i++) {
		uint64_t off = probe_btrfs_copies[i];
		if (off + PROBE_BTRFS_SB > size || covered(r, n, off, PROBE_BTRFS_SB))
			continue;
		if (!(bufs[n] = direct_buf(PROBE_BTRFS_SB))) {
			errno = ENOMEM;
			goto out;
		}
		r[n] = (struct probe_region){ off, bufs[n], PROBE_BTRFS_SB };
		n++;
		if (read_full(fd, bufs[n - 1], PROBE_BTRFS_SB, (off_t)off) < 0)
			goto out;
	}
	probe_regions(r, n, size, p);
	rc = 0;
out:;
	int saved = errno;
	for (size_t i = 0; i < n; i++)
		free(bufs[i]);
	errno = saved;
	return rc;
}
