/* test_hang: the rules of a hung cell (core/figures/hang.c) on kernel 6.1's own texts: /proc/PID/stat
 * lines, /proc/PID/stack of a task stuck in jbd2 and one in md, /sys/block/X/stat lines, the
 * stuck decision over synthetic samples (stuck found, none invented while I/O moves or no
 * task waits), the log lines that are faults, and the evidence cut to its bound. */
#include "check.h"
#include "core/figures/hang.h"
#include <stdlib.h>

static void test_stat(void)
{
	static const struct {
		const char *line;
		int state, ppid, kthread;
		const char *comm;
	} rows[] = {
		{ "812 (jbd2/md0-8) D 2 0 0 0 -1 2129984 0 0 0 0 0 5 0 0 20 0 1 0 3630 0 0", 'D', 2, 1,
		  "jbd2/md0-8" },
		{ "901 (fsm (x) y) D 1 901 1 0 -1 4194560 120 0 0 0 3 40 0 0 20 0 1 0 9000", 'D', 1, 0,
		  "fsm (x) y" },
		{ "1 (init) S 0 1 1 0 -1 4194560 300 0 0 0 10 20 0 0 20 0 1 0 1", 'S', 0, 0, "init" },
		{ "garbage", 0, 0, 0, "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char comm[64] = "";
		int ppid = -1, kt = -1;
		int st = hang_stat_parse(rows[i].line, comm, sizeof comm, &ppid, &kt);
		CHECK_INT(st, rows[i].state);
		if (!st)
			continue;
		CHECK_STR(comm, rows[i].comm);
		CHECK_INT(ppid, rows[i].ppid);
		CHECK_INT(kt, rows[i].kthread);
	}
}

static void test_frames(void)
{
	const char *jbd2 =
		"[<0>] __schedule+0x34d/0x9e0\n"
		"[<0>] schedule+0x5a/0xd0\n"
		"[<0>] io_schedule+0x42/0x70\n"
		"[<0>] bit_wait_io+0xd/0x60\n"
		"[<0>] __wait_on_bit+0x42/0x110\n"
		"[<0>] out_of_line_wait_on_bit+0x8c/0xb0\n"
		"[<0>] jbd2_journal_commit_transaction+0x16b2/0x1a70 [jbd2]\n"
		"[<0>] kjournald2+0xa9/0x280 [jbd2]\n"
		"[<0>] kthread+0xda/0x100\n"
		"[<0>] ret_from_fork+0x22/0x30\n";
	char out[512];
	CHECK_INT(hang_top_frames(jbd2, 3, out, sizeof out), 3);
	CHECK_STR(out, "bit_wait_io <- __wait_on_bit <- out_of_line_wait_on_bit");
	CHECK_INT(hang_top_frames(jbd2, 20, out, sizeof out), 7);
	CHECK(strstr(out, "jbd2_journal_commit_transaction <- kjournald2") != NULL, "%s", out);
	const char *md = "[<0>] __schedule+0x34d/0x9e0\n[<0>] schedule+0x5a/0xd0\n"
			 "[<0>] md_write_start+0x16a/0x2a0 [md_mod]\n"
			 "[<0>] raid5_make_request+0x8a/0x1150 [raid456]\n";
	CHECK_INT(hang_top_frames(md, 4, out, sizeof out), 2);
	CHECK_STR(out, "md_write_start <- raid5_make_request");
	CHECK_INT(hang_top_frames("", 4, out, sizeof out), 0);
	CHECK_STR(out, "");
	/* a buffer too small keeps whole names only */
	char small[24];
	CHECK_INT(hang_top_frames(md, 4, small, sizeof small), 1);
	CHECK_STR(small, "md_write_start");
}

static void test_io(void)
{
	uint64_t s = 0;
	/* 6.1's 17 fields: in_flight (9th), io_ticks and time_in_queue do not count */
	CHECK_INT(hang_io_count("     120       0     9344      52      300      10   81920    4000        2     3000     4052       1       0       8       0       5       1", &s), 0);
	CHECK_INT(s, 120 + 9344 + 300 + 81920 + 1 + 8 + 5);
	uint64_t t = 0;
	CHECK_INT(hang_io_count("     120       0     9344      52      300      10   81920    4000        3     9999     9999       1       0       8       0       5       1", &t), 0);
	CHECK_INT(t, s);   /* a request waiting longer is no progress */
	CHECK_INT(hang_io_count("4.19 old 11", &s), -1);
}

static void test_watch(void)
{
	static const struct {
		const char *what;
		int n, nd[8];
		uint64_t io[8];
		int stuck_at;          /* the sample (0-based) it declares at, -1: never */
		long long since;
	} rows[] = {
		{ "D and no I/O for the bound", 6, { 1, 1, 1, 1, 1, 1 }, { 5, 5, 5, 5, 5, 5 }, 3, 0 },
		{ "I/O moving: never", 6, { 1, 1, 1, 1, 1, 1 }, { 1, 2, 3, 4, 5, 6 }, -1, 0 },
		{ "no task in D: never", 6, { 0, 0, 0, 0, 0, 0 }, { 5, 5, 5, 5, 5, 5 }, -1, 0 },
		{ "D ends and starts again: counted anew", 8, { 1, 1, 0, 1, 1, 1, 1, 1 },
		  { 5, 5, 5, 5, 5, 5, 5, 5 }, 6, 30 },
		{ "I/O stops later: from then", 8, { 1, 1, 1, 1, 1, 1, 1, 1 },
		  { 1, 2, 3, 3, 3, 3, 3, 3 }, 5, 20 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct hang_watch w;
		hang_watch_init(&w, 30);
		int at = -1;
		long long since = -1;
		for (int k = 0; k < rows[i].n && at < 0; k++)
			if (hang_watch_sample(&w, k * 10, rows[i].nd[k], rows[i].io[k], &since))
				at = k;
		CHECK(at == rows[i].stuck_at, "%s: declared at sample %d, want %d", rows[i].what, at,
		      rows[i].stuck_at);
		if (at >= 0)
			CHECK(since == rows[i].since, "%s: since %lld, want %lld", rows[i].what, since,
			      rows[i].since);
	}
	struct hang_watch off;
	hang_watch_init(&off, 0);
	CHECK_INT(hang_watch_sample(&off, 0, 1, 1, NULL) + hang_watch_sample(&off, 100000, 1, 1, NULL), 0);
}

static void test_bound(void)
{
	CHECK_INT(hang_bound_s(-1, 600), 120);
	CHECK_INT(hang_bound_s(-1, 0), 120);
	CHECK_INT(hang_bound_s(-1, 60), 30);
	CHECK_INT(hang_bound_s(-1, 4), HANG_MIN_S);
	CHECK_INT(hang_bound_s(0, 600), 0);
	CHECK_INT(hang_bound_s(15, 600), 15);
}

static void test_faults(void)
{
	static const struct { const char *line, *kind; } rows[] = {
		{ "BUG: kernel NULL pointer dereference, address: 0000000000000008", "bug" },
		{ "kernel BUG at fs/jbd2/transaction.c:1527!", "bug" },
		{ "Oops: 0000 [#1] PREEMPT SMP NOPTI", "oops" },
		{ "WARNING: CPU: 0 PID: 812 at fs/ext4/inode.c:3871 ext4_set_page_dirty+0x3d/0x50 [ext4]", "warning" },
		{ "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [kworker/u2:0:55]", "lockup" },
		{ "INFO: task jbd2/md0-8:812 blocked for more than 120 seconds.", "hung-task" },
		{ "Kernel panic - not syncing: Fatal exception", "panic" },
		{ "rcu: INFO: rcu_preempt self-detected stall on CPU", "rcu-stall" },
		{ "EXT4-fs (md0): mounted filesystem with writeback data mode", NULL },
		{ "md/raid:md0: device vdb operational as raid disk 0", NULL },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *k = hang_fault_kind(rows[i].line);
		CHECK(rows[i].kind ? k && strcmp(k, rows[i].kind) == 0 : k == NULL, "%s: got %s",
		      rows[i].line, k ? k : "(none)");
	}
}

static void test_taint(void)
{
	char t[32];
	hang_taint_letters(0, t, sizeof t);
	CHECK_STR(t, "");
	hang_taint_letters(1ul << 13, t, sizeof t);     /* unsigned modules: the image's own */
	CHECK_STR(t, "E");
	hang_taint_letters((1ul << 7) | (1ul << 9) | (1ul << 14), t, sizeof t);
	CHECK_STR(t, "DWL");
}

static void test_given_up(void)
{
	const char *hung[] = { "r5-c64k/ext4/defaults/tree", "r1+luks/ext4/defaults/w",
			       "r5-c64k/ext4/noatime/tree", "r5-c64/xfs/defaults/tree" };
	char why[300] = "";
	/* one hang of r1+luks: its cells run on (the next repetition is the retry) */
	CHECK_INT(hang_array_given_up("r1+luks/ext4/defaults/w", hung, 4, why, sizeof why), 0);
	/* two hangs on r5-c64k: its other cells are skipped; r5-c64 is another array */
	CHECK_INT(hang_array_given_up("r5-c64k/xfs/defaults/seq", hung, 4, why, sizeof why), 1);
	CHECK_STR(why, "the array r5-c64k hung 2 times in this run (r5-c64k/ext4/defaults/tree, "
		  "r5-c64k/ext4/noatime/tree): its other cells are skipped");
	CHECK_INT(hang_array_given_up("r5-c64/xfs/defaults/seq", hung, 4, why, sizeof why), 0);
	CHECK_INT(hang_array_given_up("r5-c64k/xfs/defaults/seq", hung, 0, why, sizeof why), 0);
}

static void test_clip(void)
{
	char t[4096];
	snprintf(t, sizeof t, "short\n");
	CHECK_INT(hang_clip(t, 200), 0);
	CHECK_STR(t, "short\n");
	size_t n = 0;
	for (int i = 0; n + 20 < sizeof t - 1; i++)
		n += (size_t)snprintf(t + n, sizeof t - n, "line %04d of stack\n", i);
	CHECK_INT(hang_clip(t, 500), 1);
	CHECK(strlen(t) <= 500, "clipped to %zu", strlen(t));
	CHECK(strstr(t, "bytes cut") != NULL, "%s", t);
	CHECK(strncmp(t, "line 0000", 9) == 0, "the start is kept: %.20s", t);
	/* each kept line is whole */
	const char *note = strstr(t, "[...");
	CHECK(note && note[-1] == '\n', "the cut is at a line's end");
	memset(t, 'x', 3000);
	t[3000] = '\0';
	CHECK_INT(hang_clip(t, 300), 1);
	CHECK(strlen(t) <= 300, "one long line clipped to %zu", strlen(t));
}

int main(void)
{
	test_stat();
	test_frames();
	test_io();
	test_watch();
	test_bound();
	test_faults();
	test_taint();
	test_given_up();
	test_clip();
	return check_done("test_hang");
}
