/* lib/bytes.c: see bytes.h. */
#include "lib/bytes.h"
#include <stdio.h>

void bytes_human(double b, char *out, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t u = 0;
	while (b >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		b /= 1024;
		u++;
	}
	snprintf(out, len, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}
