/* test_removedopts.c: mount options the image's kernel no longer takes as given, found in a
 * plan's mount lines and named with the line they are on. One row per case. */
#include "check.h"
#include "core/model/plan.h"
#include "core/command/removedopts.h"
#include "core/parse/plan_parse.h"

static struct plan p;
static char got[8][PLAN_ERROR_LEN + 256];
static int ngot;

static void collect(void *ctx, const char *line)
{
	(void)ctx;
	if (ngot < 8)
		snprintf(got[ngot], sizeof got[ngot], "%s", line);
	ngot++;
}

static const struct row {
	const char *type, *mount;
	const char *warning;   /* the first warning for the mount line, NULL: none */
	int n;                 /* warnings in all */
} rows[] = {
	{ "ext4", "noatime,nobh", "t.ini:5: warning: mount option nobh was removed from ext4 (the "
	  "image's kernel 6.1 ignores it, logging \"Ignoring removed nobh option\"): the cell "
	  "measures the defaults", 1 },
	{ "ext3", "data=writeback,bh", "t.ini:5: warning: mount option bh was removed from ext4 "
	  "(the image's kernel 6.1 ignores it, logging \"Ignoring removed bh option\"): the cell "
	  "measures the defaults", 1 },
	{ "ext2", "oldalloc", "t.ini:5: warning: mount option oldalloc was removed from ext4 (the "
	  "image's kernel 6.1 ignores it, logging \"Ignoring removed oldalloc option\"): the cell "
	  "measures the defaults", 1 },
	{ "ext4", "orlov,nobh", "t.ini:5: warning: mount option orlov was removed from ext4 (the "
	  "image's kernel 6.1 ignores it, logging \"Ignoring removed orlov option\"): the cell "
	  "measures the defaults", 2 },
	{ "xfs", "nobarrier", "t.ini:5: warning: mount option nobarrier was removed from xfs in "
	  "Linux 4.19 (the image's kernel 6.1 refuses it): the cells with it fail at mount", 1 },
	{ "xfs", "noatime,barrier", "t.ini:5: warning: mount option barrier was removed from xfs "
	  "in Linux 4.19 (the image's kernel 6.1 refuses it): the cells with it fail at mount", 1 },
	{ "xfs", "ikeep", "t.ini:5: warning: mount option ikeep is deprecated in xfs, with its "
	  "removal scheduled for September 2025 (the image's kernel 6.1 still honours it)", 1 },
	{ "xfs", "noattr2", "t.ini:5: warning: mount option noattr2 is deprecated in xfs, with "
	  "its removal scheduled for September 2025 (the image's kernel 6.1 still honours it)", 1 },
	/* Options a filesystem still takes, or another filesystem's options, say nothing. */
	{ "ext4", "barrier=0,nobarrier,data=journal", NULL, 0 },
	{ "ext4", "ikeep", NULL, 0 },
	{ "xfs", "nobh", NULL, 0 },
	{ "ext4", "nobhx,xnobh", NULL, 0 },
	{ "ext4", "defaults", NULL, 0 },
};

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, "[array a]\nlevel = none\n[fs f]\ntype = %s\nmount = %s\n"
			 "[workload w]\ntype = seqwrite\nsize = 1m\n", rows[i].type, rows[i].mount);
		CHECK(plan_parse("t.ini", text, strlen(text), &p) == 0, "row %zu: %s", i,
		      p.errors[0]);
		ngot = 0;
		int n = removed_opts_warn(&p, collect, NULL);
		CHECK(n == rows[i].n && ngot == n, "row %zu: %d warnings, want %d", i, n, rows[i].n);
		if (rows[i].warning && ngot)
			CHECK(strcmp(got[0], rows[i].warning) == 0, "row %zu:\n  got  %s\n  want %s", i,
			      got[0], rows[i].warning);
	}
}

/* Each mount line is named by its own line. */
static void test_lines(void)
{
	static const char text[] = "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = noatime\n"
		"mount = nobh\n[fs x]\ntype = xfs\nmount = nobarrier\n[workload w]\n"
		"type = seqwrite\nsize = 1m\n";
	CHECK_INT(plan_parse("t.ini", text, strlen(text), &p), 0);
	ngot = 0;
	CHECK_INT(removed_opts_warn(&p, collect, NULL), 2);
	CHECK(strncmp(got[0], "t.ini:6: ", 9) == 0, "%s", got[0]);
	CHECK(strncmp(got[1], "t.ini:9: ", 9) == 0, "%s", got[1]);
}

int main(void)
{
	test_rows();
	test_lines();
	return check_done("test_removedopts");
}
