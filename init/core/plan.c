/* core/plan.c: the INI plan parser. Each section kind has a key table (name, kind, field, range,
 * which types it applies to); one generic setter fills fields from it, and a validator per
 * section kind checks what only makes sense once the whole section has been read. Errors are
 * collected, sorted by line, and kept to PLAN_ERRORS_MAX. Pure except plan_load. */
#include "core/plan.h"
#include "core/skip.h"
#include "lib/argv.h"
#include "lib/file.h"
#include "core/plan_error.h"
#include "core/plan_size.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind {
	K_NAME,     /* [A-Za-z0-9._-] */
	K_STR,      /* any text */
	K_WORDS,    /* words for a command line: checked by splitting them */
	K_MOUNT,    /* repeatable: one mount option string per line */
	K_INT,
	K_U64,
	K_SIZE,
	K_CHUNKS,   /* a comma-separated list of sizes */
	K_DUR,
	K_BOOL,
	K_CHOICE,
};

struct choice {
	const char *name;
	int value;
};

struct key {
	const char *name;
	enum kind kind;
	size_t off;                    /* of the field in the section's struct */
	long long min, max;            /* K_INT, K_SIZE */
	const struct choice *choices;  /* K_CHOICE, NULL-terminated */
	const char *expected;          /* K_CHOICE: the error message */
	unsigned only;                 /* bit per section type the key applies to; 0 = all */
};

static const struct choice resyncs[] = {
	{ "wait", RESYNC_WAIT }, { "assume-clean", RESYNC_ASSUME_CLEAN },
	{ "ignore", RESYNC_IGNORE }, { NULL, 0 },
};
static const struct choice levels[] = {
	{ "none", LEVEL_NONE }, { "0", 0 }, { "1", 1 }, { "4", 4 }, { "5", 5 }, { "6", 6 },
	{ "10", 10 }, { NULL, 0 },
};
static const struct choice fs_types[] = {
	{ "ext2", FS_EXT2 }, { "ext3", FS_EXT3 }, { "ext4", FS_EXT4 }, { "xfs", FS_XFS },
	{ NULL, 0 },
};
static const struct choice wl_types[] = {
	{ "seqwrite", WL_SEQWRITE }, { "smallfiles", WL_SMALLFILES }, { "tar", WL_TAR },
	{ NULL, 0 },
};
static const struct choice datas[] = { { "random", DATA_RANDOM }, { "zero", DATA_ZERO }, { NULL, 0 } };
static const struct choice syncs[] = { { "timed", SYNC_TIMED }, { "none", SYNC_NONE }, { NULL, 0 } };

/* Section type bits for key.only. Arrays: by level; fs: by type; workloads: by type. */
#define LV(l) (1u << level_bit(l))
#define B_EXT ((1u << FS_EXT2) | (1u << FS_EXT3) | (1u << FS_EXT4))
#define B_SEQ (1u << WL_SEQWRITE)
#define B_SMALL (1u << WL_SMALLFILES)
#define B_TAR (1u << WL_TAR)
#define B_MD 0x7eu   /* every level but none (bit 0) */
#define B_STRIPED 0x7au /* md levels with a chunk: not none (bit 0), not raid1 (bit 2) */

static int level_bit(int level)
{
	for (int i = 0; levels[i].name; i++)
		if (levels[i].value == level)
			return i;
	return 0;
}

#define G(f) offsetof(struct plan, f)
#define A(f) offsetof(struct plan_array, f)
#define F(f) offsetof(struct plan_fs, f)
#define W(f) offsetof(struct plan_workload, f)

static const struct key global_keys[] = {
	{ "name", K_NAME, G(name), 0, 0, NULL, NULL, 0 },
	{ "repeat", K_INT, G(repeat), 1, 1000, NULL, NULL, 0 },
	{ "resync", K_CHOICE, G(resync), 0, 0, resyncs, "expected wait, assume-clean or ignore", 0 },
	{ "drop_caches", K_BOOL, G(drop_caches), 0, 0, NULL, NULL, 0 },
	{ "timeout", K_DUR, G(timeout_s), 0, 0, NULL, NULL, 0 },
	{ "retries", K_INT, G(retries), 0, 100, NULL, NULL, 0 },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0 },
};
static const struct key array_keys[] = {
	{ "level", K_CHOICE, A(level), 0, 0, levels, "expected none, 0, 1, 4, 5, 6 or 10", 0 },
	{ "devices", K_INT, A(devices), 1, PLAN_DEVICES_MAX, NULL, NULL, 0 },
	{ "missing", K_INT, A(missing), 0, PLAN_DEVICES_MAX, NULL, NULL, B_MD },
	{ "chunk", K_CHUNKS, A(chunk), 0, 0, NULL, NULL, B_STRIPED },
	{ "layout", K_STR, A(layout), 0, 0, NULL, NULL, B_MD },
	{ "bitmap", K_STR, A(bitmap), 0, 0, NULL, NULL, B_MD },
	{ "options", K_WORDS, A(options), 0, 0, NULL, NULL, B_MD },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0 },
};
static const struct key fs_keys[] = {
	{ "type", K_CHOICE, F(type), 0, 0, fs_types, "unknown fs type: expected ext2, ext3, ext4 or xfs", 0 },
	{ "mkfs", K_WORDS, F(mkfs), 0, 0, NULL, NULL, 0 },
	{ "tune", K_WORDS, F(tune), 0, 0, NULL, NULL, B_EXT },
	{ "mount", K_MOUNT, F(mount), 0, 0, NULL, NULL, 0 },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0 },
};
static const struct key wl_keys[] = {
	{ "type", K_CHOICE, W(type), 0, 0, wl_types, "unknown workload type: expected seqwrite, smallfiles or tar", 0 },
	{ "size", K_SIZE, W(size), 4096, 0, NULL, NULL, B_SEQ | B_SMALL },
	{ "bs", K_SIZE, W(bs), 512, 64 << 20, NULL, NULL, B_SEQ },
	{ "direct", K_BOOL, W(direct), 0, 0, NULL, NULL, B_SEQ },
	{ "data", K_CHOICE, W(data), 0, 0, datas, "expected random or zero", B_SEQ },
	{ "passes", K_INT, W(passes), 1, 1000, NULL, NULL, B_SMALL },
	{ "sync", K_CHOICE, W(sync), 0, 0, syncs, "expected timed or none", B_SMALL | B_TAR },
	{ "seed", K_U64, W(seed), 0, 0, NULL, NULL, B_SMALL },
	{ "file", K_STR, W(file), 0, 0, NULL, NULL, B_TAR },
	{ "files", K_INT, W(files), 1, 10000000, NULL, NULL, B_SMALL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0 },
};

enum sect { S_NONE, S_IGNORE, S_GLOBAL, S_ARRAY, S_FS, S_WORKLOAD };

/* ------------------------------------------------------------------ values */

static int is_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static int copy_str(char *dst, const char *src)
{
	if (strlen(src) >= PLAN_STR_MAX)
		return -1;
	strcpy(dst, src);
	return 0;
}

/* One value into its field. Returns 0, or -1 with msg saying what was expected. */
static int set_value(const struct key *k, char *base, const char *val, char *msg, size_t mlen)
{
	void *f = base + k->off;
	char err[128];

	switch (k->kind) {
	case K_NAME:
		if (!is_name(val) || strlen(val) >= PLAN_NAME_MAX) {
			snprintf(msg, mlen, "expected a name of letters, digits, '.', '_' or '-', "
				 "at most %d long", PLAN_NAME_MAX - 1);
			return -1;
		}
		strcpy(f, val);
		return 0;
	case K_STR:
		if (copy_str(f, val) < 0)
			goto too_long;
		return 0;
	case K_WORDS: {
		struct argv a;
		argv_init(&a);
		if (argv_split(&a, val, err, sizeof err) < 0) {
			snprintf(msg, mlen, "%s", err);
			return -1;
		}
		if (copy_str(f, val) < 0)
			goto too_long;
		return 0;
	}
	case K_MOUNT:
		/* Handled by the caller: it appends to a list. */
		return 0;
	case K_INT:
	case K_U64: {
		char *end;
		if (*val < '0' || *val > '9')
			goto bad_int;
		errno = 0;
		unsigned long long v = strtoull(val, &end, 10);
		if (*end || errno)
			goto bad_int;
		if (k->kind == K_U64) {
			*(uint64_t *)f = v;
			return 0;
		}
		if ((long long)v < k->min || (long long)v > k->max || v > (1ull << 40))
			goto bad_int;
		if (k->off == W(files))
			*(long *)f = (long)v;
		else
			*(int *)f = (int)v;
		return 0;
	bad_int:
		if (k->kind == K_U64)
			snprintf(msg, mlen, "expected a whole number");
		else
			snprintf(msg, mlen, "expected a whole number from %lld to %lld", k->min, k->max);
		return -1;
	}
	case K_SIZE: {
		uint64_t v;
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
	case K_CHUNKS: {
		/* The list lives in the array section: chunk[] with nchunk before it. */
		struct plan_array *a = (struct plan_array *)base;
		char item[64];
		const char *s = val;
		a->nchunk = 0;
		for (;;) {
			const char *comma = strchr(s, ',');
			size_t n = comma ? (size_t)(comma - s) : strlen(s);
			while (n && (*s == ' ' || *s == '\t'))
				s++, n--;
			while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
				n--;
			uint64_t v;
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
			if (!comma)
				return 0;
			s = comma + 1;
		}
	}
	case K_DUR:
		if (plan_parse_duration(val, f) < 0) {
			snprintf(msg, mlen, "expected a duration such as 90s, 30m or 2h");
			return -1;
		}
		return 0;
	case K_BOOL:
		if (strcmp(val, "yes") == 0)
			*(int *)f = 1;
		else if (strcmp(val, "no") == 0)
			*(int *)f = 0;
		else {
			snprintf(msg, mlen, "expected yes or no");
			return -1;
		}
		return 0;
	case K_CHOICE:
		for (const struct choice *c = k->choices; c->name; c++)
			if (strcmp(c->name, val) == 0) {
				*(int *)f = c->value;
				return 0;
			}
		snprintf(msg, mlen, "%s", k->expected);
		return -1;
	}
	return 0;
too_long:
	snprintf(msg, mlen, "longer than %d bytes", PLAN_STR_MAX - 1);
	return -1;
}

/* ------------------------------------------------------------------ sections */

struct state {
	struct plan *p;
	enum sect sect;
	char *base;               /* the current section's struct */
	int *key_line;
	const struct key *keys;
	const char *what;         /* "[array md6]" for messages */
	char what_buf[PLAN_NAME_MAX + 24];
};

static const struct key *find_key(const struct key *keys, const char *name)
{
	for (const struct key *k = keys; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

static void key_list(const struct key *keys, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const struct key *k = keys; k->name && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", k->name);
}

static const struct { const char *name; enum sect sect; } sect_names[] = {
	{ "global", S_GLOBAL }, { "array", S_ARRAY }, { "fs", S_FS }, { "workload", S_WORKLOAD },
};

static void section_defaults(enum sect s, char *base)
{
	switch (s) {
	case S_ARRAY: {
		struct plan_array *a = (void *)base;
		a->level = -2;   /* unset: required */
		break;
	}
	case S_FS: {
		struct plan_fs *f = (void *)base;
		f->type = -1;
		break;
	}
	case S_WORKLOAD: {
		struct plan_workload *w = (void *)base;
		w->type = -1;
		w->bs = 1 << 20;
		w->data = DATA_RANDOM;
		w->passes = 1;
		w->sync = SYNC_TIMED;
		w->seed = PLAN_DEFAULT_SEED;
		break;
	}
	default:
		break;
	}
}

/* "[kind name]": opens a section, or reports why not and ignores its keys. */
static void open_section(struct state *st, char *hdr, int line)
{
	struct plan *p = st->p;
	char *end = strchr(hdr, ']');
	char kind[32], name[PLAN_LINE_MAX], extra[8];

	st->sect = S_IGNORE;
	if (!end || end[1]) {
		plan_add_error(p, line, "expected a section header such as [array md6]");
		return;
	}
	*end = '\0';
	kind[0] = name[0] = '\0';
	int n = sscanf(hdr + 1, "%31s %1023s %7s", kind, name, extra);
	enum sect s = S_NONE;
	for (size_t i = 0; i < sizeof sect_names / sizeof sect_names[0]; i++)
		if (n >= 1 && strcmp(kind, sect_names[i].name) == 0)
			s = sect_names[i].sect;
	struct plan_echo e;
	if (s == S_NONE) {
		plan_add_error(p, line, "unknown section [%s] (known: [global], [array NAME], [fs NAME], "
			  "[workload NAME])", plan_echo(hdr + 1, &e));
		return;
	}
	if (n == 3) {
		plan_add_error(p, line, "[%s]: a section name is one word", plan_echo(hdr + 1, &e));
		return;
	}
	if (s == S_GLOBAL) {
		if (n == 2) {
			plan_add_error(p, line, "[global] takes no name");
			return;
		}
		if (p->global_line) {
			plan_add_error(p, line, "duplicate section [global] (first at line %d)",
				  p->global_line);
			return;
		}
		p->global_line = line;
		st->sect = S_GLOBAL;
		st->base = (char *)p;
		st->key_line = p->key_line;
		st->keys = global_keys;
		st->what = "[global]";
		return;
	}
	if (n < 2) {
		plan_add_error(p, line, "[%s] needs a name: [%s NAME]", kind, kind);
		return;
	}
	if (!is_name(name) || strlen(name) >= PLAN_NAME_MAX) {
		plan_add_error(p, line, "[%s %s]: a name is letters, digits, '.', '_' or '-', at most %d "
			  "long", kind, plan_echo(name, &e), PLAN_NAME_MAX - 1);
		return;
	}
	/* Names of one kind must differ: they make the cell ids. */
	int count, *lines[PLAN_SECTIONS_MAX];
	const char *names[PLAN_SECTIONS_MAX];
	switch (s) {
	case S_ARRAY:
		count = p->narrays;
		for (int i = 0; i < count; i++)
			names[i] = p->arrays[i].name, lines[i] = &p->arrays[i].line;
		break;
	case S_FS:
		count = p->nfs;
		for (int i = 0; i < count; i++)
			names[i] = p->fs[i].name, lines[i] = &p->fs[i].line;
		break;
	default:
		count = p->nworkloads;
		for (int i = 0; i < count; i++)
			names[i] = p->workloads[i].name, lines[i] = &p->workloads[i].line;
		break;
	}
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], name) == 0) {
			plan_add_error(p, line, "duplicate section [%s %s] (first at line %d)", kind, name,
				  *lines[i]);
			return;
		}
	if (count >= PLAN_SECTIONS_MAX) {
		plan_add_error(p, line, "too many [%s] sections (at most %d)", kind, PLAN_SECTIONS_MAX);
		return;
	}
	switch (s) {
	case S_ARRAY: {
		struct plan_array *a = &p->arrays[p->narrays++];
		st->base = (char *)a;
		st->key_line = a->key_line;
		st->keys = array_keys;
		strcpy(a->name, name);
		a->line = line;
		break;
	}
	case S_FS: {
		struct plan_fs *f = &p->fs[p->nfs++];
		st->base = (char *)f;
		st->key_line = f->key_line;
		st->keys = fs_keys;
		strcpy(f->name, name);
		f->line = line;
		break;
	}
	default: {
		struct plan_workload *w = &p->workloads[p->nworkloads++];
		st->base = (char *)w;
		st->key_line = w->key_line;
		st->keys = wl_keys;
		strcpy(w->name, name);
		w->line = line;
		break;
	}
	}
	section_defaults(s, st->base);
	st->sect = s;
	snprintf(st->what_buf, sizeof st->what_buf, "[%.15s %.47s]", kind, name);
	st->what = st->what_buf;
}

static void set_key(struct state *st, char *line_text, int line)
{
	struct plan *p = st->p;
	char *eq = strchr(line_text, '=');

	if (!eq) {
		plan_add_error(p, line, "expected \"key = value\"");
		return;
	}
	char *key = line_text, *val = eq + 1;
	char *e = eq;
	while (e > key && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = '\0';
	while (*val == ' ' || *val == '\t')
		val++;
	if (!*key) {
		plan_add_error(p, line, "expected \"key = value\"");
		return;
	}
	struct plan_echo ek;
	if (st->sect == S_NONE) {
		plan_add_error(p, line, "\"%s\" is outside any section: start with [global]",
			       plan_echo(key, &ek));
		return;
	}
	if (st->sect == S_IGNORE)
		return;   /* the header was already reported */

	const struct key *k = find_key(st->keys, key);
	if (!k) {
		char known[256];
		key_list(st->keys, known, sizeof known);
		plan_add_error(p, line, "unknown key \"%s\" in %s (known: %s)", plan_echo(key, &ek),
			       st->what, known);
		return;
	}
	int idx = (int)(k - st->keys);
	char msg[200];
	if (k->kind == K_MOUNT) {
		struct plan_fs *f = (struct plan_fs *)st->base;
		if (!*val) {
			plan_add_error(p, line, "mount: expected options, such as defaults or "
				  "noatime,data=ordered");
			return;
		}
		if (strpbrk(val, " \t\"")) {
			plan_add_error(p, line, "mount: options are one word, separated by commas "
				       "(mount = %s)", plan_echo(val, &ek));
			return;
		}
		for (int i = 0; i < f->nmount; i++)
			if (strcmp(f->mount[i], val) == 0) {
				plan_add_error(p, line, "mount: given twice (mount = %s)",
					       plan_echo(val, &ek));
				return;
			}
		if (f->nmount >= PLAN_LIST_MAX) {
			plan_add_error(p, line, "too many mount lines in %s (at most %d)", st->what,
				  PLAN_LIST_MAX);
			return;
		}
		if (copy_str(f->mount[f->nmount], val) < 0) {
			plan_add_error(p, line, "mount: longer than %d bytes", PLAN_STR_MAX - 1);
			return;
		}
		f->mount_line[f->nmount++] = line;
		if (!st->key_line[idx])
			st->key_line[idx] = line;
		return;
	}
	if (st->key_line[idx]) {
		/* A first value that was bad is still where the key was first given. */
		int first = st->key_line[idx] < 0 ? -st->key_line[idx] : st->key_line[idx];
		plan_add_error(p, line, "duplicate key \"%s\" in %s (first at line %d)", key,
			       st->what, first);
		return;
	}
	st->key_line[idx] = line;
	/* Strings may be empty (mkfs = ); everything else needs a value. */
	if (!*val && k->kind != K_STR && k->kind != K_WORDS) {
		plan_add_error(p, line, "%s: expected a value", key);
		st->key_line[idx] = -line;
		return;
	}
	/* The reason first, the value after it and shortened: a long value (a list of 200
	 * chunks) must not push the reason out of the line. */
	if (set_value(k, st->base, val, msg, sizeof msg) < 0) {
		plan_add_error(p, line, "%s: %s (%s = %s)", key, msg, key, plan_echo(val, &ek));
		st->key_line[idx] = -line;   /* given, but bad: no follow-on errors */
	}
}

/* ------------------------------------------------------------------ validation */

static int key_index(const struct key *keys, const char *name)
{
	return (int)(find_key(keys, name) - keys);
}

/* Reports keys given for a type they do not apply to. */
static void check_applies(struct plan *p, const struct key *keys, const int *key_line,
			  unsigned bit, const char *what, const char *type_name)
{
	for (int i = 0; keys[i].name; i++) {
		int l = key_line[i];
		if (l && keys[i].only && !(keys[i].only & bit))
			plan_add_error(p, l < 0 ? -l : l, "%s: \"%s\" does not apply to %s", what,
				  keys[i].name, type_name);
	}
}

/* The fewest members mdadm 4.2 creates without --force, and how many of them may be missing
 * while the array still has all its data. */
static int none_missing(int n) { (void)n; return 0; }
static int mirror_missing(int n) { return n - 1; }
static int one_missing(int n) { (void)n; return 1; }
static int two_missing(int n) { (void)n; return 2; }
/* raid10 (near-2, mdadm's default): one member of each mirror pair may be missing. Other
 * layouts (f2, o2, n3) tolerate other patterns; mdadm itself refuses what cannot work. */
static int half_missing(int n) { return n / 2; }

static const struct level_rule {
	int level, min_devices;
	int (*max_missing)(int devices);
} level_rules[] = {
	{ LEVEL_NONE, 1, none_missing },
	{ 0, 2, none_missing },
	{ 1, 2, mirror_missing },
	{ 4, 2, one_missing },
	{ 5, 2, one_missing },
	{ 6, 4, two_missing },
	{ 10, 2, half_missing },
};

static const struct level_rule *rule_for(int level)
{
	for (size_t i = 0; i < sizeof level_rules / sizeof level_rules[0]; i++)
		if (level_rules[i].level == level)
			return &level_rules[i];
	return NULL;
}

static void check_array(struct plan *p, struct plan_array *a)
{
	char what[PLAN_NAME_MAX + 16];
	int li = key_index(array_keys, "level"), di = key_index(array_keys, "devices");
	int mi = key_index(array_keys, "missing");

	snprintf(what, sizeof what, "[array %s]", a->name);
	if (!a->key_line[li]) {
		plan_add_error(p, a->line, "%s: missing required key \"level\"", what);
		return;
	}
	if (a->key_line[li] < 0)
		return;
	const char *lname = plan_level_name(a->level);
	check_applies(p, array_keys, a->key_line, LV(a->level), what,
		      a->level == LEVEL_NONE ? "level none" : lname);
	if (a->level == LEVEL_NONE) {
		if (a->key_line[di] > 0 && a->devices != 1)
			plan_add_error(p, a->key_line[di], "%s: level none is one disk: devices = 1",
				  what);
		a->devices = 1;
		a->missing = 0;
		return;
	}
	if (!a->key_line[di]) {
		plan_add_error(p, a->line, "%s: missing required key \"devices\"", what);
		return;
	}
	if (a->key_line[di] < 0 || a->key_line[mi] < 0)
		return;
	const struct level_rule *r = rule_for(a->level);
	if (a->devices < r->min_devices) {
		plan_add_error(p, a->key_line[di], "%s: %s needs at least %d devices, plan gives %d",
			  what, lname, r->min_devices, a->devices);
		return;
	}
	int max = r->max_missing(a->devices);
	if (a->missing > max) {
		if (max == 0)
			plan_add_error(p, a->key_line[mi], "%s: %s cannot run with missing members",
				  what, lname);
		else
			plan_add_error(p, a->key_line[mi], "%s: %s over %d devices runs with at most "
				  "%d missing, plan gives %d", what, lname, a->devices, max,
				  a->missing);
	}
}

static void check_fs(struct plan *p, struct plan_fs *f)
{
	char what[PLAN_NAME_MAX + 16];
	int ti = key_index(fs_keys, "type");

	snprintf(what, sizeof what, "[fs %s]", f->name);
	if (!f->key_line[ti]) {
		plan_add_error(p, f->line, "%s: missing required key \"type\"", what);
		return;
	}
	if (f->key_line[ti] > 0)
		check_applies(p, fs_keys, f->key_line, 1u << f->type, what, plan_fs_name(f->type));
	if (f->nmount == 0) {
		strcpy(f->mount[0], "defaults");
		f->nmount = 1;
	}
}

static void check_workload(struct plan *p, struct plan_workload *w)
{
	char what[PLAN_NAME_MAX + 16], type_name[32];
	int ti = key_index(wl_keys, "type"), si = key_index(wl_keys, "size");
	int bi = key_index(wl_keys, "bs"), di = key_index(wl_keys, "direct");

	snprintf(what, sizeof what, "[workload %s]", w->name);
	if (!w->key_line[ti]) {
		plan_add_error(p, w->line, "%s: missing required key \"type\"", what);
		return;
	}
	if (w->key_line[ti] < 0)
		return;
	snprintf(type_name, sizeof type_name, "a %s workload", plan_wl_name(w->type));
	check_applies(p, wl_keys, w->key_line, 1u << w->type, what, type_name);
	if (w->type == WL_TAR) {
		if (!w->key_line[key_index(wl_keys, "file")])
			plan_add_error(p, w->line, "%s: missing required key \"file\"", what);
		return;
	}
	if (!w->key_line[si]) {
		plan_add_error(p, w->line, "%s: missing required key \"size\"", what);
		return;
	}
	if (w->type != WL_SEQWRITE || w->key_line[si] < 0 || w->key_line[bi] < 0)
		return;
	char s1[32], s2[32];
	plan_fmt_size(w->size, s1, sizeof s1);
	plan_fmt_size(w->bs, s2, sizeof s2);
	if (w->size < w->bs)
		plan_add_error(p, w->key_line[si], "%s: size %s is smaller than bs %s", what, s1, s2);
	/* O_DIRECT needs buffers and lengths aligned to the logical block; 4k covers 4Kn disks. */
	if (w->direct && w->bs % 4096)
		plan_add_error(p, w->key_line[di] > 0 ? w->key_line[di] : w->line,
			  "%s: direct = yes needs bs a multiple of 4k, plan gives %s", what, s2);
}

/* ------------------------------------------------------------------ lines */

/* Cuts a trailing comment: # or ; after a blank, outside double quotes. */
static void cut_comment(char *s)
{
	int quoted = 0;
	for (char *c = s; *c; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (!quoted && (*c == '#' || *c == ';') &&
			 (c == s || c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			return;
		}
	}
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static void default_name(struct plan *p, const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
		n -= 4;
	if (n >= PLAN_NAME_MAX)
		n = PLAN_NAME_MAX - 1;
	for (size_t i = 0; i < n; i++)
		p->name[i] = is_name((char[]){ base[i], '\0' }) ? base[i] : '_';
	p->name[n] = '\0';
	if (!n)
		strcpy(p->name, "plan");
}

/* Sections a plan cannot do without, missing together, as one error. */
static void check_sections(struct plan *p, int end)
{
	const struct { int n; const char *name; } kinds[] = {
		{ p->narrays, "[array NAME]" }, { p->nfs, "[fs NAME]" },
		{ p->nworkloads, "[workload NAME]" },
	};
	char list[64] = "";
	int nmissing = 0, k = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		nmissing += !kinds[i].n;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!kinds[i].n) {
			k++;
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 k == 1 ? "" : k == nmissing ? " or " : ", ", kinds[i].name);
		}
	if (nmissing)
		plan_add_error(p, end, "no %s section: a plan needs at least one%s%s", list,
			       nmissing > 1 ? " of each" : "",
			       p->narrays ? "" : " (level = none for a raw disk)");
}

int plan_parse(const char *file, const char *buf, size_t len, struct plan *p)
{
	struct state st = { .p = p, .sect = S_NONE };
	char text[PLAN_LINE_MAX + 1];
	int line = 0;

	memset(p, 0, sizeof *p);
	snprintf(p->file, sizeof p->file, "%s", file);
	default_name(p, file);
	p->repeat = 1;
	p->resync = RESYNC_WAIT;
	p->drop_caches = 1;
	p->timeout_s = 30 * 60;
	p->retries = 1;
	p->scale = 1.0;

	if (len > PLAN_FILE_MAX) {
		plan_add_error(p, 1, "larger than %d bytes: not a plan", PLAN_FILE_MAX);
		return -1;
	}
	/* Windows Notepad saves UTF-8 with a byte-order mark (CRLF is trimmed with the blanks);
	 * its "Unicode" is UTF-16, which no line of a plan can be read from. */
	const unsigned char *u = (const unsigned char *)buf;
	if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
		plan_add_error(p, 1, "the plan is UTF-16 text: save it as UTF-8");
		return -1;
	}
	size_t start = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	int content = 0, comments = 0;
	for (size_t pos = start; pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		line++;
		/* Binary input and endless lines are not plans: stop at the first, say where. */
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)buf[pos + i];
			if (c < 0x20 && c != '\t' && c != '\r') {
				plan_add_error(p, line, "binary data (byte 0x%02x at column %zu): not a plan",
					  c, i + 1);
				return -1;
			}
		}
		if (n > PLAN_LINE_MAX) {
			plan_add_error(p, line, "line longer than %d bytes", PLAN_LINE_MAX);
			return -1;
		}
		memcpy(text, buf + pos, n);
		text[n] = '\0';
		pos += n + (nl ? 1 : 0);

		char *s = trim(text);
		if (!*s)
			continue;
		if (*s == '#' || *s == ';') {
			comments++;
			continue;
		}
		content++;
		cut_comment(s);
		s = trim(s);
		if (*s == '[')
			open_section(&st, s, line);
		else
			set_key(&st, s, line);
	}

	int end = line ? line : 1;
	p->lines = end;
	if (!content)
		plan_add_error(p, end, "the plan %s: it needs an [array NAME], an [fs NAME] and a "
			       "[workload NAME] section", comments ? "holds only comments and blank "
			       "lines" : "is empty");
	else
		check_sections(p, end);
	for (int i = 0; i < p->narrays; i++)
		check_array(p, &p->arrays[i]);
	for (int i = 0; i < p->nfs; i++)
		check_fs(p, &p->fs[i]);
	for (int i = 0; i < p->nworkloads; i++)
		check_workload(p, &p->workloads[i]);
	/* Counted only in a plan that is right otherwise: the sections are then what the
	 * user meant. */
	if (!p->nerrors)
		plan_check_size(p, end);
	plan_sort_errors(p);
	return p->nerrors ? -1 : 0;
}

int plan_load(const char *path, struct plan *p)
{
	size_t len;
	/* One byte past the cap, so plan_parse can tell a file that is too big. */
	char *buf = file_read(path, PLAN_FILE_MAX + 1, &len);
	if (!buf) {
		int e = errno;
		memset(p, 0, sizeof *p);
		snprintf(p->file, sizeof p->file, "%s", path);
		plan_add_error(p, 0, "unable to read: %s", strerror(e));
		return -1;
	}
	int rc = plan_parse(path, buf, len, p);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------------ after parsing */

void plan_scale(struct plan *p, double factor)
{
	p->scale *= factor;
	for (int i = 0; i < p->nworkloads; i++) {
		struct plan_workload *w = &p->workloads[i];
		if (!w->size)
			continue;
		double s = (double)w->size * factor;
		uint64_t v = s >= 1.8e19 ? UINT64_MAX : (uint64_t)s;
		uint64_t unit = w->type == WL_SEQWRITE ? w->bs : 4096;
		v -= v % unit;
		w->size = v < unit ? unit : v;
	}
}

int plan_array_disks(const struct plan_array *a)
{
	return a->level == LEVEL_NONE ? 1 : a->devices - a->missing;
}

int plan_check_disks(struct plan *p, int ndisks)
{
	int before = p->nerrors;
	int di = key_index(array_keys, "devices");

	for (int i = 0; i < p->narrays; i++) {
		const struct plan_array *a = &p->arrays[i];
		char why[PLAN_NAME_MAX + 64];
		if (cell_skip_reason(a->name, plan_array_disks(a), ndisks, 0, "", why, sizeof why) < 0)
			plan_add_error(p, a->key_line[di] > 0 ? a->key_line[di] : a->line, "%s", why);
	}
	plan_sort_errors(p);
	return p->nerrors > before ? -1 : 0;
}

const char *plan_level_name(int level)
{
	switch (level) {
	case LEVEL_NONE: return "none";
	case 0: return "raid0";
	case 1: return "raid1";
	case 4: return "raid4";
	case 5: return "raid5";
	case 6: return "raid6";
	case 10: return "raid10";
	}
	return "unknown";
}

const char *plan_fs_name(enum fs_type t)
{
	static const char *const names[] = { "ext2", "ext3", "ext4", "xfs" };
	return (unsigned)t < 4 ? names[t] : "unknown";
}

const char *plan_wl_name(enum wl_type t)
{
	static const char *const names[] = { "seqwrite", "smallfiles", "tar" };
	return (unsigned)t < 3 ? names[t] : "unknown";
}

const char *plan_resync_name(enum resync r)
{
	static const char *const names[] = { "wait", "assume-clean", "ignore" };
	return (unsigned)r < 3 ? names[r] : "unknown";
}

int plan_workload_set(struct plan_workload *w, const char *key, const char *val, char *msg,
		      size_t mlen)
{
	const struct key *k = find_key(wl_keys, key);
	if (!k || k->kind == K_MOUNT) {
		snprintf(msg, mlen, "no workload key \"%s\"", key);
		return -1;
	}
	if (k->only && !(k->only & (1u << w->type))) {
		snprintf(msg, mlen, "\"%s\" does not apply to %s", key, plan_wl_name(w->type));
		return -1;
	}
	return set_value(k, (char *)w, val, msg, mlen);
}
