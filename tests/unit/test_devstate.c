/* test_devstate: a disk's answers about itself, parsed (core/disk/devstate.c), and the rules on
 * what changed during a cell. The buffers are built as the standards lay them out; the
 * values are those qemu's emulated disks gave in a boot (tests/boot/38-device-state.sh). */
#include "check.h"
#include "core/disk/devstate.h"
#include "lib/record.h"

/* An ATA string at a word, high byte first, padded with blanks. */
static void ata_put(unsigned char *b, int word, int nwords, const char *s)
{
	for (int i = 0; i < nwords * 2; i++) {
		char c = i < (int)strlen(s) ? s[i] : ' ';
		b[2 * word + (i ^ 1)] = (unsigned char)c;
	}
}

static void le16_put(unsigned char *b, unsigned v)
{
	b[0] = v & 0xff;
	b[1] = v >> 8;
}

static void test_ata_identify(void)
{
	unsigned char b[512] = { 0 };
	struct devstate d;
	ata_put(b, 27, 20, "QEMU HARDDISK");
	ata_put(b, 10, 10, "QM00005");
	ata_put(b, 23, 4, "2.5+");
	le16_put(b + 164, 1 << 5 | 1);      /* word 82: write cache and SMART supported */
	le16_put(b + 170, 1 << 5);          /* word 85: write cache enabled */
	devstate_init(&d, DEV_ATA);
	CHECK_INT(ata_identify_parse(b, sizeof b, &d), 0);
	CHECK_STR(d.model, "QEMU HARDDISK");
	CHECK_STR(d.serial, "QM00005");
	CHECK_STR(d.firmware, "2.5+");
	CHECK_INT(d.wc_supported, 1);
	CHECK_INT(d.wc_device, 1);
	le16_put(b + 170, 0);
	devstate_init(&d, DEV_ATA);
	ata_identify_parse(b, sizeof b, &d);
	CHECK_INT(d.wc_device, 0);
	le16_put(b + 164, 0xffff);          /* words 82-87 not valid */
	devstate_init(&d, DEV_ATA);
	CHECK_INT(ata_identify_parse(b, sizeof b, &d), 0);
	CHECK_INT(d.wc_device, -1);
	CHECK(strstr(d.wc_why, "word 82") != NULL, "%s", d.wc_why);
	le16_put(b, 0x8000);                /* ATAPI, not a disk */
	CHECK_INT(ata_identify_parse(b, sizeof b, &d), -1);
	CHECK_INT(ata_identify_parse(b, 100, &d), -1);
}

static void smart_attr(unsigned char *b, int slot, int id, unsigned long long raw)
{
	unsigned char *a = b + 2 + 12 * slot;
	a[0] = (unsigned char)id;
	for (int i = 0; i < 6; i++)
		a[5 + i] = (unsigned char)(raw >> (8 * i));
}

static void smart_sum(unsigned char *b)
{
	unsigned s = 0;
	b[511] = 0;
	for (int i = 0; i < 511; i++)
		s += b[i];
	b[511] = (unsigned char)(0x100 - (s & 0xff));
}

static void test_ata_smart(void)
{
	unsigned char b[512] = { 0 };
	struct dev_health h;
	smart_attr(b, 0, 1, 0);
	smart_attr(b, 1, 5, 3);
	smart_attr(b, 2, 194, 0x0032001e0028ULL);   /* 40 C now, min/max in the upper bytes */
	smart_attr(b, 3, 197, 1);
	smart_attr(b, 4, 199, 0x10000);
	smart_sum(b);
	dev_health_init(&h);
	CHECK_INT(ata_smart_parse(b, sizeof b, &h), 0);
	CHECK_INT(h.read, 1);
	CHECK_INT(h.temp_c, 40);
	CHECK_INT(h.counter[DC_REALLOCATED], 3);
	CHECK_INT(h.counter[DC_PENDING], 1);
	CHECK_INT(h.counter[DC_UDMA_CRC], 0x10000);
	CHECK_INT(h.counter[DC_MEDIA_ERRORS], -1);
	b[100] ^= 1;                                  /* the checksum no longer holds */
	dev_health_init(&h);
	CHECK_INT(ata_smart_parse(b, sizeof b, &h), -1);
	CHECK(strstr(h.why, "checksum") != NULL, "%s", h.why);
	/* only the airflow temperature */
	memset(b, 0, sizeof b);
	smart_attr(b, 0, 190, 33);
	smart_sum(b);
	dev_health_init(&h);
	ata_smart_parse(b, sizeof b, &h);
	CHECK_INT(h.temp_c, 33);
}

static void test_scsi(void)
{
	unsigned char inq[36] = { 0 };
	char vendor[16];
	struct devstate d;
	memcpy(inq + 8, "QEMU    QEMU HARDDISK   2.5+", 28);
	devstate_init(&d, DEV_SCSI);
	CHECK_INT(scsi_inquiry_parse(inq, sizeof inq, &d, vendor, sizeof vendor), 0);
	CHECK_STR(vendor, "QEMU");
	CHECK_STR(d.model, "QEMU HARDDISK");
	CHECK_STR(d.firmware, "2.5+");
	memcpy(inq + 8, "ATA     ", 8);            /* a SATA disk behind SAT */
	scsi_inquiry_parse(inq, sizeof inq, &d, vendor, sizeof vendor);
	CHECK_STR(vendor, "ATA");
	CHECK_INT(scsi_inquiry_parse(inq, 20, &d, vendor, sizeof vendor), -1);

	unsigned char vpd[] = { 0, 0x80, 0, 9, ' ', 'f', 's', 'm', 't', 'e', 's', 't', '1' };
	CHECK_INT(scsi_serial_parse(vpd, sizeof vpd, &d), 0);
	CHECK_STR(d.serial, "fsmtest1");
	vpd[1] = 0x83;
	CHECK_INT(scsi_serial_parse(vpd, sizeof vpd, &d), -1);

	/* MODE SENSE(10): header, one 8-byte block descriptor, the caching page */
	unsigned char ms[8 + 8 + 20] = { 0 };
	ms[7] = 8;
	ms[16] = 0x08;
	ms[17] = 0x12;
	ms[18] = 0x04;                              /* WCE */
	int wce = -1;
	CHECK_INT(scsi_caching_parse(ms, sizeof ms, &wce), 0);
	CHECK_INT(wce, 1);
	ms[18] = 0x01;                              /* RCD only */
	scsi_caching_parse(ms, sizeof ms, &wce);
	CHECK_INT(wce, 0);
	ms[16] = 0x0a;                              /* another page */
	CHECK_INT(scsi_caching_parse(ms, sizeof ms, &wce), -1);

	/* LOG SENSE temperature page: 38 C now, 65 C the reference */
	unsigned char lt[] = { 0x0d, 0, 0, 12, 0, 0, 3, 2, 0, 38, 0, 1, 3, 2, 0, 65 };
	struct dev_health h;
	dev_health_init(&h);
	CHECK_INT(scsi_log_temp_parse(lt, sizeof lt, &h), 0);
	CHECK_INT(h.temp_c, 38);
	CHECK_INT(h.temp_warn_c, 65);
	lt[9] = 0xff;                               /* not known */
	dev_health_init(&h);
	scsi_log_temp_parse(lt, sizeof lt, &h);
	CHECK_INT(h.temp_c, DEV_UNKNOWN);
	/* read error counter page: parameter 6, total uncorrected, 4 bytes */
	unsigned char le[] = { 0x03, 0, 0, 16, 0, 0, 2, 4, 0, 0, 0, 9, 0, 6, 2, 4, 0, 0, 1, 2 };
	dev_health_init(&h);
	CHECK_INT(scsi_log_errors_parse(le, sizeof le, &h), 0);
	CHECK_INT(h.counter[DC_READ_UNCORRECTED], 0x102);
	CHECK_INT(h.counter[DC_WRITE_UNCORRECTED], -1);
	le[0] = 0x02;
	dev_health_init(&h);
	scsi_log_errors_parse(le, sizeof le, &h);
	CHECK_INT(h.counter[DC_WRITE_UNCORRECTED], 0x102);
	le[3] = 200;                                /* a page longer than the buffer: cut */
	dev_health_init(&h);
	CHECK_INT(scsi_log_errors_parse(le, sizeof le, &h), 0);

	char t[160];
	unsigned char fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x20, 0x00 };
	scsi_sense_text(fixed, sizeof fixed, t, sizeof t);
	CHECK_STR(t, "ILLEGAL REQUEST, asc 0x20 ascq 0x00 (invalid command operation code)");
	unsigned char desc[8] = { 0x72, 0x04, 0x44, 0x00 };
	scsi_sense_text(desc, sizeof desc, t, sizeof t);
	CHECK_STR(t, "HARDWARE ERROR, asc 0x44 ascq 0x00");
	scsi_sense_text(desc, 0, t, sizeof t);
	CHECK_STR(t, "no sense data");
}

static void test_nvme(void)
{
	static unsigned char id[4096];
	struct devstate d;
	memcpy(id + 4, "fsmtest3            ", 20);
	memcpy(id + 24, "QEMU NVMe Ctrl", 14);
	memcpy(id + 64, "8.0.0   ", 8);
	le16_put(id + 266, 343);                    /* WCTEMP 70 C */
	id[525] = 1;
	devstate_init(&d, DEV_NVME);
	CHECK_INT(nvme_identify_parse(id, sizeof id, &d), 0);
	CHECK_STR(d.serial, "fsmtest3");
	CHECK_STR(d.model, "QEMU NVMe Ctrl");
	CHECK_STR(d.firmware, "8.0.0");
	CHECK_INT(d.health.temp_warn_c, 70);
	CHECK_INT(d.wc_supported, 1);
	CHECK_INT(d.wc_device, -1);                 /* present; on or off is Get Features' */
	id[525] = 0;
	devstate_init(&d, DEV_NVME);
	nvme_identify_parse(id, sizeof id, &d);
	CHECK_INT(d.wc_device, 0);
	CHECK_INT(nvme_identify_parse(id, 512, &d), -1);

	unsigned char s[512] = { 0 };
	struct dev_health h;
	s[0] = 0x04;
	le16_put(s + 1, 323);                       /* 50 C */
	s[160] = 2;
	s[176] = 7;
	s[228] = 30;
	s[232] = 5;
	dev_health_init(&h);
	CHECK_INT(nvme_smart_parse(s, sizeof s, &h), 0);
	CHECK_INT(h.temp_c, 50);
	CHECK_INT(h.counter[DC_CRITICAL_WARNING], 4);
	CHECK_INT(h.counter[DC_MEDIA_ERRORS], 2);
	CHECK_INT(h.counter[DC_ERROR_LOG_ENTRIES], 7);
	CHECK_INT(h.counter[DC_THROTTLE_S], 35);
	le16_put(s + 1, 0);
	dev_health_init(&h);
	nvme_smart_parse(s, sizeof s, &h);
	CHECK_INT(h.temp_c, DEV_UNKNOWN);
}

static void test_changes(void)
{
	struct dev_health a, b;
	char out[8][200];
	dev_health_init(&a);
	dev_health_init(&b);
	a.read = b.read = 1;
	a.temp_c = 40, b.temp_c = 50;
	a.counter[DC_REALLOCATED] = b.counter[DC_REALLOCATED] = 0;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 0);   /* +10 C is not more than 10 */
	b.temp_c = 51;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	CHECK_STR(out[0], "device: sdb: temperature rose from 40 C to 51 C during the cell");
	b.temp_c = 40;
	b.counter[DC_REALLOCATED] = 3;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	CHECK_STR(out[0], "device: sdb: reallocated rose from 0 to 3 during the cell");
	b.counter[DC_REALLOCATED] = 0;
	/* a counter known on one side only says nothing */
	b.counter[DC_PENDING] = 5;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 0);
	/* a new bit of the critical warning, and not an old one staying set */
	a.counter[DC_CRITICAL_WARNING] = 0x01;
	b.counter[DC_CRITICAL_WARNING] = 0x05;
	CHECK_INT(dev_health_changes("nvme0n1", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	CHECK_STR(out[0], "device: nvme0n1: critical_warning gained 0x04 during the cell (0x05, was 0x01)");
	b.counter[DC_CRITICAL_WARNING] = 0x01;
	CHECK_INT(dev_health_changes("nvme0n1", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 0);
	/* the device's own threshold */
	b.temp_warn_c = 40;
	CHECK_INT(dev_health_changes("nvme0n1", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	CHECK(strstr(out[0], "warning threshold of 40 C") != NULL, "%s", out[0]);
	/* between cells, a disk already hot before is not said to be again; one that crossed is */
	a.temp_warn_c = 40;
	CHECK_INT(dev_health_changes("nvme0n1", "between cell 1 and cell 2", DEV_HOT_CROSSED, &a, &b, out, 8), 0);
	a.temp_c = 39;
	CHECK_INT(dev_health_changes("nvme0n1", "between cell 1 and cell 2", DEV_HOT_CROSSED, &a, &b, out, 8), 1);
	CHECK(strstr(out[0], "warning threshold of 40 C") != NULL, "%s", out[0]);
	CHECK_INT(dev_health_changes("nvme0n1", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	a.temp_c = 40, a.temp_warn_c = DEV_UNKNOWN;
	b.temp_warn_c = DEV_UNKNOWN;
	/* unreadable after, readable before */
	b.read = 0;
	snprintf(b.why, sizeof b.why, "SG_IO: Input/output error");
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 1);
	CHECK(strstr(out[0], "became unreadable during the cell: SG_IO") != NULL, "%s", out[0]);
	/* never readable: nothing to say per cell */
	a.read = 0;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 8), 0);
	/* max bounds the lines */
	a.read = b.read = 1;
	a.temp_c = 20, b.temp_c = 60;
	b.counter[DC_REALLOCATED] = 9;
	CHECK_INT(dev_health_changes("sdb", "during the cell", DEV_HOT_EACH, &a, &b, out, 1), 1);
}

static void test_cache_and_json(void)
{
	struct devstate d;
	char t[300];
	devstate_init(&d, DEV_SCSI);
	snprintf(d.wc_sysfs, sizeof d.wc_sysfs, "write through");
	CHECK_INT(dev_cache_disagrees("sdb", &d, t, sizeof t), 0);   /* device unknown */
	d.wc_device = 1;
	CHECK_INT(dev_cache_disagrees("sdb", &d, t, sizeof t), 1);
	CHECK(strncmp(t, "device: sdb: the device's write cache is on, the kernel believes \"write through\"",
		      80) == 0, "%s", t);
	snprintf(d.wc_sysfs, sizeof d.wc_sysfs, "write back");
	CHECK_INT(dev_cache_disagrees("sdb", &d, t, sizeof t), 0);

	char buf[1024];
	struct jw w;
	snprintf(d.model, sizeof d.model, "QEMU HARDDISK");
	d.ident_read = 1;
	d.health.read = 1;
	d.health.temp_c = 38;
	d.health.counter[DC_READ_UNCORRECTED] = 0;
	jw_init(&w, buf, sizeof buf);
	devstate_json(&w, "sdb", &d);
	CHECK_INT(jw_done(&w), 0);
	CHECK_STR(buf, "{\"name\":\"sdb\",\"kind\":\"scsi\",\"model\":\"QEMU HARDDISK\",\"serial\":null,"
		  "\"firmware\":null,\"write_cache\":{\"device\":\"on\",\"sysfs\":\"write back\"},"
		  "\"health\":{\"temperature_c\":38,\"read_uncorrected\":0}}");
	devstate_init(&d, DEV_VIRTIO);
	snprintf(d.health.why, sizeof d.health.why, "virtio-blk reports no health");
	jw_init(&w, buf, sizeof buf);
	devstate_json(&w, "vdb", &d);
	CHECK_STR(buf, "{\"name\":\"vdb\",\"kind\":\"virtio\",\"model\":null,\"serial\":null,"
		  "\"firmware\":null,\"write_cache\":{\"device\":null,\"sysfs\":null,\"why\":"
		  "\"not reported\"},\"health\":{\"unavailable\":\"virtio-blk reports no health\"}}");
}

int main(void)
{
	test_ata_identify();
	test_ata_smart();
	test_scsi();
	test_nvme();
	test_changes();
	test_cache_and_json();
	return check_done("test_devstate");
}
