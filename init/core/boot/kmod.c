/* core/boot/kmod.c: parse depmod's metadata and match names and modaliases against it (the load
 * order is kmod_order.c's). */
#include "core/boot/kmod.h"
#include "lib/file.h"
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kmod_db_init(struct kmod_db *db) { memset(db, 0, sizeof *db); }

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void kmod_db_free(struct kmod_db *db)
{
	for (int i = 0; i < db->nmods; i++) {
		struct kmod_mod *m = &db->mods[i];
		free(m->path);
		free_list(m->deps, m->ndeps);
		free_list(m->pre, m->npre);
		free_list(m->post, m->npost);
	}
	free_list(db->texts, db->ntexts);   /* where the aliases point */
	free(db->mods);
	free(db->aliases);
	free(db->slots);
	free(db->next);
	free(db->lengths);
	kmod_db_init(db);
}

/* kmod_normalize's rule applied where the text lies: '-' becomes '_' outside a [...] set.
 * Returns the length before the first wildcard (*, ?, [ or \), which kmod_match compares
 * first. The table marks the few characters that need a look: ~1,800 aliases a boot come
 * through here. */
static size_t normalize_here(char *text)
{
	enum { PLAIN, END, SPECIAL };
	static const unsigned char class[256] = { ['\0'] = END, ['*'] = SPECIAL, ['?'] = SPECIAL,
		['['] = SPECIAL, ['\\'] = SPECIAL, [']'] = SPECIAL, ['-'] = SPECIAL };
	unsigned char *s = (unsigned char *)text;
	size_t first = (size_t)-1;
	int bracket = 0;
	for (;; s++) {
		unsigned char c = *s;
		if (class[c] == PLAIN)
			continue;
		if (class[c] == END)
			break;
		if (first == (size_t)-1 && c != ']' && c != '-')
			first = (size_t)(s - (unsigned char *)text);
		if (c == '[')
			bracket = 1;
		else if (c == ']')
			bracket = 0;
		else if (c == '-' && !bracket)
			*s = '_';
	}
	return first == (size_t)-1 ? (size_t)(s - (unsigned char *)text) : first;
}

void kmod_normalize(const char *in, char *out, size_t outlen)
{
	if (!outlen)
		return;
	size_t n = strnlen(in, outlen - 1);
	memcpy(out, in, n);
	out[n] = '\0';
	normalize_here(out);
}

/* "kernel/fs/ext4/ext4.ko" (or .ko.xz, .ko.zst) -> "ext4" */
static void name_from_path(const char *path, char *out, size_t outlen)
{
	const char *base = strrchr(path, '/');
	char tmp[KMOD_NAME_MAX];
	base = base ? base + 1 : path;
	snprintf(tmp, sizeof tmp, "%s", base);
	char *ko = strstr(tmp, ".ko");
	if (ko)
		*ko = '\0';
	kmod_normalize(tmp, out, outlen);
}

/* Appends s itself (the list then owns it). */
static int push_owned(char ***v, int *n, char *s)
{
	char **nv = realloc(*v, sizeof **v * (size_t)(*n + 1));
	if (!nv)
		return -1;
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

static int push_str(char ***v, int *n, const char *s)
{
	char *copy = strdup(s);
	if (!copy || push_owned(v, n, copy) < 0) {
		free(copy);
		return -1;
	}
	return 0;
}

int kmod_find(const struct kmod_db *db, const char *name)
{
	char n[KMOD_NAME_MAX];
	kmod_normalize(name, n, sizeof n);
	for (int i = 0; i < db->nmods; i++)
		if (strcmp(db->mods[i].name, n) == 0)
			return i;
	return -1;
}

static struct kmod_mod *add_mod(struct kmod_db *db, const char *name)
{
	int i = kmod_find(db, name);
	if (i >= 0)
		return &db->mods[i];
	if (db->nmods == db->capmods) {
		int cap = db->capmods ? db->capmods * 2 : 64;
		struct kmod_mod *nm = realloc(db->mods, sizeof *nm * (size_t)cap);
		if (!nm)
			return NULL;
		db->mods = nm;
		db->capmods = cap;
	}
	struct kmod_mod *m = &db->mods[db->nmods++];
	memset(m, 0, sizeof *m);
	kmod_normalize(name, m->name, sizeof m->name);
	return m;
}

/* Calls fn on each meaningful line (a writable copy, without its newline). The copy is
 * freed at the end, or with keep handed to the db: what fn keeps points into it. */
static int each_line(struct kmod_db *db, const char *text, char *err, size_t errlen,
		     int (*fn)(struct kmod_db *, char *, const char **why), int keep)
{
	int lineno = 0, rc = 0;
	char *copy = strdup(text), *line = copy; /* one copy cut into lines: thousands of aliases */
	if (!copy || (keep && push_owned(&db->texts, &db->ntexts, copy) < 0)) {
		free(copy);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (*line && rc == 0) {
		char *nl = strchr(line, '\n');
		const char *why = NULL;
		lineno++;
		if (nl)
			*nl = '\0';
		char *p = line + strspn(line, " \t\r");
		if (*p && *p != '#' && fn(db, p, &why) < 0) {
			snprintf(err, errlen, "line %d: %s", lineno, why ? why : "out of memory");
			rc = -1;
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	if (!keep)
		free(copy);
	return rc;
}

/* The next word of a line, cut out in place, or NULL at its end: strtok_r on " \t\r"
 * without the table musl's builds at each call, for the thousands of alias lines a boot
 * reads. */
static char *next_word(char **at)
{
	static const unsigned char cut[256] = { [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\0'] = 2 };
	unsigned char *s = (unsigned char *)*at, *w;
	while (cut[*s] == 1)
		s++;
	if (!*s) {
		*at = (char *)s;
		return NULL;
	}
	for (w = s; !cut[*s]; s++)
		;
	if (*s)
		*s++ = '\0';
	*at = (char *)s;
	return (char *)w;
}

static int dep_line(struct kmod_db *db, char *line, const char **why)
{
	char *colon = strchr(line, ':'), *rest, *tok;
	char name[KMOD_NAME_MAX];
	if (!colon || colon == line) {
		*why = "expected \"path.ko: deps\"";
		return -1;
	}
	*colon = '\0';
	name_from_path(line, name, sizeof name);
	struct kmod_mod *m = add_mod(db, name);
	if (!m)
		return -1;
	free(m->path);
	if (!(m->path = strdup(line)))
		return -1;
	rest = colon + 1;
	while ((tok = next_word(&rest))) {
		name_from_path(tok, name, sizeof name);
		if (push_str(&m->deps, &m->ndeps, name) < 0)
			return -1;
	}
	return 0;
}

/* "softdep MOD pre: a b post: c" (either part optional, in either order) */
static int softdep_line(struct kmod_db *db, char *line, const char **why)
{
	char *rest = line, *tok = next_word(&rest);
	int which = 0; /* 1 pre, 2 post */
	if (!tok || strcmp(tok, "softdep") != 0 || !(tok = next_word(&rest))) {
		*why = "expected \"softdep MODULE pre: ... post: ...\"";
		return -1;
	}
	struct kmod_mod *m = add_mod(db, tok);
	if (!m)
		return -1;
	while ((tok = next_word(&rest))) {
		char n[KMOD_NAME_MAX];
		if (strcmp(tok, "pre:") == 0) {
			which = 1;
			continue;
		}
		if (strcmp(tok, "post:") == 0) {
			which = 2;
			continue;
		}
		if (!which) {
			*why = "softdep name before pre: or post:";
			return -1;
		}
		kmod_normalize(tok, n, sizeof n);
		if (push_str(which == 1 ? &m->pre : &m->post, which == 1 ? &m->npre : &m->npost, n) < 0)
			return -1;
	}
	return 0;
}

static int alias_line(struct kmod_db *db, char *line, const char **why)
{
	char *rest = line, *kw = next_word(&rest);
	char *pat = next_word(&rest), *mod = next_word(&rest);
	if (!kw || strcmp(kw, "alias") != 0 || !pat || !mod) {
		*why = "expected \"alias PATTERN MODULE\"";
		return -1;
	}
	/* pattern and module stay in the file's text, normalized where they lie */
	size_t fixed = normalize_here(pat);
	normalize_here(mod);
	if (db->naliases == db->capaliases) {
		int cap = db->capaliases ? db->capaliases * 2 : 256;
		struct kmod_alias *na = realloc(db->aliases, sizeof *na * (size_t)cap);
		if (!na)
			return -1;
		db->aliases = na;
		db->capaliases = cap;
	}
	db->aliases[db->naliases++] = (struct kmod_alias){ pat, mod, fixed };
	return 0;
}

int kmod_parse_dep(struct kmod_db *db, const char *text, char *err, size_t errlen)
{
	return each_line(db, text, err, errlen, dep_line, 0);
}

int kmod_parse_softdep(struct kmod_db *db, const char *text, char *err, size_t errlen)
{
	return each_line(db, text, err, errlen, softdep_line, 0);
}

/* FNV-1a over a pattern's fixed start, the length mixed in last: one table holds the starts of
 * every length. */
static unsigned start_hash(unsigned h, size_t fixed)
{
	return (h ^ (unsigned)fixed) * 16777619u;
}

static unsigned hash_bytes(unsigned h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

#define HASH_START 2166136261u

/* The slot of the group of pattern start (s, fixed), or of the empty slot where it goes. */
static int slot_of(const struct kmod_db *db, unsigned h, const char *s, size_t fixed)
{
	unsigned mask = (unsigned)db->nslots - 1;
	for (unsigned i = h & mask;; i = (i + 1) & mask) {
		int a = db->slots[i];
		if (a < 0 || (db->aliases[a].fixed == fixed && memcmp(db->aliases[a].pattern, s, fixed) == 0))
			return (int)i;
	}
}

static void index_free(struct kmod_db *db)
{
	free(db->slots);
	free(db->next);
	free(db->lengths);
	db->slots = db->next = NULL;
	db->lengths = NULL;
	db->nslots = db->nlengths = 0;
}

/* kmod_match's index over all aliases parsed so far. Without it (out of memory) kmod_match
 * compares every pattern, as slowly as before and with the same answers. */
static void index_aliases(struct kmod_db *db)
{
	int n = db->naliases, nslots = 16;
	size_t longest = 0;
	index_free(db);
	while (nslots < 2 * n)
		nslots *= 2;
	for (int i = 0; i < n; i++)
		longest = db->aliases[i].fixed > longest ? db->aliases[i].fixed : longest;
	unsigned char *has = calloc(longest + 1, 1);
	db->slots = malloc(sizeof *db->slots * (size_t)nslots);
	db->next = malloc(sizeof *db->next * (size_t)(n ? n : 1));
	db->lengths = malloc(sizeof *db->lengths * (longest + 1));
	if (!has || !db->slots || !db->next || !db->lengths) {
		free(has);
		index_free(db);
		return;
	}
	db->nslots = nslots;
	memset(db->slots, 0xff, sizeof *db->slots * (size_t)nslots);   /* all -1 */
	for (int i = n - 1; i >= 0; i--) {   /* pushed in front: each group in file order */
		const struct kmod_alias *a = &db->aliases[i];
		unsigned h = start_hash(hash_bytes(HASH_START, a->pattern, a->fixed), a->fixed);
		int slot = slot_of(db, h, a->pattern, a->fixed);
		db->next[i] = db->slots[slot];
		db->slots[slot] = i;
		has[a->fixed] = 1;
	}
	for (size_t l = 0; l <= longest; l++)
		if (has[l])
			db->lengths[db->nlengths++] = l;
	free(has);
}

int kmod_parse_alias(struct kmod_db *db, const char *text, char *err, size_t errlen)
{
	int rc = each_line(db, text, err, errlen, alias_line, 1);
	index_aliases(db);
	return rc;
}

int kmod_db_load(struct kmod_db *db, const char *dir, char *err, size_t errlen)
{
	static const struct {
		const char *file;
		int required;
		int (*parse)(struct kmod_db *, const char *, char *, size_t);
	} files[] = {
		{ "modules.dep", 1, kmod_parse_dep },
		{ "modules.softdep", 0, kmod_parse_softdep },
		{ "modules.alias", 0, kmod_parse_alias },
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[512], why[200];
		snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
		char *text = file_read(path, 0, NULL);
		if (!text) {
			if (!files[i].required && errno == ENOENT)
				continue;
			snprintf(err, errlen, "unable to read %s: %s", path, strerror(errno));
			return -1;
		}
		int rc = files[i].parse(db, text, why, sizeof why);
		free(text);
		if (rc < 0) {
			snprintf(err, errlen, "%s: %s", path, why);
			return -1;
		}
	}
	return 0;
}

static int add_unique(int *out, int n, int max, int v)
{
	for (int i = 0; i < n; i++)
		if (out[i] == v)
			return n;
	if (n < max)
		out[n++] = v;
	return n;
}

/* The aliases (indexes, in file order) whose pattern matches q, comparing every pattern's
 * fixed start first. */
static int match_every(const struct kmod_db *db, const char *q, int *hit, int max)
{
	int n = 0;
	for (int i = 0; i < db->naliases && n < max; i++)
		if (strncmp(db->aliases[i].pattern, q, db->aliases[i].fixed) == 0 &&
		    fnmatch(db->aliases[i].pattern, q, 0) == 0)
			hit[n++] = i;
	return n;
}

/* The same through the index: for each length of fixed start, the group of patterns whose
 * fixed start q begins with, each then given to fnmatch; -1 if more than max match. */
static int match_indexed(const struct kmod_db *db, const char *q, int *hit, int max)
{
	size_t ql = strlen(q), done = 0;
	unsigned h = HASH_START;
	int n = 0;
	for (int l = 0; l < db->nlengths && db->lengths[l] <= ql; l++) {
		size_t fixed = db->lengths[l];
		h = hash_bytes(h, q + done, fixed - done);   /* q's start, one length after another */
		done = fixed;
		for (int a = db->slots[slot_of(db, start_hash(h, fixed), q, fixed)]; a >= 0; a = db->next[a]) {
			if (fnmatch(db->aliases[a].pattern, q, 0) != 0)
				continue;
			if (n == max)
				return -1;
			/* in alias file order, as match_every gives them */
			int at = n++;
			for (; at > 0 && hit[at - 1] > a; at--)
				hit[at] = hit[at - 1];
			hit[at] = a;
		}
	}
	return n;
}

int kmod_match(const struct kmod_db *db, const char *alias, int *out, int max)
{
	/* A device's modalias is compared with the few patterns that can match it: fnmatch, or
	 * even a prefix comparison, for each of two thousand patterns and each of a hundred
	 * devices costs PID 1 tens of ms a boot under emulation. The first HITS_MAX aliases
	 * that match count (a modalias matches a handful). */
	enum { HITS_MAX = 256 };
	char q[512];
	int hit[HITS_MAX], nhit = -1, n = 0;
	kmod_normalize(alias, q, sizeof q);
	if (db->slots)
		nhit = match_indexed(db, q, hit, HITS_MAX);
	if (nhit < 0)
		nhit = match_every(db, q, hit, HITS_MAX);
	for (int i = 0; i < nhit; i++) {
		/* aliases of modules the image does not ship (no modules.dep line) are dropped */
		int m = kmod_find(db, db->aliases[hit[i]].module);
		if (m >= 0 && db->mods[m].path)
			n = add_unique(out, n, max, m);
	}
	return n;
}

int kmod_wrong_cpu(const struct kmod_db *db, int m, const char *cpu_modalias)
{
	char q[2048];
	int gated = 0;
	if (!cpu_modalias || !cpu_modalias[0] || m < 0 || m >= db->nmods)
		return 0;
	kmod_normalize(cpu_modalias, q, sizeof q);
	for (int i = 0; i < db->naliases; i++) {
		const struct kmod_alias *a = &db->aliases[i];
		if (strncmp(a->pattern, "cpu:", 4) != 0 || strcmp(a->module, db->mods[m].name) != 0)
			continue;
		if (fnmatch(a->pattern, q, 0) == 0)
			return 0;
		gated = 1;
	}
	return gated;
}

int kmod_lookup(const struct kmod_db *db, const char *name, int *out, int max)
{
	int i = kmod_find(db, name);
	if (i >= 0 && db->mods[i].path && max > 0) {
		out[0] = i;
		return 1;
	}
	return kmod_match(db, name, out, max);
}
