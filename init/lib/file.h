/* lib/file.h: reading and writing whole files and single values, with EINTR retried and
 * errno kept for the caller's message. */
#ifndef FSM_FILE_H
#define FSM_FILE_H
#include <stddef.h>

/* The file's bytes up to max (0: all of them), NUL-terminated, in a buffer the caller frees;
 * *len (when given) is how many. A caller that wants to tell a file over its limit asks for
 * one byte more than the limit. NULL with errno set when the file cannot be opened or read. */
char *file_read(const char *path, size_t max, size_t *len);

/* The first line of a small file (a sysfs or procfs value: one read, as the kernel wants),
 * without its newline and cut to len - 1 bytes. 0, or -1 with errno set and buf "". */
int file_first_line(const char *path, char *buf, size_t len);

/* Writes all n bytes, going on after short writes. 0, or -1 with errno set (EIO when the
 * kernel wrote nothing and said nothing). */
int write_all(int fd, const void *buf, size_t n);

#endif
