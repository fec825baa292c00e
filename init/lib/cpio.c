/* lib/cpio.c: cpio "newc" entries (lib/cpio.h). The header is "070701" and 13 fields of 8
 * hex digits; name and data are each padded to a multiple of 4 bytes from the entry's start. */
#include "lib/cpio.h"

#include <stdio.h>
#include <string.h>

#define TRAILER "TRAILER!!!"
#define HEADER_LEN 110

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

size_t cpio_newc_size(const char *name, size_t len)
{
	return pad4(HEADER_LEN + strlen(name ? name : TRAILER) + 1) + pad4(len);
}

int cpio_newc_entry(char *buf, size_t cap, size_t *off, const char *name, const void *data,
		    size_t len)
{
	const char *n = name ? name : TRAILER;
	size_t need = cpio_newc_size(name, data ? len : 0);
	if (*off + need > cap || *off % 4)
		return -1;
	/* unique within the archive: the kernel links regular files of one inode number */
	unsigned ino = name ? (unsigned)(*off / 4 + 1) : 0;
	unsigned mode = !name ? 0 : data ? 0100644 : 040755;
	char *p = buf + *off;
	memset(p, 0, need);
	/* ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor,
	 * rdevminor, namesize, check */
	char head[HEADER_LEN + 1];
	snprintf(head, sizeof head, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ino, mode, 0u, 0u, data ? 1u : name ? 2u : 1u, 0u,
		 data ? (unsigned)len : 0u, 0u, 0u, 0u, 0u, (unsigned)strlen(n) + 1, 0u);
	memcpy(p, head, HEADER_LEN);
	memcpy(p + HEADER_LEN, n, strlen(n) + 1);
	if (data)
		memcpy(p + pad4(HEADER_LEN + strlen(n) + 1), data, len);
	*off += need;
	return 0;
}
