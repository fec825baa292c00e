/* pid1/results.c: the results partition (FAT, label FSMRESULTS, on whichever disk carries
 * it). Mounted at /results; the run's records and console text go to
 * fsmatrix/results/<run>.jsonl and <run>.console.log. Without it, or when it fails, the
 * console alone carries the records. The files are opened (results_attach) only once the
 * run id is settled: a resumed run appends to its first boot's files. */
#include "pid1/pid1.h"
#include "core/disk/fat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int mounted;

/* Files a boot medium carries next to its FSMRESULTS partition: a disk with one of these is
 * the one the image booted from (an initramfs cannot tell which disk it came from). */
static const char *const boot_files[] = {
	"vmlinuz", "boot/vmlinuz", "initramfs.img", "boot/initramfs.img",
	"EFI/BOOT/BOOTX64.EFI", "syslinux.cfg", "syslinux/syslinux.cfg", "ldlinux.sys",
	"extlinux.conf", "boot/grub/grub.cfg", NULL,
};

static void mark_boot_disk(const struct disk *d)
{
	for (int i = 0; boot_files[i]; i++) {
		char path[256];
		snprintf(path, sizeof path, RESULTS_MNT "/%s", boot_files[i]);
		if (access(path, F_OK) == 0) {
			disks_mark_boot(boot.disks, boot.ndisks, d->results_dev);
			say("fsmatrix: %s is the boot medium (%s holds /%s)", d->name, d->results_dev,
			    boot_files[i]);
			return;
		}
	}
}

static int mkdirs(const char *path)
{
	char p[256];
	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int ready; /* mounted read-write and RESULTS_DIR exists */

/* Mounts the results FAT with the kernel's default codepage and iocharset, whose nls
 * modules loaded beside the drivers (437 and ascii in Debian's config, with utf8 names on).
 * A kernel whose default iocharset is utf8 refuses that mount until nls_utf8 is in (loaded
 * only then, since Debian's never needs it); ascii is the last resort. */
static int mount_fat(const char *dev, unsigned long flags)
{
	static const char *const utf8[] = { "nls_utf8", NULL };
	if (mount(dev, RESULTS_MNT, "vfat", flags, "") == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	if (modules_load_named(utf8) == 0 && mount(dev, RESULTS_MNT, "vfat", flags, "") == 0)
		return 0;
	return mount(dev, RESULTS_MNT, "vfat", flags, "iocharset=ascii");
}

/* How much of the first FAT, and of the root directory and the first clusters, is read
 * ahead: the entries and directories a mount, the plan and the results reach first. */
#define READ_AHEAD_FAT (256 * 1024)
#define READ_AHEAD_DATA (256 * 1024)

/* FAT reads what a mount and the first lookups need one sector at a time, a request each:
 * 33 of them on qemu's results disk, 20 ms under TCG, and as many round trips on a USB stick.
 * Two read-aheads instead bring the start of the first FAT and the first clusters into the
 * page cache the mount then reads from. The device must keep an opener until the mount holds
 * it (the last close drops its page cache), and its block size must already be the FAT
 * sector's (changing it drops the cache too). Returns the descriptor to close after the
 * mount, or -1: the mount then reads as it would have. Nothing is written. */
static int read_ahead_fat(const char *dev)
{
	unsigned char boot[512];
	struct fat_layout l;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, boot, sizeof boot, 0) != (ssize_t)sizeof boot || fat_layout(boot, sizeof boot, &l) < 0) {
		close(fd);
		return -1;
	}
	int block = (int)l.sector;   /* the kernel reads an int, whatever the request's size says */
	if (ioctl(fd, BLKBSZSET, &block) < 0) {
		close(fd);
		return -1;
	}
	uint64_t fat = l.fat_bytes < READ_AHEAD_FAT ? l.fat_bytes : READ_AHEAD_FAT;
	readahead(fd, 0, (size_t)(l.fat_off + fat));
	readahead(fd, (off_t)l.root_off, (size_t)(l.data_off - l.root_off + READ_AHEAD_DATA));
	return fd;
}

void results_open(void)
{
	char dev[64];
	if (boot.results < 0) {
		say("fsmatrix: no FSMRESULTS partition: the console alone carries the records");
		console_files_off();
		return;
	}
	const struct disk *d = &boot.disks[boot.results];
	snprintf(dev, sizeof dev, "/dev/%s", d->results_dev);
	mkdir(RESULTS_MNT, 0755);
	/* A write-protected stick (or disk) refuses a read-write mount: mounted read-only, it
	 * still gives its plan. */
	unsigned long flags = MS_NOATIME | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	int ahead = read_ahead_fat(dev);
	int rc = -1, e = 0;
	for (int ro = 0; rc < 0 && ro < 2; ro++) {
		rc = mount_fat(dev, flags | (ro ? MS_RDONLY : 0));
		if (rc < 0 && !ro)
			e = errno;
		if (rc < 0 && e != EROFS && e != EACCES)
			break;
		if (rc == 0 && ro)
			boot.results_ro = 1;
	}
	if (ahead >= 0)
		close(ahead);
	if (rc < 0) {
		say("fsmatrix: unable to mount %s on " RESULTS_MNT ": %s (records continue on the console)",
		    dev, strerror(e ? e : errno));
		console_files_off();
		return;
	}
	mounted = 1;
	mark_boot_disk(d);
	if (boot.results_ro) {
		say("fsmatrix: the results partition %s is read-only (%s): records continue on the "
		    "console only", dev, strerror(e));
		console_files_off();
		return;
	}
	if (mkdirs(RESULTS_DIR) < 0) {
		say("fsmatrix: unable to create " RESULTS_DIR ": %s (records continue on the console only)",
		    strerror(errno));
		console_files_off();
		return;
	}
	ready = 1;
}

int results_writable(void)
{
	return ready;
}

void results_attach(void)
{
	char jsonl[256], log[256];
	if (console_attached())
		return;
	if (!ready) {
		console_files_off();
		return;
	}
	snprintf(jsonl, sizeof jsonl, RESULTS_DIR "/%s.jsonl", boot.run_id);
	snprintf(log, sizeof log, RESULTS_DIR "/%s.console.log", boot.run_id);
	if (console_attach(jsonl, log) == 0)
		say("fsmatrix: results go to /dev/%s:/fsmatrix/results/%s.jsonl",
		    boot.disks[boot.results].results_dev, boot.run_id);
}

void results_close(void)
{
	/* Stopped before the run's files were chosen (a plan error): this boot's text still
	 * goes to them. */
	results_attach();
	console_detach();
	if (!mounted)
		return;
	sync();
	if (umount(RESULTS_MNT) < 0) {
		say("fsmatrix: unable to unmount " RESULTS_MNT ": %s", strerror(errno));
		/* the data is synced; a lazy unmount at least stops further writes */
		umount2(RESULTS_MNT, MNT_DETACH);
	}
	mounted = 0;
}
