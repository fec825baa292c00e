/* lib/utf8.c: see lib/utf8.h. The ranges are those of the Unicode standard's table of
 * well-formed byte sequences (3-7). */
#include "lib/utf8.h"

size_t utf8_char(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;   /* what the second byte may be */
	size_t len;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		if (u[0] == 0xe0)
			lo = 0xa0;   /* below: overlong */
		if (u[0] == 0xed)
			hi = 0x9f;   /* above: a surrogate */
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		if (u[0] == 0xf0)
			lo = 0x90;   /* below: overlong */
		if (u[0] == 0xf4)
			hi = 0x8f;   /* above: past U+10FFFF */
	} else {
		return 0;            /* a continuation byte, C0, C1 or F5..FF */
	}
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

size_t utf8_bad(const char *s, size_t n)
{
	size_t i = 0, k;
	while (i < n && (k = utf8_char(s + i, n - i)) > 0)
		i += k;
	return i;
}
