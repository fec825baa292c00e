/* core/model/plan_value.c: sizes and durations as a plan spells them (512k, 1g; 90s, 30m, 2h), read and
 * written back. Pure. */
#include "core/model/plan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int plan_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "kmgt";
	uint64_t v = 0;
	const char *c = s;

	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		uint64_t d = (uint64_t)(*c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*c) {
		const char *u = strchr(units, *c | 0x20);
		if (!u || !*u || c[1])
			return -1;
		for (int i = 0; i <= u - units; i++) {
			if (v > UINT64_MAX / 1024)
				return -1;
			v *= 1024;
		}
	}
	*out = v;
	return 0;
}

int plan_parse_duration(const char *s, unsigned *out)
{
	unsigned long long v = 0;
	const char *c = s;

	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		v = v * 10 + (unsigned long long)(*c - '0');
		if (v > 100000000ull)   /* three years: a typo, not a timeout */
			return -1;
	}
	unsigned mul = 1;
	if (*c) {
		if (c[1])
			return -1;
		switch (*c) {
		case 's': mul = 1; break;
		case 'm': mul = 60; break;
		case 'h': mul = 3600; break;
		default: return -1;
		}
	}
	if (v * mul > 100000000ull)
		return -1;
	*out = (unsigned)(v * mul);
	return 0;
}

void plan_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "kmgt";
	int u = -1;

	while (u < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

int plan_parse_period(const char *s, unsigned *out_ms)
{
	unsigned long long v = 0;
	const char *c = s;
	if (strcmp(s, "off") == 0) {
		*out_ms = 0;
		return 0;
	}
	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9' && v <= PLAN_MONITOR_MAX_MS; c++)
		v = v * 10 + (unsigned long long)(*c - '0');
	if (strcmp(c, "s") == 0)
		v *= 1000;
	else if (strcmp(c, "ms") != 0)
		return -1;
	if (v < PLAN_MONITOR_MIN_MS || v > PLAN_MONITOR_MAX_MS)
		return -1;
	*out_ms = (unsigned)v;
	return 0;
}
