/* cell/device.c: the commands that ask a disk about itself, one ioctl each, as sg3_utils,
 * hdparm and nvme-cli send them (their byte layouts are core/disk/devstate.c's). Every command
 * is bounded by a timeout; a command the device refuses leaves its reason in the state. */
#include "cell/device.h"
#include "lib/file.h"
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD_TIMEOUT_MS 10000

/* The kernel's struct nvme_passthru_cmd (include/uapi/linux/nvme_ioctl.h): musl's headers
 * do not carry the kernel's nvme_ioctl.h, and the layout is ABI. */
struct nvme_admin {
	uint8_t opcode, flags;
	uint16_t rsvd1;
	uint32_t nsid, cdw2, cdw3;
	uint64_t metadata, addr;
	uint32_t metadata_len, data_len;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
	uint32_t timeout_ms, result;
};
_Static_assert(sizeof(struct nvme_admin) == 72, "the kernel's nvme_passthru_cmd");
#define NVME_IOCTL_ADMIN _IOWR('N', 0x41, struct nvme_admin)

enum dev_kind device_kind(const char *name)
{
	if (strncmp(name, "nvme", 4) == 0)
		return DEV_NVME;
	if (strncmp(name, "vd", 2) == 0)
		return DEV_VIRTIO;
	if (strncmp(name, "sd", 2) == 0)
		return DEV_SCSI;   /* DEV_ATA once INQUIRY names SAT's vendor */
	return DEV_OTHER;
}

static int open_dev(const char *name, char *why, size_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/dev/%s", name);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, len, "unable to open %s: %s", path, strerror(errno));
	return fd;
}

/* ------------------------------------------------------------------ SCSI and ATA */

/* One SCSI command. 0, or -1 with the device's sense data (or the transport's status). */
static int sg_cmd(int fd, const unsigned char *cdb, int cdblen, void *buf, unsigned len, int dir,
		  const char *what, char *why, size_t wlen)
{
	unsigned char sense[64] = { 0 };
	struct sg_io_hdr io = { 0 };
	io.interface_id = 'S';
	io.cmdp = (unsigned char *)cdb;
	io.cmd_len = (unsigned char)cdblen;
	io.dxfer_direction = len ? dir : SG_DXFER_NONE;
	io.dxferp = buf;
	io.dxfer_len = len;
	io.sbp = sense;
	io.mx_sb_len = sizeof sense;
	io.timeout = CMD_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &io) < 0) {
		snprintf(why, wlen, "%s: SG_IO: %s", what, strerror(errno));
		return -1;
	}
	if ((io.info & SG_INFO_OK_MASK) == SG_INFO_OK)
		return 0;
	if (io.sb_len_wr) {
		/* NO SENSE and RECOVERED ERROR still carry the data */
		unsigned key = (sense[0] & 0x7f) >= 0x72 ? sense[1] & 0x0f : sense[2] & 0x0f;
		if (key <= 1 && io.host_status == 0)
			return 0;
		char t[160];
		scsi_sense_text(sense, io.sb_len_wr, t, sizeof t);
		snprintf(why, wlen, "%s refused: %s", what, t);
	} else {
		snprintf(why, wlen, "%s failed: status 0x%02x, host 0x%02x, driver 0x%02x", what,
			 io.status, io.host_status, io.driver_status);
	}
	return -1;
}

/* ATA PASS-THROUGH(16), PIO data-in of one 512-byte block (SAT-4). */
static int ata_in(int fd, unsigned char cmd, unsigned char features, unsigned char lba_mid,
		  unsigned char lba_high, unsigned char *buf, const char *what, char *why, size_t wlen)
{
	unsigned char cdb[16] = { 0x85, 4 << 1, 0x0e, 0, features, 0, 1, 0, 0, 0, lba_mid, 0,
				  lba_high, 0, cmd, 0 };
	return sg_cmd(fd, cdb, sizeof cdb, buf, 512, SG_DXFER_FROM_DEV, what, why, wlen);
}

static void read_ata(int fd, struct devstate *d)
{
	static unsigned char b[512];
	struct dev_health *h = &d->health;
	/* a failed command leaves its reason in wc_why; a parsed answer with a known cache none */
	if (ata_in(fd, 0xec, 0, 0, 0, b, "IDENTIFY DEVICE", d->wc_why, sizeof d->wc_why) == 0 &&
	    ata_identify_parse(b, sizeof b, d) == 0 && d->wc_device >= 0)
		d->wc_why[0] = '\0';
	/* SMART READ DATA: feature 0xd0 with the SMART signature in LBA mid and high */
	if (ata_in(fd, 0xb0, 0xd0, 0x4f, 0xc2, b, "SMART READ DATA", h->why, sizeof h->why) == 0)
		ata_smart_parse(b, sizeof b, h);
}

static int scsi_in(int fd, const unsigned char *cdb, int cdblen, unsigned char *buf, unsigned len,
		   const char *what, char *why, size_t wlen)
{
	memset(buf, 0, len);
	return sg_cmd(fd, cdb, cdblen, buf, len, SG_DXFER_FROM_DEV, what, why, wlen);
}

static int mode_sense_caching(int fd, unsigned char *b, unsigned len, char *why, size_t wlen)
{
	const unsigned char cdb[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, len >> 8, len & 0xff, 0 };
	return scsi_in(fd, cdb, sizeof cdb, b, len, "MODE SENSE (caching page)", why, wlen);
}

static void read_scsi(int fd, struct devstate *d)
{
	static unsigned char b[512];
	struct dev_health *h = &d->health;
	const unsigned char vpd80[6] = { 0x12, 1, 0x80, 0, 252, 0 };
	if (scsi_in(fd, vpd80, sizeof vpd80, b, 252, "INQUIRY (serial number page)", d->wc_why,
		    sizeof d->wc_why) == 0)
		scsi_serial_parse(b, 252, d);
	d->wc_why[0] = '\0';
	int wce;
	if (mode_sense_caching(fd, b, 252, d->wc_why, sizeof d->wc_why) == 0) {
		if (scsi_caching_parse(b, 252, &wce) == 0) {
			d->wc_device = wce;
			d->wc_supported = 1;
		} else {
			snprintf(d->wc_why, sizeof d->wc_why, "MODE SENSE: no caching page in the answer");
		}
	}
	/* LOG SENSE, cumulative values: temperature, then the write and read error counters */
	static const struct { unsigned char page; const char *what; } pages[] = {
		{ 0x0d, "LOG SENSE (temperature page)" },
		{ 0x02, "LOG SENSE (write error counter page)" },
		{ 0x03, "LOG SENSE (read error counter page)" },
	};
	int any = 0;
	char why[160] = "";
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		const unsigned char cdb[10] = { 0x4d, 0, 0x40 | pages[i].page, 0, 0, 0, 0, 1, 0, 0 };
		if (scsi_in(fd, cdb, sizeof cdb, b, 256, pages[i].what, why, sizeof why) < 0)
			continue;
		if ((pages[i].page == 0x0d ? scsi_log_temp_parse(b, 256, h)
					   : scsi_log_errors_parse(b, 256, h)) == 0)
			any = 1;
	}
	h->read = any;
	if (!any)
		snprintf(h->why, sizeof h->why, "%s", why[0] ? why : "no log page answered");
}

static void read_sd(const char *name, struct devstate *d)
{
	static unsigned char b[96];
	char vendor[16] = "";
	int fd = open_dev(name, d->health.why, sizeof d->health.why);
	if (fd < 0) {
		snprintf(d->wc_why, sizeof d->wc_why, "%s", d->health.why);
		return;
	}
	const unsigned char inq[6] = { 0x12, 0, 0, 0, 96, 0 };
	if (scsi_in(fd, inq, sizeof inq, b, 96, "INQUIRY", d->health.why, sizeof d->health.why) == 0 &&
	    scsi_inquiry_parse(b, 96, d, vendor, sizeof vendor) == 0 && strcmp(vendor, "ATA") == 0) {
		/* SAT: an ATA disk behind libata or a SAS HBA answers in ATA's own terms */
		d->kind = DEV_ATA;
		read_ata(fd, d);
	} else {
		read_scsi(fd, d);
	}
	close(fd);
}

/* ------------------------------------------------------------------ NVMe */

static int nvme_admin(int fd, struct nvme_admin *c, const char *what, char *why, size_t wlen)
{
	c->timeout_ms = CMD_TIMEOUT_MS;
	int rc = ioctl(fd, NVME_IOCTL_ADMIN, c);
	if (rc < 0)
		snprintf(why, wlen, "%s: NVME_IOCTL_ADMIN_CMD: %s", what, strerror(errno));
	else if (rc > 0)   /* the completion's status field: type and code */
		snprintf(why, wlen, "%s refused: NVMe status 0x%03x (type %d, code 0x%02x)", what, rc,
			 (rc >> 8) & 7, rc & 0xff);
	return rc == 0 ? 0 : -1;
}

static void read_nvme(const char *name, struct devstate *d)
{
	static unsigned char id[4096], log[512];
	struct dev_health *h = &d->health;
	int fd = open_dev(name, h->why, sizeof h->why);
	if (fd < 0) {
		snprintf(d->wc_why, sizeof d->wc_why, "%s", h->why);
		return;
	}
	struct nvme_admin c = { .opcode = 0x06, .addr = (uintptr_t)id, .data_len = sizeof id,
				.cdw10 = 1 };
	if (nvme_admin(fd, &c, "Identify Controller", d->wc_why, sizeof d->wc_why) == 0)
		nvme_identify_parse(id, sizeof id, d);
	if (d->wc_supported == 1) {
		/* Get Features, Volatile Write Cache (0x06): bit 0 of the result */
		c = (struct nvme_admin){ .opcode = 0x0a, .cdw10 = 0x06 };
		if (nvme_admin(fd, &c, "Get Features (volatile write cache)", d->wc_why,
			       sizeof d->wc_why) == 0) {
			d->wc_device = c.result & 1;
			d->wc_why[0] = '\0';
		}
	} else if (d->wc_supported == 0) {
		d->wc_why[0] = '\0';
	}
	int warn = h->temp_warn_c;
	/* Get Log Page, SMART / Health Information (0x02), for the whole controller */
	c = (struct nvme_admin){ .opcode = 0x02, .nsid = 0xffffffffu, .addr = (uintptr_t)log,
				 .data_len = sizeof log, .cdw10 = 0x02 | (sizeof log / 4 - 1) << 16 };
	if (nvme_admin(fd, &c, "Get Log Page (SMART / health)", h->why, sizeof h->why) == 0)
		nvme_smart_parse(log, sizeof log, h);
	h->temp_warn_c = warn;
	close(fd);
}

/* ------------------------------------------------------------------ virtio */

static void read_virtio(const char *name, struct devstate *d)
{
	char path[96], v[64];
	snprintf(path, sizeof path, "/sys/block/%s/serial", name);
	if (file_first_line(path, v, sizeof v) == 0)
		snprintf(d->serial, sizeof d->serial, "%.47s", v);
	/* the driver reads it from the device's config space (writeback), or from whether the
	 * device offers a flush at all */
	snprintf(path, sizeof path, "/sys/block/%s/cache_type", name);
	if (file_first_line(path, v, sizeof v) == 0) {
		d->wc_device = strcmp(v, "write back") == 0;
		d->wc_supported = 1;
	} else {
		snprintf(d->wc_why, sizeof d->wc_why, "no %s", path);
	}
	snprintf(d->health.why, sizeof d->health.why, "virtio-blk reports no temperature or error "
		 "counters");
}

void device_read(const char *name, struct devstate *d)
{
	char path[96];
	devstate_init(d, device_kind(name));
	snprintf(path, sizeof path, "/sys/block/%s/queue/write_cache", name);
	if (file_first_line(path, d->wc_sysfs, sizeof d->wc_sysfs) < 0)
		d->wc_sysfs[0] = '\0';
	switch (d->kind) {
	case DEV_SCSI:
	case DEV_ATA:
		read_sd(name, d);
		break;
	case DEV_NVME:
		read_nvme(name, d);
		break;
	case DEV_VIRTIO:
		read_virtio(name, d);
		break;
	default:
		snprintf(d->wc_why, sizeof d->wc_why, "no way to ask a %s disk", name);
		snprintf(d->health.why, sizeof d->health.why, "no way to ask a %s disk", name);
		break;
	}
	if (d->wc_device < 0 && !d->wc_why[0])
		snprintf(d->wc_why, sizeof d->wc_why, "not reported by the device");
}

/* ------------------------------------------------------------------ setting the cache */

/* A sysfs attribute that takes "write back" / "write through". Writing one that is not
 * writable is refused here: virtio-blk without VIRTIO_BLK_F_CONFIG_WCE shows cache_type
 * read-only and its store hits a BUG_ON when root writes it anyway. */
static int put_cache_type(const char *path, int on, char *why, size_t len)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		snprintf(why, len, "no %s: %s", path, strerror(errno));
		return -1;
	}
	if (!(st.st_mode & S_IWUSR)) {
		snprintf(why, len, "%s is read-only: the device does not let its cache mode be "
			 "changed", path);
		return -1;
	}
	if (file_put_value(path, on ? "write back" : "write through") < 0) {
		snprintf(why, len, "unable to write \"%s\" to %s: %s", on ? "write back" : "write through",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

/* MODE SELECT(10) of the caching page with WCE as asked, as sd does: sent here when sd's
 * cache_type refused, so that the error is the device's own sense data. */
static int mode_select_wce(const char *name, int on, char *why, size_t len)
{
	static unsigned char b[252];
	int fd = open_dev(name, why, len);
	if (fd < 0)
		return -1;
	int rc = mode_sense_caching(fd, b, sizeof b, why, len);
	if (rc == 0) {
		size_t page = 8 + ((size_t)b[6] << 8 | b[7]);
		size_t plen = (size_t)b[page + 1] + 2;
		if (page + plen > sizeof b) {
			snprintf(why, len, "MODE SENSE: caching page does not fit");
			close(fd);
			return -1;
		}
		unsigned char out[8 + 32] = { 0 };
		if (plen > 32)
			plen = 32;
		memcpy(out + 8, b + page, plen);
		out[8] &= 0x3f;                           /* PS is reserved in MODE SELECT */
		out[10] = (unsigned char)((out[10] & ~0x04) | (on ? 0x04 : 0));
		const unsigned char cdb[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, (unsigned char)(8 + plen), 0 };
		rc = sg_cmd(fd, cdb, sizeof cdb, out, (unsigned)(8 + plen), SG_DXFER_TO_DEV,
			    "MODE SELECT (caching page)", why, len);
	}
	close(fd);
	return rc;
}

static int set_sd(const char *name, int on, char *why, size_t len)
{
	glob_t g;
	char pat[96];
	snprintf(pat, sizeof pat, "/sys/block/%s/device/scsi_disk/*/cache_type", name);
	if (glob(pat, 0, NULL, &g) != 0) {
		snprintf(why, len, "no %s", pat);
		return -1;
	}
	/* sd sends MODE SELECT (libata turns it into SET FEATURES) and revalidates, so the
	 * kernel's belief follows the device */
	int rc = put_cache_type(g.gl_pathv[0], on, why, len);
	globfree(&g);
	if (rc < 0 && mode_select_wce(name, on, why, len) == 0)
		snprintf(why, len, "sd refused the change, though MODE SELECT was taken");
	return rc;
}

static int set_nvme(const char *name, int on, char *why, size_t len)
{
	int fd = open_dev(name, why, len);
	if (fd < 0)
		return -1;
	struct nvme_admin c = { .opcode = 0x09, .cdw10 = 0x06, .cdw11 = on ? 1 : 0 };
	int rc = nvme_admin(fd, &c, "Set Features (volatile write cache)", why, len);
	close(fd);
	return rc;
}

int device_set_write_cache(const char *name, int on, char *why, size_t len)
{
	char path[96];
	int rc;
	why[0] = '\0';
	switch (device_kind(name)) {
	case DEV_SCSI:
	case DEV_ATA:
		rc = set_sd(name, on, why, len);
		break;
	case DEV_NVME:
		rc = set_nvme(name, on, why, len);
		break;
	case DEV_VIRTIO:
		snprintf(path, sizeof path, "/sys/block/%s/cache_type", name);
		rc = put_cache_type(path, on, why, len);
		break;
	default:
		snprintf(why, len, "no way to set the write cache of %s", name);
		return -1;
	}
	if (rc < 0)
		return -1;
	struct devstate d;
	device_read(name, &d);
	if (d.wc_device != on) {
		snprintf(why, len, "set the write cache %s, the device reads back %s%s%s",
			 on ? "on" : "off", d.wc_device < 0 ? "nothing" : dev_wc_name(d.wc_device),
			 d.wc_device < 0 ? ": " : "", d.wc_device < 0 ? d.wc_why : "");
		return -1;
	}
	return 0;
}
