/* core/model/conditions.c: the machine's controls as a table (conditions.h). */
#include "core/model/conditions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COND_PLAN 1
#define COND_CMDLINE 0
#define COND_ROW(id, name, dflt, values, what, where) [COND_##id] = { name, dflt, values, what, where },
const struct cond_row cond_rows[COND_COUNT] = { COND_CONTROLS(COND_ROW) };
#undef COND_ROW

static const char *const status_names[] = { "applied", "kept", "refused", "unavailable" };

int cond_find(const char *name)
{
	for (int i = 0; i < COND_COUNT; i++)
		if (strcmp(cond_rows[i].name, name) == 0)
			return i;
	return -1;
}

static int is_word(const char *v)
{
	if (!*v || strlen(v) >= 24)
		return 0;
	for (const char *c = v; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			return 0;
	return 1;
}

static int one_of(const char *v, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(v, list[i]) == 0)
			return 1;
	return 0;
}

int cond_check(int id, const char *v, char *why, size_t len)
{
	static const char *const onoff[] = { "on", "off", NULL };
	static const char *const thp[] = { "always", "madvise", "never", NULL };
	static const char *const none[] = { "none", NULL };
	static const char *const bit[] = { "0", "1", NULL };
	char *end;
	int ok = strcmp(v, "keep") == 0;
	switch (id) {
	case COND_GOVERNOR:
	case COND_CLOCKSOURCE:
		ok = ok || is_word(v);
		break;
	case COND_TURBO:
		ok = ok || one_of(v, onoff);
		break;
	case COND_CSTATES: {
		long us = strtol(v, &end, 10);
		ok = ok || (*v >= '0' && *v <= '9' && !*end && us >= 0 && us <= 2000000000L);
		break;
	}
	case COND_THP:
		ok = ok || one_of(v, thp);
		break;
	case COND_SWAP:
		ok = ok || one_of(v, none);
		break;
	case COND_NMI_WATCHDOG:
		ok = ok || one_of(v, bit);
		break;
	default:
		ok = 0;
	}
	if (!ok)
		snprintf(why, len, "expected %s, or keep", id >= 0 && id < COND_COUNT ?
			 cond_rows[id].values : "a known control");
	return ok ? 0 : -1;
}

const char *cond_asked(int id, const char *from_cmdline, const char *from_plan)
{
	if (from_cmdline && *from_cmdline)
		return from_cmdline;
	if (from_plan && *from_plan)
		return from_plan;
	return cond_rows[id].dflt;
}

const char *cond_status_name(enum cond_status s)
{
	return (unsigned)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : "?";
}

void cond_cmdline(const char *raw, char *out, size_t len)
{
	static const char *const dropped[] = { "BOOT_IMAGE=", "initrd=", "fsmatrix.disks=",
					       "fsmatrix.wipe=", "fsmatrix.shard=", "fsmatrix.seed=",
					       "fsmatrix.kernel=", NULL };
	size_t used = 0;
	out[0] = '\0';
	for (const char *s = raw; *s;) {
		s += strspn(s, " \t\n");
		size_t n = strcspn(s, " \t\n");
		int keep = n > 0;
		for (int i = 0; keep && dropped[i]; i++)
			keep = strncmp(s, dropped[i], strlen(dropped[i])) != 0;
		if (keep && used + n + 1 < len) {
			used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? " " : "",
						 (int)n, s);
		}
		s += n;
	}
}

void cond_disk_order(const char *const *keys, int n, int *order)
{
	/* insertion sort: a machine's few disks, and stable */
	for (int i = 0; i < n; i++) {
		int j = i;
		for (; j > 0 && strcmp(keys[order[j - 1]], keys[i]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}
