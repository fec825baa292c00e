/* core/command/mountcheck.h: did the kernel apply the mount options a cell asked for? mount(2) succeeds
 * for options the kernel has removed (ext4 on 6.1: "Ignoring removed nobh option"), so a
 * cell can measure the defaults under another option's label. Two pure readings tell: the
 * kernel's log lines around the mount, and the /proc/mounts line after it. */
#ifndef FSM_MOUNTCHECK_H
#define FSM_MOUNTCHECK_H
#include <stddef.h>
#include "core/command/geometry.h"   /* struct warnings */

/* A /dev/kmsg record "prio,seq,usec,flags;text\n[ continuation lines]": the kernel's own
 * records only (facility 0; userspace may write to /dev/kmsg too). Copies the first line of
 * text into text and sets *level (0 emergency .. 7 debug). Returns 0, or -1 for a record that
 * is not the kernel's or not well formed. */
int kmsg_record_parse(const char *rec, int *level, char *text, size_t len);

/* A line a user must see beside the figures: a warning or worse, or wording that says an
 * option was ignored, removed or deprecated whatever its level. */
int kmsg_is_warning(int level, const char *text);

/* "EXT4-fs: Ignoring removed nobh option" names nobh: copied into opt, returns 1; else 0. */
int kmsg_ignored_option(const char *text, char *opt, size_t len);

/* The options in requested (a plan's mount string, comma-separated) that effective (a
 * /proc/mounts line: "dev dir type opts 0 0", or just the options) does not show, allowing for
 * the kernel's spelling: defaults it never shows (ext4's data=ordered, commit=5), its own
 * words for others (barrier=0 is nobarrier), its own spelling of a value (xfs' logbsize=262144
 * is logbsize=256k). fstype is the mounted type ("ext4", "xfs"). Appends each missing option
 * to out, comma-separated; returns how many. */
int mount_not_in_effect(const char *fstype, const char *requested, const char *effective,
			char *out, size_t len);

/* One kernel log line, parsed (kmsg_record_parse). */
struct kmsg_line {
	int level;
	char text[240];
};

/* What a mount's kernel lines and its /proc/mounts line say together: each warning line goes
 * into w as "kernel: TEXT", and into ignored (comma-separated, each once) each requested
 * option the kernel said it ignored or does not show. effective is "" when the mount failed:
 * then only the kernel's word counts. Returns how many options were ignored. */
int mount_check(const struct kmsg_line *lines, int n, const char *fstype,
		const char *requested, const char *effective, struct warnings *w,
		char *ignored, size_t len);

#endif
