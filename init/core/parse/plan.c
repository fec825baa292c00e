/* core/parse/plan.c: the INI plan parser: lines, comments and sections, each key handed to its
 * section's table (plan_keys.c), and the checks of the whole plan at the end (plan_check.c).
 * Errors are collected, sorted by line, and kept to PLAN_ERRORS_MAX. Pure except plan_load. */
#include "core/model/plan.h"
#include "lib/file.h"
#include "lib/utf8.h"
#include "core/parse/plan_error.h"
#include "core/parse/plan_keys.h"
#include "core/workload/wlsize.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct { const char *name; enum sect sect; } sect_names[] = {
	{ "global", S_GLOBAL }, { "array", S_ARRAY }, { "fs", S_FS }, { "workload", S_WORKLOAD },
	{ "bisect", S_BISECT }, { "layer", S_LAYER },
};

static void section_defaults(enum sect s, char *base)
{
	switch (s) {
	case S_ARRAY: {
		struct plan_array *a = (void *)base;
		key_defaults(array_keys, base);
		a->level = -2;   /* unset: required */
		break;
	}
	case S_FS: {
		struct plan_fs *f = (void *)base;
		key_defaults(fs_keys, base);
		f->type = -1;    /* unset: required */
		break;
	}
	case S_WORKLOAD:
		plan_workload_defaults((struct plan_workload *)base);
		break;
	case S_LAYER:
		plan_layer_defaults((struct plan_layer *)base);
		break;
	default:
		break;
	}
}

/* [global] and [bisect]: once each, and without a name; their keys are fields of the plan. */
static void open_unnamed(struct state *st, enum sect s, const char *kind, int n, int line)
{
	struct plan *p = st->p;
	int *at = s == S_GLOBAL ? &p->global_line : &p->bisect.line;
	if (n == 2) {
		plan_add_error(p, line, "[%s] takes no name", kind);
		return;
	}
	if (*at) {
		plan_add_error(p, line, "duplicate section [%s] (first at line %d)", kind, *at);
		return;
	}
	*at = line;
	st->sect = s;
	st->base = (char *)p;
	st->key_line = s == S_GLOBAL ? p->key_line : p->bisect.key_line;
	st->keys = s == S_GLOBAL ? global_keys : bisect_keys;
	st->what = s == S_GLOBAL ? "[global]" : "[bisect]";
}

/* Where the sections of one kind are: their count, and the struct, name and line of the i-th. */
struct sections {
	int *count;
	char *first;
	size_t size;
	size_t name_off, line_off, key_line_off;
	const struct key *keys;
};

static struct sections sections_of(struct plan *p, enum sect s)
{
#define SECTIONS(n, arr, T, k) (struct sections){ &p->n, (char *)p->arr, sizeof(T), \
	offsetof(T, name), offsetof(T, line), offsetof(T, key_line), k }
	switch (s) {
	case S_ARRAY: return SECTIONS(narrays, arrays, struct plan_array, array_keys);
	case S_FS: return SECTIONS(nfs, fs, struct plan_fs, fs_keys);
	case S_LAYER: return SECTIONS(nlayers, layers, struct plan_layer, layer_keys);
	default: return SECTIONS(nworkloads, workloads, struct plan_workload, wl_keys);
	}
#undef SECTIONS
}

/* "[kind name]" for a named kind: a new section, unless the name is taken or there are too
 * many. Names of one kind must differ: they make the cell ids. */
static void open_named(struct state *st, enum sect s, const char *kind, const char *name, int line)
{
	struct plan *p = st->p;
	struct sections sec = sections_of(p, s);
	for (int i = 0; i < *sec.count; i++) {
		char *b = sec.first + (size_t)i * sec.size;
		if (strcmp(b + sec.name_off, name) == 0) {
			plan_add_error(p, line, "duplicate section [%s %s] (first at line %d)", kind, name,
				       *(int *)(b + sec.line_off));
			return;
		}
	}
	if (*sec.count >= PLAN_SECTIONS_MAX) {
		plan_add_error(p, line, "too many [%s] sections (at most %d)", kind, PLAN_SECTIONS_MAX);
		return;
	}
	char *b = sec.first + (size_t)(*sec.count)++ * sec.size;
	st->base = b;
	st->key_line = (int *)(b + sec.key_line_off);
	st->keys = sec.keys;
	strcpy(b + sec.name_off, name);
	*(int *)(b + sec.line_off) = line;
	section_defaults(s, st->base);
	st->sect = s;
	snprintf(st->what_buf, sizeof st->what_buf, "[%.15s %.47s]", kind, name);
	st->what = st->what_buf;
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
	if (s == S_NONE)
		plan_add_error(p, line, "unknown section [%s] (known: [global], [array NAME], [fs NAME], "
			       "[workload NAME], [layer NAME], [bisect])", plan_echo(hdr + 1, &e));
	else if (n == 3)
		plan_add_error(p, line, "[%s]: a section name is one word", plan_echo(hdr + 1, &e));
	else if (s == S_GLOBAL || s == S_BISECT)
		open_unnamed(st, s, kind, n, line);
	else if (n < 2)
		plan_add_error(p, line, "[%s] needs a name: [%s NAME]", kind, kind);
	else if (!is_name(name) || strlen(name) >= PLAN_NAME_MAX)
		plan_add_error(p, line, "[%s %s]: a name is letters, digits, '.', '_' or '-', at most %d "
			       "long", kind, plan_echo(name, &e), PLAN_NAME_MAX - 1);
	else
		open_named(st, s, kind, name, line);
}

/* ------------------------------------------------------------------ keys */

/* mount = OPTIONS, one line each: appended to the fs section's list. */
static void add_mount(struct state *st, int idx, const char *val, int line)
{
	struct plan *p = st->p;
	struct plan_fs *f = (struct plan_fs *)st->base;
	struct plan_echo ek;
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
			plan_add_error(p, line, "mount: given twice (mount = %s)", plan_echo(val, &ek));
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
}

/* Any other key: once per section, with a value its setter takes. */
static void add_value(struct state *st, const struct key *k, int idx, const char *key,
		      const char *val, int line)
{
	struct plan *p = st->p;
	struct plan_echo ek;
	char msg[320];
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

/* A kernel tunable of an array (core/model/tunable.h): once per section, a value or a list. */
static void add_tunable(struct state *st, int id, const char *key, const char *val, int line)
{
	struct plan *p = st->p;
	struct plan_array *a = (struct plan_array *)st->base;
	struct plan_echo ek;
	char msg[200];
	if (a->tun_line[id]) {
		int first = a->tun_line[id] < 0 ? -a->tun_line[id] : a->tun_line[id];
		plan_add_error(p, line, "duplicate key \"%s\" in %s (first at line %d)", key,
			       st->what, first);
		return;
	}
	a->tun_line[id] = line;
	if (set_tunable(a, id, val, msg, sizeof msg) < 0) {
		plan_add_error(p, line, "%s: %s (%s = %s)", key, msg, key, plan_echo(val, &ek));
		a->tun_line[id] = -line;
		a->ntun[id] = 0;
	}
}

/* "key = value": blanks around both trimmed. Returns the value, or NULL if there is no key. */
static char *split_key(char *line_text, char **key)
{
	char *eq = strchr(line_text, '=');
	if (!eq)
		return NULL;
	char *val = eq + 1, *e = eq;
	while (e > line_text && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = '\0';
	while (*val == ' ' || *val == '\t')
		val++;
	*key = line_text;
	return *line_text ? val : NULL;
}

static void set_key(struct state *st, char *line_text, int line)
{
	struct plan *p = st->p;
	char *key, *val = split_key(line_text, &key);
	struct plan_echo ek;
	if (!val) {
		plan_add_error(p, line, "expected \"key = value\"");
		return;
	}
	if (st->sect == S_NONE) {
		plan_add_error(p, line, "\"%s\" is outside any section: start with [global]",
			       plan_echo(key, &ek));
		return;
	}
	if (st->sect == S_IGNORE)
		return;   /* the header was already reported */
	const struct key *k = find_key(st->keys, key);
	int tun = st->sect == S_ARRAY ? tun_find(key) : -1;
	if (!k && tun >= 0) {
		add_tunable(st, tun, key, val, line);
		return;
	}
	if (!k) {
		char known[300];
		key_list(st->keys, known, sizeof known);
		/* Eleven more names would push the reason out of a long line: they have a page. */
		if (st->sect == S_ARRAY)
			snprintf(known + strlen(known), sizeof known - strlen(known),
				 ", or a kernel tunable of docs/plans.md");
		plan_add_error(p, line, "unknown key \"%s\" in %s (known: %s)", plan_echo(key, &ek),
			       st->what, known);
		return;
	}
	int idx = (int)(k - st->keys);
	if (k->kind == K_MOUNT)
		add_mount(st, idx, val, line);
	else
		add_value(st, k, idx, key, val, line);
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

static void plan_defaults(struct plan *p, const char *file)
{
	memset(p, 0, sizeof *p);
	snprintf(p->file, sizeof p->file, "%s", file);
	default_name(p, file);
	key_defaults(global_keys, (char *)p);
	key_defaults(bisect_keys, (char *)p);
	p->scale = 1.0;
}

/* Binary input, text in another encoding and endless lines are not plans: stop at the
 * first, say where. A plan's values end up in records, which are JSON and so UTF-8. */
static int line_is_text(struct plan *p, const char *s, size_t n, int line)
{
	for (size_t i = 0, k; i < n; i += k) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 && c != '\t' && c != '\r') {
			plan_add_error(p, line, "binary data (byte 0x%02x at column %zu): not a plan",
				       c, i + 1);
			return 0;
		}
		if ((k = utf8_char(s + i, n - i)) == 0) {
			plan_add_error(p, line, "not UTF-8 text (byte 0x%02x at column %zu): save the "
				       "plan as UTF-8", c, i + 1);
			return 0;
		}
	}
	if (n > PLAN_LINE_MAX) {
		plan_add_error(p, line, "line longer than %d bytes", PLAN_LINE_MAX);
		return 0;
	}
	return 1;
}

/* Where the first line starts, past a UTF-8 byte-order mark; -1 for what cannot be a plan. */
static long first_line(struct plan *p, const char *buf, size_t len)
{
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
	return len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

int plan_parse(const char *file, const char *buf, size_t len, struct plan *p)
{
	struct state st = { .p = p, .sect = S_NONE };
	char text[PLAN_LINE_MAX + 1];
	int line = 0, content = 0, comments = 0;

	plan_defaults(p, file);
	long start = first_line(p, buf, len);
	if (start < 0)
		return -1;
	for (size_t pos = (size_t)start; pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		if (!line_is_text(p, buf + pos, n, ++line))
			return -1;
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
	p->lines = line ? line : 1;
	plan_validate(p, p->lines, content, comments);
	return p->nerrors ? -1 : 0;
}

int plan_load(const char *path, struct plan *p)
{
	size_t len;
	/* One byte past the cap, so plan_parse can tell a file that is too big. */
	char *buf = file_read(path, PLAN_FILE_MAX + 1, &len);
	if (!buf) {
		int e = errno;
		char why[64];
		memset(p, 0, sizeof *p);
		snprintf(p->file, sizeof p->file, "%s", path);
		plan_add_error(p, 0, "unable to read: %s", file_why(path, e, why, sizeof why));
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
		/* a relative size keeps its formula and carries the scale to its resolution */
		w->size_rel.scale *= factor;
		w->size = wlsize_round(w, (double)w->size * factor);
	}
}
