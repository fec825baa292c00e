/* pid1/console.c: the console and the results files. Human lines and framed records go to
 * stdout (the console); the same text goes to <run>.console.log and each record's JSON to
 * <run>.jsonl. Before the results partition is mounted the text is kept in memory. During
 * the boot the files are written without fsync; once the matrix is about to start, every
 * record is fsynced as it is written (console_sync_each). When a results file fails (a full
 * or read-only partition), the console says so once and both files are dropped: the console
 * keeps carrying everything. */
#include "pid1/pid1.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

#define EARLY_MAX (4 << 20)

struct early {
	char *buf;
	size_t len, cap;
};

static const char *const types[] = { "header", "event", "cell", "series", "summary", "trailer" };

/* The console's state, in one place: the results files and what was said before they were
 * open, whether each record is fsynced, and the records by type for the trailer. Every step
 * of the boot (and the stop hook) writes through it. */
static struct console {
	struct early early_log, early_jsonl;
	int log_fd, jsonl_fd;
	/* off during the boot: a FAT fsync is a device flush, a dozen of which (two files, a
	 * record each) cost the boot tens of ms where the host's disk is slow to flush; no test
	 * disk has been touched then, and the first record fsynced later takes the boot's along
	 * with it */
	int sync_each;
	char log_path[256], jsonl_path[256];
	int type_counts[sizeof types / sizeof types[0]];
} console = { .log_fd = -1, .jsonl_fd = -1 };

static void keep(struct early *e, const char *s, size_t n)
{
	if (e->len + n > EARLY_MAX)
		return;
	if (e->len + n > e->cap) {
		size_t cap = e->cap ? e->cap : 65536;
		while (cap < e->len + n)
			cap *= 2;
		char *nb = realloc(e->buf, cap);
		if (!nb)
			return;
		e->buf = nb;
		e->cap = cap;
	}
	memcpy(e->buf + e->len, s, n);
	e->len += n;
}

/* The first failure of either file ends both: a full or read-only partition fails them
 * alike, and the console says so once, then alone carries the run. */
static void file_failed(const char *path)
{
	int e = errno;
	static int said;
	if (console.jsonl_fd >= 0)
		close(console.jsonl_fd);
	if (console.log_fd >= 0)
		close(console.log_fd);
	console.jsonl_fd = console.log_fd = -1;
	if (said++)
		return;
	printf("fsmatrix: unable to write %s: %s (records continue on the console only)\n", path,
	       strerror(e));
	fflush(stdout);
}

/* Text the console showed: to stdout, and to the console log or its memory. */
static void shown(const char *s, size_t n, int sync_now)
{
	fwrite(s, 1, n, stdout);
	fflush(stdout);
	if (console.log_fd >= 0) {
		if (write_all(console.log_fd, s, n) < 0 ||
		    (sync_now && console.sync_each && fsync(console.log_fd) < 0))
			file_failed(console.log_path);
	} else if (!console.log_path[0]) {
		keep(&console.early_log, s, n);
	}
}

void say(const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	shown(line, (size_t)n, 0);
}

/* An event record's opening: its type, its name, and the run it belongs to (null before the
 * boot has a run id: a fatal error that early). */
void event_begin(struct jw *w, const char *event)
{
	record_begin(w, "event");
	jw_kstr(w, "event", event);
	jw_kstr(w, "run", boot.run_id[0] ? boot.run_id : NULL);
}

static volatile int *held;

void console_hold_init(void)
{
	if (held)
		return;
	void *m = mmap(NULL, sizeof *held, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED)
		held = m;
}

void console_hold_set(void)
{
	if (held)
		*held = 1;
}

void console_hold(void)
{
	if (!held || !*held || getpid() != 1)
		return;
	say("fsmatrix: PID 1 holds: the cell was declared hung; its watcher writes its record, "
	    "and the machine reboots");
	for (;;)
		pause();
}

void emit(struct jw *w)
{
	static char framed[256 * 1024];
	console_hold();
	if (jw_done(w) < 0) {
		say("fsmatrix: internal error: a record did not fit its buffer or was malformed");
		return;
	}
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		char want[64];
		/* record_begin() puts the type first, so a string value cannot fool this */
		int wl = snprintf(want, sizeof want, "{\"v\":%d,\"type\":\"%s\"", RECORD_SCHEMA, types[i]);
		if (strncmp(w->buf, want, (size_t)wl) == 0) {
			console.type_counts[i]++;
			break;
		}
	}
	int n = record_frame(w->buf, w->len, framed, sizeof framed - 1);
	if (n < 0) {
		say("fsmatrix: internal error: a record is too long to frame");
		return;
	}
	framed[n++] = '\n';
	if (console.jsonl_fd >= 0) {
		/* One write for the line and its newline, so that a power cut leaves at most one
		 * line torn (resume.h) */
		int rc;
		if (w->len < w->cap) {
			w->buf[w->len] = '\n';
			rc = write_all(console.jsonl_fd, w->buf, w->len + 1);
			w->buf[w->len] = '\0';
		} else {
			rc = write_all(console.jsonl_fd, w->buf, w->len) < 0 ? -1 : write_all(console.jsonl_fd, "\n", 1);
		}
		if (rc < 0 || (console.sync_each && fsync(console.jsonl_fd) < 0))
			file_failed(console.jsonl_path);
	} else if (!console.jsonl_path[0]) {
		keep(&console.early_jsonl, w->buf, w->len);
		keep(&console.early_jsonl, "\n", 1);
	}
	shown(framed, (size_t)n, 1);
}

void console_sync_each(void)
{
	console.sync_each = 1;
}

int console_records(const char *type)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(types[i], type) == 0)
			return console.type_counts[i];
	return 0;
}

static int open_with(const char *path, struct early *e, char *keep_path, size_t keep_len)
{
	snprintf(keep_path, keep_len, "%s", path);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, e->buf ? e->buf : "", e->len) < 0 ||
	    (console.sync_each && fsync(fd) < 0)) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		errno = err;
		fd = -1;
	}
	free(e->buf);
	memset(e, 0, sizeof *e);
	return fd;
}

int console_attach(const char *jsonl, const char *log)
{
	console.jsonl_fd = open_with(jsonl, &console.early_jsonl, console.jsonl_path,
				     sizeof console.jsonl_path);
	if (console.jsonl_fd < 0) {
		file_failed(jsonl);
		console_files_off();
		return -1;
	}
	console.log_fd = open_with(log, &console.early_log, console.log_path, sizeof console.log_path);
	if (console.log_fd < 0) {
		file_failed(log);
		console_files_off();
		return -1;
	}
	return 0;
}

void console_files_off(void)
{
	/* nothing more is kept for files that will never be opened */
	free(console.early_log.buf);
	free(console.early_jsonl.buf);
	memset(&console.early_log, 0, sizeof console.early_log);
	memset(&console.early_jsonl, 0, sizeof console.early_jsonl);
	if (!console.log_path[0])
		snprintf(console.log_path, sizeof console.log_path, "-");
	if (!console.jsonl_path[0])
		snprintf(console.jsonl_path, sizeof console.jsonl_path, "-");
}

int console_attached(void)
{
	return console.jsonl_fd >= 0 || console.log_fd >= 0 || console.jsonl_path[0];
}

void console_detach(void)
{
	if (console.jsonl_fd >= 0 && (fsync(console.jsonl_fd) < 0 || close(console.jsonl_fd) < 0))
		printf("fsmatrix: unable to write %s: %s\n", console.jsonl_path, strerror(errno));
	if (console.log_fd >= 0 && (fsync(console.log_fd) < 0 || close(console.log_fd) < 0))
		printf("fsmatrix: unable to write %s: %s\n", console.log_path, strerror(errno));
	console.jsonl_fd = console.log_fd = -1;
}

void console_fix_fds(void)
{
	/* The kernel opens /dev/console for init only if the initramfs has that node; with
	 * devtmpfs mounted it exists now. */
	if (fcntl(1, F_GETFD) >= 0 && fcntl(2, F_GETFD) >= 0)
		return;
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) < 0)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

void console_drain(long max_ms)
{
	fflush(stdout);
	/* tcdrain() waits for the tty's buffer and the UART's shift register, which is what a
	 * slow line still holds when the machine stops; it fails at once on a non-tty. */
	deadline_arm(max_ms);
	while (tcdrain(STDOUT_FILENO) < 0 && errno == EINTR && !deadline_passed())
		;
	deadline_disarm();
}
