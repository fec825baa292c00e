/* core/boot/bootmenu.c: the stick's boot menu while a run is unfinished (bootmenu.h). */
#include "core/boot/bootmenu.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* What bootmenu_resume writes, so that bootmenu_restore finds it again: the marked lines
 * are its own, a "#fsmatrix-was " line is one of the menu's it set aside. */
#define MARK "# fsmatrix-resume:"
#define WAS "#fsmatrix-was "
#define GRUB_DEFAULT "set default="
#define GIVE_UP "is unfinished: a reboot resumes it. /init puts the menu back when the run " \
	"ends; to give the run up, delete the lines marked fsmatrix-resume and take the # off " \
	"the #fsmatrix-was ones.\n"

struct out {
	char *p;
	size_t len, used;
	int full;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->p + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used)
		o->full = 1;
	else
		o->used += (size_t)n;
}

/* A syslinux keyword at the start of line (any case, then a blank). */
static int keyword(const char *line, size_t n, const char *kw)
{
	size_t k = strlen(kw);
	while (n && (*line == ' ' || *line == '\t'))
		line++, n--;
	return n > k && strncasecmp(line, kw, k) == 0 && (line[k] == ' ' || line[k] == '\t');
}

int bootmenu_restore(const char *cfg, char *out, size_t len)
{
	struct out o = { out, len, 0, 0 };
	int found = 0, in_label = 0;
	out[0] = '\0';
	for (const char *s = cfg; *s;) {
		size_t n = strcspn(s, "\n");
		int nl = s[n] == '\n';
		if (strncmp(s, MARK, strlen(MARK)) == 0) {
			found = 1;
			/* "# fsmatrix-resume: end" closes the entry; the others are single lines */
			in_label = 0;
		} else if ((keyword(s, n, "LABEL") || keyword(s, n, "menuentry")) &&
			   memmem(s, n, BOOTMENU_LABEL, strlen(BOOTMENU_LABEL))) {
			found = in_label = 1;
		} else if (!in_label && (keyword(s, n, "DEFAULT") || keyword(s, n, "ONTIMEOUT") ||
					 strncmp(s, GRUB_DEFAULT, strlen(GRUB_DEFAULT)) == 0) &&
			   memmem(s, n, BOOTMENU_LABEL, strlen(BOOTMENU_LABEL))) {
			found = 1;
		} else if (strncmp(s, WAS, strlen(WAS)) == 0) {
			put(&o, "%.*s%s", (int)(n - strlen(WAS)), s + strlen(WAS), nl ? "\n" : "");
		} else if (!in_label) {
			put(&o, "%.*s%s", (int)n, s, nl ? "\n" : "");
		}
		s += n + nl;
	}
	return o.full ? -1 : found;
}

/* The value of word key= in cmdline, into v. */
static int param(const char *cmdline, const char *key, char *v, size_t len)
{
	size_t k = strlen(key);
	for (const char *s = cmdline; *s;) {
		s += strspn(s, " \t\n");
		size_t n = strcspn(s, " \t\n");
		if (n > k && strncmp(s, key, k) == 0) {
			snprintf(v, len, "%.*s", (int)(n - k), s + k);
			return 0;
		}
		s += n;
	}
	return -1;
}

/* The command line as booted, less what a boot loader adds itself, each word after a blank. */
static void own_params(struct out *o, const char *cmdline)
{
	for (const char *s = cmdline; *s;) {
		s += strspn(s, " \t\n");
		size_t n = strcspn(s, " \t\n");
		if (n && strncmp(s, "BOOT_IMAGE=", 11) != 0 && strncmp(s, "initrd=", 7) != 0)
			put(o, " %.*s", (int)n, s);
		s += n;
	}
}

/* The words a menu's default line starts with, as its new line writes them before the resume
 * entry's label; NULL for another line. syslinux: DEFAULT and ONTIMEOUT; GRUB: set default=. */
typedef const char *(*default_line_fn)(const char *s, size_t n);

static const char *syslinux_default(const char *s, size_t n)
{
	return keyword(s, n, "DEFAULT") ? "DEFAULT " : keyword(s, n, "ONTIMEOUT") ? "ONTIMEOUT " : NULL;
}

static const char *grub_default(const char *s, size_t n)
{
	(void)n;
	return strncmp(s, GRUB_DEFAULT, strlen(GRUB_DEFAULT)) == 0 ? GRUB_DEFAULT : NULL;
}

/* The menu base with each default line pointed at the resume entry, the line itself kept as a
 * WAS comment that bootmenu_restore puts back, the run's mark before the first, and the
 * heading of the entry to come. Returns how many default lines it pointed. */
static int point_defaults(struct out *o, const char *base, const char *run_id,
			  default_line_fn is_default)
{
	int defaults = 0;
	for (const char *s = base; *s;) {
		size_t n = strcspn(s, "\n");
		int nl = s[n] == '\n';
		const char *kw = is_default(s, n);
		if (kw) {
			if (!defaults++)
				put(o, MARK " run %s " GIVE_UP, run_id);
			put(o, "%s" BOOTMENU_LABEL "\n" WAS "%.*s\n", kw, (int)n, s);
		} else {
			put(o, "%.*s%s", (int)n, s, nl ? "\n" : "");
		}
		s += n + nl;
	}
	if (o->used && o->p[o->used - 1] != '\n')
		put(o, "\n");
	put(o, MARK " the entry a reboot boots while the run is unfinished\n");
	return defaults;
}

int bootmenu_resume(const char *cfg, const char *cmdline, const char *run_id, char *out,
		    size_t len, char *why, size_t wlen)
{
	char kernel[256], initrd[256], base[16384];
	if (param(cmdline, "BOOT_IMAGE=", kernel, sizeof kernel) < 0 ||
	    param(cmdline, "initrd=", initrd, sizeof initrd) < 0) {
		snprintf(why, wlen, "the command line names no BOOT_IMAGE= and initrd=: not booted "
			 "by syslinux");
		return -1;
	}
	if (bootmenu_restore(cfg, base, sizeof base) < 0) {
		snprintf(why, wlen, "the boot menu is larger than %zu bytes", sizeof base);
		return -1;
	}
	struct out o = { out, len, 0, 0 };
	out[0] = '\0';
	if (point_defaults(&o, base, run_id, syslinux_default) == 0) {
		snprintf(why, wlen, "the boot menu has no DEFAULT line");
		return -1;
	}
	put(&o, "LABEL " BOOTMENU_LABEL "\n  KERNEL %s\n  INITRD %s\n  APPEND", kernel, initrd);
	own_params(&o, cmdline);
	put(&o, "\n" MARK " end\n");
	if (o.full) {
		snprintf(why, wlen, "the boot menu with its resume entry is larger than %zu bytes", len);
		return -1;
	}
	return 0;
}

/* The first "initrd PATH" line of a GRUB menu: the image its entries load. */
static int grub_initrd(const char *cfg, char *v, size_t len)
{
	for (const char *s = cfg; *s;) {
		size_t n = strcspn(s, "\n");
		if (keyword(s, n, "initrd")) {
			const char *p = s + strspn(s, " \t") + 6;
			p += strspn(p, " \t");
			snprintf(v, len, "%.*s", (int)strcspn(p, " \t\n"), p);
			return *v ? 0 : -1;
		}
		s += n + (s[n] == '\n');
	}
	return -1;
}

int bootmenu_resume_grub(const char *cfg, const char *cmdline, const char *run_id, char *out,
			 size_t len, char *why, size_t wlen)
{
	char kernel[256], initrd[256], base[16384];
	if (param(cmdline, "BOOT_IMAGE=", kernel, sizeof kernel) < 0) {
		snprintf(why, wlen, "the command line names no BOOT_IMAGE=: not booted by GRUB");
		return -1;
	}
	if (bootmenu_restore(cfg, base, sizeof base) < 0) {
		snprintf(why, wlen, "the boot menu is larger than %zu bytes", sizeof base);
		return -1;
	}
	if (grub_initrd(base, initrd, sizeof initrd) < 0) {
		snprintf(why, wlen, "the boot menu has no initrd line");
		return -1;
	}
	struct out o = { out, len, 0, 0 };
	out[0] = '\0';
	if (point_defaults(&o, base, run_id, grub_default) == 0) {
		snprintf(why, wlen, "the boot menu has no \"set default=\" line");
		return -1;
	}
	put(&o, "menuentry 'fsmatrix: resume run %s' --id " BOOTMENU_LABEL " {\n\tlinux %s", run_id,
	    kernel);
	own_params(&o, cmdline);
	put(&o, "\n\tinitrd %s\n}\n" MARK " end\n", initrd);
	if (o.full) {
		snprintf(why, wlen, "the boot menu with its resume entry is larger than %zu bytes", len);
		return -1;
	}
	return 0;
}
