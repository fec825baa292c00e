/* core/disk/select.c: the disk-safety rules. The order of the checks in decide() is the order of
 * precedence: what can never be taken (results disk, boot medium, unusable) comes before
 * anything the parameters say. */
#include "core/disk/select.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ITEMS_MAX 32
#define ITEM_LEN 128

enum form { F_NAME, F_SERIAL, F_WWN, F_PATH, F_BLANK };

struct item {
	enum form form;
	char text[ITEM_LEN];   /* the item as written, for reasons */
	char glob[ITEM_LEN];   /* the part to match */
};

/* Prefixed forms; a bare word is a kernel name, "blank" is its own form. */
static const struct { const char *prefix; enum form form; } prefixes[] = {
	{ "serial:", F_SERIAL },
	{ "wwn:", F_WWN },
	{ "path:", F_PATH },
};

static const char forms_help[] = "expected NAME (vdb), serial:GLOB, wwn:GLOB, path:GLOB or blank";

/* Splits a comma- (or blank-) separated spec into items. Returns the count, or -1 with err
 * naming the parameter and the bad item. */
static int parse_spec(const char *param, const char *spec, struct item *items, char *err,
		      size_t errlen)
{
	int n = 0;
	for (const char *s = spec ? spec : ""; *s;) {
		size_t len = strcspn(s, ", \t");
		if (len == 0) {
			s++;
			continue;
		}
		if (len >= ITEM_LEN || n == ITEMS_MAX) {
			snprintf(err, errlen, "%s=%.60s: %s", param, s,
				 n == ITEMS_MAX ? "too many items" : "item too long");
			return -1;
		}
		struct item *it = &items[n];
		memcpy(it->text, s, len);
		it->text[len] = '\0';
		s += len;

		it->form = F_NAME;
		const char *glob = it->text;
		for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
			if (strncmp(it->text, prefixes[i].prefix, strlen(prefixes[i].prefix)) == 0) {
				it->form = prefixes[i].form;
				glob = it->text + strlen(prefixes[i].prefix);
			}
		if (strcmp(it->text, "blank") == 0)
			it->form = F_BLANK;
		snprintf(it->glob, sizeof it->glob, "%s", glob);

		if (it->form == F_NAME && it->text[strspn(it->text, "abcdefghijklmnopqrstuvwxyz"
						   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")]) {
			snprintf(err, errlen, "%s: unknown form \"%s\" (%s)", param, it->text,
				 forms_help);
			return -1;
		}
		if (it->form != F_NAME && it->form != F_BLANK && !it->glob[0]) {
			snprintf(err, errlen, "%s: \"%s\" has an empty pattern (%s)", param, it->text,
				 forms_help);
			return -1;
		}
		n++;
	}
	return n;
}

/* A field that is empty matches nothing, not even "*": a disk without a serial must not be
 * taken by serial:*. */
static int glob_match(const char *glob, const char *field)
{
	return field[0] && fnmatch(glob, field, 0) == 0;
}

/* Does item name disk d explicitly (every form but blank)? */
static int names(const struct item *it, const struct disk *d)
{
	switch (it->form) {
	case F_NAME:   return strcmp(it->glob, d->name) == 0;
	case F_SERIAL: return glob_match(it->glob, d->serial);
	case F_WWN:    return glob_match(it->glob, d->wwn);
	case F_PATH:   return glob_match(it->glob, d->by_path);
	case F_BLANK:  return 0;
	}
	return 0;
}

/* The first item that names d, or NULL. */
static const struct item *named_by(const struct item *items, int n, const struct disk *d)
{
	for (int i = 0; i < n; i++)
		if (names(&items[i], d))
			return &items[i];
	return NULL;
}

static int has_blank(const struct item *items, int n)
{
	for (int i = 0; i < n; i++)
		if (items[i].form == F_BLANK)
			return 1;
	return 0;
}

__attribute__((format(printf, 3, 4)))
static enum verdict judge(struct selection *s, enum verdict v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->reason, sizeof s->reason, fmt, ap);
	va_end(ap);
	s->verdict = v;
	return v;
}

struct rules {
	const struct item *disks, *wipe;
	int nd, nw;
	const char *disks_spec;   /* "" when fsmatrix.disks= was not given */
};

static enum verdict decide(const struct disk *d, const struct rules *r, struct selection *s)
{
	const struct item *by = named_by(r->disks, r->nd, d);
	const char *sig = d->signature, *where = d->sig_where[0] ? d->sig_where : "?";

	if (d->holds_results)
		return judge(s, VERDICT_RESULTS_DISK, "holds the results partition %s (label "
			     "FSMRESULTS)%s: never a test disk, whatever fsmatrix.disks= says",
			     d->results_dev, d->is_boot ? " and is the boot medium" : "");
	if (d->is_boot)
		return judge(s, VERDICT_BOOT_DISK, "the image booted from it: never a test disk, "
			     "whatever fsmatrix.disks= says");
	if (d->size == 0)
		return judge(s, VERDICT_UNUSABLE, "size 0 (no medium?): cannot be a test disk");
	if (d->readonly)
		return judge(s, VERDICT_UNUSABLE, "read-only (ro=1): cannot be a test disk");
	if (!r->disks_spec[0])
		return judge(s, VERDICT_NOT_NAMED, "fsmatrix.disks= is not set, so no disk is taken; "
			     "name test disks, e.g. fsmatrix.disks=%s", d->name);
	if (by) {
		if (!sig[0])
			return judge(s, VERDICT_TAKEN, "named by %s; no signature", by->text);
		const struct item *w = named_by(r->wipe, r->nw, d);
		if (w)
			return judge(s, VERDICT_TAKEN, "named by %s; carries %.20s (%.63s), to be wiped "
				     "as fsmatrix.wipe item %s allows", by->text, sig, where, w->text);
		return judge(s, VERDICT_HAS_SIGNATURE, "named by %s but carries %.20s (%.63s); to "
			     "destroy it add fsmatrix.wipe=%s", by->text, sig, where, d->name);
	}
	if (has_blank(r->disks, r->nd)) {
		/* blank is a wildcard over the whole machine: it takes only what is certainly
		 * unused, and fsmatrix.wipe= does not widen it. */
		if (d->removable)
			return judge(s, VERDICT_REMOVABLE, "removable: blank never takes removable disks; "
				     "name it (fsmatrix.disks=%s) to use it", d->name);
		if (sig[0])
			return judge(s, VERDICT_HAS_SIGNATURE, "carries %.20s (%.63s): blank takes only "
				     "disks with no signature", sig, where);
		return judge(s, VERDICT_TAKEN, "blank: no signature, not removable");
	}
	return judge(s, VERDICT_NOT_NAMED, "not named in fsmatrix.disks=%.100s", r->disks_spec);
}

int select_disks(const struct disk *d, int n, const char *disks_spec, const char *wipe_spec,
		 struct selection *out, char *err, size_t errlen)
{
	struct item disks[ITEMS_MAX], wipe[ITEMS_MAX];
	int nd = parse_spec("fsmatrix.disks", disks_spec, disks, err, errlen);
	if (nd < 0)
		return -1;
	int nw = parse_spec("fsmatrix.wipe", wipe_spec, wipe, err, errlen);
	if (nw < 0)
		return -1;
	for (int i = 0; i < nw; i++)
		if (wipe[i].form == F_BLANK) {
			snprintf(err, errlen, "fsmatrix.wipe: \"blank\" is not allowed there (blank "
				 "disks have nothing to wipe); name the disks to wipe");
			return -1;
		}

	struct rules r = { disks, wipe, nd, nw, disks_spec ? disks_spec : "" };
	int taken = 0;
	for (int i = 0; i < n; i++)
		taken += decide(&d[i], &r, &out[i]) == VERDICT_TAKEN;
	return taken;
}

int select_unmatched(const struct disk *d, int n, const char *spec, char *buf, size_t len)
{
	struct item items[ITEMS_MAX];
	char err[8];
	int ni = parse_spec("", spec, items, err, sizeof err), count = 0;

	buf[0] = '\0';
	for (int i = 0; i < ni; i++) {
		int hit = items[i].form == F_BLANK;
		for (int j = 0; j < n && !hit; j++)
			hit = names(&items[i], &d[j]);
		if (hit)
			continue;
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", count ? " " : "", items[i].text);
		count++;
	}
	return count;
}

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_TAKEN] = "taken",
		[VERDICT_NOT_NAMED] = "not-named",
		[VERDICT_HAS_SIGNATURE] = "has-signature",
		[VERDICT_RESULTS_DISK] = "results-disk",
		[VERDICT_BOOT_DISK] = "boot-disk",
		[VERDICT_REMOVABLE] = "removable",
		[VERDICT_UNUSABLE] = "unusable",
	};
	if ((unsigned)v < sizeof names / sizeof names[0] && names[v])
		return names[v];
	return "unknown";
}
