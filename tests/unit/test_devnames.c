/* test_devnames.c: what names a disk: its transport and by-path link from the sysfs device
 * path, its serial from the VPD page 0x80, and the names the kernel gives disk N. */
#include "check.h"
#include "core/disk/devpath.h"
#include "core/disk/disk.h"
#include "core/disk/diskname.h"

/* ---------------------------------------------------------------- device paths */

static const struct pathrow {
	const char *path, *name, *transport, *by_path;
} paths[] = {
	{ "../devices/pci0000:00/0000:00:04.0/virtio1/block/vda", "vda", "virtio",
	  "pci-0000:00:04.0" },
	{ "../devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdc", "sdc",
	  "sata", "pci-0000:00:1f.2-ata-3" },
	{ "../devices/pci0000:00/0000:00:1d.0/0000:03:00.0/nvme/nvme1/nvme1n2", "nvme1n2", "nvme",
	  "pci-0000:03:00.0-nvme-2" },
	{ "../devices/pci0000:00/0000:00:14.0/usb2/2-3/2-3.1/2-3.1:1.0/host7/target7:0:0/"
	  "7:0:0:0/block/sdd", "sdd", "usb", "pci-0000:00:14.0-usb-0:3.1:1.0-scsi-0:0:0:0" },
	{ "../devices/pci0000:00/0000:00:03.0/virtio0/host0/target0:0:1/0:0:1:0/block/sda", "sda",
	  "scsi", "pci-0000:00:03.0-scsi-0:0:1:0" },
	{ "../devices/pci0000:00/0000:00:01.0/0000:01:00.0/host4/port-4:0/end_device-4:0/"
	  "target4:0:0/4:0:0:0/block/sde", "sde", "scsi", "pci-0000:01:00.0-scsi-0:0:0:0" },
	{ "../devices/platform/soc/mmc0/mmc0:0001/block/mmcblk0", "mmcblk0", "mmc", "" },
	{ "", "vdb", "unknown", "" },
};

static void test_devpath(void)
{
	char t[16], p[160];
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		devpath_transport(paths[i].path, t, sizeof t);
		devpath_by_path(paths[i].path, paths[i].name, p, sizeof p);
		CHECK_STR(t, paths[i].transport);
		CHECK_STR(p, paths[i].by_path);
	}
}

/* Raw Unit Serial Number pages as the kernel exposes them in device/vpd_pg80. */
static void test_vpd_serial(void)
{
	static const struct {
		unsigned char page[24];
		size_t n;
		int rc;
		const char *serial;
	} cases[] = {
		{ { 0, 0x80, 0, 8, 'f', 's', 'm', 't', 'e', 's', 't', '0' }, 12, 0, "fsmtest0" },
		/* ATA disks behind libata pad with blanks on both sides */
		{ { 0, 0x80, 0, 12, ' ', ' ', 'S', '4', 'E', 'W', ' ', ' ', ' ', ' ', ' ', ' ' }, 16, 0, "S4EW" },
		/* the length says more than was read: take what is there */
		{ { 0, 0x80, 0, 20, 'a', 'b', 'c' }, 7, 0, "abc" },
		{ { 0, 0x83, 0, 4, 'w', 'w', 'n', '1' }, 8, -1, "" },  /* another page */
		{ { 0, 0x80, 0, 4, ' ', ' ', ' ', ' ' }, 8, -1, "" }, /* blanks only */
		{ { 0, 0x80, 0, 3, 'a', 1, 'b' }, 7, -1, "" },        /* not printable */
		{ { 0, 0x80 }, 2, -1, "" },                          /* short header */
	};
	char out[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_INT(vpd_pg80_serial(cases[i].page, cases[i].n, out, sizeof out), cases[i].rc);
		CHECK_STR(out, cases[i].serial);
	}
}

/* ---------------------------------------------------------------- kernel disk names */

/* The names the kernel gives disk N (sd_format_disk_name: a bijective base-26 count). */
static void test_disk_names(void)
{
	static const struct { const char *prefix; int index; const char *name; } rows[] = {
		{ "vd", 0, "vda" }, { "vd", 1, "vdb" }, { "vd", 25, "vdz" }, { "vd", 26, "vdaa" },
		{ "vd", 27, "vdab" }, { "vd", 32, "vdag" }, { "vd", 51, "vdaz" }, { "vd", 52, "vdba" },
		{ "sd", 701, "sdzz" }, { "sd", 702, "sdaaa" }, { "sd", 18277, "sdzzz" },
		{ "sd", 18278, "sdaaaa" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[16];
		CHECK_INT(disk_kernel_name(rows[i].prefix, rows[i].index, buf, sizeof buf), 0);
		CHECK_STR(buf, rows[i].name);
	}
	char small[5];
	CHECK_INT(disk_kernel_name("vd", 26, small, sizeof small), 0);   /* "vdaa" just fits */
	CHECK_STR(small, "vdaa");
	CHECK_INT(disk_kernel_name("vd", 702, small, sizeof small), -1);  /* "vdaaa" does not */
	CHECK_INT(disk_kernel_name("vd", -1, small, sizeof small), -1);
}

int main(void)
{
	test_vpd_serial();
	test_devpath();
	test_disk_names();
	return check_done("test_devnames");
}
