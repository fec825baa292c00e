/* lib/file.h: reading and writing whole files and single values, with EINTR retried and
 * errno kept for the caller's message. */
#ifndef FSM_FILE_H
#define FSM_FILE_H
#include <stddef.h>
#include <sys/types.h>

/* Opens path for reading when it is a regular file (a symbolic link is judged by what it
 * leads to): a FIFO would block the open and never end, nor would a device named by mistake.
 * The descriptor, or -1 with errno set: EISDIR for a directory, EINVAL for anything else that
 * is not a regular file (file_why says what it is). */
int file_open_regular(const char *path);

/* The file's bytes up to max (0: all of them), NUL-terminated, in a buffer the caller frees;
 * *len (when given) is how many. A caller that wants to tell a file over its limit asks for
 * one byte more than the limit. NULL with errno set when the file cannot be opened or read,
 * or is not a regular file (as file_open_regular). */
char *file_read(const char *path, size_t max, size_t *len);

/* What a file of mode m is, for messages: "a FIFO", "a block device", "a directory", ... */
const char *file_type_name(mode_t m);

/* Why a read of path failed with errno e, for a message: strerror(e), or when path is not a
 * regular file, what it is instead ("it is a FIFO, not a regular file"). Returns buf. */
const char *file_why(const char *path, int e, char *buf, size_t len);

/* The first line of a small file (a sysfs or procfs value: one read, as the kernel wants),
 * without its newline and cut to len - 1 bytes. 0, or -1 with errno set and buf "". */
int file_first_line(const char *path, char *buf, size_t len);

/* A small value into an existing file (a sysfs or procfs value, a uid_map: one write, as
 * the kernel wants). 0, or -1 with errno set. */
int file_put_value(const char *path, const char *text);

/* Writes all n bytes, going on after short writes. 0, or -1 with errno set (EIO when the
 * kernel wrote nothing and said nothing). */
int write_all(int fd, const void *buf, size_t n);

/* MemTotal of /proc/meminfo in bytes: the machine's RAM as the header records it and as
 * `size = 2x ram` reads it; -1 when it cannot be read. */
long long mem_total_bytes(void);

/* A block device's size in 512-byte sectors (BLKGETSIZE64), 0 when it cannot be read. */
unsigned long long file_dev_sectors(const char *path);
/* The first bytes (at most FILE_ZERO_MAX) of path zeroed and fsynced: a signature gone.
 * 0, or -1 with errno set. */
#define FILE_ZERO_MAX (1 << 20)
int file_zero_head(const char *path, size_t bytes);

#endif
