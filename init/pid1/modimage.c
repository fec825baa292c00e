/* pid1/modimage.c: the image's modules and programs, when they come as a squashfs
 * (recipes/pack, MODULES_IMAGE=squashfs): /lib/usr.sqfs is mounted read-only on /usr through
 * a loop device (/lib/modules links to /usr/lib/modules), after loading the two modules that
 * takes from /lib/modules-boot (their file "order" lists them, dependencies first, each with
 * its parameters). The kernel then decompresses only what a boot reads, instead of unpacking
 * every module and program before /init starts. */
#include "pid1/pid1.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

/* The kernel's uapi <linux/loop.h>, which musl does not carry: a stable ABI. */
#define LOOP_SET_FD 0x4C00
#define LOOP_SET_STATUS64 0x4C04
#define LOOP_CONFIGURE 0x4C0A
#define LOOP_CTL_GET_FREE 0x4C82
#define LO_FLAGS_READ_ONLY 1
struct loop_info64 {
	uint64_t lo_device, lo_inode, lo_rdevice, lo_offset, lo_sizelimit;
	uint32_t lo_number, lo_encrypt_type, lo_encrypt_key_size, lo_flags;
	uint8_t lo_file_name[64], lo_crypt_name[64], lo_encrypt_key[32];
	uint64_t lo_init[2];
};
struct loop_config {
	uint32_t fd, block_size;
	struct loop_info64 info;
	uint64_t reserved[8];
};

#define IMAGE "/lib/usr.sqfs"
#define BOOT_DIR "/lib/modules-boot"
#define MOUNT_AT "/usr"

/* Each module of BOOT_DIR/order; one the kernel already has (built in, or loaded) is fine. */
static int load_boot_modules(struct modimage_load *loads, int max, int *nloads, char *err,
			     size_t len)
{
	FILE *f = fopen(BOOT_DIR "/order", "re");
	char line[256], path[300];
	if (!f)
		return 0; /* none shipped: the kernel has loop and squashfs built in */
	/* each line: FILE.ko [PARAMETERS] */
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *params = strchr(line, ' ');
		if (params)
			*params++ = '\0';
		if (!line[0])
			continue;
		snprintf(path, sizeof path, BOOT_DIR "/%s", line);
		struct load_time t;
		int rc = module_load_file(path, params, &t);
		int e = errno;
		line[strcspn(line, ".")] = '\0'; /* the module's name */
		if (*nloads < max) {
			struct modimage_load *l = &loads[(*nloads)++];
			snprintf(l->name, sizeof l->name, "%.63s", line);
			l->time = t;
			l->rc = rc;
			l->err = rc < 0 ? e : 0;
		}
		if (rc < 0 && e != EEXIST) {
			snprintf(err, len, "unable to load %s: %s", path, strerror(e));
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* A free loop device backed read-only by file; its path in dev. Returns its fd, or -1. */
static int loop_attach(int file, char *dev, size_t devlen, char *err, size_t len)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	int e = errno;
	if (ctl >= 0)
		close(ctl);
	if (n < 0) {
		snprintf(err, len, "unable to get a free loop device from /dev/loop-control: %s",
			 strerror(e));
		return -1;
	}
	snprintf(dev, devlen, "/dev/loop%d", n);
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "unable to open %s: %s", dev, strerror(errno));
		return -1;
	}
	struct loop_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.fd = (unsigned)file;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY;
	snprintf((char *)cfg.info.lo_file_name, sizeof cfg.info.lo_file_name, "%s", IMAGE);
	if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0)
		return fd;
	/* Kernels before 5.8 have no LOOP_CONFIGURE: the two older calls do the same. */
	if ((errno == EINVAL || errno == ENOTTY) && ioctl(fd, LOOP_SET_FD, file) == 0 &&
	    ioctl(fd, LOOP_SET_STATUS64, &cfg.info) == 0)
		return fd;
	snprintf(err, len, "unable to attach " IMAGE " to %s: %s", dev, strerror(errno));
	close(fd);
	return -1;
}

int modimage_mount(struct modimage_load *loads, int max, int *nloads, char *err, size_t len)
{
	char dev[32];
	*nloads = 0;
	if (access(IMAGE, F_OK) < 0)
		return 1; /* a plain tree (MODULES_IMAGE=plain) */
	double t = mono_s();
	if (load_boot_modules(loads, max, nloads, err, len) < 0)
		return -1;
	int file = open(IMAGE, O_RDONLY | O_CLOEXEC);
	if (file < 0) {
		snprintf(err, len, "unable to open " IMAGE ": %s", strerror(errno));
		return -1;
	}
	int loop = loop_attach(file, dev, sizeof dev, err, len);
	close(file); /* the loop device holds the file */
	if (loop < 0)
		return -1;
	int rc = mount(dev, MOUNT_AT, "squashfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "");
	int e = errno;
	close(loop);
	if (rc < 0) {
		snprintf(err, len, "unable to mount " IMAGE " (%s) on " MOUNT_AT " as squashfs: %s",
			 dev, strerror(e));
		return -1;
	}
	say("fsmatrix: modules and programs: " IMAGE " mounted on " MOUNT_AT " through %s in %.0f ms", dev,
	    (mono_s() - t) * 1e3);
	return 0;
}
