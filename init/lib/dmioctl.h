/* lib/dmioctl.h: a message to a device-mapper target through the kernel's ioctl
 * (DM_TARGET_MSG on /dev/mapper/control), what `dmsetup message NAME 0 MSG` does, without
 * starting a process: the durability workload marks the dm-log-writes log after each
 * acknowledged sync with it. The ioctl's structures are the kernel's (uapi/linux/dm-ioctl.h,
 * interface version 4), spelled here as the image's libc has no kernel headers. */
#ifndef FSM_DMIOCTL_H
#define FSM_DMIOCTL_H
#include <stddef.h>
#include <stdint.h>

#define DM_CONTROL "/dev/mapper/control"
#define DMI_NAME_LEN 128
#define DMI_UUID_LEN 129

struct dmi_header {
	uint32_t version[3];
	uint32_t data_size;          /* the whole buffer, this header included */
	uint32_t data_start;         /* where the payload starts, from the header's first byte */
	uint32_t target_count;
	int32_t open_count;
	uint32_t flags;
	uint32_t event_nr;
	uint32_t padding;
	uint64_t dev;
	char name[DMI_NAME_LEN];
	char uuid[DMI_UUID_LEN];
	char data[7];
};
_Static_assert(sizeof(struct dmi_header) == 312, "struct dm_ioctl is 312 bytes");

#define DMI_MSG_MAX 512

/* The ioctl's buffer for message msg to the target of device name at sector: the header,
 * then the sector (le64 on this machine's order) and msg with its NUL. Returns the bytes
 * used, or -1 when name or msg is too long for it. */
int dmi_pack_message(void *buf, size_t len, const char *name, uint64_t sector, const char *msg);

/* Sends it through control (an fd open on DM_CONTROL, O_RDWR). 0, or -1 with errno. */
int dmi_message(int control, const char *name, uint64_t sector, const char *msg);

#endif
