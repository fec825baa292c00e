/* core/figures/hang.c: the rules of a hung cell (core/figures/hang.h). Pure: text in, decisions out. */
#include "core/figures/hang.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PF_KTHREAD 0x00200000u

int hang_stat_parse(const char *text, char *comm, size_t len, int *ppid, int *kthread)
{
	/* "PID (COMM) S PPID PGRP SESSION TTY TPGID FLAGS ...": comm may hold ") ", so the
	 * last ')' ends it */
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	char st;
	int pp;
	unsigned long flags;
	if (!open || !close || close < open ||
	    sscanf(close + 1, " %c %d %*d %*d %*d %*d %lu", &st, &pp, &flags) != 3)
		return 0;
	size_t n = (size_t)(close - open - 1);
	if (len) {
		if (n >= len)
			n = len - 1;
		memcpy(comm, open + 1, n);
		comm[n] = '\0';
	}
	*ppid = pp;
	*kthread = (flags & PF_KTHREAD) != 0;
	return st;
}

/* The scheduler's own frames: where every sleeping task is, not why. */
static const char *const sched_frames[] = {
	"__switch_to", "__switch_to_asm", "__schedule", "schedule", "schedule_timeout",
	"io_schedule", "io_schedule_timeout", "schedule_preempt_disabled", "schedule_hrtimeout_range",
	"schedule_hrtimeout_range_clock", NULL,
};

static int is_sched_frame(const char *name)
{
	for (int i = 0; sched_frames[i]; i++)
		if (strcmp(sched_frames[i], name) == 0)
			return 1;
	return 0;
}

/* The function's name of one stack line, without "[<0>] " and "+0x12a/0x1a0 [module]". */
static int frame_name(const char *line, size_t n, char *name, size_t len)
{
	const char *end = line + n, *p = line;
	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return -1;
		p = q + 1;
	}
	while (p < end && *p == ' ')
		p++;
	size_t k = 0;
	while (p + k < end && p[k] != '+' && p[k] != ' ' && p[k] != '\t' && p[k] != '\r')
		k++;
	if (!k || k >= len)
		return -1;
	memcpy(name, p, k);
	name[k] = '\0';
	return 0;
}

int hang_top_frames(const char *stack, int max, char *out, size_t len)
{
	int n = 0, skipping = 1;
	size_t used = 0;
	if (len)
		out[0] = '\0';
	for (const char *s = stack; *s && n < max;) {
		size_t l = strcspn(s, "\n");
		char name[128];
		if (frame_name(s, l, name, sizeof name) == 0 && !(skipping && is_sched_frame(name))) {
			skipping = 0;
			int w = snprintf(out + used, len > used ? len - used : 0, "%s%s", n ? " <- " : "", name);
			if (w < 0 || used + (size_t)w >= len) {
				if (len)
					out[used] = '\0';   /* whole names only */
				break;
			}
			used += (size_t)w;
			n++;
		}
		s += l + (s[l] == '\n');
	}
	return n;
}

int hang_io_count(const char *stat, uint64_t *sum)
{
	/* reads, merged, sectors, ms, writes, merged, sectors, ms, in_flight, io_ticks,
	 * time_in_queue, discards, merged, sectors, ms, flushes, ms */
	static const int counted[] = { 0, 2, 4, 6, 11, 13, 15 };
	uint64_t f[17] = { 0 };
	int n = 0;
	const char *p = stat;
	char *end;
	while (n < 17) {
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p)
			break;
		f[n++] = v;
		p = end;
	}
	if (n < 11)
		return -1;
	*sum = 0;
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
		*sum += f[counted[i]];
	return 0;
}

void hang_watch_init(struct hang_watch *w, long long bound_ms)
{
	w->bound_ms = bound_ms;
	w->d_since_ms = -1;
	w->io_ms = -1;
	w->io = 0;
}

int hang_watch_sample(struct hang_watch *w, long long now_ms, int nd, uint64_t io,
		      long long *since_ms)
{
	if (w->io_ms < 0 || io != w->io) {
		w->io = io;
		w->io_ms = now_ms;
	}
	if (nd <= 0) {
		w->d_since_ms = -1;
		return 0;
	}
	if (w->d_since_ms < 0)
		w->d_since_ms = now_ms;
	long long since = w->d_since_ms > w->io_ms ? w->d_since_ms : w->io_ms;
	if (since_ms)
		*since_ms = since;
	return w->bound_ms > 0 && now_ms - since >= w->bound_ms;
}

int hang_bound_s(int asked, unsigned timeout_s)
{
	if (asked >= 0)
		return asked;
	int b = HANG_DEFAULT_S;
	if (timeout_s && (unsigned)b > timeout_s / 2)
		b = (int)(timeout_s / 2);
	return b < HANG_MIN_S ? HANG_MIN_S : b;
}

/* In order: the first that a line holds names its kind ("watchdog: BUG: soft lockup" is a
 * lockup before it is a BUG). */
static const struct { const char *text, *kind; } faults[] = {
	{ "soft lockup", "lockup" },
	{ "hard LOCKUP", "lockup" },
	{ "Kernel panic - not syncing", "panic" },
	{ "rcu_sched self-detected stall", "rcu-stall" },
	{ "rcu: INFO: rcu_", "rcu-stall" },
	{ "blocked for more than", "hung-task" },
	{ "kernel BUG at ", "bug" },
	{ "BUG: ", "bug" },
	{ "Oops: ", "oops" },
	{ "general protection fault", "oops" },
	{ "WARNING: CPU: ", "warning" },
	{ "WARNING: at ", "warning" },
};

const char *hang_fault_kind(const char *line)
{
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		if (strstr(line, faults[i].text))
			return faults[i].kind;
	return NULL;
}

void hang_taint_letters(unsigned long bits, char *out, size_t len)
{
	/* bit i's letter, kernel/panic.c's taint_flags[] */
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t n = 0;
	for (size_t i = 0; i < sizeof letters - 1 && n + 1 < len; i++)
		if (bits & (1ul << i))
			out[n++] = letters[i];
	if (len)
		out[n < len ? n : len - 1] = '\0';
}

int hang_array_given_up(const char *id, const char *const *hung, int n, char *why, size_t len)
{
	size_t v = strcspn(id, "/"), used;
	int k = 0;
	for (int i = 0; i < n; i++)
		k += strncmp(hung[i], id, v) == 0 && hung[i][v] == '/';
	if (k < HANG_ARRAY_MAX)
		return 0;
	used = (size_t)snprintf(why, len, "the array %.*s hung %d times in this run (", (int)v, id, k);
	for (int i = 0, j = 0; i < n && used < len; i++)
		if (strncmp(hung[i], id, v) == 0 && hung[i][v] == '/')
			used += (size_t)snprintf(why + used, len - used, "%s%s", j++ ? ", " : "", hung[i]);
	if (used < len)
		snprintf(why + used, len - used, "): its other cells are skipped");
	return 1;
}

int hang_clip(char *text, size_t max)
{
	size_t n = strlen(text);
	if (n <= max)
		return 0;
	char note[80];
	/* room for the note, then back to the end of the last whole line */
	size_t keep = max - 72;
	while (keep > 0 && text[keep - 1] != '\n')
		keep--;
	if (!keep)
		keep = max - 72;   /* one line longer than the bound: cut within it */
	snprintf(note, sizeof note, "[... %zu bytes cut: the record's bound is %zu]\n", n - keep, max);
	snprintf(text + keep, max + 1 - keep, "%s", note);
	return 1;
}
