/* lib/cpio.h: a cpio archive in the kernel's initramfs format ("newc", as `cpio -o -H newc`
 * writes it), for a small segment appended to an initramfs: the kernel unpacks each archive
 * of a concatenation in turn, compressed or not. Pure: bytes into a buffer. */
#ifndef FSM_CPIO_H
#define FSM_CPIO_H
#include <stddef.h>

/* Appends one entry (a directory when data is NULL, else a regular file of len bytes) to
 * buf at *off, owned by root, mtime 0 so that the same input gives the same bytes. With
 * name NULL it appends the trailer that ends an archive. Returns 0, or -1 when buf (cap
 * bytes) is too small. */
int cpio_newc_entry(char *buf, size_t cap, size_t *off, const char *name, const void *data,
		    size_t len);
/* The room an entry takes, name and data padded to 4 bytes as newc wants them. */
size_t cpio_newc_size(const char *name, size_t len);

#endif
