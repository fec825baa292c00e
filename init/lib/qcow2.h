/* lib/qcow2.h: a blank qcow2 image (version 2, as `qemu-img create -f qcow2 -o compat=0.10`
 * makes one), for the test disks a qemu LAVA job deploys: a few clusters of metadata that
 * stand for a disk of any size, every block reading as zeros. Pure: bytes into a buffer. */
#ifndef FSM_QCOW2_H
#define FSM_QCOW2_H
#include <stddef.h>
#include <stdint.h>

#define QCOW2_CLUSTER 65536
/* The bytes a blank image of size bytes takes (0 when size is 0 or too large). */
size_t qcow2_blank_len(uint64_t size);
/* The image into buf (at least qcow2_blank_len bytes). Returns the length, or 0. */
size_t qcow2_blank(uint64_t size, unsigned char *buf, size_t cap);

#endif
