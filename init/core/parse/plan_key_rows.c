/* core/parse/plan_key_rows.c: every key a plan section takes, one row each: its name, kind,
 * field, range, which types it applies to, its default and its help (docs/plans.md's key
 * table is written from these rows: fsmatrix keys --markdown). The setters that fill a field
 * from its text are core/parse/plan_keys.c's. */
#include "core/parse/plan_keys.h"
#include "core/model/tunable.h"

#include <stddef.h>

static const struct choice resyncs[] = {
	{ "wait", RESYNC_WAIT }, { "assume-clean", RESYNC_ASSUME_CLEAN },
	{ "ignore", RESYNC_IGNORE }, { NULL, 0 },
};
static const struct choice fs_types[] = {
	{ "ext2", FS_EXT2 }, { "ext3", FS_EXT3 }, { "ext4", FS_EXT4 }, { "xfs", FS_XFS },
	{ "btrfs", FS_BTRFS }, { NULL, 0 },
};
/* btrfs_profiles (core/model/level.h) as a choice: the index is what the plan keeps */
static const struct choice metadatas[] = {
	{ "single", 1 }, { "dup", 2 }, { "raid0", 3 }, { "raid1", 4 }, { "raid1c3", 5 },
	{ "raid1c4", 6 }, { "raid10", 7 }, { "raid5", 8 }, { "raid6", 9 }, { NULL, 0 },
};
const struct choice bools[] = {
	{ "yes", 1 }, { "no", 0 }, { "1", 1 }, { "0", 0 }, { "true", 1 }, { "false", 0 },
	{ NULL, 0 },
};
static const struct choice datas[] = { { "random", DATA_RANDOM }, { "zero", DATA_ZERO }, { NULL, 0 } };
static const struct choice orders[] = {
	{ "interleave", ORDER_INTERLEAVE }, { "sequential", ORDER_SEQUENTIAL },
	{ "shuffle", ORDER_SHUFFLE }, { NULL, 0 },
};
static const struct choice durabilities[] = {
	{ "none", PLAN_DURABILITY_NONE }, { "log-writes", PLAN_DURABILITY_LOG_WRITES }, { NULL, 0 },
};
static const struct choice reuses[] = {
	{ "none", REUSE_NONE }, { "array", REUSE_ARRAY }, { "fs", REUSE_FS }, { NULL, 0 },
};
static const struct choice syncs[] = { { "timed", SYNC_TIMED }, { "none", SYNC_NONE }, { NULL, 0 } };

#define G(f) offsetof(struct plan, f)
#define A(f) offsetof(struct plan_array, f)
#define F(f) offsetof(struct plan_fs, f)
#define W(f) offsetof(struct plan_workload, f)

const struct key global_keys[] = {
	{ "name", K_NAME, G(name), 0, 0, NULL, NULL, 0,
	  .help = "the plan's name (the file's base name)" },
	{ "repeat", K_REPEAT, G(repeat), 1, 1000, NULL, NULL, 0,
	  .def = "1",
	  .help = "runs of every cell, each repetition on its own arrays and every cell on its own "
	  "filesystem (as `reuse` allows), 1 to 1000; or `auto`: each cell until its figure "
	  "is stable ([below](#repeat--auto))" },
	{ "repeat_max", K_INT, G(repeat_max), 3, 1000, NULL, NULL, 0,
	  .def = "10",
	  .help = "`repeat = auto` only: the most runs of a cell, 3 to 1000" },
	{ "detect", K_PCT, G(detect_pct), 0, 0, NULL, NULL, 0,
	  .help = "`repeat = auto` only: also repeat until a change of this % of the figure would "
	  "be detected (`5%`; above 0, up to 100) ([below](#repeat--auto)) (not asked)" },
	{ "resync", K_CHOICE, G(resync), 0, 0, resyncs, "expected wait, assume-clean or ignore", 0,
	  .def = "wait",
	  .help = "`wait`: poll `/sys/block/md0/md/sync_action` until idle (bounded by "
	  "`resync_timeout`, and not counted in the cell's `timeout`); a level with nothing "
	  "to resync (raid0, or an array missing all the members it can lose) is not waited "
	  "on and records `resync_s` 0; `assume-clean`: `mdadm --assume-clean`; `ignore`: "
	  "go on while md resyncs" },
	{ "drop_caches", K_BOOL, G(drop_caches), 0, 0, NULL, NULL, 0,
	  .def = "yes",
	  .help = "sync and drop caches before each workload and each smallfiles pass" },
	{ "timeout", K_DUR, G(timeout_s), 0, 0, NULL, NULL, 0,
	  .def = "30m",
	  .help = "per cell, s/m/h; 0 = none. At the timeout the workload is killed with everything "
	  "it started (its cgroup: fio's own process group too), and gone before the cell "
	  "unmounts; the record's `warnings` name what was still running (`the workload "
	  "left processes running when it timed out: fio 112, fio 114 ...`)" },
	{ "retries", K_INT, G(retries), 0, 100, NULL, NULL, 0,
	  .def = "1",
	  .help = "times a cell interrupted by a reboot (watchdog, crash, power loss) is run again "
	  "before it is recorded as an error; 0 = never again. See "
	  "[resume](reliability.md#resume-after-a-reboot)" },
	{ "warmup", K_INT, G(warmup), 0, 100, NULL, NULL, 0,
	  .def = "1",
	  .help = "warm-up workloads, 0 to 100, run before the first cell of every boot (a resumed "
	  "one too) on that cell's array and filesystem, and recorded as `warmup` records "
	  "that no figure, summary, count or report uses ([below](#warm-up-and-order))" },
	{ "order", K_CHOICE, G(order), 0, 0, orders, "expected interleave, sequential or shuffle", 0,
	  .def = "interleave",
	  .help = "the order cells run in: `interleave` (every cell once, then again, repetition "
	  "after repetition), `sequential` (each cell's repetitions back to back) or "
	  "`shuffle` (repetition after repetition, the cells of each one permuted by "
	  "`seed`) ([below](#warm-up-and-order))" },
	{ "seed", K_U64, G(seed), 0, 0, NULL, NULL, 0,
	  .help = "`order = shuffle` only: the permutation's seed, a whole number from 0 to 2^53 − "
	  "1 (9007199254740991); `fsmatrix.seed=N` on the kernel command line overrides it. "
	  "Not a workload's `seed` (the random data's, in a `[workload]` section). Without "
	  "one, each run draws its own and records it in the `plan` event (a shard takes "
	  "its run group's)" },
	{ "reuse", K_CHOICE, G(reuse), 0, 0, reuses, "expected none, array or fs", 0,
	  .def = "array",
	  .help = "what the cells of one array configuration share within a repetition "
	  "([below](#one-array-per-configuration-reuse)): `array` (one array, created and "
	  "resynced once; each cell its own mkfs), `fs` (also one filesystem per `[fs]` "
	  "section, emptied between cells) or `none` (everything made afresh for every "
	  "cell)" },
	{ "durability", K_CHOICE, G(durability), 0, 0, durabilities, "expected none or log-writes",
	  0, .def = "none",
	  .help = "`log-writes`: each cell's writes are logged by the kernel's dm-log-writes "
	  "target to `log_disk`, and after the cell each crash point is replayed, mounted, "
	  "verified and checked read-only by fsck under two models of the disks' cache "
	  "([below](#durability-what-a-power-cut-costs))" },
	{ "log_disk", K_INT, G(log_disk), 1, PLAN_DEVICES_MAX, NULL, NULL, 0,
	  .help = "`durability = log-writes` (required): the disk that holds the log, its "
	  "position among the disks handed over; not a member of any array nor a cache "
	  "disk" },
	{ "crash_points", K_INT, G(crash_points), 1, 10000, NULL, NULL, 0,
	  .def = "32",
	  .help = "`durability = log-writes`: the most crash points checked per cell: every "
	  "mark of the durability workload (each acknowledged sync) up to this many, else "
	  "this many evenly spread, the last among them" },
	{ "resync_timeout", K_DUR, G(resync_timeout_s), 0, 0, NULL, NULL, 0,
	  .def = "24h",
	  .help = "the resync wait's own bound, s/m/h; a resync past it makes the cell a `timeout`; "
	  "0 = none" },
	{ "discard", K_BOOL, G(discard), 0, 0, NULL, NULL, 0,
	  .def = "yes",
	  .help = "`yes`: mkfs discards the device's blocks before it writes, where the device "
	  "passes discards (raid0/1/10 and raw disks do; raid4/5/6 drop them), and a reused "
	  "filesystem is trimmed (`fstrim`) between cells; `no`: `mke2fs -E nodiscard`, "
	  "`mkfs.xfs -K`, no trim: every cell starts on blocks as the one before left them. "
	  "The record's `discarded` says what happened" },
	{ "monitor", K_PERIOD, G(monitor_ms), 0, 0, NULL, NULL, 0,
	  .def = PLAN_STR(PLAN_MONITOR_MS) "ms",
	  .help = "the period at which PID 1 samples the kernel's counters while each workload and "
	  "its timed sync run, into the cell's [`series` "
	  "record](records.md#series-records): a whole number of `ms` or `s` from 10ms to "
	  "60s, or `off`" },
	{ "disk_speed", K_PERIOD, G(disk_speed_ms), 0, 0, NULL, NULL, 0,
	  .def = PLAN_STR(PLAN_DISK_SPEED_MS) "ms",
	  .help = "how long PID 1 measures each taken disk's own speed in each direction, alone and "
	  "then all at once, before the first cell: the limit each streaming cell is set "
	  "against ([records](records.md), `disk-speed`); `ms` or `s` from 10ms to 60s, or "
	  "`off` (no limit, no efficiency). `check` says what it adds to a boot: 2 x (disks "
	  "+ 1) x this" },
	{ "reference", K_BOOL, G(reference), 0, 0, NULL, NULL, 0,
	  .def = "yes",
	  .help = "`yes`: PID 1 measures the [reference set](records.md) (a CPU loop, memcpy, a "
	  "RAM-disk write, a read of the first taken disk) at the start and the end of "
	  "every boot that runs cells, and the report lists a drift between the two under "
	  "Problems; `no`: neither (a few seconds a boot saved, and no check that the "
	  "machine held still during the run: the boot tests turn it off where they test "
	  "something else)" },
	/* the machine controls a plan may set (core/model/conditions.h) */
#define PLAN_CONTROL(id, name, dflt, values, what, where) \
	COND_IF_PLAN(where, { name, K_CONTROL, G(controls[COND_##id]), 0, 0, NULL, NULL, 0, \
		.help = what ", set before the first cell and read back (`fsmatrix." name "=` " \
		"wins over it, [kernel parameters](kernel-parameters.md)): " values "; `keep` " \
		"records the machine as found (`" dflt "`)" },)
	COND_CONTROLS(PLAN_CONTROL)
#undef PLAN_CONTROL
	{ "kernels", K_KERNELS, G(kernels), 0, 0, NULL, NULL, 0,
	  .help = "kernel sets every cell runs under, by name (`6.1, 6.12`: the folders of "
	  "`out/kernels/` that `make kernels` builds, "
	  "[image](image.md#more-than-one-kernel-make-kernels)): each repetition once under "
	  "each, the turn reversed every other repetition ([below](#kernels-as-an-axis)). "
	  "Needs a fixed `repeat` and `order = interleave` or `shuffle`, and the sets on "
	  "the results partition (`qemu/run --kernels`, `make usb KERNELS=`): `/init` "
	  "switches between them by kexec (not given: the kernel booted)" },
	{ .name = NULL },
};
const struct key array_keys[] = {
	{ "level", K_LEVEL, A(level), 0, 0, NULL, NULL, 0,
	  .help = "`none` (one raw disk, no md), 0, 1, 4, 5, 6, 10; btrfs's own RAID over the "
	  "disks, no md: `btrfs-single`, `btrfs-raid0`, `btrfs-raid1`, `btrfs-raid1c3`, "
	  "`btrfs-raid10`, `btrfs-raid5`, `btrfs-raid6` ([below](#btrfs-and-its-own-raid)); lvm's "
	  "own volumes over the disks, no md: `lvm-linear`, `lvm-striped`, `lvm-raid1`, "
	  "`lvm-raid5`, `lvm-raid6`, `lvm-raid10` ([below](#lvm-levels)) (required)" },
	{ "devices", K_INT, A(devices), 1, PLAN_DEVICES_MAX, NULL, NULL, 0,
	  .help = "members, counting missing ones" },
	{ "missing", K_INT, A(missing), 0, PLAN_DEVICES_MAX, NULL, NULL, B_MD | B_BTRFS,
	  .help = "members left out: a degraded array; for btrfs, wiped after mkfs and mounted "
	  "`degraded` (0)" },
	{ "chunk", K_CHUNKS, A(chunk), 0, 0, NULL, NULL, B_STRIPED,
	  .help = "a size, or a list (`16k, 64k`) making one array per value (mdadm's default); lvm "
	  "levels that stripe: `lvcreate --stripesize` (`64k`, lvm's default, given explicitly)" },
	{ "layout", K_STR, A(layout), 0, 0, NULL, NULL, B_MD,
	  .help = "passed to `mdadm --create` as `--layout=`" },
	{ "bitmap", K_STR, A(bitmap), 0, 0, NULL, NULL, B_MD,
	  .help = "md's write-intent bitmap: `none`, `internal`, a file, passed as `--bitmap=`; "
	  "`auto` leaves it to mdadm, which adds an internal one by itself to members of "
	  "100 GB or more (so a plan would measure with a bitmap on a server and without on "
	  "a VM). Arrays with redundancy (raid1, 4, 5, 6, 10) get `--bitmap=none` unless "
	  "the plan says otherwise; the record's `bitmap` says what md keeps (`none`)" },
	{ "options", K_WORDS, A(options), 0, 0, NULL, NULL, B_MD,
	  .help = "more words passed to `mdadm --create`" },
	{ "layers", K_STR, A(layers), 0, 0, NULL, NULL, 0,
	  .help = "the device-mapper stacks the array's cells run with, between the array and the "
	  "filesystem: a list making one array variant per stack, as `chunk` does; a stack "
	  "is `[layer]` names joined by `+`, bottom first (`luks+pool`: crypt on the array, "
	  "a thin volume on the crypt device), or `none` ([below](#device-mapper-layers)) "
	  "(none)" },
	{ "metadata", K_CHOICE, A(metadata), 0, 0, metadatas, "expected single, dup, raid0, "
	  "raid1, raid1c3, raid1c4, raid10, raid5 or raid6", B_BTRFS,
	  .help = "btrfs levels: `mkfs.btrfs -m`: `single`, `dup`, `raid0`, `raid1`, `raid1c3`, "
	  "`raid1c4`, `raid10`, `raid5`, `raid6` (mkfs.btrfs's: `raid1` over several disks)" },
	{ "lv_size", K_SIZE, A(lv_size), 4 << 20, 0, NULL, NULL, B_LVM,
	  .help = "lvm levels: the logical volume's size, at most what the volume group holds "
	  "(`check --disk-size` refuses more) (all the volume group holds)" },
	{ .name = NULL },
};
const struct key fs_keys[] = {
	{ "type", K_CHOICE, F(type), 0, 0, fs_types, "unknown fs type: expected ext2, ext3, ext4, xfs or btrfs", 0,
	  .help = "ext2, ext3, ext4, xfs, btrfs (required)" },
	{ "mkfs", K_WORDS, F(mkfs), 0, 0, NULL, NULL, 0,
	  .help = "extra mkfs words; stripe geometry (ext: `-E stride=,stripe_width=`; xfs: `-d "
	  "su=,sw=`) and, for ext4, `lazy_itable_init=0,lazy_journal_init=0` are added "
	  "unless given" },
	{ "tune", K_WORDS, F(tune), 0, 0, NULL, NULL, B_EXT,
	  .help = "tune2fs words, run after mkfs (ext only)" },
	{ "mount", K_MOUNT, F(mount), 0, 0, NULL, NULL, 0,
	  .help = "one line per mount set (`defaults`); flags (`noatime`, `ro`, ...) go to "
	  "mount(2)'s flags, the rest is the filesystem's data string" },
	{ .name = NULL },
};
const struct key wl_keys[] = {
	{ "type", K_WLTYPE, W(type), 0, 0, NULL, NULL, 0,
	  .help = "seqwrite, smallfiles, tar, seqread, fsync, fio "
	  "([below](#latency-and-fio-workloads)), durability "
	  "([below](#the-durability-workload)) (required)" },
	{ "size", K_WLSIZE, W(size), 4096, 0, NULL, NULL, 0,
	  .help = "bytes (k/m/g/t, powers of 1024), or a share of the machine: `2x ram`, `0.5x ram` "
	  "(of MemTotal), `10% fs` (of the filesystem's free space after mkfs); times "
	  "`fsmatrix.scale` ([below](#sizes-relative-to-the-machine)); fsync, fio "
	  "inline and durability: required; durability: 4 KiB a record and an operation "
	  "(4k to 4000000k)" },
	{ "bs", K_SIZE, W(bs), 512, 64 << 20, NULL, NULL, 0,
	  .def = "1m",
	  .help = "seqwrite and seqread: the block size; fsync: bytes per append (required); fio "
	  "inline: `--bs`" },
	{ "direct", K_BOOL, W(direct), 0, 0, NULL, NULL, 0,
	  .def = "no",
	  .help = "seqwrite and seqread: O_DIRECT; fio inline: `--direct=1`" },
	{ "fallocate", K_BOOL, W(fallocate), 0, 0, NULL, NULL, 0,
	  .def = "no",
	  .help = "seqwrite: reserve the file's blocks (`posix_fallocate`) before the timed writes. "
	  "`no` writes as dd, cp and tar do, the filesystem allocating blocks as they come, "
	  "which the figure then includes; `yes` is what fio does by default "
	  "(`fallocate=native`, at layout time, before its clock starts): compare a fio job "
	  "with a seqwrite only when both make the same choice (`--fallocate=none` in fio's "
	  "`options` for `no`). The record has `fallocate`, and `fallocate_s`, the time the "
	  "reservation took, outside the figure" },
	{ "data", K_CHOICE, W(data), 0, 0, datas, "expected random or zero", 0,
	  .def = "random",
	  .help = "seqwrite and seqread: `random` or `zero`. `random` is 1 MiB of the seed's "
	  "pseudo-random bytes filled before timing, repeated, with the first 16 bytes of "
	  "every 4 KiB of the file stamped with a hash of that 4 KiB's number and the seed: "
	  "no two 4 KiB of a run alike and none compressible, so a layer that deduplicates "
	  "or compresses in blocks up to 1 MiB (an SSD's controller, dm-vdo, a ZFS or btrfs "
	  "under test) sees none of it; the bytes are a function of the seed and the offset "
	  "alone, so the same seed gives the same bytes whatever `bs`. The writer's cost is "
	  "16 bytes stamped per 4 KiB, as fio's `scramble_buffers` stamps each 512 bytes of "
	  "its one buffer (a compressor with a window over 1 MiB would find the repeats, in "
	  "fio's data as in ours). `zero` writes zeroes, which such a layer can drop "
	  "entirely" },
	{ "passes", K_INT, W(passes), 1, 1000, NULL, NULL, 0,
	  .def = "1",
	  .help = "smallfiles: passes into `pass1/`, `pass2/`, ..." },
	{ "sync", K_CHOICE, W(sync), 0, 0, syncs, "expected timed or none", 0,
	  .def = "timed",
	  .help = "smallfiles and tar: `timed` (a sync after the workload, timed on its own) or "
	  "`none`" },
	{ "seed", K_U64, W(seed), 0, 0, NULL, NULL, 0,
	  .def = PLAN_STR(PLAN_DEFAULT_SEED),
	  .help = "seqwrite and seqread: the random data's seed; smallfiles: the file set's seed; "
	  "durability: the seed of the operations and the records' bytes" },
	{ "file", K_STR, W(file), 0, 0, NULL, NULL, 0,
	  .help = "tar: the archive, absolute or looked up in `fsmatrix/` on the results partition, "
	  "then `/plans`, then `/` in the image" },
	{ "files", K_INT, W(files), 1, 10000000, NULL, NULL, 0,
	  .help = "smallfiles: a file count (derived from `size`); durability: the base files "
	  "(4, at most 64)" },
	{ "background", K_SIZE, W(background), 0, 0, NULL, NULL, 0,
	  .help = "fsync (required): a background writer streaming through a file of this size "
	  "meanwhile (0: none). Both it and the appends write random data as seqwrite does, "
	  "each from a fixed seed of its own: no two 4 KiB of a file alike" },
	{ "job", K_STR, W(job), 0, 0, NULL, NULL, 0,
	  .help = "fio: a job file, looked up as tar's archive; takes no inline key" },
	{ "rw", K_STR, W(rw), 0, 0, NULL, NULL, 0,
	  .help = "fio inline (required): `--rw`" },
	{ "ioengine", K_STR, W(ioengine), 0, 0, NULL, NULL, 0,
	  .help = "fio inline: `--ioengine` (fio's default, psync)" },
	{ "iodepth", K_INT, W(iodepth), 1, 65536, NULL, NULL, 0,
	  .help = "fio inline: `--iodepth`" },
	{ "numjobs", K_INT, W(numjobs), 1, 64, NULL, NULL, 0,
	  .help = "fio inline: `--numjobs`" },
	{ "fsync", K_INT, W(fsync_every), 0, 1000000, NULL, NULL, 0,
	  .help = "fio inline: `--fsync=N`" },
	{ "runtime", K_DUR, W(runtime_s), 0, 0, NULL, NULL, 0,
	  .help = "fio inline: `--runtime` (s/m/h)" },
	{ "time_based", K_BOOL, W(time_based), 0, 0, NULL, NULL, 0,
	  .def = "no",
	  .help = "fio inline: `--time_based`" },
	{ "options", K_WORDS, W(options), 0, 0, NULL, NULL, 0,
	  .help = "fio inline: more `--key=value` words passed as they are" },
	{ .name = NULL },
};

/* A section keeps the line of each key in key_line[PLAN_KEYS_MAX], indexed by the key's row
 * (plan.c): no table may have more rows than that, its NULL row not counted. */
#define ROWS(t) (sizeof t / sizeof t[0] - 1)
_Static_assert(ROWS(global_keys) <= PLAN_KEYS_MAX, "global_keys fit in key_line[]");
_Static_assert(ROWS(array_keys) <= PLAN_KEYS_MAX, "array_keys fit in key_line[]");
_Static_assert(ROWS(fs_keys) <= PLAN_KEYS_MAX, "fs_keys fit in key_line[]");
_Static_assert(ROWS(wl_keys) <= PLAN_KEYS_MAX, "wl_keys fit in key_line[]");

const char *plan_order_name(enum plan_order o)
{
	for (const struct choice *c = orders; c->name; c++)
		if (c->value == (int)o)
			return c->name;
	return "unknown";
}

/* The sections in the docs' order; an array's tunables follow its own keys. */
static const struct {
	const char *section;
	const struct key *keys;
	int tunables;
} doc_sections[] = {
	{ "[global]", global_keys, 0 },
	{ "[array NAME]", array_keys, 1 },
	{ "[layer NAME]", layer_keys, 0 },
	{ "[fs NAME]", fs_keys, 0 },
	{ "[bisect]", bisect_keys, 0 },
	{ "[workload NAME]", wl_keys, 0 },
};

int plan_key_doc(int i, struct plan_key_doc *out)
{
	for (size_t s = 0; s < sizeof doc_sections / sizeof doc_sections[0]; s++) {
		const struct key *k = doc_sections[s].keys;
		out->section = doc_sections[s].section;
		for (; k->name; k++, i--)
			if (i == 0) {
				out->name = k->name, out->def = k->def, out->help = k->help;
				return 0;
			}
		if (doc_sections[s].tunables) {
			if (i < TUN_COUNT) {
				out->name = tun_rows[i].name, out->def = NULL, out->help = tun_plan_help;
				return 0;
			}
			i -= TUN_COUNT;
		}
	}
	return -1;
}
