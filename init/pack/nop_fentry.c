/* pack/nop_fentry.c: build/ko-nop-fentry MODULE.ko, run by recipes/linux/closure on each
 * unsigned module of the image: its ftrace call sites become NOPs (pack/kofentry.h).
 *
 * Exit status: 0 the sites are NOPs now (or there were none): the caller removes
 * __mcount_loc; 3 the module is left as it was, and stderr says why: the caller keeps
 * __mcount_loc, and the kernel converts the sites itself; 1 the file could not be read or
 * written. */
#include "pack/kofentry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_LEFT = 3 };
#define PROG "fsmatrix: ko-nop-fentry"

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc(n ? (size_t)n : 1)) != NULL && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		*len = (size_t)n;
	fclose(f);
	return b;
}

/* Written beside it, then renamed over it: a module is never left half written. */
static int write_all(const char *path, const unsigned char *b, size_t len)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.nop-fentry", path) >= (int)sizeof tmp)
		return -1;
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return -1;
	int bad = fwrite(b, 1, len, f) != len;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
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
	unsigned char *b = read_all(path, &len);
	if (!b) {
		fprintf(stderr, PROG ": unable to read %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (ko_nop_fentry(b, len, &sites, why, sizeof why) != KO_FENTRY_DONE) {
		fprintf(stderr, PROG ": %s: left as it is: %s\n", path, why);
		free(b);
		return EXIT_LEFT;
	}
	if (sites > 0 && write_all(path, b, len) != 0) {
		fprintf(stderr, PROG ": unable to write %s: %s\n", path, strerror(errno));
		free(b);
		return 1;
	}
	free(b);
	return 0;
}
