/* core/disk/devpath.h: what the sysfs device path of a disk says about how it is attached. Pure
 * string functions of the target of /sys/block/<name>, e.g.
 * "../devices/pci0000:00/0000:00:05.0/virtio2/block/vdb". */
#ifndef FSM_DEVPATH_H
#define FSM_DEVPATH_H
#include <stddef.h>

/* virtio, sata, nvme, usb, scsi, mmc, or unknown. */
void devpath_transport(const char *path, char *out, size_t len);

/* The name udev's path_id would give in /dev/disk/by-path, in a simple stable form:
 * pci-0000:00:05.0 (virtio-blk), pci-0000:00:1f.2-ata-1, pci-0000:01:00.0-nvme-1,
 * pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0, pci-0000:00:03.0-scsi-0:0:1:0 (the SCSI host
 * number is always written 0: it follows probe order, and a by-path name must not).
 * "" when the disk hangs off no PCI device. */
void devpath_by_path(const char *path, const char *name, char *out, size_t len);

#endif
