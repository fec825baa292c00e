/* lib/file.c: see lib/file.h. */
#include "lib/file.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_FIRST_CHUNK 65536

/* Room for at least one more byte and the NUL, never more than max + 1 in all. */
static int grow(char **buf, size_t *cap, size_t used, size_t max)
{
	if (*cap - used >= 2)
		return 0;
	size_t want = *cap ? *cap * 2 : READ_FIRST_CHUNK;
	if (max && want > max + 1)
		want = max + 1;
	char *nb = realloc(*buf, want);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = want;
	return 0;
}

int file_open_regular(const char *path)
{
	/* O_NONBLOCK: a FIFO would otherwise block the open until a writer came. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	int e;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (S_ISREG(st.st_mode))
		return fd;
	else
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	close(fd);
	errno = e;
	return -1;
}

char *file_read(const char *path, size_t max, size_t *len)
{
	int fd = file_open_regular(path);
	if (fd < 0)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int e = 0;
	do {
		if (grow(&buf, &cap, n, max) < 0) {
			e = errno;
			break;
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			e = errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	} while (!max || n < max);
	close(fd);
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

const char *file_type_name(mode_t m)
{
	static const struct { mode_t type; const char *name; } types[] = {
		{ S_IFBLK, "a block device" }, { S_IFCHR, "a character device" },
		{ S_IFIFO, "a FIFO" }, { S_IFSOCK, "a socket" }, { S_IFDIR, "a directory" },
		{ S_IFREG, "a regular file" }, { S_IFLNK, "a symbolic link" },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if ((m & S_IFMT) == types[i].type)
			return types[i].name;
	return "not a file";
}

const char *file_why(const char *path, int e, char *buf, size_t len)
{
	struct stat st;
	if (e == EINVAL && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		snprintf(buf, len, "it is %s, not a regular file", file_type_name(st.st_mode));
	else
		snprintf(buf, len, "%s", strerror(e));
	return buf;
}

int file_first_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	buf[0] = '\0';
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int write_all(int fd, const void *buf, size_t n)
{
	const char *s = buf;
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int file_put_value(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)strlen(text))
		return 0;
	errno = e;
	return -1;
}

long long mem_total_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long long kib = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %lld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib * 1024;
}

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif

unsigned long long file_dev_sectors(const char *path)
{
	unsigned long long b = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && ioctl(fd, BLKGETSIZE64, &b) < 0)
		b = 0;
	if (fd >= 0)
		close(fd);
	return b / 512;
}

int file_zero_head(const char *path, size_t bytes)
{
	static const char zeros[FILE_ZERO_MAX];
	if (bytes > sizeof zeros) {
		errno = EINVAL;
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = -1, e = 0;
	if (fd >= 0 && pwrite(fd, zeros, bytes, 0) == (ssize_t)bytes && fsync(fd) == 0)
		rc = 0;
	e = errno;
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		errno = e ? e : EIO;
	return rc;
}
