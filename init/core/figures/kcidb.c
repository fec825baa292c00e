/* core/figures/kcidb.c: the names fsmatrix's results take in KCIDB (core/figures/kcidb.h). */
#include "core/figures/kcidb.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int kcidb_origin_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int is_uhex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

int kcidb_path_node(const char *s, size_t n, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	if (n == 0) {
		if (len < 2)
			return -1;
		memcpy(out, "_", 2);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int keep = isascii(c) && (isalnum(c) || c == '-');
		if (c == '_')
			keep = !(i + 2 < n && is_uhex(s[i + 1]) && is_uhex(s[i + 2]));
		size_t need = keep ? 1 : 3;
		if (o + need >= len)
			return -1;
		if (keep) {
			out[o++] = (char)c;
		} else {
			out[o++] = '_';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
	return (int)o;
}

/* Appends "." and the node of n bytes of s to out, which holds *o bytes. */
static int add_node(char *out, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + 1 >= len)
		return -1;
	out[(*o)++] = '.';
	int w = kcidb_path_node(s, n, out + *o, len - *o);
	if (w < 0)
		return -1;
	*o += (size_t)w;
	return 0;
}

int kcidb_test_path(const char *cell, const char *metric, char *out, size_t len)
{
	size_t o = strlen(KCIDB_PATH_ROOT);
	if (o >= len)
		return -1;
	memcpy(out, KCIDB_PATH_ROOT, o + 1);
	size_t n = strlen(cell);
	const char *at = strrchr(cell, '@');
	if (at && !strchr(at, '/'))
		n = (size_t)(at - cell);
	for (size_t i = 0;;) {
		const char *slash = memchr(cell + i, '/', n - i);
		size_t part = slash ? (size_t)(slash - (cell + i)) : n - i;
		if (add_node(out, len, &o, cell + i, part) < 0)
			return -1;
		if (!slash)
			break;
		i += part + 1;
	}
	if (metric && add_node(out, len, &o, metric, strlen(metric)) < 0)
		return -1;
	return 0;
}

/* A metric's unit (core/workload/workload_kinds.c), the unit KCIDB is given, and the factor. */
static const struct {
	const char *unit, *base;
	double scale;
} units[] = {
	{ "MB/s", "B/s", 1e6 },      /* MB = 10^6 bytes, as fio counts */
	{ "s", "s", 1 },
	{ "ms", "s", 1e-3 },
	{ "us", "s", 1e-6 },
	{ "files/s", "files/s", 1 },
	{ "IOPS", "IOPS", 1 },
};

void kcidb_number(double value, const char *unit, struct kcidb_number *out)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (unit && strcmp(unit, units[i].unit) == 0) {
			*out = (struct kcidb_number){ value * units[i].scale, units[i].base, "metric" };
			return;
		}
	*out = (struct kcidb_number){ value, unit, NULL };
}

const char *kcidb_status(const char *cell_status)
{
	static const struct { const char *cell, *test; } map[] = {
		{ "ok", "DONE" }, { "error", "ERROR" }, { "timeout", "ERROR" }, { "skipped", "SKIP" },
		{ "hung", "FAIL" },   /* the kernel under test stopped: its failure, not ours */
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (cell_status && strcmp(cell_status, map[i].cell) == 0)
			return map[i].test;
	return "MISS";
}

const char *kcidb_cell_status(int ok, int failed, const char *cell_status)
{
	if (ok > 0)
		return failed > 0 ? "ERROR" : "DONE";
	return kcidb_status(cell_status);
}
