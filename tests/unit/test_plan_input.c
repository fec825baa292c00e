/* test_plan_input.c: what the plan parser makes of input that is not a plan as written:
 * values past their limits, text that is not UTF-8 or ASCII, garbage bytes, files that
 * cannot be read or are not regular files. Each gives its exact error line, and nothing
 * is lost. (The plans themselves: test_plan.c.) */
#include "check.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdlib.h>

static struct plan p;

/* The smallest plan: every default shows. */
#define MIN_TAIL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"
#define MIN_PLAN "[array a]\nlevel = none\n" MIN_TAIL

static int parse(const char *text)
{
	return plan_parse("t.ini", text, strlen(text), &p);
}

/* A long value is cut in the echo, never the reason: the reason comes first, and the echo
 * is shortened with an ellipsis. */
static void test_long_values(void)
{
	char text[4096], file[300];

	/* 200 chunk sizes: the 17th is one too many. */
	strcpy(text, "[array a]\nlevel = 0\ndevices = 2\nchunk = ");
	for (int i = 0; i < 200; i++)
		strcat(text, i % 2 ? "8k, " : "4k, ");
	strcat(text, "4k\n" MIN_TAIL);
	CHECK_INT(parse(text), -1);
	CHECK_STR(p.errors[0], "t.ini:4: chunk: 4k is given twice (chunk = 4k, 8k, 4k, 8k, 4k, "
		  "8k, 4k, 8k, 4k, 8k, ...)");

	/* A 400-byte mount line with a blank in it. */
	strcpy(text, "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = ");
	for (int i = 0; i < 50; i++)
		strcat(text, "noatime,");
	strcat(text, " x\n[workload w]\ntype = seqwrite\nsize = 1m\n");
	CHECK_INT(parse(text), -1);
	CHECK_STR(p.errors[0], "t.ini:5: mount: options are one word, separated by commas "
		  "(mount = noatime,noatime,noatime,noatime,noatime,...)");

	/* The longest file name and a long unknown key: the list of known keys still fits. */
	memset(file, 'f', PLAN_STR_MAX - 1);
	file[PLAN_STR_MAX - 1] = '\0';
	snprintf(text, sizeof text, "[array %s]\n%0400d = 1\nlevel = none\n" MIN_TAIL,
		 "a23456789012345678901234567890123456789012345", 7);
	CHECK_INT(plan_parse(file, text, strlen(text), &p), -1);
	const char *tail = "(known: level, devices, missing, chunk, layout, bitmap, options, layers, metadata, lv_size, or a kernel tunable of docs/plans.md)";
	size_t n = strlen(p.errors[0]);
	CHECK(n > strlen(tail) && strcmp(p.errors[0] + n - strlen(tail), tail) == 0,
	      "the reason is cut: %s", p.errors[0]);
	/* A UTF-8 character is never cut in half by the ellipsis. */
	strcpy(text, "[global]\nname = ");
	for (int i = 0; i < 40; i++)
		strcat(text, "\xc3\xa9");
	strcat(text, "\n" MIN_PLAN);
	CHECK_INT(parse(text), -1);
	CHECK(strstr(p.errors[0], "\xc3\xa9...)") != NULL, "%s", p.errors[0]);
}

/* Windows Notepad saves UTF-8 with a byte-order mark and CRLF line ends: both are fine. */
static void test_encodings(void)
{
	static const char *const good[] = {
		"\xef\xbb\xbf[array a]\r\nlevel = none\r\n[fs f]\r\ntype = ext4\r\n[workload w]\r\n"
		"type = seqwrite\r\nsize = 1m\r\n",
		"\xef\xbb\xbf# a comment first\n" MIN_PLAN,
		"\xef\xbb\xbf\n" MIN_PLAN,
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int rc = parse(good[i]);
		CHECK(rc == 0, "case %zu: %s", i, p.errors[0]);
	}
	CHECK_STR(p.arrays[0].name, "a");
	/* Only at the start: elsewhere it is a stray character in a key. */
	CHECK_INT(parse(MIN_PLAN "\xef\xbb\xbf[global]\n"), -1);

	/* Text in another encoding, or UTF-8 cut or forged, stops at its first byte: its values
	 * would end up in records, which are JSON and so UTF-8. */
	static const struct { const char *text, *err; } bad[] = {
		{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = noatime\xff\n[workload w]\n"
		  "type = seqwrite\nsize = 1m\n",
		  "t.ini:5: not UTF-8 text (byte 0xff at column 16): save the plan as UTF-8" },
		{ "# caf\xe9 au lait\n" MIN_PLAN,   /* Latin-1, in a comment */
		  "t.ini:1: not UTF-8 text (byte 0xe9 at column 6): save the plan as UTF-8" },
		{ "[global]\nname = \xc0\xaf\n" MIN_PLAN,   /* an overlong '/' */
		  "t.ini:2: not UTF-8 text (byte 0xc0 at column 8): save the plan as UTF-8" },
		{ "[global]\nname = \xed\xa0\x80\n" MIN_PLAN,   /* a UTF-16 surrogate */
		  "t.ini:2: not UTF-8 text (byte 0xed at column 8): save the plan as UTF-8" },
		{ MIN_PLAN "# \xe2\x82", "t.ini:8: not UTF-8 text (byte 0xe2 at column 3): save the "
		  "plan as UTF-8" },   /* cut short at the end of the file */
		{ MIN_PLAN "# \xe2\x82\n", "t.ini:8: not UTF-8 text (byte 0xe2 at column 3): save the "
		  "plan as UTF-8" },   /* ... and at the end of a line */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(parse(bad[i].text) == -1, "case %zu: accepted", i);
		CHECK(p.nerrors == 1, "case %zu: %d errors, want 1", i, p.nerrors);
		CHECK(strcmp(p.errors[0], bad[i].err) == 0, "case %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], bad[i].err);
	}
	/* UTF-8 itself is fine, 2, 3 and 4 bytes long. */
	CHECK_INT(parse("# caf\xc3\xa9, 20 \xe2\x82\xac, \xf0\x9f\x98\x80\n" MIN_PLAN), 0);
}

/* Input that is not a plan at all stops at the first sign of it, with a position. */
static void test_garbage(void)
{
	static char big[PLAN_FILE_MAX + 2];
	char line[PLAN_LINE_MAX + 40];

	const char nul[] = "[global]\nrepeat = 1\x00\n";
	CHECK_INT(plan_parse("t.ini", nul, sizeof nul - 1, &p), -1);
	CHECK_INT(p.nerrors, 1);
	CHECK_STR(p.errors[0], "t.ini:2: binary data (byte 0x00 at column 11): not a plan");

	const char ctl[] = "[global]\n\n\x7f" "ELF\x02\x01";
	CHECK_INT(parse(ctl), -1);
	CHECK_STR(p.errors[0], "t.ini:3: binary data (byte 0x02 at column 5): not a plan");

	memset(line, 'a', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	memcpy(line, "# ", 2);
	CHECK_INT(parse(line), -1);
	CHECK_STR(p.errors[0], "t.ini:1: line longer than 1024 bytes");

	memset(big, '\n', sizeof big);
	CHECK_INT(plan_parse("t.ini", big, PLAN_FILE_MAX + 1, &p), -1);
	CHECK_STR(p.errors[0], "t.ini:1: larger than 1048576 bytes: not a plan");
	/* Exactly at the cap is still read (and then lacks sections). */
	CHECK_INT(plan_parse("t.ini", big, PLAN_FILE_MAX, &p), -1);
	CHECK_STR(p.errors[0], "t.ini:1048576: the plan is empty: it needs an [array NAME], an "
		  "[fs NAME] and a [workload NAME] section");

	/* More errors than are kept: the count is right, the kept ones are the first. */
	char many[4096] = "[global]\n";
	for (int i = 0; i < 30; i++)
		strcat(many, "x = 1\n");
	strcat(many, MIN_PLAN);
	CHECK_INT(parse(many), -1);
	CHECK_INT(p.nerrors, 30);
	CHECK(strncmp(p.errors[PLAN_ERRORS_MAX - 1], "t.ini:17: ", 10) == 0, "%s",
	      p.errors[PLAN_ERRORS_MAX - 1]);
}

/* The shipped plans parse, and a missing file says so with its name. */
static void test_files(void)
{
	static const char *const shipped[] = {
		"rootfs/plans/default.ini", "rootfs/plans/raid6-degraded-ext3-vs-ext4.ini",
	};
	for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
		int rc = plan_load(shipped[i], &p);
		CHECK(rc == 0, "%s: %s", shipped[i], p.errors[0]);
	}
	CHECK_INT(plan_load("tests/fixtures/plans/no-such.ini", &p), -1);
	CHECK_STR(p.errors[0], "tests/fixtures/plans/no-such.ini:0: unable to read: No such file "
		  "or directory");
	/* A device is not read: /dev/urandom would never end. */
	CHECK_INT(plan_load("/dev/urandom", &p), -1);
	CHECK_STR(p.errors[0], "/dev/urandom:0: unable to read: it is a character device, not a "
		  "regular file");
}

int main(void)
{
	test_long_values();
	test_encodings();
	test_garbage();
	test_files();
	return check_done("test_plan_input");
}
