/* lib/dmioctl.c: a device-mapper target message by ioctl (lib/dmioctl.h). */
#include "lib/dmioctl.h"
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#define DMI_IOCTL 0xfd
#define DMI_TARGET_MSG_CMD 14
#define DMI_TARGET_MSG _IOWR(DMI_IOCTL, DMI_TARGET_MSG_CMD, struct dmi_header)

int dmi_pack_message(void *buf, size_t len, const char *name, uint64_t sector, const char *msg)
{
	size_t nl = strlen(name), ml = strlen(msg);
	size_t need = sizeof(struct dmi_header) + sizeof sector + ml + 1;
	need = (need + 7) & ~(size_t)7;
	if (nl >= DMI_NAME_LEN || need > len)
		return -1;
	memset(buf, 0, need);
	struct dmi_header h = { .version = { 4, 0, 0 } };
	h.data_size = (uint32_t)need;
	h.data_start = sizeof h;
	memcpy(h.name, name, nl);
	memcpy(buf, &h, sizeof h);
	memcpy((char *)buf + sizeof h, &sector, sizeof sector);
	memcpy((char *)buf + sizeof h + sizeof sector, msg, ml);
	return (int)need;
}

int dmi_message(int control, const char *name, uint64_t sector, const char *msg)
{
	_Alignas(8) unsigned char buf[sizeof(struct dmi_header) + 8 + DMI_MSG_MAX + 8];
	if (dmi_pack_message(buf, sizeof buf, name, sector, msg) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return ioctl(control, DMI_TARGET_MSG, buf) < 0 ? -1 : 0;
}
