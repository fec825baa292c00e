/* test_layer.c: the device-mapper layers (core/model/layer.c, core/parse/plan_layer.c): the metadata
 * sizes (thin_metadata_size's and cache_metadata_size's rules), the exact dmsetup tables of
 * each kind and of a stack, the key put in and masked out, the cell ids and variants a
 * layers = list makes, and every plan a storage admin could get wrong refused with FILE:LINE
 * before any disk is written. */
#include "check.h"
#include "core/command/cellshow.h"
#include "core/model/layer.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

static struct plan p;

#define LAYERS \
	"[layer luks]\ntype = crypt\n" \
	"[layer pool]\ntype = thin\nsize = 100m\n" \
	"[layer ssd]\ntype = cache\ncache = 4\nmode = writethrough\n" \
	"[layer wc]\ntype = writecache\ncache = 5\n"
#define TAIL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"

static int parse(const char *text)
{
	return plan_parse("t.ini", text, strlen(text), &p);
}

static void test_sizes(void)
{
	/* 1 GiB of data in 64k blocks: 16384 blocks, 131 leaves of 8 sectors + 8: under the
	 * 2 MiB floor */
	CHECK_INT(layer_thin_meta_sectors(2097152, 128), 4096);
	/* 1 TiB in 64k blocks: 16777216 blocks -> 133153 leaves * 8 + 8 */
	CHECK_INT(layer_thin_meta_sectors(2147483648ull, 128), 133154 * 8 - 8 + 8);
	/* 1 GiB cache in 64k blocks: 8192 + 16384*16/512 + 16384*12/512 */
	CHECK_INT(layer_cache_meta_sectors(2097152, 128), 8192 + 512 + 384);
}

static void test_tables(void)
{
	struct layer_plan lp;
	char err[200] = "", line[600];
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nlayers = none, luks, pool, ssd, wc, "
			"luks+pool, ssd+luks\n" LAYERS TAIL), 0);
	const struct plan_array *a = &p.arrays[0];
	CHECK_INT(a->nstacks, 7);

	CHECK_INT(layer_plan_build(p.layers, &a->stacks[1], "/dev/md0", 4194304, NULL, 0, &lp,
				   err, sizeof err), 0);
	CHECK_INT(lp.n, 1);
	CHECK_STR(lp.dev[0].name, "fsm-0-crypt");
	CHECK_STR(lp.dev[0].table, "0 4194304 crypt aes-xts-plain64 KEY 0 /dev/md0 0");
	CHECK_INT(lp.dev[0].secret, 1);
	CHECK_STR(lp.top, "/dev/mapper/fsm-0-crypt");
	CHECK_INT(layer_table_keyed(lp.dev[0].table, "00ff", line, sizeof line), 0);
	CHECK_STR(line, "0 4194304 crypt aes-xts-plain64 00ff 0 /dev/md0 0");
	layer_table_masked("0 4194304 crypt aes-xts-plain64 00ffab 0 253:0 0", line, sizeof line);
	CHECK_STR(line, "0 4194304 crypt aes-xts-plain64 000000 0 253:0 0");
	layer_table_masked("0 10 linear 9:0 0", line, sizeof line);
	CHECK_STR(line, "0 10 linear 9:0 0");

	/* thin: 4096 sectors of metadata, the rest in whole 64k blocks, a 100m volume */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[2], "/dev/vdb", 2097152, NULL, 0, &lp,
				   err, sizeof err), 0);
	CHECK_INT(lp.n, 4);
	CHECK_STR(lp.dev[0].table, "0 4096 linear /dev/vdb 0");
	CHECK_STR(lp.dev[1].table, "0 2093056 linear /dev/vdb 4096");
	CHECK_STR(lp.dev[2].table, "0 2093056 thin-pool /dev/mapper/fsm-0-tmeta "
		  "/dev/mapper/fsm-0-tdata 128 0 0");
	CHECK_STR(lp.dev[2].zero_dev, "/dev/mapper/fsm-0-tmeta");
	CHECK_STR(lp.dev[2].message, "create_thin 0");
	CHECK_STR(lp.dev[3].table, "0 204800 thin /dev/mapper/fsm-0-pool 0");
	CHECK_INT(lp.top_sectors, 204800);
	/* a volume bigger than its pool is refused before anything is made */
	err[0] = '\0';
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[2], "/dev/vdb", 100000, NULL, 0, &lp, err,
				   sizeof err), -1);
	CHECK(strstr(err, "does not fit") != NULL, "%s", err);

	/* dm-cache, writethrough, on a 1 GiB cache disk */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[3], "/dev/md0", 4194304, "/dev/vde",
				   2097152, &lp, err, sizeof err), 0);
	CHECK_INT(lp.n, 3);
	CHECK_STR(lp.dev[0].table, "0 9088 linear /dev/vde 0");
	CHECK_STR(lp.dev[1].table, "0 2088064 linear /dev/vde 9088");
	CHECK_STR(lp.dev[2].table, "0 4194304 cache /dev/mapper/fsm-0-cmeta /dev/mapper/fsm-0-cdata "
		  "/dev/md0 128 1 writethrough smq 0");
	CHECK_STR(lp.dev[2].zero_dev, "/dev/mapper/fsm-0-cmeta");
	/* dm-writecache: its cache disk's head zeroed */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[4], "/dev/md0", 4194304, "/dev/vdf",
				   2097152, &lp, err, sizeof err), 0);
	CHECK_STR(lp.dev[0].table, "0 4194304 writecache s /dev/md0 /dev/vdf 4096 0");
	CHECK_STR(lp.dev[0].zero_dev, "/dev/vdf");
	/* a stack: crypt at position 0, thin on it at position 1 */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[5], "/dev/md0", 4194304, NULL, 0, &lp,
				   err, sizeof err), 0);
	CHECK_INT(lp.n, 5);
	CHECK_STR(lp.dev[1].table, "0 4096 linear /dev/mapper/fsm-0-crypt 0");
	CHECK_STR(lp.top, "/dev/mapper/fsm-1-thin");
	/* unknown sizes (check) */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[1], "/dev/md0", 0, NULL, 0, &lp, err,
				   sizeof err), 0);
	CHECK_STR(lp.dev[0].table, "0 <sectors> crypt aes-xts-plain64 KEY 0 /dev/md0 0");
}

static void test_ids(void)
{
	struct cell c;
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nchunk = 16k, 64k\n"
			"layers = none, luks+pool\n" LAYERS TAIL), 0);
	CHECK_INT(matrix_per_rep(&p), 4);
	const char *want[] = { "a-c16k/f/defaults/w", "a-c16k+luks+pool/f/defaults/w",
			       "a-c64k/f/defaults/w", "a-c64k+luks+pool/f/defaults/w" };
	for (int i = 0; i < 4; i++) {
		CHECK_INT(matrix_cell(&p, i, &c), 0);
		CHECK_STR(c.id, want[i]);
		CHECK_INT(c.stack, i % 2);
	}
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\n" TAIL), 0);
	CHECK_INT(matrix_cell(&p, 0, &c), 0);
	CHECK_INT(c.stack, -1);
	/* a cache disk counts among the disks a cell takes */
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nlayers = ssd\n" LAYERS TAIL), 0);
	CHECK_INT(plan_array_disks_taken(&p, &p.arrays[0]), 4);
	CHECK_INT(plan_check_disks(&p, 3), -1);
	CHECK(strstr(p.errors[0], "disk 4 as a cache") != NULL, "%s", p.errors[0]);
}

static const struct bad_case {
	const char *plan;
	const char *error;          /* the first error, whole */
} bad[] = {
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = ssd\n[layer ssd]\ntype = cache\n" TAIL,
	  "t.ini:5: [layer ssd]: type = cache needs \"cache = N\", the disk (its position among "
	  "the disks handed over) that holds the cache" },
	{ "[array a]\nlevel = 5\ndevices = 4\nlayers = ssd\n" LAYERS TAIL,
	  "t.ini:4: layers: [layer ssd]'s cache disk 4 is a member of the array (its members "
	  "are disks 1 to 4): give cache = 5 or more (layers = ssd)" },
	{ "[array a]\nlevel = none\nlayers = luks\n[layer luks]\ntype = crypt\n"
	  "cipher = serpent-xts-plain64\n" TAIL,
	  "t.ini:6: [layer luks]: cipher serpent-xts-plain64: the image's kernel has no module "
	  "for it (it has aes-xts-plain64, aes-cbc-essiv:sha256)" },
	{ "[array a]\nlevel = none\nlayers = luks\n[layer luks]\ntype = crypt\nkey_bits = 128\n" TAIL,
	  "t.ini:6: [layer luks]: key_bits = 128: aes-xts-plain64 takes 256 or 512" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = luks+ssd\n" LAYERS TAIL,
	  "t.ini:4: layers: luks+ssd: no cache above crypt: the cache disk would hold the "
	  "plaintext (put the cache below it) (layers = luks+ssd)" },
	{ "[array a]\nlevel = btrfs-raid1\ndevices = 2\nlayers = none, luks\n" LAYERS TAIL,
	  "t.ini:4: layers: btrfs-raid1 spreads btrfs over the disks itself, with no one device "
	  "for a layer to sit on: give layers = none, or an md level (layers = none, luks)" },
	{ "[array a]\nlevel = none\nlayers = pool+pool\n" LAYERS TAIL,
	  "t.ini:3: layers: pool+pool: a layer once per stack (layers = pool+pool)" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = ssd+wc\n" LAYERS TAIL,
	  "t.ini:4: layers: ssd+wc: at most one cache (cache, writecache or bcache) per stack "
	  "(layers = ssd+wc)" },
	{ "[array a]\nlevel = none\nlayers = luks+nope\n" LAYERS TAIL,
	  "t.ini:3: layers: no [layer nope] in the plan (layers = luks+nope)" },
	{ "[array a]\nlevel = none\nlayers = luks, luks\n" LAYERS TAIL,
	  "t.ini:3: layers: luks is given twice" },
	{ "[array a]\nlevel = none\nlayers = w\n[layer w]\ntype = writecache\ncache = 2\n"
	  "mode = writethrough\n" TAIL,
	  "t.ini:7: [layer w]: dm-writecache only writes back (mode = writethrough is type = cache)" },
	{ "[array a]\nlevel = none\n[layer l]\ntype = thin\ncipher = aes-xts-plain64\n" TAIL,
	  "t.ini:5: [layer l]: \"cipher\" does not apply to type = thin" },
	{ "[array a]\nlevel = none\n[layer l]\ntype = raid\n" TAIL,
	  "t.ini:4: type: expected crypt, thin, cache, writecache or bcache (type = raid)" },
	{ "[array a]\nlevel = none\n[layer l]\nsize = 1g\n" TAIL,
	  "t.ini:3: [layer l]: missing required key \"type\" (crypt, thin, cache, writecache or bcache)" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = l\n[layer l]\ntype = cache\ncache = 4\n"
	  "mode = writearound\n" TAIL,
	  "t.ini:8: [layer l]: mode = writearound is bcache's alone (type = bcache)" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = l\n[layer l]\ntype = cache\ncache = 4\n"
	  "sequential_cutoff = 0\n" TAIL,
	  "t.ini:8: [layer l]: \"sequential_cutoff\" does not apply to type = cache" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = l\n[layer l]\ntype = bcache\n" TAIL,
	  "t.ini:5: [layer l]: type = bcache needs \"cache = N\", the disk (its position among the "
	  "disks handed over) that holds the cache" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = l\n[layer l]\ntype = bcache\ncache = 3\n" TAIL,
	  "t.ini:4: layers: [layer l]'s cache disk 3 is a member of the array (its members are disks "
	  "1 to 3): give cache = 4 or more (layers = l)" },
	{ "[array a]\nlevel = 5\ndevices = 3\nlayers = l+m\n[layer l]\ntype = bcache\ncache = 4\n"
	  "[layer m]\ntype = cache\ncache = 5\n" TAIL,
	  "t.ini:4: layers: l+m: at most one cache (cache, writecache or bcache) per stack (layers = l+m)" },
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_INT(parse(bad[i].plan), -1);
		CHECK(p.nerrors >= 1, "case %zu: no error", i);
		if (p.nerrors >= 1)
			CHECK_STR(p.errors[0], bad[i].error);
	}
}

static void collect(void *ctx, const char *line)
{
	char *buf = ctx;
	size_t n = strlen(buf);
	snprintf(buf + n, 8192 - n, "%s\n", line);
}

static void test_show(void)
{
	static char out[8192];
	struct estimate_model m;
	struct cell c;
	double total = 0;
	int nwarn = 0;
	const char *disks[] = { "/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", NULL };
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nlayers = ssd+luks\n" LAYERS TAIL), 0);
	estimate_model_default(&m);
	CHECK_INT(matrix_cell(&p, 0, &c), 0);
	out[0] = '\0';
	CHECK_INT(cell_show(&p, &c, disks, 4, &m, &total, &nwarn, collect, out), 0);
	CHECK(strstr(out, "dmsetup create fsm-0-cache --table \"0 <sectors> cache "
		     "/dev/mapper/fsm-0-cmeta /dev/mapper/fsm-0-cdata /dev/md0 128 1 writethrough "
		     "smq 0\"") != NULL, "%s", out);
	CHECK(strstr(out, "dmsetup create fsm-0-cmeta --table \"0 <sectors> linear /dev/vde 0\"")
	      != NULL, "%s", out);
	CHECK(strstr(out, "dmsetup create fsm-1-crypt --table \"0 <sectors> crypt aes-xts-plain64 "
		     "<512-bit key, new each cell> 0 /dev/mapper/fsm-0-cache 0\"") != NULL, "%s", out);
	CHECK(strstr(out, "mkfs.ext4 -F -E lazy_itable_init=0,lazy_journal_init=0 "
		     "/dev/mapper/fsm-1-crypt") != NULL || strstr(out, "/dev/mapper/fsm-1-crypt\n"),
	      "%s", out);
}

/* The estimate: a zeroing thin pool charges mkfs's and the workload's bytes once more at
 * the array's rate, a cache the workload's bytes at one disk's; crypt and a pool that does
 * not zero add nothing. */
static void test_estimate(void)
{
	struct estimate_model m;
	struct cell_est e;
	struct cell c;
	estimate_model_default(&m);
	m.disk_mbps = 100;
	CHECK_INT(parse("[array a]\nlevel = none\nlayers = none, pool, luks, ssd\n" LAYERS
			"[layer nz]\ntype = thin\nzero = no\n[array b]\nlevel = none\nlayers = nz\n"
			"[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 100m\n"), 0);
	double want[] = { 0, -1, 0, 1.0, 0 };
	for (int i = 0; i < 5; i++) {
		CHECK_INT(matrix_cell(&p, i, &c), 0);
		cell_estimate_parts(&p, &c, &m, REUSE_NONE, &e);
		if (want[i] < 0)
			CHECK(e.layers_s > 1.0 && e.layers_s < 2.0, "thin zeroing (workload and mkfs bytes) %g", e.layers_s);
		else
			CHECK(e.layers_s > want[i] - 0.01 && e.layers_s < want[i] + 0.01, "cell %d: %g",
			      i, e.layers_s);
	}
}

/* bcache: make-bcache's line, its top, its bucket against the cache disk, the keys that are
 * its alone, and sysfs's answers read back. */
static void test_bcache(void)
{
	struct layer_plan lp;
	char err[300] = "", out[32];
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nlayers = bc, bc+luks\n[layer luks]\ntype = crypt\n"
			"[layer bc]\ntype = bcache\ncache = 4\nblock = 64k\nmode = writearound\n"
			"sequential_cutoff = 0\ncongested_read_threshold_us = 0\n"
			"congested_write_threshold_us = 2000\n" TAIL), 0);
	const struct plan_array *a = &p.arrays[0];
	const struct plan_layer *l = &p.layers[a->stacks[0].layer[0]];
	CHECK_INT(l->mode, LAYER_WRITEAROUND);
	CHECK_INT(l->congested_write_us, 2000);
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[0], "/dev/md0", 4194304, "/dev/vde",
				   262144, &lp, err, sizeof err), 0);
	CHECK_INT(lp.n, 1);
	CHECK_INT(lp.dev[0].bcache, 1);
	CHECK_STR(lp.dev[0].table, "make-bcache --bucket 64k -B /dev/md0 -C /dev/vde");
	CHECK_STR(lp.dev[0].backing, "/dev/md0");
	CHECK_STR(lp.dev[0].cache, "/dev/vde");
	CHECK_STR(lp.top, "/dev/bcache0");
	CHECK_INT(lp.top_sectors, 4194304 - 16);
	/* crypt above bcache: bcache's top is what dm-crypt maps */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[1], "/dev/md0", 4194304, "/dev/vde",
				   262144, &lp, err, sizeof err), 0);
	CHECK_STR(lp.dev[1].table, "0 4194288 crypt aes-xts-plain64 KEY 0 /dev/bcache0 0");
	/* 1023 buckets of 64k: the kernel refuses the cache */
	CHECK_INT(layer_plan_build(p.layers, &a->stacks[0], "/dev/md0", 4194304, "/dev/vde",
				   1023 * 128, &lp, err, sizeof err), -1);
	CHECK_STR(err, "bcache's cache disk /dev/vde of 130944 sectors holds 1023 buckets of 128 "
		  "sectors, the kernel takes 1024 or more (a smaller block)");
	CHECK_INT(parse("[array a]\nlevel = 5\ndevices = 3\nlayers = bc\n[layer bc]\ntype = bcache\n"
			"cache = 4\n" TAIL), 0);
	CHECK_INT(layer_plan_build(p.layers, &p.arrays[0].stacks[0], "/dev/md0", 0, NULL, 0, &lp,
				   err, sizeof err), 0);
	CHECK_STR(lp.dev[0].table, "make-bcache --writeback -B /dev/md0 -C <cache disk>");
	CHECK_INT(p.layers[0].sequential_cutoff, 0);
	CHECK_INT(p.layers[0].congested_read_us, 0);
	layer_bcache_choice("writethrough [writeback] writearound none", out, sizeof out);
	CHECK_STR(out, "writeback");
	layer_bcache_choice("writethrough", out, sizeof out);
	CHECK_STR(out, "");
	CHECK_INT(layer_bcache_bytes("0"), 0);
	CHECK_INT(layer_bcache_bytes("2000"), 2000);
	CHECK_INT(layer_bcache_bytes("4.0M"), 4194304);
	CHECK_INT(layer_bcache_bytes("55.2M"), 57881395);
	CHECK_INT(layer_bcache_bytes("512k"), 524288);
	CHECK_INT(layer_bcache_bytes("1.5G"), 1610612736);
	CHECK_INT(layer_bcache_bytes(""), -1);
	CHECK_INT(layer_bcache_bytes("4.0Q"), -1);
	CHECK_INT(layer_bcache_bytes("4.0MB"), -1);
}

/* dm-cache's status line, as dmsetup status prints it for fsm-0-cache. */
static void test_cache_status(void)
{
	struct layer_cache_stats st;
	CHECK_INT(layer_cache_status_parse("0 753664 cache 8 1127/4096 128 257/6080 11 3 402 24 0 "
					   "235 238 1 writeback 2 migration_threshold 2048 smq 0 rw -",
					   &st), 0);
	CHECK_INT(st.used_blocks, 257);
	CHECK_INT(st.total_blocks, 6080);
	CHECK_INT(st.read_hits, 11);
	CHECK_INT(st.read_misses, 3);
	CHECK_INT(st.write_hits, 402);
	CHECK_INT(st.write_misses, 24);
	CHECK_INT(st.demotions, 0);
	CHECK_INT(st.promotions, 235);
	CHECK_INT(st.dirty, 238);
	CHECK_INT(layer_cache_status_parse("0 753664 raid raid5_ls 3 AAA 1/1 idle 0 0 -", &st), -1);
	CHECK_INT(layer_cache_status_parse("0 753664 cache 8 1127/4096", &st), -1);
}

int main(void)
{
	test_bcache();
	test_cache_status();
	test_estimate();
	test_sizes();
	test_tables();
	test_ids();
	test_bad();
	test_show();
	return check_done("test_layer");
}
