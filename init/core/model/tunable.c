/* core/model/tunable.c: the tunable table and the rules derived from its rows. */
#include "core/model/tunable.h"
#include "core/model/plan.h"
#include "lib/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mq-deadline is built into Debian's kernel; bfq and kyber are modules, in the image through
 * recipes/linux/modules.list and loaded before the cell that asks for them (the kernel's own
 * request_module would run a modprobe the image does not have). */
static const struct tun_choice schedulers[] = {
	{ "none", NULL }, { "mq-deadline", NULL }, { "bfq", "bfq" }, { "kyber", "kyber_iosched" },
	{ NULL, NULL },
};

/* A disk's volatile write cache, as its device takes it (off 0, on 1), or left as found. */
static const struct tun_choice write_caches[] = {
	{ "off", NULL }, { "on", NULL }, { "keep", NULL }, { NULL, NULL },
};

/* Ranges are what the kernel takes at all (6.1): md refuses a stripe cache of 16 entries or
 * fewer or over 32768 and more than 8192 worker threads; vm wants dirty_bytes of at least two
 * pages and dirty_background_bytes of at least one byte. Within them, only the kernel knows
 * what a device takes (nr_requests past the queue's depth, max_sectors_kb past the
 * hardware's): that shows when the value is read back. */
const char tun_plan_help[] = "kernel tunables, set after the mount and read back; a list "
	"makes one array per value, as `chunk` does ([below](#kernel-tunables)) (the kernel's)";

const struct tun_row tun_rows[TUN_COUNT] = {
	/* name, abbr, where, when, attr, kind, min, max, choices, levels, excludes */
	[TUN_SCHEDULER] = { "scheduler", "sched", TUN_QUEUE, TUN_AFTER_MOUNT, "scheduler",
			    TUN_CHOICE, 0, 0, schedulers, TUN_ALL, -1 },
	[TUN_NR_REQUESTS] = { "nr_requests", "nr", TUN_QUEUE, TUN_AFTER_MOUNT, "nr_requests",
			      TUN_INT, 1, 1 << 20, NULL, TUN_ALL, -1 },
	[TUN_READ_AHEAD_KB] = { "read_ahead_kb", "ra", TUN_QUEUE, TUN_AFTER_MOUNT,
				"read_ahead_kb", TUN_INT, 0, 1 << 20, NULL, TUN_ALL, -1 },
	[TUN_MAX_SECTORS_KB] = { "max_sectors_kb", "msk", TUN_QUEUE, TUN_AFTER_MOUNT,
				 "max_sectors_kb", TUN_INT, 4, 1 << 22, NULL, TUN_ALL, -1 },
	[TUN_STRIPE_CACHE_SIZE] = { "stripe_cache_size", "scs", TUN_MD, TUN_AFTER_MOUNT,
				    "stripe_cache_size", TUN_INT, 17, 32768, NULL, TUN_PARITY, -1 },
	[TUN_GROUP_THREAD_CNT] = { "group_thread_cnt", "gtc", TUN_MD, TUN_AFTER_MOUNT,
				   "group_thread_cnt", TUN_INT, 0, 8192, NULL, TUN_PARITY, -1 },
	[TUN_DIRTY_RATIO] = { "dirty_ratio", "dr", TUN_VM, TUN_AFTER_MOUNT, "dirty_ratio",
			      TUN_INT, 0, 100, NULL, TUN_ALL, TUN_DIRTY_BYTES },
	[TUN_DIRTY_BACKGROUND_RATIO] = { "dirty_background_ratio", "dbr", TUN_VM, TUN_AFTER_MOUNT,
					 "dirty_background_ratio", TUN_INT, 0, 100, NULL, TUN_ALL,
					 TUN_DIRTY_BACKGROUND_BYTES },
	[TUN_DIRTY_BYTES] = { "dirty_bytes", "db", TUN_VM, TUN_AFTER_MOUNT, "dirty_bytes",
			      TUN_SIZE, 8192, 1ll << 50, NULL, TUN_ALL, TUN_DIRTY_RATIO },
	[TUN_DIRTY_BACKGROUND_BYTES] = { "dirty_background_bytes", "dbb", TUN_VM, TUN_AFTER_MOUNT,
					 "dirty_background_bytes", TUN_SIZE, 1, 1ll << 50, NULL,
					 TUN_ALL, TUN_DIRTY_BACKGROUND_RATIO },
	[TUN_DIRTY_EXPIRE_CENTISECS] = { "dirty_expire_centisecs", "dec", TUN_VM, TUN_AFTER_MOUNT,
					 "dirty_expire_centisecs", TUN_INT, 0, 2147483647, NULL,
					 TUN_ALL, -1 },
	/* before mkfs: mkfs's own writes and its discard run with the cache the cell measures */
	[TUN_WRITE_CACHE] = { "write_cache", "wc", TUN_DEVICE, TUN_BEFORE_MKFS, "write_cache",
			      TUN_CHOICE, 0, 0, write_caches, TUN_ALL, -1 },
};

int tun_find(const char *name)
{
	for (int i = 0; i < TUN_COUNT; i++)
		if (strcmp(tun_rows[i].name, name) == 0)
			return i;
	return -1;
}

unsigned tun_level_bits(const struct md_level *l)
{
	if (l->profile || l->lvm)   /* several disks without md: no one device to tune */
		return 0;
	if (!l->md)
		return TUN_RAW;
	return TUN_MDANY | (l->parity ? TUN_PARITY : 0);
}

int tun_fits(int id, const struct md_level *l)
{
	return (tun_rows[id].levels & tun_level_bits(l)) != 0;
}

void tun_fits_text(int id, char *buf, size_t len)
{
	const char *names[16];
	int n = 0;
	for (const struct md_level *l = md_levels; l->key && n < 16; l++)
		if (tun_fits(id, l))
			names[n++] = l->md ? l->name : "level none";
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
}

static void choices_text(const struct tun_choice *c, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0;
	while (c[n].name)
		n++;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : i == n - 1 ? " or " : ", ", c[i].name);
}

int tun_parse(int id, const char *text, long long *v, char *msg, size_t len)
{
	const struct tun_row *r = &tun_rows[id];
	if (r->kind == TUN_CHOICE) {
		for (int i = 0; r->choices[i].name; i++)
			if (strcmp(r->choices[i].name, text) == 0) {
				*v = i;
				return 0;
			}
		char list[128];
		choices_text(r->choices, list, sizeof list);
		snprintf(msg, len, "\"%s\": expected %s", text, list);
		return -1;
	}
	unsigned long long u = 0;
	int ok;
	if (r->kind == TUN_SIZE) {
		uint64_t s;
		ok = plan_parse_size(text, &s) == 0;
		u = s;
	} else {
		char *end;
		errno = 0;
		ok = *text >= '0' && *text <= '9';
		if (ok)
			u = strtoull(text, &end, 10);
		ok = ok && !*end && !errno;
	}
	if (!ok || u < (unsigned long long)r->min || u > (unsigned long long)r->max) {
		char lo[32], hi[32];
		if (r->kind == TUN_SIZE) {
			plan_fmt_size((uint64_t)r->min, lo, sizeof lo);
			plan_fmt_size((uint64_t)r->max, hi, sizeof hi);
		} else {
			tun_format(id, r->min, lo, sizeof lo);
			tun_format(id, r->max, hi, sizeof hi);
		}
		snprintf(msg, len, "\"%s\": expected %s from %s to %s", text,
			 r->kind == TUN_SIZE ? "a size" : "a whole number", lo, hi);
		return -1;
	}
	*v = (long long)u;
	return 0;
}

void tun_format(int id, long long v, char *buf, size_t len)
{
	const struct tun_row *r = &tun_rows[id];
	if (r->kind == TUN_CHOICE)
		snprintf(buf, len, "%s", v >= 0 ? r->choices[v].name : "?");
	else
		snprintf(buf, len, "%lld", v);
}

void tun_format_id(int id, long long v, char *buf, size_t len)
{
	const struct tun_row *r = &tun_rows[id];
	char val[48];
	if (r->kind == TUN_SIZE)
		plan_fmt_size((uint64_t)v, val, sizeof val);
	else
		tun_format(id, v, val, sizeof val);
	snprintf(buf, len, "%s%s", r->abbr, val);
}

/* "[bfq] mq-deadline none": the bracketed word is the one in effect; a queue without a
 * scheduler choice shows just "none". */
static int read_choice(const struct tun_row *r, const char *text, long long *v)
{
	char word[48];
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	size_t n;
	if (open && close) {
		text = open + 1;
		n = (size_t)(close - text);
	} else {
		while (*text == ' ')
			text++;
		n = strcspn(text, " \n");
	}
	if (n >= sizeof word)
		return -1;
	memcpy(word, text, n);
	word[n] = '\0';
	for (int i = 0; r->choices[i].name; i++)
		if (strcmp(r->choices[i].name, word) == 0) {
			*v = i;
			return 0;
		}
	return -1;
}

int tun_read(int id, const char *text, long long *v)
{
	const struct tun_row *r = &tun_rows[id];
	if (r->kind == TUN_CHOICE)
		return read_choice(r, text, v);
	char *end;
	errno = 0;
	if (*text < '0' || *text > '9')
		return -1;
	long long x = strtoll(text, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -1;
	*v = x;
	return 0;
}

void tun_json(struct jw *w, int id, long long v)
{
	char s[48];
	if (tun_rows[id].kind != TUN_CHOICE) {
		jw_int(w, v);
		return;
	}
	tun_format(id, v, s, sizeof s);
	jw_str(w, s);
}

void tun_json_given(struct jw *w, unsigned given, const long long *v)
{
	for (int id = 0; id < TUN_COUNT; id++)
		if (given & (1u << id)) {
			jw_key(w, tun_rows[id].name);
			tun_json(w, id, v[id]);
		}
}

const char *tun_module(int id, long long v)
{
	const struct tun_row *r = &tun_rows[id];
	return r->kind == TUN_CHOICE && v >= 0 ? r->choices[v].module : NULL;
}

int tun_places(int id, const char *target, char *const *members, int nmembers,
	       const char **out, int max)
{
	int n = 0;
	switch (tun_rows[id].where) {
	case TUN_VM:
		out[n++] = "vm";
		break;
	case TUN_MD:
		out[n++] = target;
		break;
	case TUN_QUEUE:
		out[n++] = target;
		for (int i = 0; i < nmembers && n < max; i++)
			out[n++] = members[i];
		break;
	case TUN_DEVICE:
		/* an array has no cache of its own: its members' devices do */
		if (!nmembers)
			out[n++] = target;
		for (int i = 0; i < nmembers && n < max; i++)
			out[n++] = members[i];
		break;
	}
	return n;
}

void tun_path(int id, const char *place, char *buf, size_t len)
{
	const struct tun_row *r = &tun_rows[id];
	static const char *const dirs[] = { [TUN_QUEUE] = "queue", [TUN_MD] = "md",
					    [TUN_DEVICE] = "queue" };
	if (r->where == TUN_VM)
		snprintf(buf, len, "/proc/sys/vm/%s", r->attr);
	else
		snprintf(buf, len, "/sys/block/%s/%s/%s", place, dirs[r->where], r->attr);
}

int tun_restore_id(int id, long long found)
{
	int x = tun_rows[id].excludes;
	return x >= 0 && found == 0 ? x : id;
}

enum tun_outcome tun_judge(long long asked, int write_err, int read_ok, long long got)
{
	if (write_err)
		return TUN_REFUSED;
	if (!read_ok)
		return TUN_UNREAD;
	return got == asked ? TUN_APPLIED : TUN_CLAMPED;
}

const char *tun_outcome_name(enum tun_outcome o)
{
	static const char *const names[] = { "applied", "refused", "clamped", "unread" };
	return (unsigned)o < 4 ? names[o] : "unknown";
}

double tun_stripe_cache_bytes(long long entries, int members)
{
	return (double)entries *
	       ((double)members * (TUN_SCS_PAGE_BYTES + TUN_SCS_DEV_BYTES) + TUN_SCS_HEAD_BYTES);
}

int tun_stripe_cache_check(long long entries, int members, double mem_bytes, char *why,
			   size_t len)
{
	double need = tun_stripe_cache_bytes(entries, members);
	if (mem_bytes <= 0 || need <= mem_bytes / TUN_SCS_RAM_DIV)
		return 0;
	snprintf(why, len, "stripe_cache_size = %lld over %d members would pin ~%.0f MiB of "
		 "memory (each entry a %d KiB page and ~%.1f KiB of md's own per member), more "
		 "than half of the %.0f MiB of RAM", entries, members, need / (1 << 20),
		 TUN_SCS_PAGE_BYTES / 1024, TUN_SCS_DEV_BYTES / 1024.0, mem_bytes / (1 << 20));
	return -1;
}
