/* test_badinput.c: bad input, through the file the way PID 1 reads a plan
 * (plan_load): a huge file, a binary one, a directory, an empty one and plain garbage. Each
 * gives errors of one line, "PATH:LINE: message", and leaves the file as it was. The
 * parser's own cases are in test_plan.c; kernel parameters with bad values in test_cmdline.c;
 * random input in tests/fuzz/. */
#include "check.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static struct plan p;
static char dir[] = "/tmp/fsmatrix-badinput-XXXXXX";

static void put(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(data, 1, n, f) == n && fclose(f) == 0, "cannot write %s", path);
}

/* The file still holds exactly data. */
static int same(const char *path, const char *data, size_t n)
{
	static char back[4 << 20];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t got = fread(back, 1, sizeof back, f);
	fclose(f);
	return got == n && memcmp(back, data, n) == 0;
}

/* Every kept error is one line that starts with "path:" and a line number. */
static void check_lines(const char *path)
{
	size_t pl = strlen(path);
	CHECK(p.nerrors > 0, "%s: no error", path);
	for (int i = 0; i < p.nerrors && i < PLAN_ERRORS_MAX; i++) {
		const char *e = p.errors[i];
		CHECK(strchr(e, '\n') == NULL, "error spans lines: %s", e);
		CHECK(strncmp(e, path, pl) == 0 && e[pl] == ':' && e[pl + 1] >= '0' &&
		      e[pl + 1] <= '9', "no position: %s", e);
	}
}

int main(void)
{
	static char huge[3 << 20], bin[4096];
	char path[128];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}

	/* 3 MiB of a plausible plan: refused by size before anything is parsed. */
	for (size_t i = 0; i < sizeof huge; i++)
		huge[i] = "[global]\nrepeat = 1\n"[i % 20];
	snprintf(path, sizeof path, "%s/huge.ini", dir);
	put(path, huge, sizeof huge);
	CHECK_INT(plan_load(path, &p), -1);
	CHECK_INT(p.nerrors, 1);
	check_lines(path);
	CHECK(strstr(p.errors[0], ":1: larger than 1048576 bytes: not a plan") != NULL, "%s",
	      p.errors[0]);
	CHECK(same(path, huge, sizeof huge), "huge.ini changed");

	/* Every byte value, as a binary file or a kernel image would give. */
	for (size_t i = 0; i < sizeof bin; i++)
		bin[i] = (char)(i * 7 + 1);
	snprintf(path, sizeof path, "%s/binary.ini", dir);
	put(path, bin, sizeof bin);
	CHECK_INT(plan_load(path, &p), -1);
	CHECK_INT(p.nerrors, 1);
	check_lines(path);
	CHECK(strstr(p.errors[0], "binary data (byte 0x") != NULL, "%s", p.errors[0]);
	CHECK(same(path, bin, sizeof bin), "binary.ini changed");

	/* A directory opens but cannot be read. */
	CHECK_INT(plan_load(dir, &p), -1);
	check_lines(dir);
	CHECK(strstr(p.errors[0], ":0: unable to read: Is a directory") != NULL, "%s", p.errors[0]);

	/* Empty, and text that is not INI at all. */
	snprintf(path, sizeof path, "%s/empty.ini", dir);
	put(path, "", 0);
	CHECK_INT(plan_load(path, &p), -1);
	check_lines(path);
	static const char garbage[] = "Lorem ipsum = dolor\n[sit amet\n= consectetur\n[fs]\n"
		"[array a]\nlevel = 5\ndevices = lots\nchunk = 64q\n\t\t]]]\n";
	snprintf(path, sizeof path, "%s/garbage.ini", dir);
	put(path, garbage, sizeof garbage - 1);
	CHECK_INT(plan_load(path, &p), -1);
	check_lines(path);
	CHECK(p.nerrors >= 5, "only %d errors for garbage", p.nerrors);
	CHECK(same(path, garbage, sizeof garbage - 1), "garbage.ini changed");

	unlink(path);
	snprintf(path, sizeof path, "%s/empty.ini", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/binary.ini", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/huge.ini", dir);
	unlink(path);
	rmdir(dir);
	return check_done("test_badinput");
}
