/* core/command/mountcheck.c: the kernel's word on a mount, and the options /proc/mounts shows. */
#include "core/command/mountcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int kmsg_record_parse(const char *rec, int *level, char *text, size_t len)
{
	char *end;
	long prio = strtol(rec, &end, 10);
	const char *semi = strchr(rec, ';');
	if (end == rec || *end != ',' || !semi || prio < 0)
		return -1;
	if (prio >> 3 != 0)   /* facility: 0 is the kernel */
		return -1;
	*level = (int)(prio & 7);
	size_t n = strcspn(semi + 1, "\n");
	snprintf(text, len, "%.*s", (int)n, semi + 1);
	return 0;
}

/* What filesystems print when they drop or frown on an option, at any level. */
static const char *const warning_words[] = {
	"Ignoring", "ignoring", "Warning", "warning", "deprecated", "Deprecated",
	"Unrecognized", "unknown", "removed", "not supported",
};

int kmsg_is_warning(int level, const char *text)
{
	if (level <= 4)   /* KERN_WARNING and worse */
		return 1;
	for (size_t i = 0; i < sizeof warning_words / sizeof warning_words[0]; i++)
		if (strstr(text, warning_words[i]))
			return 1;
	return 0;
}

int kmsg_ignored_option(const char *text, char *opt, size_t len)
{
	/* ext4: ext4_msg(NULL, KERN_WARNING, "Ignoring removed %s option", ...) */
	static const char pre[] = "Ignoring removed ", post[] = " option";
	const char *p = strstr(text, pre);
	if (!p)
		return 0;
	p += sizeof pre - 1;
	const char *e = strstr(p, post);
	if (!e || e == p || (size_t)(e - p) >= len)
		return 0;
	snprintf(opt, len, "%.*s", (int)(e - p), p);
	return 1;
}

/* How the kernel shows an option that is in effect: shown is the token /proc/mounts then
 * carries, or "" for a default it never shows. Such a default is in effect only if none of
 * its opposites is shown (delalloc with nodelalloc after it: the later wins), nor, for a
 * key=value, the same key with another value (data=ordered against data=writeback). fs
 * "ext" covers ext2, ext3 and ext4 (one driver); "" any filesystem (the VFS flags). Anything
 * not listed is in effect when the same word, or the same key= with the kernel's spelling of
 * the value, is shown. */
static const struct spelling {
	const char *fs, *option, *shown, *opposite;   /* opposite: '|'-separated, or NULL */
} spellings[] = {
	{ "", "defaults", "", NULL },           { "", "async", "", "sync" },
	{ "", "suid", "", "nosuid" },           { "", "dev", "", "nodev" },
	{ "", "exec", "", "noexec" },           { "", "atime", "", "noatime" },
	{ "", "diratime", "", "nodiratime|noatime" },
	{ "", "norelatime", "", "relatime" },   { "", "strictatime", "", "relatime|noatime" },
	{ "", "nolazytime", "", "lazytime" },   { "", "nomand", "", "mand" },
	{ "", "silent", "", NULL },             { "", "loud", "", NULL },
	{ "ext", "data=ordered", "", NULL },    { "ext", "barrier", "", "nobarrier" },
	{ "ext", "barrier=1", "", "nobarrier" }, { "ext", "barrier=0", "nobarrier", NULL },
	{ "ext", "commit=5", "", NULL },        { "ext", "delalloc", "", "nodelalloc" },
	{ "ext", "auto_da_alloc", "", "noauto_da_alloc" },
	{ "ext", "user_xattr", "", "nouser_xattr" }, { "ext", "acl", "", "noacl" },
	{ "ext", "errors=continue", "", NULL }, { "ext", "journal_ioprio=3", "", NULL },
	{ "ext", "inode_readahead_blks=32", "", NULL },
	{ "ext", "max_batch_time=15000", "", NULL }, { "ext", "min_batch_time=0", "", NULL },
	{ "ext", "dioread_nolock", "", "dioread_lock|nodioread_nolock" },
	{ "ext", "block_validity", "", "noblock_validity" },
	{ "ext", "nodiscard", "", "discard" },  { "ext", "init_itable", "", "noinit_itable" },
	{ "xfs", "barrier", "", "nobarrier" },  { "xfs", "noikeep", "", "ikeep" },
	/* btrfs (fs/btrfs/super.c, btrfs_show_options) shows what differs from its defaults */
	{ "btrfs", "commit=30", "", NULL },     { "btrfs", "barrier", "", "nobarrier" },
	{ "btrfs", "datacow", "", "nodatacow" }, { "btrfs", "datasum", "", "nodatasum|nodatacow" },
	{ "btrfs", "noautodefrag", "", "autodefrag" }, { "btrfs", "nossd", "nossd", NULL },
	{ "btrfs", "compress=zstd", "compress=zstd:3", NULL },
	{ "btrfs", "nodiscard", "", "discard|discard=sync|discard=async" },
	{ "btrfs", "noflushoncommit", "", "flushoncommit" },
};

static int fs_matches(const char *row, const char *fstype)
{
	if (!row[0])
		return 1;
	if (strcmp(row, "ext") == 0)
		return strcmp(fstype, "ext2") == 0 || strcmp(fstype, "ext3") == 0 ||
		       strcmp(fstype, "ext4") == 0;
	return strcmp(row, fstype) == 0;
}

/* A value as a number of units: "262144", "256k" and "256K" are one size. -1 if not one. */
static double size_value(const char *v, size_t n)
{
	char buf[64], *end;
	if (n == 0 || n >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%.*s", (int)n, v);
	double x = strtod(buf, &end);
	static const char units[] = "kmgt";
	const char *u = *end ? strchr(units, *end | 0x20) : NULL;
	if (end == buf || (*end && (!u || end[1])))
		return -1;
	for (; u && u >= units; u--)
		x *= 1024;
	return x;
}

/* Is item one of the comma-separated options in opts: the same word, or for key=value the
 * same key with the same value in the kernel's spelling of a size? */
static int shows(const char *opts, const char *item)
{
	const char *eq = strchr(item, '=');
	size_t klen = eq ? (size_t)(eq - item) : strlen(item);
	const char *p = opts;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len == strlen(item) && strncmp(p, item, len) == 0)
			return 1;
		if (eq && len > klen && strncmp(p, item, klen + 1) == 0) {
			double want = size_value(eq + 1, strlen(eq + 1));
			if (want >= 0 && want == size_value(p + klen + 1, len - klen - 1))
				return 1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* A default the kernel never shows is overruled when opts show one of its opposites
 * ('|'-separated), or for key=value the same key with another value. */
static int opposed(const char *opts, const char *item, const char *opposite)
{
	for (const char *o = opposite; o && *o;) {
		char tok[64];
		size_t n = strcspn(o, "|");
		snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), o);
		if (shows(opts, tok))
			return 1;
		o += n + (o[n] == '|');
	}
	const char *eq = strchr(item, '=');
	if (!eq)
		return 0;
	size_t klen = (size_t)(eq - item) + 1;
	for (const char *p = opts; *p;) {
		size_t len = strcspn(p, ",");
		if (len > klen && strncmp(p, item, klen) == 0) {
			const char *v = p + klen, *want = eq + 1;
			size_t vn = len - klen;
			double a = size_value(want, strlen(want)), b = size_value(v, vn);
			if (!(vn == strlen(want) && strncmp(v, want, vn) == 0) && !(a >= 0 && a == b))
				return 1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

static const char *options_of(const char *effective, char *buf, size_t len)
{
	/* "dev dir type opts freq passno": the fourth field; a bare option list is taken whole */
	char f[4][512];
	if (sscanf(effective, "%511s %511s %511s %511s", f[0], f[1], f[2], f[3]) == 4) {
		snprintf(buf, len, "%s", f[3]);
		return buf;
	}
	return effective;
}

int mount_not_in_effect(const char *fstype, const char *requested, const char *effective,
			char *out, size_t len)
{
	char optbuf[512];
	const char *opts = options_of(effective, optbuf, sizeof optbuf);
	int missing = 0;
	size_t used = strlen(out);
	const char *p = requested;
	while (*p) {
		char item[256];
		size_t n = strcspn(p, ",");
		snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
		p += n + (p[n] == ',');
		if (!item[0])
			continue;
		const struct spelling *sp = NULL;
		for (size_t i = 0; i < sizeof spellings / sizeof spellings[0] && !sp; i++)
			if (fs_matches(spellings[i].fs, fstype) && strcmp(spellings[i].option, item) == 0)
				sp = &spellings[i];
		if (sp ? (sp->shown[0] ? shows(opts, sp->shown) : !opposed(opts, item, sp->opposite))
		       : shows(opts, item))
			continue;
		missing++;
		int w = snprintf(out + used, len > used ? len - used : 0, "%s%s", used ? "," : "", item);
		if (w > 0 && used + (size_t)w < len)
			used += (size_t)w;
	}
	return missing;
}

/* Appends the comma-separated items of add that ignored does not hold yet. */
static int add_unique(char *ignored, size_t len, const char *add)
{
	int added = 0;
	while (*add) {
		size_t n = strcspn(add, ",");
		char item[128];
		snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), add);
		add += n + (add[n] == ',');
		if (!item[0] || shows(ignored, item))
			continue;
		size_t used = strlen(ignored);
		snprintf(ignored + used, len - used, "%s%s", used ? "," : "", item);
		added++;
	}
	return added;
}

int mount_check(const struct kmsg_line *lines, int n, const char *fstype,
		const char *requested, const char *effective, struct warnings *w,
		char *ignored, size_t len)
{
	int count = 0;
	ignored[0] = '\0';
	for (int i = 0; i < n; i++) {
		char opt[128];
		if (kmsg_is_warning(lines[i].level, lines[i].text))
			warn_add(w, "kernel: %s", lines[i].text);
		if (kmsg_ignored_option(lines[i].text, opt, sizeof opt))
			count += add_unique(ignored, len, opt);
	}
	if (effective && effective[0]) {
		char absent[512] = "";
		mount_not_in_effect(fstype, requested, effective, absent, sizeof absent);
		count += add_unique(ignored, len, absent);
	}
	return count;
}
