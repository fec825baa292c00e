/* pack/nop_fentry.c: build/ko-nop-fentry MODULE.ko, run by recipes/linux/closure on each
 * unsigned module of the image: its ftrace call sites become NOPs (pack/kofentry.h).
 *
 * Exit status: 0 the sites are NOPs now (or there were none): the caller removes
 * __mcount_loc; 3 the module is left as it was, and stderr says why: the caller keeps
 * __mcount_loc, and the kernel converts the sites itself; 1 the file could not be read or
 * written. */
#include "pack/kofentry.h"
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_LEFT = 3 };
#define PROG "fsmatrix: ko-nop-fentry"

/* Written beside it, then renamed over it: a module is never left half written, and a
 * module that is a hard link into another tree is replaced here, not written through. */
static int replace(const char *path, const unsigned char *b, size_t len)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.nop-fentry", path) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, b, len);
	int e = errno;
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && rename(tmp, path) < 0) {
		rc = -1;
		e = errno;
	}
	if (rc < 0) {
		unlink(tmp);
		errno = e;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ko-nop-fentry MODULE.ko\n");
		return 1;
	}
	const char *path = argv[1];
	size_t len = 0, sites = 0;
	char why[256];
	unsigned char *b = (unsigned char *)file_read(path, 0, &len);
	if (!b) {
		fprintf(stderr, PROG ": unable to read %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (ko_nop_fentry(b, len, &sites, why, sizeof why) != KO_FENTRY_DONE) {
		fprintf(stderr, PROG ": %s: left as it is: %s\n", path, why);
		free(b);
		return EXIT_LEFT;
	}
	if (sites > 0 && replace(path, b, len) != 0) {
		fprintf(stderr, PROG ": unable to write %s: %s\n", path, strerror(errno));
		free(b);
		return 1;
	}
	free(b);
	return 0;
}
