/* test_tunable.c: the kernel tunables' table (core/model/tunable.c), their plan keys, the checks of
 * `fsmatrix check`, the matrix's variants and ids, and the judgement of a value read back. */
#include "check.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/model/tunable.h"
#include "lib/record.h"
#include "core/parse/plan_parse.h"

static struct plan p;

static int parse(const char *text)
{
	return plan_parse("t.ini", text, strlen(text), &p);
}

#define FS_WL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"

/* Every row: its name finds it, its values round-trip, its path is where the kernel has it. */
static void test_table(void)
{
	for (int i = 0; i < TUN_COUNT; i++) {
		const struct tun_row *r = &tun_rows[i];
		CHECK(r->name && r->abbr && r->attr, "row %d is incomplete", i);
		CHECK_INT(tun_find(r->name), i);
		CHECK(r->kind == TUN_CHOICE ? r->choices != NULL : r->min <= r->max,
		      "row %s has no values", r->name);
		CHECK(r->excludes < 0 || tun_rows[r->excludes].excludes == i,
		      "%s excludes %d, which does not exclude it back", r->name, r->excludes);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(r->abbr, tun_rows[j].abbr) != 0, "%s and %s share an id part",
			      r->name, tun_rows[j].name);
	}
	CHECK_INT(tun_find("stripe_cache"), -1);
	char path[128];
	tun_path(TUN_NR_REQUESTS, "vdb", path, sizeof path);
	CHECK_STR(path, "/sys/block/vdb/queue/nr_requests");
	tun_path(TUN_STRIPE_CACHE_SIZE, "md0", path, sizeof path);
	CHECK_STR(path, "/sys/block/md0/md/stripe_cache_size");
	tun_path(TUN_DIRTY_BYTES, "vm", path, sizeof path);
	CHECK_STR(path, "/proc/sys/vm/dirty_bytes");
}

/* Which levels each row fits, and how an error lists them. */
static void test_levels(void)
{
	static const struct { int id; const char *level; int fits; } cases[] = {
		{ TUN_STRIPE_CACHE_SIZE, "5", 1 }, { TUN_STRIPE_CACHE_SIZE, "6", 1 },
		{ TUN_STRIPE_CACHE_SIZE, "4", 1 }, { TUN_STRIPE_CACHE_SIZE, "0", 0 },
		{ TUN_STRIPE_CACHE_SIZE, "1", 0 }, { TUN_STRIPE_CACHE_SIZE, "10", 0 },
		{ TUN_STRIPE_CACHE_SIZE, "none", 0 }, { TUN_GROUP_THREAD_CNT, "10", 0 },
		{ TUN_GROUP_THREAD_CNT, "6", 1 }, { TUN_SCHEDULER, "none", 1 },
		{ TUN_SCHEDULER, "0", 1 }, { TUN_NR_REQUESTS, "10", 1 },
		{ TUN_DIRTY_RATIO, "none", 1 }, { TUN_DIRTY_RATIO, "6", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK(tun_fits(cases[i].id, level_by_key(cases[i].level)) == cases[i].fits,
		      "%s on level %s: want %d", tun_rows[cases[i].id].name, cases[i].level,
		      cases[i].fits);
	char text[128];
	tun_fits_text(TUN_STRIPE_CACHE_SIZE, text, sizeof text);
	CHECK_STR(text, "raid4, raid5 or raid6");
}

/* Values from a plan's text, and as records and ids show them. */
static void test_values(void)
{
	static const struct { int id; const char *text; long long v; const char *err; } cases[] = {
		{ TUN_SCHEDULER, "bfq", 2, NULL },
		{ TUN_SCHEDULER, "mq-deadline", 1, NULL },
		{ TUN_SCHEDULER, "cfq", 0, "\"cfq\": expected none, mq-deadline, bfq or kyber" },
		{ TUN_STRIPE_CACHE_SIZE, "4096", 4096, NULL },
		{ TUN_STRIPE_CACHE_SIZE, "17", 17, NULL },
		{ TUN_STRIPE_CACHE_SIZE, "16", 0, "\"16\": expected a whole number from 17 to 32768" },
		{ TUN_STRIPE_CACHE_SIZE, "32769", 0, "\"32769\": expected a whole number from 17 to "
		  "32768" },
		{ TUN_STRIPE_CACHE_SIZE, "4k", 0, "\"4k\": expected a whole number from 17 to 32768" },
		{ TUN_DIRTY_RATIO, "101", 0, "\"101\": expected a whole number from 0 to 100" },
		{ TUN_DIRTY_RATIO, "-1", 0, "\"-1\": expected a whole number from 0 to 100" },
		{ TUN_DIRTY_BYTES, "64m", 64 << 20, NULL },
		{ TUN_DIRTY_BYTES, "4096", 0, "\"4096\": expected a size from 8k to 1024t" },
		{ TUN_NR_REQUESTS, "4096", 4096, NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long long v = -7;
		char msg[200] = "";
		int rc = tun_parse(cases[i].id, cases[i].text, &v, msg, sizeof msg);
		CHECK_INT(rc, cases[i].err ? -1 : 0);
		if (cases[i].err)
			CHECK_STR(msg, cases[i].err);
		else
			CHECK_INT(v, cases[i].v);
	}
	char buf[64];
	tun_format(TUN_SCHEDULER, 3, buf, sizeof buf);
	CHECK_STR(buf, "kyber");
	tun_format_id(TUN_STRIPE_CACHE_SIZE, 4096, buf, sizeof buf);
	CHECK_STR(buf, "scs4096");
	tun_format_id(TUN_DIRTY_BYTES, 64 << 20, buf, sizeof buf);
	CHECK_STR(buf, "db64m");
	tun_format_id(TUN_SCHEDULER, 1, buf, sizeof buf);
	CHECK_STR(buf, "schedmq-deadline");
	/* As records write them: numbers, and a choice by its name. */
	char json[256];
	struct jw w;
	long long v[TUN_COUNT] = { [TUN_SCHEDULER] = 3, [TUN_DIRTY_BYTES] = 64 << 20 };
	jw_init(&w, json, sizeof json);
	jw_obj(&w);
	tun_json_given(&w, (1u << TUN_SCHEDULER) | (1u << TUN_DIRTY_BYTES), v);
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), 0);
	CHECK_STR(json, "{\"scheduler\":\"kyber\",\"dirty_bytes\":67108864}");
	CHECK_STR(tun_module(TUN_SCHEDULER, 2), "bfq");
	CHECK(tun_module(TUN_SCHEDULER, 1) == NULL, "mq-deadline is built in");
	CHECK(tun_module(TUN_NR_REQUESTS, 2) == NULL, "a number needs no module");
}

/* What the kernel shows, read back; and what a read-back value says of the write. */
static void test_read_back(void)
{
	static const struct { int id; const char *text; int rc; long long v; } cases[] = {
		{ TUN_SCHEDULER, "[bfq] mq-deadline kyber none\n", 0, 2 },
		{ TUN_SCHEDULER, "mq-deadline kyber [none]\n", 0, 0 },
		{ TUN_SCHEDULER, "none\n", 0, 0 },                  /* md0: no choice at all */
		{ TUN_SCHEDULER, "[cfq] noop\n", -1, 0 },
		{ TUN_NR_REQUESTS, "256\n", 0, 256 },
		{ TUN_STRIPE_CACHE_SIZE, "4096", 0, 4096 },
		{ TUN_NR_REQUESTS, "", -1, 0 },
		{ TUN_NR_REQUESTS, "12x\n", -1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long long v = -7;
		CHECK_INT(tun_read(cases[i].id, cases[i].text, &v), cases[i].rc);
		if (cases[i].rc == 0)
			CHECK_INT(v, cases[i].v);
	}
	CHECK_INT(tun_judge(4096, 0, 1, 4096), TUN_APPLIED);
	CHECK_INT(tun_judge(4096, 22, 1, 256), TUN_REFUSED);
	CHECK_INT(tun_judge(130, 0, 1, 128), TUN_CLAMPED);   /* read_ahead_kb in pages */
	CHECK_INT(tun_judge(2, 0, 0, 0), TUN_UNREAD);
	CHECK_STR(tun_outcome_name(TUN_CLAMPED), "clamped");
	/* Put back: dirty_bytes found 0 means dirty_ratio was in use, which is put back. */
	CHECK_INT(tun_restore_id(TUN_DIRTY_BYTES, 0), TUN_DIRTY_RATIO);
	CHECK_INT(tun_restore_id(TUN_DIRTY_BYTES, 1 << 26), TUN_DIRTY_BYTES);
	CHECK_INT(tun_restore_id(TUN_DIRTY_RATIO, 20), TUN_DIRTY_RATIO);
	CHECK_INT(tun_restore_id(TUN_DIRTY_BACKGROUND_BYTES, 0), TUN_DIRTY_BACKGROUND_RATIO);
	CHECK_INT(tun_restore_id(TUN_READ_AHEAD_KB, 0), TUN_READ_AHEAD_KB);
}

/* Where each row is written in a cell. */
static void test_places(void)
{
	char *members[] = { "vdb", "vdc", "vdd", NULL };
	const char *out[8];
	CHECK_INT(tun_places(TUN_SCHEDULER, "md0", members, 3, out, 8), 4);
	CHECK_STR(out[0], "md0");
	CHECK_STR(out[3], "vdd");
	CHECK_INT(tun_places(TUN_SCHEDULER, "vdb", NULL, 0, out, 8), 1);
	CHECK_INT(tun_places(TUN_STRIPE_CACHE_SIZE, "md0", members, 3, out, 8), 1);
	CHECK_STR(out[0], "md0");
	CHECK_INT(tun_places(TUN_DIRTY_RATIO, "md0", members, 3, out, 8), 1);
	CHECK_STR(out[0], "vm");
	/* the write cache is each member's device's, never md0's; a raw disk's own */
	CHECK_INT(tun_places(TUN_WRITE_CACHE, "md0", members, 3, out, 8), 3);
	CHECK_STR(out[0], "vdb");
	CHECK_STR(out[2], "vdd");
	CHECK_INT(tun_places(TUN_WRITE_CACHE, "vdb", NULL, 0, out, 8), 1);
	CHECK_STR(out[0], "vdb");
}

/* write_cache: off and on are what the device takes (0, 1); keep sets nothing; before mkfs;
 * every level; "wcoff" in a cell id. */
static void test_write_cache(void)
{
	long long v;
	char msg[160], id[32];
	CHECK_INT(tun_parse(TUN_WRITE_CACHE, "off", &v, msg, sizeof msg), 0);
	CHECK_INT(v, TUN_WC_OFF);
	CHECK_INT(v, 0);
	CHECK_INT(tun_parse(TUN_WRITE_CACHE, "on", &v, msg, sizeof msg), 0);
	CHECK_INT(v, 1);
	CHECK_INT(tun_parse(TUN_WRITE_CACHE, "keep", &v, msg, sizeof msg), 0);
	CHECK_INT(v, TUN_WC_KEEP);
	CHECK_INT(tun_parse(TUN_WRITE_CACHE, "writeback", &v, msg, sizeof msg), -1);
	CHECK_STR(msg, "\"writeback\": expected off, on or keep");
	CHECK_INT(tun_rows[TUN_WRITE_CACHE].when, TUN_BEFORE_MKFS);
	CHECK_INT(tun_rows[TUN_WRITE_CACHE].where, TUN_DEVICE);
	/* btrfs's own profiles and lvm's volumes span disks without one device to tune: no
	 * tunable fits them */
	for (const struct md_level *l = md_levels; l->key; l++)
		CHECK(tun_fits(TUN_WRITE_CACHE, l) == (!l->profile && !l->lvm), "write_cache fits %s",
		      l->name);
	tun_format_id(TUN_WRITE_CACHE, 0, id, sizeof id);
	CHECK_STR(id, "wcoff");
}

/* Plan keys: lists, errors at their lines, and what fits the array. */
static void test_plan_keys(void)
{
	static const struct { const char *text; const char *err; } bad[] = {
		{ "[array a]\nlevel = 0\ndevices = 2\nstripe_cache_size = 4096\n" FS_WL,
		  "t.ini:4: [array a]: \"stripe_cache_size\" does not apply to raid0 (only to raid4, "
		  "raid5 or raid6)" },
		{ "[array a]\nlevel = none\ngroup_thread_cnt = 4\n" FS_WL,
		  "t.ini:3: [array a]: \"group_thread_cnt\" does not apply to level none (only to "
		  "raid4, raid5 or raid6)" },
		{ "[array a]\nlevel = 10\ndevices = 4\nstripe_cache_size = 256\n" FS_WL,
		  "t.ini:4: [array a]: \"stripe_cache_size\" does not apply to raid10 (only to raid4, "
		  "raid5 or raid6)" },
		{ "[array a]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256, 8\n" FS_WL,
		  "t.ini:4: stripe_cache_size: \"8\": expected a whole number from 17 to 32768 "
		  "(stripe_cache_size = 256, 8)" },
		{ "[array a]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256, 256\n" FS_WL,
		  "t.ini:4: stripe_cache_size: 256 is given twice (stripe_cache_size = 256, 256)" },
		{ "[array a]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256,\n" FS_WL,
		  "t.ini:4: stripe_cache_size: expected a value or a list such as 256, 4096 "
		  "(stripe_cache_size = 256,)" },
		{ "[array a]\nlevel = none\nscheduler = cfq\n" FS_WL,
		  "t.ini:3: scheduler: \"cfq\": expected none, mq-deadline, bfq or kyber "
		  "(scheduler = cfq)" },
		{ "[array a]\nlevel = none\ndirty_bytes = 64m\ndirty_ratio = 10\n" FS_WL,
		  "t.ini:4: [array a]: \"dirty_ratio\" and \"dirty_bytes\" exclude each other (the "
		  "kernel keeps one: writing either zeroes the other)" },
		{ "[array a]\nlevel = none\nnr_requests = 64\nnr_requests = 128\n" FS_WL,
		  "t.ini:4: duplicate key \"nr_requests\" in [array a] (first at line 3)" },
		{ "[fs g]\ntype = ext4\nscheduler = bfq\n[array a]\nlevel = none\n[workload w]\n"
		  "type = seqwrite\nsize = 1m\n",
		  "t.ini:3: unknown key \"scheduler\" in [fs g] (known: type, mkfs, tune, mount)" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(parse(bad[i].text) == -1, "case %zu: accepted", i);
		CHECK(strcmp(p.errors[0], bad[i].err) == 0, "case %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], bad[i].err);
	}
	CHECK_INT(parse("[array a]\nlevel = 6\ndevices = 4\nstripe_cache_size = 256, 1024 , "
			"4096\ngroup_thread_cnt = 2\nscheduler = bfq\ndirty_ratio = 10\n" FS_WL), 0);
	const struct plan_array *a = &p.arrays[0];
	CHECK_INT(a->ntun[TUN_STRIPE_CACHE_SIZE], 3);
	CHECK_INT(a->tun[TUN_STRIPE_CACHE_SIZE][2], 4096);
	CHECK_INT(a->ntun[TUN_SCHEDULER], 1);
	CHECK_INT(a->tun[TUN_SCHEDULER][0], 2);
	CHECK_INT(a->ntun[TUN_NR_REQUESTS], 0);
	CHECK_INT(plan_array_variants(a), 3);
}

/* Variants: chunk outermost, then each listed tunable, the last row fastest; the id names
 * only what varies. */
static void test_matrix(void)
{
	CHECK_INT(parse("[array r5]\nlevel = 5\ndevices = 3\nchunk = 64k, 512k\n"
			"stripe_cache_size = 256, 4096\nscheduler = bfq\n"
			"dirty_ratio = 10, 20\n" FS_WL), 0);
	static const char *const ids[] = {
		"r5-c64k-scs256-dr10/f/defaults/w", "r5-c64k-scs256-dr20/f/defaults/w",
		"r5-c64k-scs4096-dr10/f/defaults/w", "r5-c64k-scs4096-dr20/f/defaults/w",
		"r5-c512k-scs256-dr10/f/defaults/w", "r5-c512k-scs256-dr20/f/defaults/w",
		"r5-c512k-scs4096-dr10/f/defaults/w", "r5-c512k-scs4096-dr20/f/defaults/w",
	};
	struct cell c;
	CHECK_INT(matrix_per_rep(&p), 8);
	for (int i = 0; i < 8; i++) {
		CHECK_INT(matrix_cell(&p, i, &c), 0);
		CHECK_STR(c.id, ids[i]);
		CHECK_INT(c.tun_given, (1u << TUN_STRIPE_CACHE_SIZE) | (1u << TUN_SCHEDULER) |
			  (1u << TUN_DIRTY_RATIO));
		CHECK_INT(c.tun[TUN_SCHEDULER], 2);
	}
	matrix_cell(&p, 6, &c);
	CHECK_INT(c.chunk, 512 << 10);
	CHECK_INT(c.tun[TUN_STRIPE_CACHE_SIZE], 4096);
	CHECK_INT(c.tun[TUN_DIRTY_RATIO], 10);
	/* An array without tunables keeps the ids it always had. */
	CHECK_INT(parse("[array d]\nlevel = none\n" FS_WL), 0);
	matrix_cell(&p, 0, &c);
	CHECK_STR(c.id, "d/f/defaults/w");
	CHECK_INT(c.tun_given, 0);
}

/* The cell limit counts variants, and says so. */
static void test_size(void)
{
	char text[2048] = "[global]\nrepeat = 2\n[array a]\nlevel = 5\ndevices = 3\nchunk = 4k, 8k, 16k, 32k, 64k\n"
		"stripe_cache_size = 17, 18, 19, 20, 21, 22, 23, 24, 25, 26\n"
		"nr_requests = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\n"
		"read_ahead_kb = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11\n" FS_WL;
	CHECK_INT(parse(text), -1);
	CHECK_STR(p.errors[0], "t.ini:14: the matrix has 11000 cells (1 array x 5500 variants x 1 "
		  "fs x 1 workload x repeat 2), over the limit of 10000");
}

/* md's stripe cache against RAM: pages per member plus md's own, at most half of RAM. */
static void test_stripe_cache_ram(void)
{
	static const struct {
		long long entries;
		int members;
		double mem;
		int rc;
	} rows[] = {
		{ 32768, 3, 512.0 * (1 << 20), -1 },  /* 448 MiB: the kernel deadlocked on it */
		{ 32768, 3, 1024.0 * (1 << 20), 0 },  /* 448 of 1024: under half */
		{ 32768, 12, 64.0 * (1 << 30), 0 },   /* the twelve-disk server: 1.7 GiB */
		{ 4096, 3, 512.0 * (1 << 20), 0 },
		{ 18724, 3, 512.0 * (1 << 20), 0 },   /* the most 3 members take in 512 MiB */
		{ 18725, 3, 512.0 * (1 << 20), -1 },
		{ 256, 4, 0, 0 },                     /* RAM unknown: nothing refused */
	};
	CHECK(tun_stripe_cache_bytes(32768, 3) == 448.0 * (1 << 20), "32768 x 3 is 448 MiB: %g",
	      tun_stripe_cache_bytes(32768, 3));
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char why[256] = "";
		int rc = tun_stripe_cache_check(rows[i].entries, rows[i].members, rows[i].mem, why,
						sizeof why);
		CHECK(rc == rows[i].rc, "row %zu: %d, want %d (%s)", i, rc, rows[i].rc, why);
	}
	char why[256];
	tun_stripe_cache_check(32768, 3, 512.0 * (1 << 20), why, sizeof why);
	CHECK_STR(why, "stripe_cache_size = 32768 over 3 members would pin ~448 MiB of memory "
		  "(each entry a 4 KiB page and ~0.5 KiB of md's own per member), more than half "
		  "of the 512 MiB of RAM");
}

int main(void)
{
	test_stripe_cache_ram();
	test_write_cache();
	test_table();
	test_levels();
	test_values();
	test_read_back();
	test_places();
	test_plan_keys();
	test_matrix();
	test_size();
	return check_done("test_tunable");
}
