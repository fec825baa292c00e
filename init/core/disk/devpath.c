/* core/disk/devpath.c: transport and by-path name from a sysfs device path, by looking at its
 * components the way udev's path_id walks up the device tree. */
#include "core/disk/devpath.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* First match wins, and the order matters: usb-storage and libata disks also sit under
 * scsi hostN/targetN, and virtio-scsi disks sit under a virtioN device. */
static const struct { const char *prefix, *transport; } transports[] = {
	{ "usb", "usb" },
	{ "ata", "sata" },
	{ "nvme", "nvme" },
	{ "mmc", "mmc" },
	{ "target", "scsi" },
	{ "virtio", "virtio" },
};

/* Copies the next '/'-separated component of *s into buf; 0 at the end. */
static int next_comp(const char **s, char *buf, size_t len)
{
	while (**s == '/')
		(*s)++;
	if (!**s)
		return 0;
	size_t n = strcspn(*s, "/");
	snprintf(buf, len, "%.*s", (int)n, *s);
	*s += n;
	return 1;
}

/* "usb1", "ata3", "nvme0", "target2:0:0", "virtio2": prefix then a digit. */
static int is_comp(const char *c, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(c, prefix, n) == 0 && isdigit((unsigned char)c[n]);
}

void devpath_transport(const char *path, char *out, size_t len)
{
	char c[256];
	for (size_t i = 0; i < sizeof transports / sizeof transports[0]; i++)
		for (const char *s = path; next_comp(&s, c, sizeof c);)
			if (is_comp(c, transports[i].prefix)) {
				snprintf(out, len, "%s", transports[i].transport);
				return;
			}
	snprintf(out, len, "unknown");
}

static int is_pci(const char *c)
{
	unsigned a, b, d, f;
	char tail;
	return strlen(c) == 12 && sscanf(c, "%4x:%2x:%2x.%1x%c", &a, &b, &d, &f, &tail) == 4;
}

static int is_hctl(const char *c)
{
	unsigned h, ch, t, l;
	char tail;
	return sscanf(c, "%u:%u:%u:%u%c", &h, &ch, &t, &l, &tail) == 4;
}

/* A USB interface: "1-1:1.0", "2-1.4:1.0" (bus-ports:config.interface). */
static int is_usb_intf(const char *c)
{
	return isdigit((unsigned char)c[0]) && strchr(c, '-') && strchr(c, ':') && strchr(c, '.');
}

void devpath_by_path(const char *path, const char *name, char *out, size_t len)
{
	char c[256], pci[32] = "", usb[64] = "", hctl[64] = "", ata[16] = "";
	char transport[16];

	for (const char *s = path; next_comp(&s, c, sizeof c);) {
		if (is_pci(c))
			snprintf(pci, sizeof pci, "%.31s", c);
		else if (is_usb_intf(c))
			snprintf(usb, sizeof usb, "%.63s", strchr(c, '-') + 1);
		else if (is_hctl(c))   /* host numbers follow probe order: udev, and we, use 0 */
			snprintf(hctl, sizeof hctl, "0%.60s", strchr(c, ':'));
		else if (is_comp(c, "ata"))
			snprintf(ata, sizeof ata, "%.15s", c + 3);
	}
	out[0] = '\0';
	if (!pci[0])
		return;
	devpath_transport(path, transport, sizeof transport);
	if (strcmp(transport, "nvme") == 0) {
		const char *ns = strrchr(name, 'n');   /* nvme0n1: namespace 1 */
		snprintf(out, len, "pci-%s-nvme-%s", pci, ns && ns != name ? ns + 1 : "1");
	} else if (strcmp(transport, "sata") == 0 && ata[0]) {
		snprintf(out, len, "pci-%s-ata-%s", pci, ata);
	} else if (strcmp(transport, "usb") == 0 && usb[0]) {
		snprintf(out, len, "pci-%s-usb-0:%s%s%s", pci, usb, hctl[0] ? "-scsi-" : "", hctl);
	} else if (strcmp(transport, "scsi") == 0 && hctl[0]) {
		snprintf(out, len, "pci-%s-scsi-%s", pci, hctl);
	} else {
		snprintf(out, len, "pci-%s", pci);
	}
}
