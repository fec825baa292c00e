/* core/boot/kmod.h: the kernel's module metadata (depmod's modules.dep, modules.softdep,
 * modules.alias) and the order to load a set of modules in, without modprobe.
 * Pure apart from kmod_db_load, which only reads the three files; the host tests run the
 * same resolver on fixture metadata. Module names are kept normalized ('-' becomes '_'),
 * as the kernel and kmod treat both spellings as one name. */
#ifndef FSM_KMOD_H
#define FSM_KMOD_H
#include <stddef.h>

#define KMOD_NAME_MAX 64

struct kmod_mod {
	char name[KMOD_NAME_MAX];
	char *path;           /* as written in modules.dep, relative to the modules dir */
	char **deps;          /* names of the modules it needs (modules.dep) */
	int ndeps;
	char **pre, **post;   /* softdep names: module names or aliases (modules.softdep) */
	int npre, npost;
};

struct kmod_alias {
	char *pattern;        /* fnmatch glob, normalized; in one of kmod_db's texts */
	char *module;         /* normalized module name; in the same text */
	size_t fixed;         /* pattern's length before its first *, ?, [ or \: compared first */
};

struct kmod_db {
	struct kmod_mod *mods;
	int nmods, capmods;
	struct kmod_alias *aliases;
	int naliases, capaliases;
	char **texts;           /* each alias file's text, cut and normalized in place */
	int ntexts;
	/* kmod_match's index, made by kmod_parse_alias: the aliases grouped by their pattern's
	 * fixed start, in a hash table keyed by that start. A modalias is compared with the
	 * patterns whose fixed start it begins with: one lookup for each length of fixed start
	 * the patterns have. */
	int *slots;             /* nslots (a power of 2): -1, or an alias heading its group */
	int *next;              /* per alias: the next alias of its group, or -1 */
	int nslots;
	size_t *lengths;        /* the lengths of fixed start, ascending */
	int nlengths;
};

void kmod_db_init(struct kmod_db *db);
void kmod_db_free(struct kmod_db *db);

/* Each parser adds the text of one metadata file. Lines that are blank or start with '#'
 * are skipped; a malformed line is an error: -1 with err naming the line number. */
int kmod_parse_dep(struct kmod_db *db, const char *text, char *err, size_t errlen);
int kmod_parse_softdep(struct kmod_db *db, const char *text, char *err, size_t errlen);
int kmod_parse_alias(struct kmod_db *db, const char *text, char *err, size_t errlen);

/* Reads DIR/modules.dep (required), DIR/modules.softdep and DIR/modules.alias (optional). */
int kmod_db_load(struct kmod_db *db, const char *dir, char *err, size_t errlen);

/* Writes the normalized form of a module name or alias: '-' becomes '_' except inside a
 * [...] bracket expression, where it means a range. */
void kmod_normalize(const char *in, char *out, size_t outlen);

/* Index of the module with this name (either spelling), or -1. */
int kmod_find(const struct kmod_db *db, const char *name);

/* The modules (indexes, each once, in alias file order) whose alias pattern matches the
 * string, e.g. a device's modalias or a name like "crc32c". Returns the count written. */
int kmod_match(const struct kmod_db *db, const char *alias, int *out, int max);

/* 1 when module m serves only CPUs with some feature (it has "cpu:" aliases, as
 * crc32c_intel needs SSE4.2) and the CPU's modalias (/sys/devices/system/cpu/modalias)
 * matches none of them: loading it could only fail with ENODEV, after the time a load takes.
 * 0 otherwise, and when the CPU's modalias is unknown (NULL or ""). */
int kmod_wrong_cpu(const struct kmod_db *db, int m, const char *cpu_modalias);

/* Module name first, then aliases: what modprobe NAME would pick. Returns the count. */
int kmod_lookup(const struct kmod_db *db, const char *name, int *out, int max);

/* Load order for the requested modules (indexes into db->mods): for each, its softdep
 * pre modules, then its dependencies (recursively), then itself, then its softdep post
 * modules; each module once, cycles cut. Modules with done[i] set (already loaded) are
 * left out, as are their requirements' already loaded parts; done may be NULL.
 * Softdep names that match nothing in the db are skipped: they name modules the image
 * does not ship. Returns the count written to order, or -1 if max is too small. */
int kmod_order(const struct kmod_db *db, const int *want, int nwant, const unsigned char *done,
	       int *order, int max);

/* Splits the modules want[] names (drivers for devices just found) into groups that can load
 * side by side: a module asked for twice counts once, and two whose load orders (kmod_order,
 * with done) share a module go in the same group, so that no module is ever loaded by two
 * loaders at once (the second would read and lay out the whole module, wait for the first,
 * and fail with EEXIST). group[k] is want[k]'s group, numbered from 0 in order of first
 * appearance, or -1 for a repeat or a module out of range. Returns the number of groups, or
 * -1 if a load order needs more than max_order entries. */
int kmod_groups(const struct kmod_db *db, const int *want, int nwant, const unsigned char *done,
		int *group, int max_order);

#endif
