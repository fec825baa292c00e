/* test_disk.c: disk discovery against tests/fixtures/sys-basic, the signature probes against
 * hand-made buffers (including a 1 GiB "disk" given as a head and a tail). Run from the top of
 * the tree, as `make unit` does. (Device paths and names: test_devnames.c; FAT: test_fat.c.) */
#include "check.h"
#include "core/disk/disk.h"
#include "core/disk/fat.h"
#include "core/disk/probe.h"
#include "lib/sha256.h"
#include <linux/loop.h>
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define SYS "tests/fixtures/sys-basic/sys"
#define DEV "tests/fixtures/sys-basic/dev"

/* ---------------------------------------------------------------- discovery of the fixture */

static const struct want {
	const char *name, *transport, *by_path, *serial, *model, *wwn, *signature, *label;
	unsigned long long size;
	int removable, rotational, nparts, holds_results;
	const char *results_dev;
	unsigned physical_bs;
} want[] = {
	{ "nvme0n1", "nvme", "pci-0000:00:0e.0-nvme-1", "FSMNVME0", "QEMU NVMe Ctrl",
	  "eui.0011223344556677", "", "", 131072, 0, 0, 0, 0, "", 4096 },
	{ "sda", "usb", "pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0", "FSMSTICK0001", "Flash Disk", "", "", "",
	  131072, 1, 0, 0, 0, "", 512 },
	{ "sdb", "sata", "pci-0000:00:1f.2-ata-1", "", "QEMU HARDDISK",
	  "t10.ATA     QEMU HARDDISK                           QM00001", "data", "", 131072,
	  0, 1, 0, 0, "", 512 },
	{ "vdb", "virtio", "pci-0000:00:05.0", "fsmtest0", "", "", "", "", 131072, 0, 0, 0, 0, "", 512 },
	{ "vdc", "virtio", "pci-0000:00:06.0", "fsmtest1", "", "", "", "", 131072, 0, 0, 0, 0, "", 512 },
	{ "vdd", "virtio", "pci-0000:00:07.0", "fsmtest2", "", "", "", "", 131072, 0, 0, 0, 0, "", 512 },
	{ "vde", "virtio", "pci-0000:00:08.0", "fsmtest3", "", "", "", "", 131072, 0, 0, 0, 0, "", 512 },
	{ "vdf", "virtio", "pci-0000:00:09.0", "data0", "", "", "ext4", "keepme", 131072, 0, 1, 0,
	  0, "", 512 },
	{ "vdg", "virtio", "pci-0000:00:0a.0", "md0", "", "", "md", "fsm:0", 131072, 0, 0, 0, 0,
	  "", 512 },
	{ "vdh", "virtio", "pci-0000:00:0b.0", "results0", "", "", "mbr", "FSMRESULTS", 262144, 0,
	  0, 1, 1, "vdh1", 512 },
	{ "vdi", "virtio", "pci-0000:00:0c.0", "gptend0", "", "", "gpt", "", 262144, 0, 0, 0, 0,
	  "", 512 },
	{ "vdj", "virtio", "pci-0000:00:0d.0", "lvm0", "", "", "lvm", "", 131072, 0, 0, 0, 0, "", 512 },
	{ "vdk", "virtio", "pci-0000:00:0f.0", "swap0", "", "", "swap", "swp", 131072, 0, 0, 0, 0,
	  "", 512 },
};

#define NWANT (int)(sizeof want / sizeof want[0])

static void test_discover(void)
{
	static struct disk d[DISK_MAX];
	char err[256] = "";
	int n = disks_discover(SYS, DEV, d, DISK_MAX, err, sizeof err);

	/* loop0 ram0 zram0 md0 dm-0 sr0 nbd0 are in the fixture and must not be listed. */
	CHECK_INT(n, NWANT);
	for (int i = 0; i < n && i < NWANT; i++) {
		const struct want *w = &want[i];
		CHECK_STR(d[i].name, w->name);   /* also checks the sort order */
		CHECK_STR(d[i].transport, w->transport);
		CHECK_STR(d[i].by_path, w->by_path);
		CHECK_STR(d[i].serial, w->serial);
		CHECK_STR(d[i].model, w->model);
		CHECK_STR(d[i].wwn, w->wwn);
		CHECK_STR(d[i].signature, w->signature);
		CHECK_STR(d[i].label, w->label);
		CHECK_INT(d[i].size, w->size);
		CHECK_INT(d[i].removable, w->removable);
		CHECK_INT(d[i].rotational, w->rotational);
		CHECK_INT(d[i].nparts, w->nparts);
		CHECK_INT(d[i].holds_results, w->holds_results);
		CHECK_STR(d[i].results_dev, w->results_dev);
		CHECK_INT(d[i].logical_bs, 512);
		CHECK_INT(d[i].physical_bs, w->physical_bs);
		CHECK_INT(d[i].readonly, 0);
		CHECK_INT(d[i].is_boot, 0);
	}
	CHECK_STR(d[9].parts[0], "vdh1");
	/* The GPT disk's start is zeros: only the end check can have found it. */
	CHECK_STR(d[10].sig_where, "backup header at end of device");

	/* The boot medium is named by the caller, as a disk or as one of its partitions. */
	CHECK_INT(disks_mark_boot(d, n, "vdh1"), 1);
	CHECK_INT(d[9].is_boot, 1);
	CHECK_INT(disks_mark_boot(d, n, "sda"), 1);
	CHECK_INT(d[1].is_boot, 1);
	CHECK_INT(disks_mark_boot(d, n, "vdz"), 0);

	/* No device nodes: every disk is "unreadable", never blank. */
	n = disks_discover(SYS, "tests/fixtures/no-such-dev", d, DISK_MAX, err, sizeof err);
	CHECK_INT(n, NWANT);
	for (int i = 0; i < n; i++)
		CHECK_STR(d[i].signature, "unreadable");
	CHECK_STR(d[3].sig_where, "unable to read vdb: No such file or directory");

	/* Too many disks for the caller's array, and no sysfs at all, are errors. */
	CHECK_INT(disks_discover(SYS, DEV, d, 4, err, sizeof err), -1);
	CHECK_INT(disks_discover("tests/fixtures/no-such-sys", DEV, d, DISK_MAX, err, sizeof err),
		  -1);
	CHECK_STR(err, "fsmatrix: unable to read tests/fixtures/no-such-sys/block: "
		  "No such file or directory");
}

/* The end of a disk is read even when the start says nothing: a 64 KiB window over the
 * 256 KiB fixture leaves the backup GPT header only in the tail. */
static void test_probe_fd_window(void)
{
	static const struct { const char *dev, *type, *where; } rows[] = {
		{ DEV "/vdi", "gpt", "backup header at end of device" },
		{ DEV "/sdb", "data", "nonzero bytes in the last MiB, no known signature" },
		{ DEV "/vdb", "", "" },
		{ DEV "/vdh1", "vfat", "FAT12/16 boot sector at 0" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct probe p;
		int fd = open(rows[i].dev, O_RDONLY);
		CHECK(fd >= 0, "open %s", rows[i].dev);
		CHECK_INT(probe_fd(fd, 64 * 1024, &p), 0);
		CHECK_STR(p.type, rows[i].type);
		CHECK_STR(p.where, rows[i].where);
		close(fd);
	}
}

/* ---------------------------------------------------------------- probes on synthetic disks */

#define W PROBE_WINDOW
static unsigned char head[W], tail[W];

static void put(unsigned char *b, size_t off, const void *bytes, size_t n) { memcpy(b + off, bytes, n); }
static void put16(unsigned char *b, size_t off, unsigned v) { b[off] = v & 0xff; b[off + 1] = v >> 8; }
static void put32(unsigned char *b, size_t off, unsigned v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = (v >> (8 * i)) & 0xff;
}

static void ext_sb(unsigned compat, unsigned incompat, unsigned ro)
{
	put16(head, 1024 + 56, 0xEF53);
	put32(head, 1024 + 0x5C, compat);
	put32(head, 1024 + 0x60, incompat);
	put32(head, 1024 + 0x64, ro);
	put(head, 1024 + 0x78, "rootfs", 6);
}

static void fat_bpb(int fat32, const char *label)
{
	head[0] = 0xEB; head[1] = 0x3C; head[2] = 0x90;
	put16(head, 11, 512);
	head[13] = 4;
	put16(head, 14, fat32 ? 32 : 1);
	head[16] = 2;
	put16(head, 22, fat32 ? 0 : 200);
	if (fat32)
		put32(head, 36, 1000);
	size_t ext = fat32 ? 0x40 : 0x24;
	head[ext + 2] = 0x29;
	put(head, ext + 7, label, 11);
	put(head, ext + 0x12, fat32 ? "FAT32   " : "FAT16   ", 8);
	head[510] = 0x55; head[511] = 0xAA;
}

#define GIB (1024ULL * 1024 * 1024)

static const struct synth {
	const char *what;
	void (*make)(void);
	unsigned long long size;
	const char *type, *label;
} synth[] = {
	{ "zeros", NULL, GIB, "", "" },
};

static void mk_ext2(void) { ext_sb(0, 0x2, 0x1); }
static void mk_ext3(void) { ext_sb(0x4, 0x2, 0x1); }
static void mk_ext4(void) { ext_sb(0x4, 0x2 | 0x40 | 0x200, 0x1); }
static void mk_ext4_rocompat(void) { ext_sb(0x4, 0x2, 0x1 | 0x8); }   /* huge_file */
static void mk_jbd(void) { ext_sb(0, 0x8, 0); }
static void mk_xfs(void) { put(head, 0, "XFSB", 4); put(head, 108, "scratch", 7); }
static void mk_btrfs(void) { put(head, 0x10040, "_BHRfS_M", 8); put(head, 0x1012b, "pool", 4); }
static void mk_swap(void) { put(head, 4086, "SWAPSPACE2", 10); put(head, 1052, "swap1", 5); }
static void mk_swap64k(void) { put(head, 65526, "SWAPSPACE2", 10); }
static void mk_iso(void) { put(head, 0x8001, "CD001", 5); put(head, 0x8028, "FSMATRIX", 8); }
static void mk_fat16(void) { fat_bpb(0, "FSMRESULTS "); }
static void mk_fat32(void) { fat_bpb(1, "FSMRESULTS "); }
static void mk_fat_noname(void) { fat_bpb(1, "NO NAME    "); }
static void mk_md12(void) { put32(head, 4096, 0xa92b4efc); put32(head, 4100, 1); put(head, 4128, "h:0", 3); }
static void mk_md11(void) { put32(head, 0, 0xa92b4efc); put32(head, 4, 1); }
/* 1 GiB = 2097152 sectors: v1.0 at (2097152 - 16) & ~7 = 2097136, 0.90 at 2097152 - 128. */
static void mk_md10(void) { put32(tail, W - 16 * 512, 0xa92b4efc); put32(tail, W - 16 * 512 + 4, 1); }
static void mk_md090(void) { put32(tail, W - 128 * 512, 0xa92b4efc); }
static void mk_lvm(void) { put(head, 3 * 512, "LABELONE", 8); }
/* LUKS: "LUKS\xba\xbe", the version (big-endian) at 6, the label (LUKS2) at 24; LUKS2's
 * second header ("SKUL\xba\xbe") at 16 KiB when the first was overwritten. bcache: its magic
 * 24 bytes into the superblock at 4 KiB. */
static void mk_luks1(void) { put(head, 0, "LUKS\xba\xbe\0\1", 8); }
static void mk_luks2(void) { put(head, 0, "LUKS\xba\xbe\0\2", 8); put(head, 24, "vault", 5); }
static void mk_luks2_2nd(void) { put(head, 0x4000, "SKUL\xba\xbe\0\2", 8); }
static void mk_bcache(void)
{
	put(head, 4096 + 24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81", 16);
}
static void mk_gpt(void) { head[510] = 0x55; head[511] = 0xAA; head[446 + 4] = 0xEE; put(head, 512, "EFI PART", 8); }
static void mk_gpt4k(void) { put(head, 4096, "EFI PART", 8); }
static void mk_gpt_end(void) { put(tail, W - 512, "EFI PART", 8); }
static void mk_gpt_end4k(void) { put(tail, W - 4096, "EFI PART", 8); }
static void mk_pmbr(void) { head[510] = 0x55; head[511] = 0xAA; head[446 + 4] = 0xEE; }
static void mk_mbr(void) { head[510] = 0x55; head[511] = 0xAA; head[446] = 0x80; head[446 + 4] = 0x83; }
static void mk_mbr_empty(void) { head[510] = 0x55; head[511] = 0xAA; }
static void mk_grub_code(void) { head[0] = 0xEB; head[1] = 0x63; head[2] = 0x90; head[510] = 0x55; head[511] = 0xAA; }
static void mk_data_head(void) { head[W - 1] = 1; }
static void mk_data_tail(void) { tail[0] = 0xff; }

static const struct synth rows[] = {
	{ "ext2", mk_ext2, GIB, "ext2", "rootfs" },
	{ "ext3", mk_ext3, GIB, "ext3", "rootfs" },
	{ "ext4 by incompat", mk_ext4, GIB, "ext4", "rootfs" },
	{ "ext4 by ro_compat", mk_ext4_rocompat, GIB, "ext4", "rootfs" },
	{ "ext journal device", mk_jbd, GIB, "jbd", "rootfs" },
	{ "xfs", mk_xfs, GIB, "xfs", "scratch" },
	{ "btrfs", mk_btrfs, GIB, "btrfs", "pool" },
	{ "swap 4k page", mk_swap, GIB, "swap", "swap1" },
	{ "swap 64k page", mk_swap64k, GIB, "swap", "" },
	{ "iso9660", mk_iso, GIB, "iso9660", "FSMATRIX" },
	{ "FAT16 label at 0x2B", mk_fat16, GIB, "vfat", "FSMRESULTS" },
	{ "FAT32 label at 0x47", mk_fat32, GIB, "vfat", "FSMRESULTS" },
	{ "FAT32 NO NAME", mk_fat_noname, GIB, "vfat", "" },
	{ "md v1.2", mk_md12, GIB, "md", "h:0" },
	{ "md v1.1", mk_md11, GIB, "md", "" },
	{ "md v1.0 at end", mk_md10, GIB, "md", "" },
	{ "md 0.90 at end", mk_md090, GIB, "md", "" },
	{ "lvm in sector 3", mk_lvm, GIB, "lvm", "" },
	{ "luks1", mk_luks1, GIB, "luks", "" },
	{ "luks2 with a label", mk_luks2, GIB, "luks", "vault" },
	{ "luks2, second header only", mk_luks2_2nd, GIB, "luks", "" },
	{ "bcache", mk_bcache, GIB, "bcache", "" },
	{ "gpt", mk_gpt, GIB, "gpt", "" },
	{ "gpt 4k sectors", mk_gpt4k, GIB, "gpt", "" },
	{ "gpt backup only", mk_gpt_end, GIB, "gpt", "" },
	{ "gpt backup only, 4k", mk_gpt_end4k, GIB, "gpt", "" },
	{ "protective mbr alone", mk_pmbr, GIB, "gpt", "" },
	{ "mbr", mk_mbr, GIB, "mbr", "" },
	{ "0x55AA, empty table", mk_mbr_empty, GIB, "data", "" },
	{ "boot code, no BPB", mk_grub_code, GIB, "data", "" },
	{ "nonzero at end of first MiB", mk_data_head, GIB, "data", "" },
	{ "nonzero at start of last MiB", mk_data_tail, GIB, "data", "" },
};

static void test_probe_buffers(void)
{
	struct probe p;

	for (size_t i = 0; i < sizeof synth / sizeof synth[0]; i++) {
		memset(head, 0, W);
		memset(tail, 0, W);
		probe_buffers(head, W, tail, W, synth[i].size, &p);
		CHECK(strcmp(p.type, synth[i].type) == 0, "%s: type \"%s\"", synth[i].what, p.type);
	}
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(head, 0, W);
		memset(tail, 0, W);
		rows[i].make();
		probe_buffers(head, W, tail, W, rows[i].size, &p);
		CHECK(strcmp(p.type, rows[i].type) == 0, "%s: type \"%s\", want \"%s\"", rows[i].what,
		      p.type, rows[i].type);
		CHECK(strcmp(p.label, rows[i].label) == 0, "%s: label \"%s\", want \"%s\"",
		      rows[i].what, p.label, rows[i].label);
	}
	/* A device smaller than the window: head and tail are the same bytes. */
	memset(head, 0, W);
	put(head, 4096 - 512, "EFI PART", 8);
	probe_buffers(head, 4096, head, 4096, 4096, &p);
	CHECK_STR(p.type, "gpt");
	probe_buffers(head, 0, head, 0, 0, &p);
	CHECK_STR(p.type, "");
}

/* A zapped partition table (`dd bs=1M count=1`) leaves the partitions where they were: what
 * they hold is found at the usual starts and at the starts a surviving backup GPT names. */
static unsigned char part[PROBE_DEEP_WINDOW];

static void part_ext4(void) { put16(part, 1024 + 56, 0xEF53); put32(part, 1024 + 0x60, 0x2 | 0x40); }
static void part_xfs(void) { put(part, 0, "XFSB", 4); }
static void part_md12(void) { put32(part, 4096, 0xa92b4efc); put32(part, 4100, 1); put(part, 4128, "h:1", 3); }
static void part_lvm(void) { put(part, 512, "LABELONE", 8); }
static void part_swap(void) { put(part, 4086, "SWAPSPACE2", 10); }
static void part_btrfs(void) { put(part, 0x10040, "_BHRfS_M", 8); }

/* A backup GPT in the last sector of the tail naming one partition at LBA start. */
static void backup_gpt(uint64_t start)
{
	size_t hdr = W - 512, entries = W - 33 * 512;
	put(tail, hdr, "EFI PART", 8);
	uint64_t lba = (GIB - 33 * 512) / 512;
	put32(tail, hdr + 72, (unsigned)lba);
	put32(tail, hdr + 76, (unsigned)(lba >> 32));
	put32(tail, hdr + 80, 128);
	put32(tail, hdr + 84, 128);
	put(tail, entries, "0123456789abcdef", 16);   /* a non-zero type GUID */
	put32(tail, entries + 32, (unsigned)start);
}

static void test_probe_partitions(void)
{
	static const struct {
		const char *what;
		void (*make)(void);
		uint64_t at;   /* where the partition is */
		int gpt;       /* a backup GPT names it */
		const char *type, *where;
	} cases[] = {
		{ "ext4 at 1 MiB", part_ext4, 1 << 20, 0, "ext4", "at 1 MiB: probably a partition whose table was erased" },
		{ "xfs at 1 MiB", part_xfs, 1 << 20, 0, "xfs", "at 1 MiB: probably a partition whose table was erased" },
		{ "md 1.2 at 1 MiB", part_md12, 1 << 20, 0, "md", "at 1 MiB: probably a partition whose table was erased" },
		{ "lvm at 1 MiB", part_lvm, 1 << 20, 0, "lvm", "at 1 MiB: probably a partition whose table was erased" },
		{ "ext4 at 2 MiB", part_ext4, 2 << 20, 0, "ext4", "at 2 MiB: probably a partition whose table was erased" },
		{ "swap at sector 63", part_swap, 63 * 512, 0, "swap", "at sector 63: probably a partition whose table was erased" },
		{ "btrfs at 1 MiB", part_btrfs, 1 << 20, 0, "btrfs", "at 1 MiB: probably a partition whose table was erased" },
		{ "xfs at 3 MiB, named by the backup GPT", part_xfs, 3 << 20, 1, "xfs", "at 3 MiB: a partition the backup GPT names" },
		{ "xfs at 5 MiB, named by nothing", part_xfs, 5 << 20, 0, "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct probe p;
		memset(head, 0, W);
		memset(tail, 0, W);
		memset(part, 0, sizeof part);
		cases[i].make();
		if (cases[i].gpt)
			backup_gpt(cases[i].at / 512);
		/* sector 63 lies in the first window: the partition is part of the head there */
		if (cases[i].at + sizeof part <= W)
			memcpy(head + cases[i].at, part, sizeof part);
		struct probe_region r[3] = { { 0, head, W }, { GIB - W, tail, W },
					     { cases[i].at, part, sizeof part } };
		probe_regions(r, 3, GIB, &p);
		/* a backup GPT alone still says gpt, as before */
		const char *type = cases[i].type[0] ? cases[i].type : cases[i].gpt ? "gpt" : "";
		CHECK(strcmp(p.type, type) == 0, "%s: type \"%s\", want \"%s\"", cases[i].what, p.type, type);
		CHECK(strcmp(p.where, cases[i].where) == 0, "%s: where \"%s\", want \"%s\"",
		      cases[i].what, p.where, cases[i].where);
	}
	/* probe_fd reads those starts itself: a sparse file with ext4 at 1 MiB */
	char path[] = "/tmp/fsm-probe-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	unlink(path);
	memset(part, 0, sizeof part);
	part_ext4();
	CHECK_INT(ftruncate(fd, 64 << 20), 0);
	CHECK_INT(pwrite(fd, part, sizeof part, 1 << 20), (long long)sizeof part);
	struct probe p;
	CHECK_INT(probe_fd(fd, W, &p), 0);
	CHECK_STR(p.type, "ext4");
	CHECK_STR(p.where, "at 1 MiB: probably a partition whose table was erased");
	/* opened for direct I/O as probe_node opens devices (the buffers must be aligned for
	 * it), and 100 bytes longer: the last window starts off any block */
	CHECK_INT(ftruncate(fd, (64 << 20) + 100), 0);
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	int dfd = open(self, O_RDONLY | O_DIRECT);
	if (dfd < 0 && errno == EINVAL)
		printf("# test_disk: /tmp refuses O_DIRECT: the direct read is not tried\n");
	else {
		CHECK(dfd >= 0, "open %s with O_DIRECT: %s", self, strerror(errno));
		memset(&p, 0, sizeof p);
		CHECK_INT(probe_fd(dfd, W, &p), 0);
		CHECK_STR(p.type, "ext4");
		close(dfd);
	}
	close(fd);
}

/* btrfs's superblock copies: a disk whose first superblock was erased (its first and last
 * MiB zero, as a plain wipe leaves it) still holds the filesystem in the copy at 64 MiB, and
 * on a disk of 256 GiB and more at 256 GiB; the probe reads both and refuses the disk. */
static void test_probe_btrfs_copies(void)
{
	static const struct {
		uint64_t size, at;
		const char *type, *where;
	} cases[] = {
		{ 128ull << 20, 64ull << 20, "btrfs", "superblock copy at 64 MiB, the first erased" },
		{ 300ull << 30, 256ull << 30, "btrfs", "superblock copy at 256 GiB, the first erased" },
		{ 128ull << 20, 0, "", "" },   /* nothing anywhere: blank */
	};
	unsigned char sb[4096];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[] = "/tmp/fsm-probe-XXXXXX";
		int fd = mkstemp(path);
		CHECK(fd >= 0, "mkstemp");
		unlink(path);
		CHECK_INT(ftruncate(fd, (off_t)cases[i].size), 0);
		memset(sb, 0, sizeof sb);
		memcpy(sb + 0x40, "_BHRfS_M", 8);
		memcpy(sb + 0x12b, "kept", 4);
		if (cases[i].at)
			CHECK_INT(pwrite(fd, sb, sizeof sb, (off_t)cases[i].at), (long long)sizeof sb);
		struct probe p;
		CHECK_INT(probe_fd(fd, W, &p), 0);
		CHECK(strcmp(p.type, cases[i].type) == 0, "case %zu: type \"%s\"", i, p.type);
		CHECK(strcmp(p.where, cases[i].where) == 0, "case %zu: where \"%s\"", i, p.where);
		CHECK_STR(p.label, cases[i].at ? "kept" : "");
		close(fd);
	}
}

/* A device that refuses a direct read: a loop device of 4096-byte blocks, whose MBR names a
 * partition at sector 2047 (512-byte units, off any 4096-byte block). probe_node opens
 * devices with O_DIRECT; that read is done again through the page cache, the device's
 * answer is the one a buffered probe gives, and its bytes are left as they were. Needs
 * root and loop devices; says so and is skipped without them. */
static void test_probe_direct_refused(void)
{
	char path[] = "/tmp/fsm-probe-loop-XXXXXX", before[65], after[65], dev[32];
	int ctl = geteuid() == 0 ? open("/dev/loop-control", O_RDWR | O_CLOEXEC) : -1;
	if (ctl < 0) {
		printf("# test_disk: no root or no /dev/loop-control: the refused direct read is not tried\n");
		return;
	}
	int fd = mkstemp(path), n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	CHECK(fd >= 0 && n >= 0, "a file and a free loop device");
	memset(head, 0, W);
	mk_mbr();
	put32(head, 446 + 8, 2047);        /* the partition's first sector */
	put32(head, 446 + 12, 16384);
	memset(part, 0, sizeof part);
	part_ext4();
	CHECK_INT(ftruncate(fd, 16 << 20), 0);
	CHECK_INT(pwrite(fd, head, 512, 0), 512);
	CHECK_INT(pwrite(fd, part, sizeof part, 2047 * 512), (long long)sizeof part);
	CHECK_INT(fsync(fd), 0);
	CHECK_INT(sha256_file(path, before), 0);
	snprintf(dev, sizeof dev, "/dev/loop%d", n);
	int lfd = open(dev, O_RDWR | O_CLOEXEC);
	struct loop_config cfg = { .fd = (unsigned)fd, .block_size = 4096 };
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
	CHECK(lfd >= 0 && ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0, "%s set up: %s", dev, strerror(errno));
	int dfd = open(dev, O_RDONLY | O_CLOEXEC | O_DIRECT);
	CHECK(dfd >= 0, "open %s with O_DIRECT", dev);
	struct probe direct, buffered;
	CHECK_INT(probe_fd(dfd, W, &direct), 0);
	CHECK((fcntl(dfd, F_GETFL) & O_DIRECT) == 0,
	      "the refused direct read was read through the page cache");
	close(dfd);
	int bfd = open(dev, O_RDONLY | O_CLOEXEC);
	CHECK_INT(probe_fd(bfd, W, &buffered), 0);
	close(bfd);
	CHECK_STR(direct.type, "mbr");
	CHECK_STR(direct.type, buffered.type);
	CHECK_STR(direct.where, buffered.where);
	ioctl(lfd, LOOP_CLR_FD);
	close(lfd);
	CHECK_INT(sha256_file(path, after), 0);
	CHECK_STR(after, before);
	close(fd);
	unlink(path);
}

int main(void)
{
	test_discover();
	test_probe_fd_window();
	test_probe_buffers();
	test_probe_partitions();
	test_probe_btrfs_copies();
	test_probe_direct_refused();
	return check_done("test_disk");
}
