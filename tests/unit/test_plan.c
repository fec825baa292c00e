/* test_plan.c: the plan parser. Good plans with the values they give; bad plans with the
 * exact error lines they must produce. One row per case. */
#include "check.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"
#include "core/parse/plan_keys.h"
#include "core/model/layer.h"

#include <stdlib.h>

static struct plan p;

/* The example plan, as shipped in rootfs/plans/. */
static const char issue_plan[] =
	"[global]\n"
	"name = raid6-degraded-ext3-vs-ext4\n"
	"repeat = 1            # runs of every cell\n"
	"resync = wait         ; wait | assume-clean | ignore\n"
	"drop_caches = yes\n"
	"timeout = 30m         # per cell\n"
	"\n"
	"[array md6]\n"
	"level = 6\n"
	"devices = 4\n"
	"missing = 2\n"
	"chunk = 16k\n"
	"# layout = , bitmap = , options =   passed through to mdadm\n"
	"\n"
	"[fs ext3]\n"
	"type = ext3\n"
	"mkfs = -b 4096 -m 2   # extra mkfs arguments\n"
	"tune = -c0 -i0\n"
	"mount = data=ordered,barrier=1,commit=4\n"
	"mount = data=ordered,barrier=1,commit=60\n"
	"mount = data=ordered,barrier=0,commit=60\n"
	"mount = data=writeback,barrier=1,commit=4\n"
	"\n"
	"[fs ext4]\n"
	"type = ext4\n"
	"mkfs = -b 4096 -m 2\n"
	"mount = data=ordered,barrier=1,commit=4\n"
	"mount = data=writeback,barrier=1,commit=4\n"
	"mount = data=journal,barrier=1,commit=4\n"
	"\n"
	"[workload untar]\n"
	"type = smallfiles\n"
	"size = 220m\n"
	"passes = 2\n"
	"sync = timed\n"
	"\n"
	"[workload dd]\n"
	"type = seqwrite\n"
	"size = 1g\n"
	"bs = 1m\n";

/* The smallest plan: every default shows. */
#define MIN_TAIL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"
#define MIN_PLAN "[array a]\nlevel = none\n" MIN_TAIL

static int parse(const char *text)
{
	return plan_parse("t.ini", text, strlen(text), &p);
}

static void test_issue_plan(void)
{
	CHECK_INT(parse(issue_plan), 0);
	CHECK_INT(p.nerrors, 0);
	CHECK_STR(p.name, "raid6-degraded-ext3-vs-ext4");
	CHECK_INT(p.repeat, 1);
	CHECK_INT(p.resync, RESYNC_WAIT);
	CHECK_INT(p.drop_caches, 1);
	CHECK_INT(p.timeout_s, 1800);
	CHECK_INT(p.narrays, 1);
	CHECK_STR(p.arrays[0].name, "md6");
	CHECK_INT(p.arrays[0].level, 6);
	CHECK_INT(p.arrays[0].devices, 4);
	CHECK_INT(p.arrays[0].missing, 2);
	CHECK_INT(p.arrays[0].nchunk, 1);
	CHECK_INT(p.arrays[0].chunk[0], 16384);
	CHECK_INT(p.nfs, 2);
	CHECK_INT(p.fs[0].type, FS_EXT3);
	CHECK_STR(p.fs[0].mkfs, "-b 4096 -m 2");
	CHECK_STR(p.fs[0].tune, "-c0 -i0");
	CHECK_INT(p.fs[0].nmount, 4);
	CHECK_STR(p.fs[0].mount[3], "data=writeback,barrier=1,commit=4");
	CHECK_INT(p.fs[1].nmount, 3);
	CHECK_STR(p.fs[1].tune, "");
	CHECK_INT(p.nworkloads, 2);
	CHECK_INT(p.workloads[0].type, WL_SMALLFILES);
	CHECK_INT(p.workloads[0].size, 220ull << 20);
	CHECK_INT(p.workloads[0].passes, 2);
	CHECK_INT(p.workloads[0].sync, SYNC_TIMED);
	CHECK_INT(p.workloads[1].type, WL_SEQWRITE);
	CHECK_INT(p.workloads[1].size, 1ull << 30);
	CHECK_INT(p.workloads[1].bs, 1 << 20);
}

static void test_defaults(void)
{
	CHECK_INT(parse(MIN_PLAN), 0);
	CHECK_STR(p.name, "t");             /* the file name without .ini */
	CHECK_INT(p.repeat, 1);
	CHECK_INT(p.resync, RESYNC_WAIT);
	CHECK_INT(p.drop_caches, 1);
	CHECK_INT(p.timeout_s, 30 * 60);
	CHECK_INT(p.retries, 1);
	CHECK_INT(p.monitor_ms, 100);
	CHECK_INT(p.reference, 1);
	CHECK_INT(p.arrays[0].level, LEVEL_NONE);
	/* the sampler off, and a period in seconds */
	CHECK_INT(parse("[global]\nmonitor = off\n" MIN_PLAN), 0);
	CHECK_INT(p.monitor_ms, 0);
	CHECK_INT(parse("[global]\nmonitor = 2s\n" MIN_PLAN), 0);
	CHECK_INT(p.monitor_ms, 2000);
	CHECK_INT(parse(MIN_PLAN), 0);
	CHECK_INT(p.arrays[0].devices, 1);
	CHECK_INT(p.arrays[0].nchunk, 0);
	CHECK_INT(p.fs[0].nmount, 1);
	CHECK_STR(p.fs[0].mount[0], "defaults");
	CHECK_INT(p.workloads[0].bs, 1 << 20);
	CHECK_INT(p.workloads[0].data, DATA_RANDOM);
	CHECK_INT(p.workloads[0].direct, 0);
	CHECK_INT(p.workloads[0].passes, 1);
	CHECK_INT(p.workloads[0].seed, PLAN_DEFAULT_SEED);
	CHECK_INT(p.disk_speed_ms, PLAN_DISK_SPEED_MS);
	CHECK_INT(p.monitor_ms, PLAN_MONITOR_MS);
}

/* The defaults live in the key rows: each one parses with its own key's setter (one that did
 * not would leave its field zero without a word), every key has help for the docs' table, and
 * the defaults that other code knows by a constant say the same. */
static void test_key_rows(void)
{
	static const struct key *const tables[] = {
		global_keys, array_keys, fs_keys, wl_keys, layer_keys, bisect_keys,
	};
	static char base[sizeof(struct plan)];
	char msg[PLAN_ERROR_LEN];
	int rows = 0;
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
		for (const struct key *k = tables[t]; k->name; k++, rows++) {
			CHECK(k->help && k->help[0], "key %s has no help", k->name);
			if (k->def)
				CHECK(set_value(k, base, k->def, msg, sizeof msg) == 0,
				      "key %s: its default \"%s\" does not parse: %s", k->name, k->def, msg);
		}
	struct plan_key_doc d;
	int docs = 0;
	while (plan_key_doc(docs, &d) == 0)
		docs++;
	CHECK_INT(docs, rows + TUN_COUNT);
	struct plan_layer l;
	plan_layer_defaults(&l);
	CHECK_STR(l.cipher, layer_ciphers[0].spec);
	CHECK_INT(l.zero, 1);
	CHECK_INT(l.mode, LAYER_WRITEBACK);
}

/* Every yes-or-no key takes yes and no, 1 and 0 (as fio's own direct=1), true and false:
 * one parser for all of them. */
static void test_booleans(void)
{
	static const struct { const char *text; int want; } rows[] = {
		{ "yes", 1 }, { "no", 0 }, { "1", 1 }, { "0", 0 }, { "true", 1 }, { "false", 0 },
	};
	char text[512];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *v = rows[i].text;
		snprintf(text, sizeof text, "[global]\ndrop_caches = %s\nreference = %s\n[array a]\nlevel = none\n"
			 "[fs f]\ntype = ext4\n[workload w]\ntype = fio\nrw = read\nsize = 1m\n"
			 "direct = %s\nruntime = 10s\ntime_based = %s\n[workload s]\ntype = seqwrite\n"
			 "size = 1m\ndirect = %s\nfallocate = %s\n", v, v, v, v, v, v);
		int rc = parse(text);
		CHECK(rc == 0, "%s: %s", v, p.errors[0]);
		CHECK(p.drop_caches == rows[i].want, "drop_caches = %s", v);
		CHECK(p.reference == rows[i].want, "reference = %s", v);
		CHECK(p.workloads[0].direct == rows[i].want, "fio direct = %s", v);
		CHECK(p.workloads[0].time_based == rows[i].want, "time_based = %s", v);
		CHECK(p.workloads[1].direct == rows[i].want, "seqwrite direct = %s", v);
		CHECK(p.workloads[1].fallocate == rows[i].want, "seqwrite fallocate = %s", v);
	}
}

/* Values of every kind, and the syntax around them. */
static void test_values(void)
{
	const char *text =
		"# a comment with bytes \xc3\xa9\r\n"   /* UTF-8 and CRLF are fine */
		"  [ global ]  # spaces inside the brackets\r\n"
		"repeat=3\r\n"
		"resync = assume-clean\n"
		"drop_caches = no\n"
		"timeout = 2h\n"
		"retries = 0\n"
		"monitor = 250ms\n"
		"\t[array r10]\n"
		"level = 10\ndevices = 4\nmissing = 2\nchunk = 16k, 64K ,1m\n"
		"layout = f2\nbitmap = internal\noptions = --name \"my array\" --verbose\n"
		"[fs x]\ntype = xfs\nmkfs = -d agcount=4;not a comment\nmount = noatime#not-a-comment\n"
		"[workload tarball]\ntype = tar\nfile = src.tar\nsync = none\n"
		"[workload s]\ntype = smallfiles\nsize = 2g\nseed = 7\nfiles = 1000\n"
		"[workload d]\ntype = seqwrite\nsize = 1t\nbs = 4k\ndirect = yes\ndata = zero\n";
	CHECK_INT(parse(text), 0);
	for (int i = 0; i < p.nerrors && i < PLAN_ERRORS_MAX; i++)
		fprintf(stderr, "  %s\n", p.errors[i]);
	CHECK_INT(p.repeat, 3);
	CHECK_INT(p.resync, RESYNC_ASSUME_CLEAN);
	CHECK_INT(p.drop_caches, 0);
	CHECK_INT(p.timeout_s, 7200);
	CHECK_INT(p.retries, 0);
	CHECK_INT(p.monitor_ms, 250);
	CHECK_INT(p.arrays[0].level, 10);
	CHECK_INT(p.arrays[0].nchunk, 3);
	CHECK_INT(p.arrays[0].chunk[1], 65536);
	CHECK_INT(p.arrays[0].chunk[2], 1 << 20);
	CHECK_STR(p.arrays[0].layout, "f2");
	CHECK_STR(p.arrays[0].bitmap, "internal");
	CHECK_STR(p.arrays[0].options, "--name \"my array\" --verbose");
	CHECK_INT(p.fs[0].type, FS_XFS);
	CHECK_STR(p.fs[0].mkfs, "-d agcount=4;not a comment");
	CHECK_STR(p.fs[0].mount[0], "noatime#not-a-comment");
	CHECK_INT(p.workloads[0].type, WL_TAR);
	CHECK_STR(p.workloads[0].file, "src.tar");
	CHECK_INT(p.workloads[0].sync, SYNC_NONE);
	CHECK_INT(p.workloads[1].size, 2ull << 30);
	CHECK_INT(p.workloads[1].seed, 7);
	CHECK_INT(p.workloads[1].files, 1000);
	CHECK_INT(p.workloads[2].size, 1ull << 40);
	CHECK_INT(p.workloads[2].bs, 4096);
	CHECK_INT(p.workloads[2].direct, 1);
	CHECK_INT(p.workloads[2].data, DATA_ZERO);
}

static const struct bad {
	const char *text;
	const char *err;     /* the first error line */
	int nerrors;
} bad[] = {
	/* durability = log-writes: the log disk given, and no disk a cell writes otherwise. */
	{ "[global]\ndurability = log-writes\n" MIN_PLAN, "t.ini:2: [global]: durability = "
	  "log-writes needs \"log_disk = N\", the disk (its position among the disks handed over) "
	  "that holds the log", 1 },
	{ "[global]\ndurability = log-writes\nlog_disk = 2\n[array r]\nlevel = 1\ndevices = 2\n"
	  MIN_TAIL, "t.ini:3: [global]: log_disk = 2 is a member of [array r] (its members are "
	  "disks 1 to 2): give log_disk = 3 or more", 1 },
	{ "[global]\ndurability = log-writes\nlog_disk = 2\n[layer s]\ntype = cache\ncache = 2\n"
	  "[array a]\nlevel = none\nlayers = s\n" MIN_TAIL, "t.ini:3: [global]: log_disk = 2 is "
	  "the cache disk of [layer s]", 1 },
	{ "[global]\ndurability = log-writes\nlog_disk = 3\n[array b]\nlevel = btrfs-raid1\n"
	  "devices = 2\n[fs f]\ntype = btrfs\n[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:4: [array b]: level = btrfs-raid1 hands every disk to mkfs.btrfs: a btrfs that "
	  "spans several disks cannot sit on one log device (durability = log-writes)", 1 },
	{ "[global]\ncrash_points = 8\n" MIN_PLAN, "t.ini:2: [global]: \"crash_points\" applies to "
	  "durability = log-writes only", 1 },
	{ "[global]\ndurability = always\n" MIN_PLAN, "t.ini:2: durability: expected none or "
	  "log-writes (durability = always)", 1 },
	/* Syntax. */
	{ "[global]\nrepeat\n" MIN_PLAN, "t.ini:2: expected \"key = value\"", 1 },
	{ "[global]\n= 3\n" MIN_PLAN, "t.ini:2: expected \"key = value\"", 1 },
	{ "repeat = 2\n" MIN_PLAN, "t.ini:1: \"repeat\" is outside any section: start with [global]", 1 },
	{ "[global\n" MIN_PLAN, "t.ini:1: expected a section header such as [array md6]", 1 },
	{ "[global] x\n" MIN_PLAN, "t.ini:1: expected a section header such as [array md6]", 1 },
	{ "[bogus]\nkey = 1\n" MIN_PLAN, "t.ini:1: unknown section [bogus] (known: [global], "
	  "[array NAME], [fs NAME], [workload NAME], [layer NAME], [bisect])", 1 },
	/* [bisect]: its sets, ends, cell and metric */
	{ "[bisect]\nkernels = a, b, c\ngood = a\nbad = a\nmetric = mbps\n" MIN_PLAN,
	  "t.ini:4: [bisect]: good and bad are the same set (a): a search needs two ends", 1 },
	{ "[bisect]\nkernels = a, b, c\ngood = c\nbad = a\nmetric = mbps\n" MIN_PLAN,
	  "t.ini:3: [bisect]: good = c comes after bad = a in kernels: the list runs from the good "
	  "end to the bad one", 1 },
	{ "[bisect]\nkernels = a, b, c\ngood = a\nbad = z\nmetric = mbps\n" MIN_PLAN,
	  "t.ini:4: [bisect]: bad = z is not one of the kernels (a, ...)", 1 },
	{ "[bisect]\nkernels = a, b, c\ngood = a\nbad = c\nmetric = iops\n" MIN_PLAN,
	  "t.ini:5: [bisect]: metric = iops: the cell a/f/defaults/w (seqwrite) has no such metric "
	  "(its metrics: mbps, mbps_noflush, write_s, flush_s, total_s)", 1 },
	{ "[bisect]\nkernels = a, b\ngood = a\nbad = b\nmetric = mbps\ncell = x/f/defaults/w\n"
	  MIN_PLAN, "t.ini:6: [bisect]: cell = x/f/defaults/w is not a cell of this plan (such as "
	  "a/f/defaults/w)", 1 },
	{ "[global]\nrepeat = 3\n[bisect]\nkernels = a, b\ngood = a\nbad = b\nmetric = mbps\n"
	  MIN_PLAN, "t.ini:2: [global]: a [bisect] plan runs each probe until its figure is "
	  "stable: repeat = auto (or no repeat), not 3", 1 },
	{ "[global]\nkernels = a, b\n[bisect]\nkernels = a, b\ngood = a\nbad = b\nmetric = mbps\n"
	  MIN_PLAN, "t.ini:4: [bisect]: kernels is given in [global] too (line 2): name the sets "
	  "once", 1 },
	{ "[bisect]\ngood = a\nbad = b\nmetric = mbps\n" MIN_PLAN,
	  "t.ini:1: [bisect]: \"kernels\" is required: the kernel sets in order, from the good end "
	  "to the bad one", 1 },
	{ "[bisect]\nkernels = a, b\ngood = a\nbad = b\n" MIN_PLAN,
	  "t.ini:1: [bisect]: \"metric\" is required: one of mbps, mbps_noflush, write_s, flush_s, "
	  "total_s", 1 },
	{ "[bisect]\nkernels = a, b\ngood = a\nbad = b\nmetric = mbps\ndirection = up\n" MIN_PLAN,
	  "t.ini:6: direction: expected lower-is-worse or higher-is-worse (direction = up)", 1 },
	{ "[global main]\n" MIN_PLAN, "t.ini:1: [global] takes no name", 1 },
	{ "[global]\n[global]\n" MIN_PLAN, "t.ini:2: duplicate section [global] (first at line 1)", 1 },
	{ "[array]\n" MIN_PLAN, "t.ini:1: [array] needs a name: [array NAME]", 1 },
	{ "[array a b]\n" MIN_PLAN, "t.ini:1: [array a b]: a section name is one word", 1 },
	{ "[fs a/b]\n" MIN_PLAN, "t.ini:1: [fs a/b]: a name is letters, digits, '.', '_' or '-', "
	  "at most 47 long", 1 },
	{ MIN_PLAN "[array a]\nlevel = 0\ndevices = 2\n",
	  "t.ini:8: duplicate section [array a] (first at line 1)", 1 },
	{ MIN_PLAN "[fs f]\n", "t.ini:8: duplicate section [fs f] (first at line 3)", 1 },
	/* Keys. */
	{ "[global]\nrepaet = 2\n" MIN_PLAN, "t.ini:2: unknown key \"repaet\" in [global] (known: "
	  "name, repeat, repeat_max, detect, resync, drop_caches, timeout, retries, warmup, order, seed, reuse, durability, log_disk, crash_points, resync_timeout, discard, monitor, disk_speed, reference, governor, turbo, cstates, thp, kernels)", 1 },
	{ "[global]\nturbo = maybe\n" MIN_PLAN, "t.ini:2: turbo: expected on or off, or keep "
	  "(turbo = maybe)", 1 },
	{ "[global]\ngovernor = Perf!\n" MIN_PLAN, "t.ini:2: governor: expected a cpufreq governor "
	  "(performance, powersave, schedutil, ondemand, conservative, userspace), or keep "
	  "(governor = Perf!)", 1 },
	{ "[array a]\nlevel = none\nsize = 1g\n" MIN_TAIL, "t.ini:3: unknown key \"size\" in "
	  "[array a] (known: level, devices, missing, chunk, layout, bitmap, options, layers, metadata, lv_size, or a kernel tunable of docs/plans.md)", 1 },
	{ "[array a]\nlevel = none\nlevel = 0\n" MIN_TAIL,
	  "t.ini:3: duplicate key \"level\" in [array a] (first at line 2)", 1 },
	{ "[global]\nrepeat =\n" MIN_PLAN, "t.ini:2: repeat: expected a value", 1 },
	/* An empty required value is one error, not a follow-on one (found by fuzzing). */
	{ "[array a]\nlevel = none\n[fs f]\ntype =\n[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:4: type: expected a value", 1 },
	/* Values. */
	{ "[global]\nrepeat = 0\n" MIN_PLAN,
	  "t.ini:2: repeat: expected auto or a whole number from 1 to 1000 (repeat = 0)", 1 },
	{ "[global]\nrepeat = -1\n" MIN_PLAN,
	  "t.ini:2: repeat: expected auto or a whole number from 1 to 1000 (repeat = -1)", 1 },
	{ "[global]\nresync = later\n" MIN_PLAN,
	  "t.ini:2: resync: expected wait, assume-clean or ignore (resync = later)", 1 },
	{ "[global]\ndrop_caches = maybe\n" MIN_PLAN,
	  "t.ini:2: drop_caches: expected yes, no, 1, 0, true or false (drop_caches = maybe)", 1 },
	{ "[global]\ndrop_caches = Yes\n" MIN_PLAN,
	  "t.ini:2: drop_caches: expected yes, no, 1, 0, true or false (drop_caches = Yes)", 1 },
	{ "[global]\ntimeout = 30 m\n" MIN_PLAN,
	  "t.ini:2: timeout: expected a duration such as 90s, 30m or 2h (timeout = 30 m)", 1 },
	{ "[global]\ntimeout = 1d\n" MIN_PLAN,
	  "t.ini:2: timeout: expected a duration such as 90s, 30m or 2h (timeout = 1d)", 1 },
	{ "[global]\nmonitor = 5ms\n" MIN_PLAN, "t.ini:2: monitor: expected off or a period from "
	  "10ms to 60s, such as 100ms or 1s (monitor = 5ms)", 1 },
	{ "[global]\nmonitor = 100\n" MIN_PLAN, "t.ini:2: monitor: expected off or a period from "
	  "10ms to 60s, such as 100ms or 1s (monitor = 100)", 1 },
	{ "[global]\nmonitor = 2m\n" MIN_PLAN, "t.ini:2: monitor: expected off or a period from "
	  "10ms to 60s, such as 100ms or 1s (monitor = 2m)", 1 },
	{ "[global]\nname = my plan\n" MIN_PLAN, "t.ini:2: name: expected a name of letters, "
	  "digits, '.', '_' or '-', at most 47 long (name = my plan)", 1 },
	{ "[array a]\nlevel = 7\n" MIN_TAIL,
	  "t.ini:2: level: expected none, 0, 1, 4, 5, 6, 10, btrfs-single, btrfs-raid0, btrfs-raid1, btrfs-raid1c3, btrfs-raid10, btrfs-raid5, btrfs-raid6, lvm-linear, lvm-striped, lvm-raid1, lvm-raid5, lvm-raid6 or lvm-raid10 (level = 7)", 1 },
	{ "[array a]\nlevel = raid5\n" MIN_TAIL,
	  "t.ini:2: level: expected none, 0, 1, 4, 5, 6, 10, btrfs-single, btrfs-raid0, btrfs-raid1, btrfs-raid1c3, btrfs-raid10, btrfs-raid5, btrfs-raid6, lvm-linear, lvm-striped, lvm-raid1, lvm-raid5, lvm-raid6 or lvm-raid10 (level = raid5)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nchunk = 12q\n" MIN_TAIL,
	  "t.ini:4: chunk: \"12q\": expected sizes such as 16k or 16k, 64k (chunk = 12q)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nchunk = 16k, 24k\n" MIN_TAIL,
	  "t.ini:4: chunk: 24k is not a power of two from 4k to 1g (chunk = 16k, 24k)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nchunk = 2k\n" MIN_TAIL,
	  "t.ini:4: chunk: 2k is not a power of two from 4k to 1g (chunk = 2k)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nchunk = 16k,16k\n" MIN_TAIL,
	  "t.ini:4: chunk: 16k is given twice (chunk = 16k,16k)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nchunk = 16k,\n" MIN_TAIL,
	  "t.ini:4: chunk: \"\": expected sizes such as 16k or 16k, 64k (chunk = 16k,)", 1 },
	{ "[array a]\nlevel = 5\ndevices = 33\n" MIN_TAIL,
	  "t.ini:3: devices: expected a whole number from 1 to 32 (devices = 33)", 1 },
	{ "[array a]\nlevel = 0\ndevices = 2\noptions = --name \"x\n" MIN_TAIL,
	  "t.ini:4: options: unterminated double quote (options = --name \"x)", 1 },
	{ MIN_TAIL "[fs g]\ntype = zfs\n[array a]\nlevel = none\n",
	  "t.ini:7: type: unknown fs type: expected ext2, ext3, ext4, xfs or btrfs (type = zfs)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount =\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\n", "t.ini:5: mount: expected options, such as defaults or noatime,data=ordered", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = noatime, nodiratime\n"
	  "[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:5: mount: options are one word, separated by commas (mount = noatime, "
	  "nodiratime)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = noatime\nmount = noatime\n"
	  "[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:6: mount: given twice (mount = noatime)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 12q\n",
	  "t.ini:7: size: expected a size such as 4096, 512k, 220m or 1g, or a share of the machine "
	  "such as 2x ram or 10% fs (size = 12q)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 150% fs\n", "t.ini:7: size: expected at most 100% fs: this is more than the "
	  "filesystem's free space (100% fs) (size = 150% fs)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 0x ram\n", "t.ini:7: size: expected a share greater than 0, such as 2x ram or "
	  "10% fs (size = 0x ram)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 99999999999999999999\n", "t.ini:7: size: expected a size such as 4096, 512k, "
	  "220m or 1g, or a share of the machine such as 2x ram or 10% fs (size = "
	  "99999999999999999999)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 20000000t\n", "t.ini:7: size: expected a size such as 4096, 512k, 220m or 1g, or a share of the machine such as 2x ram or 10% fs "
	  "(size = 20000000t)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = dd\n",
	  "t.ini:6: type: unknown workload type: expected seqwrite, smallfiles, tar, seqread, "
	  "fsync, fio or durability (type = dd)", 1 },
	/* fio: a job file or inline keys, never both; inline needs rw and size; its options
	 * stay inside the cell's mount. */
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = fio\n"
	  "job = a.fio\nrw = read\n", "t.ini:8: [workload w]: \"rw\" cannot go with job = a.fio: "
	  "the job file gives every option", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = fio\n"
	  "rw = read\n", "t.ini:5: [workload w]: fio needs job = FILE, or rw and size (and the "
	  "other fio keys as wanted)", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = fio\n"
	  "rw = read\nsize = 1m\noptions = --filename=/dev/vda\n", "t.ini:9: [workload w]: "
	  "filename=/dev/vda names a path outside the cell's mount: fio runs confined to it, "
	  "and relative names land in it", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = fsync\n"
	  "size = 1m\n", "t.ini:5: [workload w]: missing required key \"bs\"", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\nbackground = 1m\n", "t.ini:8: [workload w]: \"background\" does not "
	  "apply to a seqwrite workload", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\nbs = 128m\n", "t.ini:8: bs: expected at most 64m (bs = 128m)", 1 },
	/* Section checks, reported at the key or the header they concern. */
	{ "[array a]\ndevices = 2\n" MIN_TAIL, "t.ini:1: [array a]: missing required key \"level\"", 1 },
	{ "[array a]\nlevel = 5\n" MIN_TAIL, "t.ini:1: [array a]: missing required key \"devices\"", 1 },
	{ "[array a]\nlevel = 0\ndevices = 1\n" MIN_TAIL,
	  "t.ini:3: [array a]: raid0 needs at least 2 devices, plan gives 1", 1 },
	{ "[array a]\nlevel = 1\ndevices = 1\n" MIN_TAIL,
	  "t.ini:3: [array a]: raid1 needs at least 2 devices, plan gives 1", 1 },
	{ "[array a]\nlevel = 6\ndevices = 3\n" MIN_TAIL,
	  "t.ini:3: [array a]: raid6 needs at least 4 devices, plan gives 3", 1 },
	{ "[array a]\nlevel = 0\ndevices = 2\nmissing = 1\n" MIN_TAIL,
	  "t.ini:4: [array a]: raid0 cannot run with missing members", 1 },
	{ "[array a]\nlevel = 1\ndevices = 3\nmissing = 3\n" MIN_TAIL,
	  "t.ini:4: [array a]: raid1 over 3 devices runs with at most 2 missing, plan gives 3", 1 },
	{ "[array a]\nlevel = 5\ndevices = 3\nmissing = 2\n" MIN_TAIL,
	  "t.ini:4: [array a]: raid5 over 3 devices runs with at most 1 missing, plan gives 2", 1 },
	{ "[array a]\nlevel = 6\ndevices = 4\nmissing = 3\n" MIN_TAIL,
	  "t.ini:4: [array a]: raid6 over 4 devices runs with at most 2 missing, plan gives 3", 1 },
	{ "[array a]\nlevel = 10\ndevices = 4\nmissing = 3\n" MIN_TAIL,
	  "t.ini:4: [array a]: raid10 over 4 devices runs with at most 2 missing, plan gives 3", 1 },
	{ "[array a]\nlevel = 1\ndevices = 2\nchunk = 64k\n" MIN_TAIL,
	  "t.ini:4: [array a]: \"chunk\" does not apply to raid1", 1 },
	{ "[array a]\nlevel = none\nchunk = 64k\n" MIN_TAIL,
	  "t.ini:3: [array a]: \"chunk\" does not apply to level none", 1 },
	{ "[array a]\nlevel = none\ndevices = 2\n" MIN_TAIL,
	  "t.ini:3: [array a]: level none is one disk: devices = 1", 1 },
	{ "[array a]\nlevel = none\n[fs f]\nmkfs = -m 1\n[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:3: [fs f]: missing required key \"type\"", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = xfs\ntune = -c0\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\n", "t.ini:5: [fs f]: \"tune\" does not apply to xfs", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\nsize = 1m\n",
	  "t.ini:5: [workload w]: missing required key \"type\"", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n",
	  "t.ini:5: [workload w]: missing required key \"size\"", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = tar\n",
	  "t.ini:5: [workload w]: missing required key \"file\"", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\nbs = 4k\ntype = smallfiles\n"
	  "size = 1m\n", "t.ini:6: [workload w]: \"bs\" does not apply to a smallfiles workload", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\npasses = 2\n",
	  "t.ini:8: [workload w]: \"passes\" does not apply to a seqwrite workload", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 512k\n", "t.ini:7: [workload w]: size 512k is smaller than bs 1m", 1 },
	{ "[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\n"
	  "size = 1m\nbs = 1536\ndirect = yes\n",
	  "t.ini:9: [workload w]: direct = yes needs bs a multiple of 4k, plan gives 1536", 1 },
	/* Whole-plan checks, at the last line; sections missing together are one line. */
	{ "[global]\nrepeat = 2\n", "t.ini:2: no [array NAME], [fs NAME] or [workload NAME] "
	  "section: a plan needs at least one of each (level = none for a raw disk)", 1 },
	{ "[array a]\nlevel = none\n", "t.ini:2: no [fs NAME] or [workload NAME] section: a plan "
	  "needs at least one of each", 1 },
	{ "", "t.ini:1: the plan is empty: it needs an [array NAME], an [fs NAME] and a "
	  "[workload NAME] section", 1 },
	{ "\n  \r\n\t\n", "t.ini:3: the plan is empty: it needs an [array NAME], an [fs NAME] "
	  "and a [workload NAME] section", 1 },
	{ "# a plan to come\n\n; later\n", "t.ini:3: the plan holds only comments and blank "
	  "lines: it needs an [array NAME], an [fs NAME] and a [workload NAME] section", 1 },
	/* A UTF-16 file is not binary garbage: say what it is and what to do. */
	{ "\xff\xfe[\0g\0", "t.ini:1: the plan is UTF-16 text: save it as UTF-8", 1 },
	{ "\xfe\xff\0[\0g", "t.ini:1: the plan is UTF-16 text: save it as UTF-8", 1 },
	{ "[array a]\nlevel = none\n[workload w]\ntype = seqwrite\nsize = 1m\n",
	  "t.ini:5: no [fs NAME] section: a plan needs at least one", 1 },
	/* Errors come back in line order, validation ones included. */
	{ "[array a]\nlevel = 6\ndevices = 3\n[global]\nfoo = 1\n" MIN_TAIL,
	  "t.ini:3: [array a]: raid6 needs at least 4 devices, plan gives 3", 2 },
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = parse(bad[i].text);
		CHECK(rc == -1, "case %zu: accepted", i);
		CHECK(p.nerrors == bad[i].nerrors, "case %zu: %d errors, want %d (first: %s)", i,
		      p.nerrors, bad[i].nerrors, p.errors[0]);
		CHECK(strcmp(p.errors[0], bad[i].err) == 0, "case %zu:\n  got  %s\n  want %s", i,
		      p.errors[0], bad[i].err);
	}
	/* Sorted: the second error of the last case is the later line. */
	CHECK_STR(p.errors[1], "t.ini:5: unknown key \"foo\" in [global] (known: name, repeat, "
		  "repeat_max, detect, resync, drop_caches, timeout, retries, warmup, order, seed, reuse, durability, log_disk, crash_points, resync_timeout, discard, monitor, disk_speed, reference, governor, turbo, cstates, thp, kernels)");
}

/* What a user sees after the first error of a line is fixed by adding another. */
static void test_followups(void)
{
	/* A key given again after a bad value: a duplicate of the line that gave it first. */
	CHECK_INT(parse("[array a]\nlevel = nine\nlevel = 0\ndevices = 2\n" MIN_TAIL), -1);
	CHECK_INT(p.nerrors, 2);
	CHECK_STR(p.errors[1], "t.ini:3: duplicate key \"level\" in [array a] (first at line 2)");
	CHECK_INT(parse("[global]\nrepeat =\nrepeat = 2\n" MIN_PLAN), -1);
	CHECK_STR(p.errors[1], "t.ini:3: duplicate key \"repeat\" in [global] (first at line 2)");
}

static void test_sizes(void)
{
	static const struct { const char *s; uint64_t v; int rc; } sizes[] = {
		{ "0", 0, 0 }, { "4096", 4096, 0 }, { "16k", 16384, 0 }, { "16K", 16384, 0 },
		{ "220m", 220ull << 20, 0 }, { "1g", 1ull << 30, 0 }, { "2t", 2ull << 40, 0 },
		{ "", 0, -1 }, { "k", 0, -1 }, { "1.5g", 0, -1 }, { "1kb", 0, -1 }, { "-1", 0, -1 },
		{ "1p", 0, -1 }, { " 1k", 0, -1 }, { "18446744073709551615", UINT64_MAX, 0 },
		{ "18446744073709551616", 0, -1 }, { "16777216t", 0, -1 },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint64_t v = 0;
		int rc = plan_parse_size(sizes[i].s, &v);
		CHECK(rc == sizes[i].rc, "size \"%s\": rc %d", sizes[i].s, rc);
		if (rc == 0)
			CHECK(v == sizes[i].v, "size \"%s\": %llu", sizes[i].s, (unsigned long long)v);
	}
	static const struct { const char *s; unsigned v; int rc; } durs[] = {
		{ "0", 0, 0 }, { "90", 90, 0 }, { "90s", 90, 0 }, { "30m", 1800, 0 }, { "2h", 7200, 0 },
		{ "1d", 0, -1 }, { "m", 0, -1 }, { "1ms", 0, -1 }, { "99999999999h", 0, -1 },
	};
	for (size_t i = 0; i < sizeof durs / sizeof durs[0]; i++) {
		unsigned v = 0;
		int rc = plan_parse_duration(durs[i].s, &v);
		CHECK(rc == durs[i].rc, "duration \"%s\": rc %d", durs[i].s, rc);
		if (rc == 0)
			CHECK_INT(v, durs[i].v);
	}
	static const struct { uint64_t v; const char *s; } fmt[] = {
		{ 0, "0" }, { 1536, "1536" }, { 16384, "16k" }, { 1ull << 20, "1m" },
		{ 3ull << 29, "1536m" }, { 1ull << 40, "1t" }, { 1ull << 50, "1024t" },
	};
	for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
		char buf[32];
		plan_fmt_size(fmt[i].v, buf, sizeof buf);
		CHECK_STR(buf, fmt[i].s);
	}
}

static void test_scale_and_disks(void)
{
	CHECK_INT(parse(issue_plan), 0);
	plan_scale(&p, 0.01);
	CHECK(p.scale == 0.01, "scale %g", p.scale);
	/* 220m * 0.01 = 2306867.2 bytes, down to whole 4k pages. */
	CHECK_INT(p.workloads[0].size, 2306048);
	/* 1g * 0.01 in whole 1m blocks. */
	CHECK_INT(p.workloads[1].size, 10 << 20);
	plan_scale(&p, 0.0001);
	CHECK_INT(p.workloads[0].size, 4096);      /* never below a page */
	CHECK_INT(p.workloads[1].size, 1 << 20);   /* never below one block */

	CHECK_INT(parse(issue_plan), 0);
	CHECK_INT(plan_array_disks(&p.arrays[0]), 2);   /* 4 devices, 2 missing */
	CHECK_INT(plan_check_disks(&p, 2), 0);
	CHECK_INT(plan_check_disks(&p, 1), -1);
	CHECK_STR(p.errors[0], "t.ini:10: [array md6] needs 2 test disks, 1 taken");
	CHECK_INT(parse(MIN_PLAN), 0);
	CHECK_INT(plan_check_disks(&p, 0), -1);
	CHECK_STR(p.errors[0], "t.ini:1: [array a] needs 1 test disk, 0 taken");
}

/* [bisect] resolved: the ends' indexes, the cell's slot, the metric's direction, repeat = auto
 * by default with its bound, min_change's default; direction and min_change as given. */
static void test_bisect(void)
{
	CHECK_INT(parse("[global]\nrepeat_max = 5\n[bisect]\nkernels = k1, k2, k3, k4\ngood = k2\n"
			"bad = k4\nmetric = mbps\n" MIN_PLAN), 0);
	CHECK(p.bisect.good_k == 1 && p.bisect.bad_k == 3 && p.bisect.slot == 0,
	      "good %d bad %d slot %d", p.bisect.good_k, p.bisect.bad_k, p.bisect.slot);
	CHECK(p.repeat_auto && p.repeat == 5 && p.nkernels == 4, "auto %d repeat %d", p.repeat_auto, p.repeat);
	CHECK_INT(p.bisect.lower_is_worse, 1);
	CHECK_STR(p.bisect.cell, "a/f/defaults/w");
	CHECK(p.bisect.min_change_pct == 5, "min_change %g", p.bisect.min_change_pct);
	CHECK_INT(parse("[bisect]\nkernels = k1, k2\ngood = k1\nbad = k2\nmetric = write_s\n"
			"min_change = 2%\n" MIN_PLAN), 0);
	CHECK_INT(p.bisect.lower_is_worse, 0);   /* a time: higher is worse */
	CHECK(p.bisect.min_change_pct == 2, "min_change %g", p.bisect.min_change_pct);
	CHECK_INT(parse("[bisect]\nkernels = k1, k2\ngood = k1\nbad = k2\nmetric = mbps\n"
			"direction = higher-is-worse\n" MIN_PLAN), 0);
	CHECK_INT(p.bisect.lower_is_worse, 0);
}

int main(void)
{
	test_bisect();
	test_issue_plan();
	test_defaults();
	test_key_rows();
	test_values();
	test_booleans();
	test_bad();
	test_followups();
	test_sizes();
	test_scale_and_disks();
	return check_done("test_plan");
}
