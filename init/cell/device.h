/* cell/device.h: asking a disk about itself with the kernel's pass-through ioctls (SG_IO
 * for SCSI and for ATA through SAT's ATA PASS-THROUGH, NVME_IOCTL_ADMIN_CMD for NVMe) and
 * virtio-blk's cache_type, and setting its volatile write cache. What the answers mean is
 * core/disk/devstate.c's. Used by PID 1 for the header (every taken disk at boot) and by the cell
 * (each member before and after). */
#ifndef FSM_CELL_DEVICE_H
#define FSM_CELL_DEVICE_H
#include "core/disk/devstate.h"
#include <stddef.h>

/* How a disk by kernel name (sdb, nvme0n1, vdb) is spoken to. */
enum dev_kind device_kind(const char *name);
/* Identity, write cache and health, from the device; what it does not answer is recorded
 * as such in d (never a failure). */
void device_read(const char *name, struct devstate *d);
/* Turns the device's volatile write cache on (1) or off (0) and reads it back from the
 * device. 0 when it reads back as asked; -1 with the device's own reason (sense data, NVMe
 * status, or why it cannot be asked) in why. */
int device_set_write_cache(const char *name, int on, char *why, size_t len);

#endif
