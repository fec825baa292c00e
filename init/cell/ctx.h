/* cell/ctx.h: one cell's state, handed to each step of its lifecycle. The public side
 * is cell/cell.h; this header is for the files of the lifecycle alone:
 *   cell/steps.c   the cell's failure, its deadline, and steps (commands, system calls)
 *   cell/md.c      the members' wipe, the md array: create, resync wait, stop
 *   cell/fs.c      mkfs and tune, the geometry, mount(2) with its check, umount
 *   cell/tunables.c the kernel tunables: written, read back, put back
 *   cell/layers.c  the device-mapper layers between the array and the filesystem
 *   cell/lvm.c     an lvm level's PVs, VG and LV: made, synced, read back, removed
 *   cell/bcache.c  a bcache layer: made, registered, set and read back, its counters, stopped
 *   cell/dmcache.c a dm-cache layer's counters
 *   cell/record.c  the cell record
 *   cell/cell.c    the lifecycle: members, setup, workload, teardown in order */
#ifndef FSM_CELL_CTX_H
#define FSM_CELL_CTX_H
#include "cell/cell.h"
#include "core/disk/devstate.h"
#include "lib/run.h"

#define STEP_MAX 48
#define STEP_ERR_MAX 1024
#define TEXT_MAX (16 * 1024)      /* md --detail and fs geometry texts */
#define HANG_JSON_MAX (64 * 1024) /* a hung cell's evidence, whole */
#define HANG_FAULTS_MAX 8

struct step {
	char words[1024];             /* argv, NUL-separated */
	int nwords;
	int status;                   /* shell-style; in-process steps: 0 or the errno */
	int timed_out;
	long long ms;
	char err[STEP_ERR_MAX];       /* stderr's tail, or strerror for in-process steps */
};

/* One tunable at one place (md0, a member, "vm"): found, written, read back. */
struct tun_done {
	int id;                       /* a row of core/model/tunable.h */
	char place[32];
	int found_ok, read_ok;
	long long found, effective;
	int err;                      /* the write's errno */
	enum tun_outcome outcome;
	int restore_id;               /* what teardown writes back (tun_restore_id) */
	long long restore_v;
};
#define TUN_DONE_MAX (TUN_COUNT * (PLAN_DEVICES_MAX + 1))

/* What the replays of one model found (cell/replay.c). */
struct dur_model_tally {
	unsigned points, lost_points, unmountable, fsck_errors, fsck_runs;
	unsigned long long lost, torn, files_missing;
	char first[200];                    /* the first loss: "point 3 (fsm.7): d1 slot 0 ..." */
};
struct cell_durability {
	int logged, checked;                /* the log was made; its replays ran */
	char verdict[16];                   /* ok, lost, inconclusive, error, "" = none */
	char status[160];                   /* the target's status line before removal */
	char error[300];
	unsigned long long entries, log_bytes, writes, flushes, fuas, instrument_flushes;
	unsigned long long candidates, ambiguous;
	struct dur_model_tally m[2];        /* pessimistic, optimistic */
	double check_s;
};

struct cell_ctx {
	const struct run_env *env;          /* what the cell may use of the boot */
	const struct plan *p;
	const struct cell *c;
	int attempt;                        /* 1, or more after reboots interrupted it */
	int warmup, warmups;                /* a warm-up (k of n, pid1/matrix.c): a "warmup"
	                                       record, no time series; 0 for a cell */
	char names[PLAN_DEVICES_MAX][32];   /* members: vdb ... */
	char paths[PLAN_DEVICES_MAX][48];   /* /dev/vdb ... */
	char *name_v[PLAN_DEVICES_MAX + 1];
	const char *path_v[PLAN_DEVICES_MAX + 1];
	int n;
	int md;                             /* level != none */
	const char *target;                 /* /dev/md0 or the one disk */
	const char *target_name;
	long long deadline;                 /* CLOCK_BOOTTIME ms, 0 = none */
	enum cell_status status;
	char error[1400];
	struct warnings warn;
	struct step steps[STEP_MAX];
	int nsteps;
	struct step spare;                  /* steps past STEP_MAX run, unrecorded, in here */
	double resync_s;                    /* < 0: not measured (ignore, or never got there) */
	int created, mounted;
	/* what it took over from the cell before it (core/matrix/reuse.h), from the cell at position
	 * reused_from; what it may leave standing for the next when it ends ok */
	enum plan_reuse reuse, keep;
	int reused_from;
	int discarded;                      /* the filesystem's blocks discarded before the
	                                       workload: by mkfs, or fstrim on a reused fs */
	char bitmap[32];                    /* md's write-intent bitmap: none, internal, file */
	char mount_line[1024];
	char mount_ignored[256];            /* options asked for but not in effect */
	char btrfs_profile[128];            /* "data=raid1,metadata=raid1c3,system=raid1c3" */
	struct tun_done tun[TUN_DONE_MAX];  /* in the order written */
	int ntun;
	char tun_ignored[1024];             /* "name@place" not in effect, comma-separated */
	char md_detail[TEXT_MAX], fs_geom[TEXT_MAX];
	char queue[4096], mdstate[1024], df_before[512], df_after[512]; /* JSON parts */
	int kmsg;
	/* the hang watch (cell/hang.c): when the cell began, the kernel log from then on, the
	 * taint then, the watcher's pid; the kernel's faults met (oops, BUG, WARN), the taint
	 * letters gained, and a hung cell's evidence (a JSON object) */
	long long start_mono_ms;
	int kmsg_cell, watcher;
	unsigned long taint0;
	struct hang_fault { char kind[16]; char line[240]; } faults[HANG_FAULTS_MAX];
	int nfaults;
	char tainted[24];
	char hang[HANG_JSON_MAX];
	struct wl_outcome wl;
	int wl_ran;
	uint64_t size_basis, size_bytes;    /* a relative size: MemTotal or the fs's free space,
	                                       and the bytes it resolved to (0: not resolved) */
	struct sampler smp;                 /* the workload's time series */
	/* each member's own state, read from the device before the cell's first step and after
	 * its teardown (cell/device.c); devices_ms what reading them cost */
	struct devstate dev_before[PLAN_DEVICES_MAX], dev_after[PLAN_DEVICES_MAX];
	int dev_read;
	long long devices_ms;
	/* the device-mapper layers (cell/layers.c): the stack's devices, whether any was
	 * made, the cache disk (names[n] when cache_disk), the top mkfs gets, the crypt key's
	 * sha256, the tables read back as "name: table" lines (keys zeroed) */
	struct layer_plan lp;
	int layers_made, cache_disk;
	char layer_top[64];
	char key_sha256[65];
	char dm_tables[4096];
	/* durability = log-writes (cell/durability.c, cell/replay.c): the log disk, the device
	 * under the log (whose blocks the replays take after the cell), the log-writes device
	 * mkfs gets, and what the replays found */
	char log_dev[48], log_base[64], lw_top[64];
	int log_made;
	struct cell_durability dur;
	/* an lvm level (cell/lvm.c): whether the cell's level is lvm's, whether anything of it
	 * was made, the LV's dm-N, what lvs and dmsetup status said of it */
	int lvm, lvm_made;
	char lvm_dm[16], lvm_lvs[256], lvm_status[256];
	/* a bcache layer (cell/bcache.c): made, on which backing device, its settings and
	 * counters as sysfs read them (-1: not read) */
	int bcache_made;
	char bcache_backing[64], bcache_mode[16];
	long long bcache_cutoff, bcache_dirty, bcache_congested[2];
#define BCACHE_STATS 5   /* hits, misses, bypass hits, bypass misses, bypassed bytes */
	long long bcache_stat[BCACHE_STATS];
	/* a dm-cache layer's counters after the workload (cell/dmcache.c) */
	int dmcache_read;
	struct layer_cache_stats dmcache;
};

/* cell/steps.c */
void cell_fail(struct cell_ctx *x, enum cell_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
long long cell_remaining_ms(const struct cell_ctx *x); /* 0: no deadline; -1: passed */
/* Runs one command as a step. out, when given, receives stdout (caller frees with
 * run_free). teardown: bounded by TEARDOWN_MS instead of the cell's remaining time, and a
 * failure does not fail the cell. Returns the exit status, or -1 when it could not run or
 * timed out (the cell then has its reason). */
int step_run(struct cell_ctx *x, const char *const *argv, int teardown, struct run_result *out);
/* A step that must succeed: a non-zero status fails the cell with the tool's message. */
int step_must(struct cell_ctx *x, const char *const *argv, struct run_result *out);
/* An in-process step (mount(2), the wipe) that started at t0 and ended with errno err. */
struct step *syscall_step(struct cell_ctx *x, const char *const *argv, long long t0, int err);
/* The first bytes of dev zeroed (a signature gone) as one step of the record ("zero", dev,
 * "first 4 KiB"); a failure fails the cell when fail is set. 0 or -1. */
int cell_zero_head(struct cell_ctx *x, const char *dev, size_t bytes, int fail);
/* The taken disk at position (from 1) among the disks handed over, when it is present and
 * none of the cell's members: a cache's or a log's disk. NULL otherwise. */
const char *cell_extra_disk(const struct cell_ctx *x, int position);

/* cell/md.c */
int cell_wipe(struct cell_ctx *x, int i);           /* member i's first and last MiB */
void cell_zero_superblocks(struct cell_ctx *x, int teardown);
void cell_stop_array(struct cell_ctx *x, int teardown);
int cell_create_array(struct cell_ctx *x);          /* and wait out its resync, if planned */
void cell_md_detail(struct cell_ctx *x);            /* mdadm --detail into md_detail */
void cell_read_bitmap(struct cell_ctx *x);          /* md's bitmap into x->bitmap */

/* cell/fs.c */
int cell_make_fs(struct cell_ctx *x);               /* mkfs, tune, and the geometry read */
void cell_read_geometry(struct cell_ctx *x);        /* tune2fs -l, xfs superblock, dump-super */
/* A reused filesystem made ready for the next cell: the files of the cell before removed,
 * fstrim (with discard = yes), sync. */
int cell_clean_fs(struct cell_ctx *x);
int cell_mount_fs(struct cell_ctx *x);
void cell_unmount_fs(struct cell_ctx *x);

/* cell/layers.c: whether the cell has layers; they made on x->target (which then names the
 * top: 0, or -1 with the cell failed); a stack the cell before left standing taken over (-1:
 * gone); their tables read back into dm_tables; every fsm-* device removed, top first (a
 * device left fails the cell unless teardown, where it is a warning); the record's part. */
int cell_has_layers(const struct cell_ctx *x);
int cell_make_layers(struct cell_ctx *x);
int cell_take_layers(struct cell_ctx *x);
void cell_read_layers(struct cell_ctx *x);
void cell_remove_layers(struct cell_ctx *x, int teardown);
void cell_layers_json(struct jw *w, const struct cell_ctx *x);

/* cell/durability.c: durability = log-writes: the log-writes device made over x->target
 * (which then names it: 0, or -1 with the cell failed); after the workload and the unmount,
 * the target removed and every crash point replayed and checked (cell/replay.c); the
 * record's "durability" part. */
int cell_log_start(struct cell_ctx *x);
void cell_durability(struct cell_ctx *x);
void cell_durability_json(struct jw *w, const struct cell_ctx *x);
/* cell/replay.c: the log read and each model's steps replayed onto a thin volume over
 * x->log_base, each point's snapshot mounted, verified, unmounted and fsck'd into x->dur. */
void cell_replay(struct cell_ctx *x);
/* cell/lvm.c: the LV checked against the members' size before any is written (0, or -1
 * with the cell failed); made and synced (the target then names it); lvs and dmsetup read
 * back; removed with its VG and PVs; the record's part. */
int cell_lvm_fits(struct cell_ctx *x);
int cell_create_lvm(struct cell_ctx *x);
void cell_read_lvm(struct cell_ctx *x);
void cell_remove_lvm(struct cell_ctx *x, int teardown);
void cell_lvm_json(struct jw *w, const struct cell_ctx *x);

/* cell/bcache.c: the layer's device made (0, or -1 with the cell failed); its settings and
 * counters read (after the workload); stopped with its cache set, the backing device's
 * superblock zeroed (teardown, and before a cell makes its layers); the record's part. */
int cell_make_bcache(struct cell_ctx *x, const struct layer_dev *d, const struct plan_layer *l);
void cell_read_bcache(struct cell_ctx *x);
void cell_stop_bcache(struct cell_ctx *x, int teardown);
void cell_bcache_json(struct jw *w, const struct cell_ctx *x);

/* cell/dmcache.c: a cache layer's dmsetup status after the workload; the record's part. */
void cell_read_dmcache(struct cell_ctx *x);
void cell_dmcache_json(struct jw *w, const struct cell_ctx *x);

/* cell/btrfs.c */
int cell_btrfs_degrade(struct cell_ctx *x);         /* missing members wiped and forgotten */
/* The members the sampler and the bottleneck watch, into *members: md's, or every disk
 * btrfs's own RAID spans (its target is only the first of them); none for one disk. */
int cell_watched(const struct cell_ctx *x, char *const **members);
void cell_btrfs_profiles(struct cell_ctx *x);       /* profiles held, flagged when not asked */

/* cell/tunables.c: the plan's tunables that apply at when (core/model/tunable.h), written in the
 * table's order at every place, read back, and each value not in effect a warning. */
void cell_apply_tunables(struct cell_ctx *x, enum tun_when when);
/* Writes back, in reverse order, what every tunable written found (teardown). */
void cell_restore_tunables(struct cell_ctx *x);
/* "tunables" {asked, found, effective} and "tunables_ignored" [...]. */
void cell_tunables_json(struct jw *w, const struct cell_ctx *x);

/* cell/hang.c: the cell watched from its start (a watcher process: a task of the cell in D
 * state with no I/O on its disks for the bound makes it hung: its evidence and record, then
 * the reboot) to its end (the watcher ended; the kernel's faults and taint into the cell). */
void hang_watch_begin(struct cell_ctx *x);
void hang_watch_end(struct cell_ctx *x);
/* cell/hang_evidence.c: the evidence of a hung cell into x->hang, its reason into
 * x->error; the stuck tasks' top frames said on the console. */
void hang_evidence(struct cell_ctx *x, long long since_ms, int bound_s, int reboot_s);

/* cell/answer.c: "limit", "efficiency" and "bottleneck" (nothing for a warm-up). */
void answer_json(struct jw *w, const struct cell_ctx *x);

/* cell/record.c: trimmed 0 the first time; a record too large is emitted again
 * without its long texts. */
void cell_emit_record(struct cell_ctx *x, int trimmed);

#endif
