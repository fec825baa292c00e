/* test_file.c: whole-file reads with and without a limit (across the first buffer's size),
 * first-line reads of small values, and write_all, against files in a temporary folder. */
#include "check.h"
#include "lib/file.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/fsmatrix-test-file-XXXXXX";

/* A file of n bytes: 'a'..'z' over and over, newline every 50th byte when lines is set. */
static const char *make(const char *name, size_t n, int lines)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *b = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		b[i] = lines && i % 50 == 49 ? '\n' : (char)('a' + i % 26);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write_all(fd, b, n) == 0 && close(fd) == 0, "writing %s", path);
	free(b);
	return path;
}

static void test_read(void)
{
	const struct { size_t size, max, want; } rows[] = {
		{ 0, 0, 0 }, { 1, 0, 1 }, { 100, 0, 100 }, { 65535, 0, 65535 }, { 65536, 0, 65536 },
		{ 300000, 0, 300000 },
		{ 100, 10, 10 }, { 100, 100, 100 }, { 100, 101, 100 }, { 100, 99, 99 },
		{ 200000, 65536, 65536 }, { 200000, 65537, 65537 }, { 200000, 150001, 150001 },
		{ 0, 5, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *path = make("read", rows[i].size, 0);
		size_t len = 12345;
		char *b = file_read(path, rows[i].max, &len);
		CHECK(b != NULL, "row %zu: %s", i, strerror(errno));
		if (!b)
			continue;
		CHECK_INT(len, rows[i].want);
		CHECK_INT(strlen(b), rows[i].want);    /* NUL-terminated right after */
		int same = 1;
		for (size_t k = 0; k < len; k++)
			same &= b[k] == (char)('a' + k % 26);
		CHECK(same, "row %zu: bytes differ from the file", i);
		free(b);
	}
	char missing[300];
	snprintf(missing, sizeof missing, "%s/no-such-file", dir);
	const struct { const char *path; int err; } bad[] = { { missing, ENOENT }, { dir, EISDIR } };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		errno = 0;
		CHECK(file_read(bad[i].path, 0, NULL) == NULL, "%s read", bad[i].path);
		CHECK_INT(errno, bad[i].err);
	}
}

/* Only a regular file is read: a FIFO would block the open until a writer came, and a
 * device (/dev/urandom named by mistake) would never end. What it is goes in the message. */
static void test_not_regular(void)
{
	char fifo[300], link[300], why[128];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	snprintf(link, sizeof link, "%s/link", dir);
	CHECK(mkfifo(fifo, 0644) == 0, "mkfifo %s: %s", fifo, strerror(errno));
	const char *path = make("regular", 10, 0);
	CHECK(symlink(path, link) == 0, "symlink %s: %s", link, strerror(errno));
	alarm(10);   /* a blocking open fails the test instead of hanging it */
	const struct { const char *path; int err; const char *why; } rows[] = {
		{ fifo, EINVAL, "it is a FIFO, not a regular file" },
		{ "/dev/null", EINVAL, "it is a character device, not a regular file" },
		{ dir, EISDIR, "Is a directory" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		errno = 0;
		CHECK(file_read(rows[i].path, 0, NULL) == NULL, "%s read", rows[i].path);
		CHECK_INT(errno, rows[i].err);
		CHECK_STR(file_why(rows[i].path, errno, why, sizeof why), rows[i].why);
	}
	alarm(0);
	/* a symbolic link is judged by what it leads to */
	size_t len = 0;
	char *b = file_read(link, 0, &len);
	CHECK(b && len == 10, "%s: %s", link, b ? "short" : strerror(errno));
	free(b);
	CHECK_STR(file_why(fifo, ENOENT, why, sizeof why), "No such file or directory");
}

static void test_first_line(void)
{
	const struct { const char *text; size_t len; const char *want; } rows[] = {
		{ "idle\n", 64, "idle" }, { "idle", 64, "idle" }, { "a b \n2\n", 64, "a b " },
		{ "\n2\n", 64, "" }, { "", 64, "" }, { "0123456789\n", 5, "0123" },
		{ "resync\n", 8, "resync" }, { "resync\n", 7, "resync" }, { "resync\n", 2, "r" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char path[300], buf[64];
		snprintf(path, sizeof path, "%s/value", dir);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CHECK(fd >= 0 && write_all(fd, rows[i].text, strlen(rows[i].text)) == 0 && close(fd) == 0,
		      "writing %s", path);
		CHECK_INT(file_first_line(path, buf, rows[i].len), 0);
		CHECK_STR(buf, rows[i].want);
	}
	char buf[16] = "stale";
	errno = 0;
	CHECK_INT(file_first_line("/nonexistent/fsmatrix", buf, sizeof buf), -1);
	CHECK_INT(errno, ENOENT);
	CHECK_STR(buf, "");
	strcpy(buf, "stale");
	CHECK_INT(file_first_line(dir, buf, sizeof buf), -1);   /* read(2) of a directory */
	CHECK_INT(errno, EISDIR);
	CHECK_STR(buf, "");
}

static void test_write_all(void)
{
	/* 1 MiB in one call, read back whole */
	size_t n = 1 << 20;
	char *b = malloc(n);
	for (size_t i = 0; i < n; i++)
		b[i] = (char)(i * 7);
	const char *path = make("sink", 0, 0);
	int fd = open(path, O_WRONLY | O_TRUNC);
	CHECK_INT(write_all(fd, b, n), 0);
	close(fd);
	size_t len;
	char *back = file_read(path, 0, &len);
	CHECK(back && len == n && memcmp(back, b, n) == 0, "1 MiB written, %zu read back", len);
	free(back);
	free(b);
	errno = 0;
	CHECK_INT(write_all(-1, "x", 1), -1);
	CHECK_INT(errno, EBADF);
	CHECK_INT(write_all(-1, "", 0), 0);   /* nothing to write: no call at all */
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_read();
	test_not_regular();
	test_first_line();
	test_write_all();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_file: unable to remove %s\n", dir);
	return check_done("test_file");
}
