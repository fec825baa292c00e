/* core/figures/hang.h: the rules of a hung cell, pure: a task's state from /proc/PID/stat, a kernel
 * stack's top frames, the I/O counters that show progress, the stuck decision from samples
 * over time, the kernel log lines that are faults (oops, BUG, WARN), and the evidence cut to
 * a bound. cell/hang.c reads the machine and does what these decide. */
#ifndef FSM_HANG_H
#define FSM_HANG_H
#include <stddef.h>
#include <stdint.h>

#define HANG_DEFAULT_S 120     /* fsmatrix.hang=auto: at most this long stuck... */
#define HANG_MIN_S 5           /* ...and at least this, whatever the cell's timeout */
#define HANG_REBOOT_S 60       /* from the evidence written to the watchdog's reboot */

/* /proc/PID/stat: its state letter ('R', 'S', 'D', ...), comm (the name between the
 * parentheses, which may hold spaces and parentheses), parent and whether it is a kernel
 * thread (flags & PF_KTHREAD). Returns the state, or 0 when the text is not a stat line. */
int hang_stat_parse(const char *text, char *comm, size_t len, int *ppid, int *kthread);

/* /proc/PID/stack ("[<0>] jbd2_journal_commit_transaction+0x12a/0x1a0 [jbd2]" a line): up to
 * max frame names, the scheduler's own frames above the first one that says why the task
 * waits left out (schedule, io_schedule, ...), as "a <- b <- c" into out. Returns how many
 * frames it wrote (0: none, out ""). */
int hang_top_frames(const char *stack, int max, char *out, size_t len);

/* A /sys/block/X/stat line's completions and sectors (reads, writes, discards, flushes):
 * what rises when I/O completes, and only then (not io_ticks, which rise while a request
 * waits in flight). Returns 0, or -1 when the line is not one. */
int hang_io_count(const char *stat, uint64_t *sum);

/* The stuck decision, over samples of the cell's tasks and its devices' counters. */
struct hang_watch {
	long long bound_ms;
	long long d_since_ms;      /* since when some task of the cell has been in D state; -1 */
	long long io_ms;           /* when the counters last moved; -1 before the first sample */
	uint64_t io;               /* their sum at io_ms */
};
void hang_watch_init(struct hang_watch *w, long long bound_ms);
/* One sample at now_ms: nd tasks of the cell in D state, io the counters' sum. Returns 1 when
 * the cell is stuck: some task has been in D state, and the counters have not moved, for
 * bound_ms; *since_ms then says since when. */
int hang_watch_sample(struct hang_watch *w, long long now_ms, int nd, uint64_t io,
		      long long *since_ms);

/* fsmatrix.hang=auto (-1) or SECONDS, 0 off: the bound in seconds for a cell timeout of
 * timeout_s (0: none): auto is HANG_DEFAULT_S, at most half the timeout, at least
 * HANG_MIN_S. */
int hang_bound_s(int asked, unsigned timeout_s);

/* A kernel log line that says the kernel went wrong: its kind ("oops", "bug", "warning",
 * "panic", "hung-task", "lockup", "rcu-stall"), else NULL. */
const char *hang_fault_kind(const char *line);

/* The kernel's taint letters (/proc/sys/kernel/tainted's bits, as its Oops lines spell
 * them: W a warning, D an oops, L a soft lockup, ...) of bits, into out ("" for none). */
void hang_taint_letters(unsigned long bits, char *out, size_t len);

/* A configuration that hung runs again at most once (its next repetition): after
 * HANG_ARRAY_MAX hangs on one array variant, the variant's remaining cells are skipped. */
#define HANG_ARRAY_MAX 2
/* Whether cell id's array variant (the id up to its first '/': "r5-c64k", "r1+luks") hung
 * HANG_ARRAY_MAX times or more among hung[] (the ids of the run's hung cells, n of them):
 * 1 with the reason in why, else 0. */
int hang_array_given_up(const char *id, const char *const *hung, int n, char *why, size_t len);

/* Cuts text to at most max bytes (max > 80) at a line's end, with a last line saying how
 * much was cut. Returns 1 when it cut. */
int hang_clip(char *text, size_t max);

#endif
