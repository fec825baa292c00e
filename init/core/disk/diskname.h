/* core/disk/diskname.h: the name the kernel gives the Nth disk of a driver ("vd", "sd"): a, ...,
 * z, aa, ..., az, ba, ..., zz, aaa, ... as sd_format_disk_name() counts, which virtio_blk, sd and
 * the rest share. Pure. */
#ifndef FSM_DISKNAME_H
#define FSM_DISKNAME_H
#include <stddef.h>

/* Writes prefix and the letters for index (0 = "a") to buf. Returns 0, or -1 when index is
 * negative or the name does not fit in len bytes. */
int disk_kernel_name(const char *prefix, int index, char *buf, size_t len);

#endif
