/* core/model/kversion.c: the Debian and upstream versions of a kernel (core/model/kversion.h). */
#include "core/model/kversion.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int kversion_debian(const char *uname_v, char *deb, size_t dlen, char *up, size_t ulen)
{
	deb[0] = up[0] = '\0';
	const char *p = uname_v ? strstr(uname_v, " Debian ") : NULL;
	if (!p)
		return -1;
	p += strlen(" Debian ");
	size_t n = strcspn(p, " ");
	const char *dash = NULL;
	for (const char *q = p; q < p + n; q++)
		if (*q == '-')
			dash = q;
	if (!isdigit((unsigned char)*p) || !dash || dash == p || dash + 1 == p + n ||
	    n >= dlen || (size_t)(dash - p) >= ulen)
		return -1;
	snprintf(deb, dlen, "%.*s", (int)n, p);
	snprintf(up, ulen, "%.*s", (int)(dash - p), p);
	return 0;
}

int kversion_git(const char *up, char *tag, size_t tlen, char *branch, size_t blen)
{
	unsigned major, minor, patch, rc;
	int end = 0;
	tag[0] = branch[0] = '\0';
	/* sscanf's %u would take spaces and signs */
	if (!isdigit((unsigned char)up[0]) || up[strspn(up, "0123456789.~rc")] != '\0')
		return -1;
	if (sscanf(up, "%u.%u.%u%n", &major, &minor, &patch, &end) == 3 && up[end] == '\0') {
		snprintf(tag, tlen, "v%u.%u.%u", major, minor, patch);
	} else if (end = 0, sscanf(up, "%u.%u~rc%u%n", &major, &minor, &rc, &end) == 3 && up[end] == '\0') {
		snprintf(tag, tlen, "v%u.%u-rc%u", major, minor, rc);
	} else if (end = 0, sscanf(up, "%u.%u%n", &major, &minor, &end) == 2 && up[end] == '\0') {
		snprintf(tag, tlen, "v%u.%u", major, minor);
	} else {
		return -1;
	}
	snprintf(branch, blen, "linux-%u.%u.y", major, minor);
	return 0;
}
