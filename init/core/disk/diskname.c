/* core/disk/diskname.c: kernel disk names. The letters are a bijective base-26 count, not plain
 * base 26: after z comes aa, not ba, so each step subtracts one before dividing. */
#include "core/disk/diskname.h"

#include <string.h>

int disk_kernel_name(const char *prefix, int index, char *buf, size_t len)
{
	char letters[16];
	size_t n = 0, plen = strlen(prefix);

	if (index < 0)
		return -1;
	do {
		letters[n++] = (char)('a' + index % 26);
		index = index / 26 - 1;
	} while (index >= 0 && n < sizeof letters);
	if (index >= 0 || plen + n >= len)
		return -1;
	memcpy(buf, prefix, plen);
	for (size_t i = 0; i < n; i++)
		buf[plen + i] = letters[n - 1 - i];
	buf[plen + n] = '\0';
	return 0;
}
