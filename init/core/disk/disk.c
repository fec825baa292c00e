/* core/disk/disk.c: one struct disk per block device under SYSROOT/block, read one sysfs value at
 * a time, plus what probe.c finds at the start and end of the disk and of each partition. */
#include "core/disk/disk.h"
#include "core/disk/devpath.h"
#include "core/disk/probe.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESULTS_LABEL "FSMRESULTS"

/* Devices that are never disks to test or to hold results: virtual, stacked or optical. */
static const char *const skip_prefixes[] = {
	"loop", "ram", "zram", "md", "dm-", "sr", "nbd", "fd",
};

/* Bounded copies and path joins that say when they would not fit (and keep gcc's
 * -Wformat-truncation quiet about sizes it cannot prove). */
static void set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int join(char *buf, size_t len, const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	if (la + ls + lb >= len) {
		buf[0] = '\0';
		return -1;
	}
	memcpy(buf, a, la);
	memcpy(buf + la, sep, ls);
	memcpy(buf + la + ls, b, lb + 1);
	return 0;
}

int disk_name_skipped(const char *name)
{
	if (name[0] == '.')
		return 1;
	for (size_t i = 0; i < sizeof skip_prefixes / sizeof skip_prefixes[0]; i++)
		if (strncmp(name, skip_prefixes[i], strlen(skip_prefixes[i])) == 0)
			return 1;
	return 0;
}

/* dir/file's first line, surrounding blanks removed (SCSI pads model names with spaces).
 * Returns 0, or -1 if it cannot be read; buf is "" then. */
static int read_value(const char *dir, const char *file, char *buf, size_t len)
{
	char path[512];
	buf[0] = '\0';
	if (join(path, sizeof path, dir, "/", file) < 0)
		return -1;
	if (file_first_line(path, buf, len) < 0)
		return -1;
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	size_t lead = strspn(buf, " \t");
	memmove(buf, buf + lead, n - lead + 1);
	return 0;
}

static unsigned long long read_number(const char *dir, const char *file, unsigned long long dflt)
{
	char buf[32], *end;
	if (read_value(dir, file, buf, sizeof buf) < 0 || !buf[0])
		return dflt;
	unsigned long long v = strtoull(buf, &end, 10);
	return *end ? dflt : v;
}

/* The first of several candidate files that has a value: where a field lives depends on the
 * driver (virtio-blk has serial in the disk directory, nvme and scsi under device/). */
static void read_first(const char *dir, const char *const *files, char *buf, size_t len)
{
	for (; *files; files++)
		if (read_value(dir, *files, buf, len) == 0 && buf[0])
			return;
	buf[0] = '\0';
}

static const char *const serial_files[] = { "device/serial", "serial", NULL };

int vpd_pg80_serial(const unsigned char *page, size_t n, char *out, size_t len)
{
	out[0] = '\0';
	if (n < 4 || page[1] != 0x80 || len == 0)
		return -1;
	size_t plen = (size_t)page[2] << 8 | page[3];
	if (plen > n - 4)
		plen = n - 4;
	const unsigned char *s = page + 4, *e = s + plen;
	while (s < e && (*s == ' ' || *s == '\0'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\0'))
		e--;
	size_t k = 0;
	for (; s < e && k + 1 < len; s++)
		if (*s < 0x20 || *s > 0x7e)
			return out[0] = '\0', -1; /* a serial is printable ASCII (SPC-4 7.8.18) */
		else
			out[k++] = (char)*s;
	out[k] = '\0';
	return k ? 0 : -1;
}

/* SCSI disks (virtio-scsi, SATA behind libata, USB) have no serial attribute: it is in the
 * Unit Serial Number VPD page, which the kernel exposes raw. */
static void read_vpd_serial(const char *dir, char *buf, size_t len)
{
	char path[512];
	unsigned char page[256];
	if (join(path, sizeof path, dir, "/", "device/vpd_pg80") < 0)
		return;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, page, sizeof page);
	close(fd);
	if (n > 0)
		vpd_pg80_serial(page, (size_t)n, buf, len);
}
/* A USB disk whose bridge reports no Unit Serial Number (usb-storage sticks, qemu's
 * usb-storage) still has the USB device's iSerialNumber, as udev's ID_SERIAL_SHORT does: in
 * the closest directory above the disk that is a USB device (it has idVendor). target is the
 * /sys/block/NAME symlink's target, relative to sysroot/block. */
static void read_usb_serial(const char *sysroot, const char *target, char *buf, size_t len)
{
	char up[512], dir[1024];
	snprintf(up, sizeof up, "%s", target);
	for (char *cut; (cut = strrchr(up, '/')) != NULL;) {
		*cut = '\0';
		if (snprintf(dir, sizeof dir, "%s/block/%s", sysroot, up) >= (int)sizeof dir)
			return;
		char vendor[16];
		if (read_value(dir, "idVendor", vendor, sizeof vendor) == 0) {
			if (read_value(dir, "serial", buf, len) < 0)
				buf[0] = '\0';
			return;
		}
	}
}

static const char *const wwn_files[] = { "device/wwid", "wwid", "device/wwn", NULL };
static const char *const model_files[] = { "device/model", NULL };

static int cmp_name(const void *a, const void *b)
{
	return strverscmp((const char *)a, (const char *)b);
}

static void read_partitions(const char *dir, struct disk *d)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	char sub[512], num[32];

	if (!dh)
		return;
	while ((e = readdir(dh)) != NULL && d->nparts < DISK_PART_MAX) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof d->parts[0])
			continue;
		if (join(sub, sizeof sub, dir, "/", e->d_name) == 0 &&
		    read_value(sub, "partition", num, sizeof num) == 0)
			set_str(d->parts[d->nparts++], sizeof d->parts[0], e->d_name);
	}
	closedir(dh);
	qsort(d->parts, (size_t)d->nparts, sizeof d->parts[0], cmp_name);
}

/* Probes DEVROOT/name read-only. Returns 0, or -1 with a reason in why. */
static int probe_node(const char *devroot, const char *name, struct probe *p, char *why,
		      size_t whylen)
{
	char path[512];
	int fd = -1;
	if (join(path, sizeof path, devroot, "/", name) < 0)
		errno = ENAMETOOLONG;
	else   /* direct: the device's bytes, not the page cache's, and no copy through it */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)   /* a device or file system without direct I/O */
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || probe_fd(fd, PROBE_WINDOW, p) < 0) {
		int n = snprintf(why, whylen, "unable to read %s: %s", name, strerror(errno));
		(void)n;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void probe_disk(const char *devroot, struct disk *d)
{
	struct probe p;

	if (probe_node(devroot, d->name, &p, d->sig_where, sizeof d->sig_where) < 0) {
		snprintf(d->signature, sizeof d->signature, "unreadable");
		return;
	}
	snprintf(d->signature, sizeof d->signature, "%s", p.type);
	snprintf(d->sig_where, sizeof d->sig_where, "%s", p.where);
	snprintf(d->label, sizeof d->label, "%s", p.label);
	if (strcmp(p.type, "vfat") == 0 && strcmp(p.label, RESULTS_LABEL) == 0) {
		d->holds_results = 1;
		snprintf(d->results_dev, sizeof d->results_dev, "%s", d->name);
	}

	for (int i = 0; i < d->nparts; i++) {
		char why[64];
		if (probe_node(devroot, d->parts[i], &p, why, sizeof why) < 0)
			continue;   /* the whole disk already told whether it is blank */
		if (strcmp(p.type, "vfat") == 0 && strcmp(p.label, RESULTS_LABEL) == 0 &&
		    !d->holds_results) {
			d->holds_results = 1;
			snprintf(d->results_dev, sizeof d->results_dev, "%s", d->parts[i]);
			snprintf(d->label, sizeof d->label, "%s", p.label);
		}
		if (!d->label[0])
			snprintf(d->label, sizeof d->label, "%s", p.label);
	}
	/* The kernel saw partitions that no probe recognised a table for: still not blank. */
	if (!d->signature[0] && d->nparts) {
		snprintf(d->signature, sizeof d->signature, "partitioned");
		snprintf(d->sig_where, sizeof d->sig_where, "kernel lists partition %s", d->parts[0]);
	}
}

static void read_disk(const char *sysroot, const char *devroot, const char *name,
		      struct disk *d)
{
	char dir[512], link[512], target[512];

	memset(d, 0, sizeof *d);
	set_str(d->name, sizeof d->name, name);
	join(dir, sizeof dir, sysroot, "/block/", name);

	d->size = read_number(dir, "size", 0) * 512;   /* always 512-byte units, whatever the LBA */
	d->logical_bs = (unsigned)read_number(dir, "queue/logical_block_size", 512);
	d->physical_bs = (unsigned)read_number(dir, "queue/physical_block_size", d->logical_bs);
	d->rotational = (int)read_number(dir, "queue/rotational", 0);
	d->removable = (int)read_number(dir, "removable", 0);
	d->readonly = (int)read_number(dir, "ro", 0);
	read_first(dir, model_files, d->model, sizeof d->model);
	read_first(dir, serial_files, d->serial, sizeof d->serial);
	if (!d->serial[0])
		read_vpd_serial(dir, d->serial, sizeof d->serial);
	read_first(dir, wwn_files, d->wwn, sizeof d->wwn);

	/* /sys/block/<name> is a symlink into /sys/devices: the path is the topology. */
	join(link, sizeof link, sysroot, "/block/", name);
	ssize_t n = readlink(link, target, sizeof target - 1);
	target[n > 0 ? n : 0] = '\0';
	devpath_transport(target, d->transport, sizeof d->transport);
	devpath_by_path(target, name, d->by_path, sizeof d->by_path);
	if (!d->serial[0] && strcmp(d->transport, "usb") == 0)
		read_usb_serial(sysroot, target, d->serial, sizeof d->serial);

	read_partitions(dir, d);
	probe_disk(devroot, d);
}

int disks_discover(const char *sysroot, const char *devroot, struct disk *out, int max,
		   char *err, size_t errlen)
{
	char dir[512], names[DISK_MAX * 4][32];
	int n = 0;

	snprintf(dir, sizeof dir, "%s/block", sysroot);
	DIR *dh = opendir(dir);
	if (!dh) {
		snprintf(err, errlen, "fsmatrix: unable to read %s: %s", dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(dh)) != NULL;) {
		if (disk_name_skipped(e->d_name) || strlen(e->d_name) >= sizeof names[0])
			continue;
		if (n == max || n == (int)(sizeof names / sizeof names[0])) {
			closedir(dh);
			snprintf(err, errlen, "fsmatrix: unable to list disks in %s: more than %d",
				 dir, n);
			return -1;
		}
		set_str(names[n++], sizeof names[0], e->d_name);
	}
	closedir(dh);
	qsort(names, (size_t)n, sizeof names[0], cmp_name);
	for (int i = 0; i < n; i++)
		read_disk(sysroot, devroot, names[i], &out[i]);
	return n;
}

int disks_mark_boot(struct disk *d, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		int hit = strcmp(d[i].name, name) == 0;
		for (int j = 0; j < d[i].nparts && !hit; j++)
			hit = strcmp(d[i].parts[j], name) == 0;
		if (hit) {
			d[i].is_boot = 1;
			return 1;
		}
	}
	return 0;
}
