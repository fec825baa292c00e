/* core/parse/plan_keys.c: one setter per kind of value, which fills a field from its text, and
 * the lookups over the key tables (core/parse/plan_key_rows.c). */
#include "core/parse/plan_keys.h"
#include "core/matrix/kernels.h"
#include "core/parse/plan_error.h"
#include "core/workload/wlsize.h"
#include "lib/argv.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


unsigned level_bits(const struct md_level *l)
{
	return (l->md ? B_MD : 0) | (l->striped ? B_STRIPED : 0) | (l->profile ? B_BTRFS : 0) |
	       (l->lvm ? B_LVM : 0);
}

/* A workload key applies to the engines whose row names it; "type" to every one. */
int wl_key_applies(const struct key *k, const struct wl_kind *wk)
{
	return k->off == offsetof(struct plan_workload, type) || (wk && wl_kind_has(wk->keys, k->name));
}

int is_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

int copy_str(char *dst, const char *src)
{
	if (strlen(src) >= PLAN_STR_MAX)
		return -1;
	strcpy(dst, src);
	return 0;
}

const struct key *find_key(const struct key *keys, const char *name)
{
	for (const struct key *k = keys; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

int key_index(const struct key *keys, const char *name)
{
	return (int)(find_key(keys, name) - keys);
}

void key_list(const struct key *keys, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const struct key *k = keys; k->name && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", k->name);
}

/* ------------------------------------------------------------------ values, one setter per kind */

typedef int (*setter)(const struct key *k, char *base, void *f, const char *val, char *msg,
		      size_t mlen);

static int too_long(char *msg, size_t mlen)
{
	snprintf(msg, mlen, "longer than %d bytes", PLAN_STR_MAX - 1);
	return -1;
}

static int set_name(const struct key *k, char *base, void *f, const char *val, char *msg,
		    size_t mlen)
{
	(void)k, (void)base;
	if (!is_name(val) || strlen(val) >= PLAN_NAME_MAX) {
		snprintf(msg, mlen, "expected a name of letters, digits, '.', '_' or '-', "
			 "at most %d long", PLAN_NAME_MAX - 1);
		return -1;
	}
	strcpy(f, val);
	return 0;
}

static int set_str(const struct key *k, char *base, void *f, const char *val, char *msg,
		   size_t mlen)
{
	(void)k, (void)base;
	return copy_str(f, val) < 0 ? too_long(msg, mlen) : 0;
}

static int set_words(const struct key *k, char *base, void *f, const char *val, char *msg,
		     size_t mlen)
{
	struct argv a;
	char err[128];
	argv_init(&a);
	if (argv_split(&a, val, err, sizeof err) < 0) {
		snprintf(msg, mlen, "%s", err);
		return -1;
	}
	return set_str(k, base, f, val, msg, mlen);
}

/* mount lines are appended to a list by the caller */
static int set_nothing(const struct key *k, char *base, void *f, const char *val, char *msg,
		       size_t mlen)
{
	(void)k, (void)base, (void)f, (void)val, (void)msg, (void)mlen;
	return 0;
}

static int set_int(const struct key *k, char *base, void *f, const char *val, char *msg,
		   size_t mlen)
{
	char *end;
	(void)base;
	errno = 0;
	unsigned long long v = *val >= '0' && *val <= '9' ? strtoull(val, &end, 10) : 0;
	int ok = *val >= '0' && *val <= '9' && !*end && !errno;
	if (ok && k->kind == K_U64) {
		*(uint64_t *)f = v;
		return 0;
	}
	if (!ok || (long long)v < k->min || (long long)v > k->max || v > (1ull << 40)) {
		if (k->kind == K_U64)
			snprintf(msg, mlen, "expected a whole number");
		else
			snprintf(msg, mlen, "expected a whole number from %lld to %lld", k->min, k->max);
		return -1;
	}
	if (k->off == offsetof(struct plan_workload, files))
		*(long *)f = (long)v;
	else
		*(int *)f = (int)v;
	return 0;
}

static int set_size(const struct key *k, char *base, void *f, const char *val, char *msg,
		    size_t mlen)
{
	uint64_t v;
	(void)base;
	if (plan_parse_size(val, &v) < 0) {
		snprintf(msg, mlen, "expected a size such as 4096, 512k, 220m or 1g");
		return -1;
	}
	char lo[32], hi[32];
	plan_fmt_size((uint64_t)k->min, lo, sizeof lo);
	plan_fmt_size((uint64_t)k->max, hi, sizeof hi);
	if (v < (uint64_t)k->min) {
		snprintf(msg, mlen, "expected at least %s", lo);
		return -1;
	}
	if (k->max && v > (uint64_t)k->max) {
		snprintf(msg, mlen, "expected at most %s", hi);
		return -1;
	}
	*(uint64_t *)f = v;
	return 0;
}

/* A workload's size: bytes as set_size takes them, or a share of the machine ("2x ram",
 * "10% fs"), which holds its nominal bytes until the run resolves it. */
static int set_wl_size(const struct key *k, char *base, void *f, const char *val, char *msg,
		       size_t mlen)
{
	struct plan_workload *w = (struct plan_workload *)base;
	int rel = wlsize_parse(val, &w->size_rel, msg, mlen);
	if (rel < 0)
		return -1;
	if (rel == 0) {
		uint64_t v;
		w->size_rel = (struct size_rel){ SIZE_BYTES, 0, 1.0 };
		if (plan_parse_size(val, &v) == 0)
			return set_size(k, base, f, val, msg, mlen);
		snprintf(msg, mlen, "expected a size such as 4096, 512k, 220m or 1g, or a share of "
			 "the machine such as 2x ram or 10%% fs");
		return -1;
	}
	w->size = wlsize_resolve(w, WLSIZE_NOMINAL_BYTES, WLSIZE_NOMINAL_BYTES, NULL);
	return 0;
}

/* One item of a chunk list, blanks around it trimmed, into a->chunk[]. */
static int add_chunk(struct plan_array *a, const char *s, size_t n, char *msg, size_t mlen)
{
	char item[64];
	uint64_t v;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= sizeof item) {
		snprintf(msg, mlen, "expected sizes such as 16k or 16k, 64k");
		return -1;
	}
	memcpy(item, s, n);
	item[n] = '\0';
	if (plan_parse_size(item, &v) < 0) {
		snprintf(msg, mlen, "\"%s\": expected sizes such as 16k or 16k, 64k", item);
		return -1;
	}
	/* md wants a power of two of at least a page. */
	if (v < 4096 || (v & (v - 1)) || v > (1ull << 30)) {
		snprintf(msg, mlen, "%s is not a power of two from 4k to 1g", item);
		return -1;
	}
	for (int i = 0; i < a->nchunk; i++)
		if (a->chunk[i] == v) {
			snprintf(msg, mlen, "%s is given twice", item);
			return -1;
		}
	if (a->nchunk >= PLAN_LIST_MAX) {
		snprintf(msg, mlen, "at most %d chunks", PLAN_LIST_MAX);
		return -1;
	}
	a->chunk[a->nchunk++] = v;
	return 0;
}

/* The list lives in the array section: chunk[] with nchunk before it. */
static int set_chunks(const struct key *k, char *base, void *f, const char *val, char *msg,
		      size_t mlen)
{
	struct plan_array *a = (struct plan_array *)base;
	(void)k, (void)f;
	a->nchunk = 0;
	for (const char *s = val;;) {
		const char *comma = strchr(s, ',');
		if (add_chunk(a, s, comma ? (size_t)(comma - s) : strlen(s), msg, mlen) < 0)
			return -1;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

/* A tunable's value or list of values (core/model/tunable.c parses each) into a->tun[id]. */
int set_tunable(struct plan_array *a, int id, const char *val, char *msg, size_t mlen)
{
	a->ntun[id] = 0;
	for (const char *s = val;;) {
		size_t n = strcspn(s, ",");
		char item[64];
		long long v;
		const char *b = s;
		while (n && (*b == ' ' || *b == '\t'))
			b++, n--;
		while (n && (b[n - 1] == ' ' || b[n - 1] == '\t'))
			n--;
		if (n >= sizeof item || n == 0) {
			snprintf(msg, mlen, "expected a value or a list such as 256, 4096");
			return -1;
		}
		memcpy(item, b, n);
		item[n] = '\0';
		if (tun_parse(id, item, &v, msg, mlen) < 0)
			return -1;
		for (int i = 0; i < a->ntun[id]; i++)
			if (a->tun[id][i] == v) {
				snprintf(msg, mlen, "%s is given twice", item);
				return -1;
			}
		if (a->ntun[id] >= PLAN_LIST_MAX) {
			snprintf(msg, mlen, "at most %d values", PLAN_LIST_MAX);
			return -1;
		}
		a->tun[id][a->ntun[id]++] = v;
		s = b + n;
		s += strcspn(s, ",");
		if (!*s)
			return 0;
		s++;
	}
}

/* level = KEY: the keys, and the list an error gives, are the level table's. */
static int set_level(const struct key *k, char *base, void *f, const char *val, char *msg,
		     size_t mlen)
{
	const struct md_level *l = level_by_key(val);
	char keys[256];
	(void)k, (void)base;
	if (l) {
		*(int *)f = l->level;
		return 0;
	}
	/* a level lvm does not offer is told lvm's, not every family's */
	int lvm = strncmp(val, "lvm-", 4) == 0;
	level_keys_text(keys, sizeof keys, lvm ? "lvm-" : "");
	snprintf(msg, mlen, "%s%s", lvm ? "lvm offers " : "expected ", keys);
	return -1;
}

static int set_dur(const struct key *k, char *base, void *f, const char *val, char *msg,
		   size_t mlen)
{
	(void)k, (void)base;
	if (plan_parse_duration(val, f) < 0) {
		snprintf(msg, mlen, "expected a duration such as 90s, 30m or 2h");
		return -1;
	}
	return 0;
}

static int set_period(const struct key *k, char *base, void *f, const char *val, char *msg,
		      size_t mlen)
{
	(void)k, (void)base;
	if (plan_parse_period(val, f) < 0) {
		snprintf(msg, mlen, "expected off or a period from %dms to %ds, such as 100ms or 1s",
			 PLAN_MONITOR_MIN_MS, PLAN_MONITOR_MAX_MS / 1000);
		return -1;
	}
	return 0;
}

/* yes and no are the plan's words; 1 and 0 are fio's (a job's direct=1 copied into a plan),
 * true and false many INI files'. */
static int set_bool(const struct key *k, char *base, void *f, const char *val, char *msg,
		    size_t mlen)
{
	(void)k, (void)base;
	for (const struct choice *c = bools; c->name; c++)
		if (strcmp(c->name, val) == 0) {
			*(int *)f = c->value;
			return 0;
		}
	snprintf(msg, mlen, "expected yes, no, 1, 0, true or false");
	return -1;
}

static int set_choice(const struct key *k, char *base, void *f, const char *val, char *msg,
		      size_t mlen)
{
	(void)base;
	for (const struct choice *c = k->choices; c->name; c++)
		if (strcmp(c->name, val) == 0) {
			*(int *)f = c->value;
			return 0;
		}
	snprintf(msg, mlen, "%s", k->expected);
	return -1;
}

/* A workload's type: an engine of core/workload/workload_kinds.c. */
static int set_wl_type(const struct key *k, char *base, void *f, const char *val, char *msg,
		       size_t mlen)
{
	const struct wl_kind *wk = wl_kind_named(val);
	char names[128];
	(void)k, (void)base;
	if (wk) {
		*(enum wl_type *)f = wk->type;
		return 0;
	}
	wl_kind_names(names, sizeof names);
	snprintf(msg, mlen, "unknown workload type: expected %s", names);
	return -1;
}

static int set_control(const struct key *k, char *base, void *f, const char *val, char *msg,
		       size_t mlen)
{
	(void)base;
	if (cond_check(cond_find(k->name), val, msg, mlen) < 0)
		return -1;
	snprintf(f, COND_VALUE_MAX, "%s", val);
	return 0;
}

static int set_pct(const struct key *k, char *base, void *f, const char *val, char *msg,
		   size_t mlen)
{
	char *end;
	(void)k, (void)base;
	errno = 0;
	double v = strtod(val, &end);
	if (*end == '%')
		end++;
	if (end == val || *end || errno || !(v > 0 && v <= 100)) {
		snprintf(msg, mlen, "expected a percentage above 0 up to 100, such as 5%%");
		return -1;
	}
	*(double *)f = v;
	return 0;
}

/* repeat = auto keeps repeating a cell until its figure is stable; its bound, repeat_max,
 * becomes repeat once the whole section is read (plan_check.c). */
static int set_repeat(const struct key *k, char *base, void *f, const char *val, char *msg,
		      size_t mlen)
{
	struct plan *p = (struct plan *)base;
	if (strcmp(val, "auto") == 0) {
		p->repeat_auto = 1;
		return 0;
	}
	p->repeat_auto = 0;
	if (set_int(k, base, f, val, msg, mlen) == 0)
		return 0;
	snprintf(msg, mlen, "expected auto or a whole number from %lld to %lld", k->min, k->max);
	return -1;
}

static int set_kernels(const struct key *k, char *base, void *f, const char *val, char *msg,
		       size_t mlen)
{
	(void)k;
	return kernels_parse(val, f, &((struct plan *)base)->nkernels, msg, mlen);
}

static const setter setters[] = {
	[K_NAME] = set_name,     [K_STR] = set_str,       [K_WORDS] = set_words,
	[K_MOUNT] = set_nothing, [K_INT] = set_int,       [K_U64] = set_int,
	[K_SIZE] = set_size,     [K_CHUNKS] = set_chunks, [K_LEVEL] = set_level,
	[K_DUR] = set_dur,       [K_BOOL] = set_bool,     [K_CHOICE] = set_choice,
	[K_WLTYPE] = set_wl_type, [K_PERIOD] = set_period, [K_CONTROL] = set_control,
	[K_REPEAT] = set_repeat, [K_PCT] = set_pct, [K_WLSIZE] = set_wl_size,
	[K_KERNELS] = set_kernels,
};

int set_value(const struct key *k, char *base, const char *val, char *msg, size_t mlen)
{
	return setters[k->kind](k, base, base + k->off, val, msg, mlen);
}

void key_defaults(const struct key *keys, char *base)
{
	char msg[PLAN_ERROR_LEN];
	for (const struct key *k = keys; k->name; k++)
		if (k->def)
			/* every default parses: tests/unit/test_plan checks each row's */
			(void)set_value(k, base, k->def, msg, sizeof msg);
}

/* ------------------------------------------------------------------ names */

int plan_global_given(const struct plan *p, const char *key)
{
	const struct key *k = find_key(global_keys, key);
	return k && p->key_line[k - global_keys] != 0;
}

int plan_global_line(const struct plan *p, const char *key)
{
	const struct key *k = find_key(global_keys, key);
	return k ? p->key_line[k - global_keys] : 0;
}

/* A key's line in a section (negative when it was given twice: its first). */
static int section_key_line(const int *lines, const struct key *keys, const char *key)
{
	const struct key *k = find_key(keys, key);
	int v = k ? lines[k - keys] : 0;
	return v < 0 ? -v : v;
}

int plan_array_key_line(const struct plan_array *a, const char *key)
{
	return section_key_line(a->key_line, array_keys, key);
}

int plan_layer_key_line(const struct plan_layer *l, const char *key)
{
	return section_key_line(l->key_line, layer_keys, key);
}
