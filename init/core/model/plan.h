/* core/model/plan.h: a benchmark plan, parsed from an INI file ([global], [array NAME], [fs NAME],
 * [workload NAME]). Pure: plan_parse works on a buffer, so the host tests and fuzzers run the
 * parser PID 1 runs; plan_load is the one wrapper that reads a file.
 * Every error is one line, "FILE:LINE: message". Fixed-size storage, no allocation. */
#ifndef FSM_PLAN_H
#define FSM_PLAN_H
#include "core/model/conditions.h"
#include <stddef.h>
#include <stdint.h>
#include "core/model/layer.h"
#include "core/model/level.h"
#include "core/model/tunable.h"

#define PLAN_FILE_MAX (1 << 20)   /* a plan is a page of text; anything bigger is not a plan */
#define PLAN_LINE_MAX 1024
#define PLAN_NAME_MAX 48          /* section names end up in cell ids and file names */
#define PLAN_STR_MAX 256
#define PLAN_SECTIONS_MAX 16      /* of each kind */
#define PLAN_LIST_MAX 16          /* chunks per array, mount lines per fs */
#define PLAN_ERRORS_MAX 16
#define PLAN_ERROR_LEN 512         /* the longest file name, a reason and a shortened echo */
#define PLAN_KEYS_MAX 28          /* keys per section kind */
#define PLAN_DEVICES_MAX 32
#define PLAN_KERNELS_MAX 8         /* kernels = : kernel sets a run compares (core/matrix/kernels.h) */
#define PLAN_KERNEL_NAME_MAX 32

enum resync { RESYNC_WAIT, RESYNC_ASSUME_CLEAN, RESYNC_IGNORE };
enum fs_type { FS_EXT2, FS_EXT3, FS_EXT4, FS_XFS, FS_BTRFS };
enum wl_type { WL_SEQWRITE, WL_SMALLFILES, WL_TAR, WL_SEQREAD, WL_FSYNC, WL_FIO, WL_DURABILITY };
enum wl_data { DATA_RANDOM, DATA_ZERO };
enum wl_sync { SYNC_TIMED, SYNC_NONE };
/* The order cells run in (core/matrix/order.h): repetition-major, each cell's repetitions back to
 * back, or repetition-major with the cells of each repetition permuted by a seed. */
enum plan_order { ORDER_INTERLEAVE, ORDER_SEQUENTIAL, ORDER_SHUFFLE };
/* What cells may share (core/matrix/reuse.h), and what a cell did take over from the one before:
 * nothing, the previous cell's array, or its array and its filesystem. */
enum plan_reuse { REUSE_NONE, REUSE_ARRAY, REUSE_FS };
/* durability = : what a power cut costs each cell, measured or not (core/workload/replay.h). */
enum plan_durability { PLAN_DURABILITY_NONE, PLAN_DURABILITY_LOG_WRITES };
/* A workload's size relative to the machine (core/workload/wlsize.h): what it is a share of. */
enum size_base { SIZE_BYTES, SIZE_RAM, SIZE_FS };

struct size_rel {
	enum size_base base;         /* SIZE_BYTES: size is the plan's own bytes */
	double factor;               /* 2 for "2x ram", 0.1 for "10% fs" */
	double scale;                /* fsmatrix.scale= applied to it (plan_scale), 1 until then */
};

struct plan_array {
	char name[PLAN_NAME_MAX];
	int line;                    /* of the [array NAME] header */
	int key_line[PLAN_KEYS_MAX]; /* where each key was set, 0 = not given */
	int level;                   /* a row of core/model/level.h's table: LEVEL_NONE, 0, 1, ... */
	int devices;                 /* members, counting missing ones (1 for none) */
	int missing;
	int nchunk;                  /* 0: mdadm's default chunk, no derived geometry */
	uint64_t chunk[PLAN_LIST_MAX];  /* bytes */
	char layout[PLAN_STR_MAX];   /* "" = mdadm's default */
	char bitmap[PLAN_STR_MAX];
	char options[PLAN_STR_MAX];  /* extra mdadm words */
	int metadata;                /* btrfs levels: mkfs.btrfs -m, an index of
	                                btrfs_profiles (core/model/level.h); 0 = mkfs's default */
	uint64_t lv_size;            /* lvm levels: the LV's bytes (lvcreate -L); 0 = all the VG
	                                holds (-l 100%FREE) */
	/* Kernel tunables (core/model/tunable.h), each a list making one array per value as chunk
	 * does: values as core/model/tunable.c parses them (a scheduler by its index). */
	int tun_line[TUN_COUNT];     /* where each was given, 0 = not, negative = bad value */
	int ntun[TUN_COUNT];         /* values given; 0 = not given: the kernel's default */
	long long tun[TUN_COUNT][PLAN_LIST_MAX];
	/* layers = none, luks, luks+pool: the dm stacks (core/model/layer.h) its cells run with, one
	 * array variant each; the text as given, resolved into stacks once every [layer] is read */
	char layers[PLAN_STR_MAX];
	int nstacks;                 /* 0: no layers key, the filesystem sits on the array */
	struct layer_stack stacks[LAYER_STACKS_MAX];
};

struct plan_fs {
	char name[PLAN_NAME_MAX];
	int line;
	int key_line[PLAN_KEYS_MAX];
	enum fs_type type;
	char mkfs[PLAN_STR_MAX];     /* extra mkfs words */
	char tune[PLAN_STR_MAX];     /* tune2fs words, "" = no tune2fs */
	int nmount;                  /* at least 1: "defaults" when the plan gives none */
	char mount[PLAN_LIST_MAX][PLAN_STR_MAX];
	int mount_line[PLAN_LIST_MAX];  /* where each was given, 0 = the "defaults" put in */
};

struct plan_workload {
	char name[PLAN_NAME_MAX];
	int line;
	int key_line[PLAN_KEYS_MAX];
	enum wl_type type;
	uint64_t size;               /* bytes (after plan_scale); for a relative size, what it
	                                resolves to on the nominal machine (core/workload/wlsize.h) until
	                                the run resolves it */
	struct size_rel size_rel;    /* size = 2x ram, 10% fs; base SIZE_BYTES otherwise */
	uint64_t bs;                 /* seqwrite block size, default 1 MiB */
	int direct;                  /* seqwrite: O_DIRECT */
	int fallocate;               /* seqwrite: reserve the file's blocks before the timed
	                                writes, as fio's default fallocate=native does */
	enum wl_data data;
	int passes;                  /* smallfiles, default 1 */
	enum wl_sync sync;
	uint64_t seed;               /* smallfiles, default PLAN_DEFAULT_SEED */
	char file[PLAN_STR_MAX];     /* tar: the archive */
	long files;                  /* smallfiles: file count, 0 = derived from size */
	uint64_t background;         /* fsync: bytes the background writer cycles through,
	                                0 = no background writer */
	char job[PLAN_STR_MAX];      /* fio: a job file, "" = the inline keys below */
	char rw[PLAN_STR_MAX];       /* fio inline: --rw */
	char ioengine[PLAN_STR_MAX]; /* fio inline: --ioengine, "" = fio's default */
	int iodepth, numjobs;        /* fio inline: 0 = fio's default */
	int fsync_every;             /* fio inline: --fsync=N, 0 = not given */
	unsigned runtime_s;          /* fio inline: --runtime, 0 = not given */
	int time_based;              /* fio inline: --time_based */
	char options[PLAN_STR_MAX];  /* fio inline: more --key=value words, as given */
};

#define PLAN_DEFAULT_SEED 20240601
/* order = shuffle's seed: any whole number a JSON reader keeps exactly (2^53 - 1) */
#define PLAN_SEED_MAX 9007199254740991ull
#define PLAN_MONITOR_MS 100
/* A number as a plan writes it, for the key tables' defaults: PLAN_STR(PLAN_MONITOR_MS) "ms" */
#define PLAN_STR(x) PLAN_STR_(x)
#define PLAN_STR_(x) #x
/* Half a second each way: long enough for a disk's cache and a throttle's burst to be left
 * behind in the warm-up share (core/figures/limit.h), short enough for a boot of many disks. */
#define PLAN_DISK_SPEED_MS 500
#define PLAN_MONITOR_MIN_MS 10
#define PLAN_MONITOR_MAX_MS 60000

/* [bisect]: the search for the first kernel set where a cell's figure got worse
 * (core/matrix/bisect.h). The sets are the plan's kernels, in order. */
enum bisect_direction { BISECT_DIR_METRIC, BISECT_LOWER_IS_WORSE, BISECT_HIGHER_IS_WORSE };
struct plan_bisect {
	int line;                    /* of the [bisect] header; 0: the plan is no bisection */
	int key_line[PLAN_KEYS_MAX];
	char good[PLAN_NAME_MAX], bad[PLAN_NAME_MAX];   /* kernel sets, known good and bad */
	char cell[PLAN_STR_MAX];     /* a cell id of the plan, without its @kernel */
	char metric[PLAN_NAME_MAX];  /* a metric of that cell's workload: "mbps" */
	enum bisect_direction direction;  /* default: the metric's own (a rate: lower is worse) */
	double min_change_pct;       /* the ends must differ by this much too, default 5 */
	/* resolved by the checks (core/parse/plan_bisect.c) */
	int good_k, bad_k;           /* indexes into the plan's kernels */
	int slot;                    /* the cell's slot (core/matrix/matrix.h) */
	int lower_is_worse;
};

struct plan {
	char file[PLAN_STR_MAX];     /* as given to the parser, for error lines */
	int lines;                   /* where whole-plan errors and warnings point: the last line */
	char name[PLAN_NAME_MAX];    /* default: the file's base name without .ini */
	int global_line;
	int key_line[PLAN_KEYS_MAX];
	int repeat;                  /* default 1; with repeat = auto, repeat_max */
	int repeat_auto;             /* repeat = auto: each cell until its figure is stable
	                                (core/figures/verdict.h), at most repeat_max times */
	int repeat_max;              /* default 10 */
	double detect_pct;           /* repeat = auto: also until a change of this % of the
	                                figure would be detected (core/figures/verdict.h); 0 = not asked */
	enum resync resync;          /* default wait */
	int drop_caches;             /* default yes */
	unsigned timeout_s;          /* per cell, default 30 min; 0 = none */
	int retries;                 /* default 1 */
	int warmup;                  /* warm-up workloads before a boot's first cell, default 1 */
	enum plan_order order;       /* default interleave */
	enum plan_reuse reuse;       /* default array */
	enum plan_durability durability; /* default none */
	int log_disk;                /* durability = log-writes: the log's disk, a position among
	                                the disks handed over (1 = the first); 0 = not given */
	int crash_points;            /* durability: the most crash points checked per cell,
	                                default 32 */
	unsigned resync_timeout_s;   /* the resync wait's own bound, default 24 h; 0 = none */
	int discard;                 /* mkfs discards the blocks (and reused cells' arrays are
	                                discarded between cells), default yes */
	uint64_t seed;               /* shuffle's seed: the plan's, else set by PID 1 or check
	                                before the cells are expanded (plan_seed_given) */
	unsigned disk_speed_ms;      /* each taken disk's own speed measured before the first
				        cell, for this long a direction (pid1/diskspeed.c),
				        default PLAN_DISK_SPEED_MS; 0 = off */
	int reference;               /* the reference set at each boot's start and end
				        (pid1/reference.c), default yes */
	unsigned monitor_ms;         /* period of each cell's time series, default
				        PLAN_MONITOR_MS; 0 = off */
	char controls[COND_COUNT][COND_VALUE_MAX]; /* governor, turbo, cstates, thp as the
				        plan asks (core/model/conditions.h); "" = not given */
	int nkernels;                /* kernels = NAME, ...: every cell under each (core/matrix/kernels.h);
				        0 = the one kernel booted */
	char kernels[PLAN_KERNELS_MAX][PLAN_KERNEL_NAME_MAX];
	struct plan_bisect bisect;   /* [bisect]: a search over the kernels, not their matrix */
	double scale;                /* applied by plan_scale, 1.0 until then */
	int narrays, nfs, nworkloads;
	struct plan_array arrays[PLAN_SECTIONS_MAX];
	struct plan_fs fs[PLAN_SECTIONS_MAX];
	struct plan_workload workloads[PLAN_SECTIONS_MAX];
	int nlayers;                 /* [layer NAME] sections (core/model/layer.h) */
	struct plan_layer layers[PLAN_SECTIONS_MAX];
	int nerrors;                 /* sorted by line; the first PLAN_ERRORS_MAX are kept */
	char errors[PLAN_ERRORS_MAX][PLAN_ERROR_LEN];
};

/* Disks a cell on this array needs: devices minus missing (1 for a level without md). */
int plan_array_disks(const struct plan_array *a);
/* Cells one repetition has per array: its chunks times the values of each tunable it lists
 * (saturating at INT32_MAX, so a plan over the cell limit can still be counted). */
long long plan_array_variants(const struct plan_array *a);
/* "16k", "1m", "1536": the largest unit that divides the size exactly. */
void plan_fmt_size(uint64_t bytes, char *buf, size_t len);
/* Sizes with k/m/g/t suffixes in powers of 1024. Returns 0 or -1. */
int plan_parse_size(const char *s, uint64_t *out);
/* Durations in s, m or h (a bare number is seconds). Returns 0 or -1. */
int plan_parse_duration(const char *s, unsigned *out);
/* A sampling period: "off" (0), or a whole number of ms or s ("100ms", "1s") from
 * PLAN_MONITOR_MIN_MS to PLAN_MONITOR_MAX_MS. Returns 0 or -1. */
int plan_parse_period(const char *s, unsigned *out_ms);
/* Names for records and for `fsmatrix check` (plan_wl_name: core/workload/workload_kinds.h). */
const char *plan_fs_name(enum fs_type t);
const char *plan_resync_name(enum resync r);

#endif
