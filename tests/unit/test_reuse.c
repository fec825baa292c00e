/* test_reuse.c: what a cell takes over from the one run before it (core/matrix/reuse.c): the array
 * within one array configuration and repetition, the filesystem too with reuse = fs, nothing
 * across repetitions, chunks, md or device tunables, for a raw disk's "array", or with
 * reuse = none; the queue's and vm's tunables do not split a group. */
#include "check.h"
#include "plan_text.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/matrix/reuse.h"
#include "core/parse/plan_parse.h"

static struct plan p;

static int load(const char *text)
{
	return plan_text("r.ini", text, &p);
}

/* The reuse of each cell of the run in its order, as one letter each: - none, a array,
 * f fs. */
static void reuse_string(char *out, size_t len)
{
	struct cell prev, c;
	size_t k = 0;
	for (int i = 0; matrix_cell(&p, i, &c) == 0 && k + 1 < len; i++) {
		out[k++] = "-af"[reuse_from(&p, i ? &prev : NULL, &c)];
		prev = c;
	}
	out[k] = '\0';
}

#define BODY "[array r5]\nlevel = 5\ndevices = 3\nchunk = 64k, 512k\n" \
	"[array raw]\nlevel = none\n" \
	"[fs e]\ntype = ext4\nmount = defaults\nmount = noatime\n" \
	"[fs x]\ntype = xfs\n" \
	"[workload w]\ntype = seqwrite\nsize = 1m\n"

static const struct reuse_case {
	const char *global;
	const char *want;
} cases[] = {
	/* 3 arrays (r5 at two chunks, raw) x 3 (e: 2 mount lines, x: 1) x 2 repetitions */
	{ "", "-aa-aa---" "-aa-aa---" },
	{ "reuse = array\n", "-aa-aa---" "-aa-aa---" },
	{ "reuse = fs\n", "-fa-fa-f-" "-fa-fa-f-" },
	{ "reuse = none\n", "---------" "---------" },
	/* each cell's repetitions back to back: no two neighbours share a repetition */
	{ "order = sequential\n", "------------------" },
};

static void test_orders(void)
{
	char text[2048], got[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "[global]\nrepeat = 2\n%s" BODY, cases[i].global);
		if (load(text) != 0)
			continue;
		reuse_string(got, sizeof got);
		CHECK(strcmp(got, cases[i].want) == 0, "case %zu: got %s, want %s", i, got,
		      cases[i].want);
	}
}

/* md's stripe cache and the write cache are the array's for its life: one value, one array.
 * The read-ahead is put back after every cell: its values share one. */
static void test_tunables(void)
{
	char got[64];
	if (load("[array r5]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256, 4096\n"
		 "[fs e]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"
		 "[workload v]\ntype = seqwrite\nsize = 2m\n") == 0) {
		reuse_string(got, sizeof got);
		CHECK_STR(got, "-a-a");
	}
	if (load("[array r5]\nlevel = 5\ndevices = 3\nwrite_cache = on, off\n"
		 "[fs e]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n") == 0) {
		reuse_string(got, sizeof got);
		CHECK_STR(got, "--");
	}
	if (load("[array r5]\nlevel = 5\ndevices = 3\nread_ahead_kb = 128, 4096\n"
		 "[fs e]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n") == 0) {
		reuse_string(got, sizeof got);
		CHECK_STR(got, "-a");
	}
	struct cell a, b;
	if (load("[array r5]\nlevel = 5\ndevices = 3\nchunk = 64k, 128k\n[fs e]\ntype = ext4\n"
		 "[workload w]\ntype = seqwrite\nsize = 1m\n") == 0 &&
	    matrix_cell(&p, 0, &a) == 0 && matrix_cell(&p, 1, &b) == 0) {
		CHECK_INT(reuse_same_array(&p, &a, &b), 0);
		CHECK_INT(reuse_same_array(&p, &a, &a), 1);
	}
}

static void test_keys(void)
{
	CHECK_INT(load("[global]\nreuse = maybe\n" BODY), -1);
	CHECK_STR(p.errors[0], "r.ini:2: reuse: expected none, array or fs (reuse = maybe)");
	CHECK_INT(load(BODY), 0);
	CHECK_INT(p.reuse, REUSE_ARRAY);
	CHECK_INT(p.discard, 1);
	CHECK_INT(p.resync_timeout_s, 24 * 3600);
	CHECK_INT(load("[global]\ndiscard = no\nresync_timeout = 90m\n" BODY), 0);
	CHECK_INT(p.discard, 0);
	CHECK_INT(p.resync_timeout_s, 5400);
	CHECK_STR(reuse_name(REUSE_NONE), "none");
	CHECK_STR(reuse_name(REUSE_ARRAY), "array");
	CHECK_STR(reuse_name(REUSE_FS), "fs");
}

int main(void)
{
	test_orders();
	test_tunables();
	test_keys();
	return check_done("test_reuse");
}
