/* report/sitename.c: page names and a cell id's parts, for `fsmatrix site`. */
#include "report/sitename.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int kept(unsigned char c, size_t at)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || (c == '.' && at > 0);
}

char *sitename(const char *name, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t k = 0, room = len < SITENAME_MAX ? len : SITENAME_MAX;
	const size_t cut = room - 1 - 17;   /* room for "_" and 16 digits */
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	int whole = 1;
	for (size_t i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		h = (h ^ c) * 1099511628211ULL;
		char w[4];
		size_t n = 1;
		w[0] = (char)c;
		if (c == '/')
			w[0] = '~';
		else if (!kept(c, i)) {
			w[0] = '_', w[1] = hex[c >> 4], w[2] = hex[c & 15];
			n = 3;
		}
		if (whole && k + n > cut)
			whole = 0;
		if (whole) {
			memcpy(out + k, w, n);
			k += n;
		}
	}
	if (!whole || k > room - 1) {
		/* cut: what fits of the kept bytes, then the hash of the whole name */
		k = k < cut ? k : cut;
		snprintf(out + k, room - k, "_%016llx", (unsigned long long)h);
		return out;
	}
	out[k] = '\0';
	return out;
}

static void part(char *dst, size_t len, const char *s, size_t n)
{
	snprintf(dst, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

int cell_parts(const char *id, struct cell_parts *p)
{
	const char *slash[3];
	size_t ns = 0, len = strlen(id);
	memset(p, 0, sizeof *p);
	/* the last three parts: FS, MOUNT and WORKLOAD hold no '/'; the array part is the rest */
	for (size_t i = len; i-- > 0 && ns < 3;)
		if (id[i] == '/')
			slash[ns++] = id + i;
	if (ns < 3) {
		part(p->array, sizeof p->array, id, len);
		return -1;
	}
	const char *a = id, *fs = slash[2] + 1, *mnt = slash[1] + 1, *wl = slash[0] + 1;
	size_t alen = (size_t)(slash[2] - a);
	const char *plus = memchr(a, '+', alen);
	size_t arr = plus ? (size_t)(plus - a) : alen;
	part(p->array, sizeof p->array, a, arr);
	if (plus)
		part(p->layer, sizeof p->layer, plus + 1, alen - arr - 1);
	part(p->fs, sizeof p->fs, fs, (size_t)(slash[1] - fs));
	part(p->mount, sizeof p->mount, mnt, (size_t)(slash[0] - mnt));
	part(p->workload, sizeof p->workload, wl, strlen(wl));
	return 0;
}
