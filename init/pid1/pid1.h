/* pid1/pid1.h: the parts of /init that only make sense as PID 1 on the image: the boot
 * sequence's state and the steps pid1/main.c calls in order. Everything pure lives in the
 * shared files (cmdline, kmod, disk, select, record, run, sha256). */
#ifndef FSM_PID1_H
#define FSM_PID1_H
#include "core/parse/cmdline.h"
#include "core/disk/disk.h"
#include "lib/record.h"
#include "core/disk/select.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/version.h"

#define RESULTS_MNT "/results"
#define RESULTS_DIR RESULTS_MNT "/fsmatrix/results"
#define MANIFEST_PATH "/etc/fsmatrix/MANIFEST"
#define TOOLS_PATH "/etc/fsmatrix/tools"        /* recipes/tool-versions */

struct boot {
	struct cmdline cmd;
	char run_id[32];
	char fingerprint[65];             /* the header's conditions.fingerprint ("" before the
	                                     header, or when its inputs did not fit): every cell
	                                     record carries it */
	long long start_epoch;
	long long init_ms, ready_ms;      /* CLOCK_BOOTTIME: since the kernel started */
	long long entropy_ms;             /* waited for the random pool (pid1/entropy.c) */
	/* when each boot step ended (pid1/main.c): the header's boot.steps_ms */
	struct boot_step { const char *name; long long ms; } steps[12];
	int nsteps;
	struct disk disks[DISK_MAX];
	struct selection sel[DISK_MAX];
	int ndisks, ntaken;
	int results;                      /* index of the disk holding FSMRESULTS, or -1 */
	/* the plan (pid1/plan.c), for the header */
	char plan_name[64], plan_source[16], plan_path[300], plan_sha256[65];
	/* the matrix (pid1/matrix.c), for the trailer: cells planned, and cell records by
	 * status in the order of cell/cell.h's cell_status_names[] */
	int cells;
	int counts[6];                    /* CELL_NSTATUS (matrix.c checks) */
	int repeat_auto;                  /* repeat = auto: the trailer says not_needed, */
	int not_needed;                   /* positions not run, their cell stable before */
	int resumed;                      /* boots of this run before this one (pid1/resume.c) */
	int results_ro;                   /* FSMRESULTS mounted read-only: records on the console */
};

extern struct boot boot;
struct plan;

/* pid1/console.c: every line the console shows, and every record. Until the results
 * files are open both are kept in memory, then written there first. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void event_begin(struct jw *w, const char *event); /* record_begin, "event" and "run" */
void emit(struct jw *w);          /* a finished record: framed on the console, json to .jsonl */
int console_attach(const char *jsonl_path, const char *log_path);
void console_files_off(void);     /* no results files will come: stop keeping early text */
int console_attached(void);       /* console_attach or console_files_off was called */
void console_detach(void);        /* fsync and close the results files */
void console_sync_each(void);     /* from now on each record is fsynced (with all before it) */
int console_records(const char *type); /* how many of this type were emitted */
/* A cell declared hung (cell/hang.c): a flag shared with the cell's watcher process, which
 * sets it; from then on PID 1 holds at its next record or sign of life (console_hold: it
 * says so once and waits for the reboot), so that the hung record stays the cell's last. */
void console_hold_init(void);
void console_hold_set(void);
void console_hold(void);
void console_fix_fds(void);       /* fds 0-2 on /dev/console if the kernel gave none */

/* pid1/fatal.c: how PID 1 stops; the lowest file of PID 1, calling nothing above it. What
 * must happen first is registered by main: quiet before a person gets the console (stop the
 * watchdog: a shell is no hang), close before power-off (the results files). */
struct stop_hooks {
	void (*quiet)(void);
	void (*put_back)(void);   /* what a cell changed in a device and still owes */
	void (*close)(void);
};
void stop_hooks_set(struct stop_hooks h);
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void power_off(void);
/* The same clean stop as power_off, then the kernel kexec_file_load loaded (pid1/kernels.c). */
_Noreturn void restart_into_loaded_kernel(const char *what);
void signals_init(void);          /* busybox poweroff/reboot/halt signal PID 1 */
int shutdown_requested(void);     /* one of them arrived */
_Noreturn void shutdown_by_signal(void); /* stop everything, unmount, then do what it asked */
void reap_orphans(void);          /* between steps only: never while run_argv() waits */
void console_shell(void);         /* /bin/sh on /dev/console until it exits */

/* pid1/conditions.c: the machine's controls (core/model/conditions.h): applied (unless kept,
 * or on a dry run) and read back before the header; their JSON for it. */
void conditions_apply(const struct plan *p);
void conditions_controls_json(struct jw *w);    /* "controls": {NAME: {asked, found, ...}} */
void conditions_effective_json(struct jw *w);   /* "controls": {NAME: effective} */

/* pid1/bootmenu.c: while the run is unfinished, the stick's boot menu boots it again
 * (core/boot/bootmenu.h): mark before the first cell, unmark after the trailer. */
void bootmenu_mark(void);
void bootmenu_unmark(void);

/* pid1/mounts.c: the boot mounts. Returns 0, or -1 with the first required failure. */
int mounts_boot(char *err, size_t errlen);

/* pid1/modload.c: finit_module (init_module on kernels before 3.8) of one file, with its
 * parameters (NULL: none). 0, or -1 with errno as the kernel gave it; *t says when it began
 * (ms since the kernel started) and how long it took, for the "modules" event. */
struct load_time {
	long long at_ms;
	double ms;
};
int module_load_file(const char *path, const char *params, struct load_time *t);

/* pid1/modules.c */
int modules_init(void);           /* reads /lib/modules/<release>; -1 if there are none */
/* pid1/modimage.c: mounts /lib/usr.sqfs on /usr; 1 if the image has a plain tree
 * instead, -1 with err set if it cannot. The modules that took (loop, squashfs) are in
 * loads[*nloads], rc and err as finit_module gave them, for the "modules" event. */
struct modimage_load {
	char name[64];
	struct load_time time;
	int rc, err;
};
int modimage_mount(struct modimage_load *loads, int max, int *nloads, char *err, size_t len);
/* One pass: starts loading, in the background, the drivers new modaliases ask for; returns
 * how many new devices it saw. modules_start_named starts the modules names names
 * (NULL-terminated) the same way. modules_reap keeps what the background loads did so far,
 * and returns how many ended; modules_pending counts them until they all have. */
int modules_scan_hardware(void);
void modules_start_named(const char *const *names);
int modules_reap(void);
/* The same for one device a uevent announced (bus = its SUBSYSTEM, name = DEVPATH's last
 * part, alias = its MODALIAS): no walk of /sys/bus. 1 if it was new. */
int modules_device_added(const char *bus, const char *name, const char *alias);
#define MODULES_LOADERS_MAX 8      /* drivers loading side by side, each in a child */
int modules_loader_fds(int *fds, int max); /* the running loads' pipes, to wait on */
int modules_loading(void);        /* loads running or waiting to start */
int modules_load_named(const char *const *names); /* NULL-terminated; returns failures */
void modules_event(void);         /* the "modules" event record: loads since the last one */
int modules_unreported(void);     /* loads not yet in a "modules" event */
int modules_pending(char *what, size_t len); /* loads running, matched devices not yet bound */
void what_add(char *what, size_t len, const char *name); /* to a list of names, if it fits */

/* pid1/settle.c: loads drivers until the block devices are there. settle_wait returns 0
 * when no driver is loading and every device that asked for one has it; with quiet, only
 * once no device was added and /sys/block was still for a while. It returns 1 before that
 * when the disks should be probed: with quiet, as soon as they changed since the last such
 * return (the probe overlaps the quiet time); while drivers load, when a CPU is free with
 * disks not yet probed (a driver's probe waiting on hardware, or more CPUs than loads).
 * It also loads the modules also names (NULL-terminated, or NULL), which no hardware asks
 * for, once a CPU is free while drivers load, or else once they are done. settle_ms
 * (fsmatrix.settle=) bounds the waits from settle_start on. */
struct settle {
	int settle_ms, events, timed_out;
	int walk;                     /* walk /sys/bus at the next pass */
	long long start, changed, usb_since, walked;   /* changed: a device was last added */
	int block_dirty;              /* /sys/block changed since the disks were last probed */
	long long block_changed;      /* the last block uevent */
	const char *const *also;
	int loadavg;                  /* /proc/loadavg, open: read every IDLE_POLL_MS */
	long cpus;                    /* online at the start */
	char prev[8192];              /* /sys/block's disks as last seen */
};
void settle_start(struct settle *st, int settle_ms, const char *const *also);
int settle_wait(struct settle *st, int quiet);
void settle_end(struct settle *st);

/* pid1/disks.c */
void disks_stage(void);           /* discover; find the results disk */
void disks_select(void);          /* verdicts and the chosen disks, printed */
void disks_event(void);           /* the "selected" record: chosen disks, before any write */

/* pid1/results.c */
void results_open(void);          /* mount FSMRESULTS (read-only if it must), mark a boot disk */
int results_writable(void);       /* mounted read-write, its directory made */
void results_attach(void);        /* open <run>.jsonl and .console.log under boot.run_id */
void results_close(void);         /* detach, sync, unmount */

/* pid1/resume.c: after the plan is known, go on with the last run when its journal says it
 * is unfinished with this plan (resume.h), else start this boot's run; then attach the
 * results files. resume_cell: what cell index (0-based) does in this boot. */
struct resume_step;
void resume_stage(const struct plan *p);
void resume_cell(int index, int retries, struct resume_step *s);
void resume_event(void);          /* the "resume" event, on a resumed boot */
/* repeat = auto: an earlier boot's summary found the cell of position index (0-based) stable
 * there, and ran its later repetitions no more. */
int resume_stopped(int index);
/* Switches in a row to kernel set name that never reached it, this boot included. */
int resume_kernel_misses(const char *name);

/* pid1/watchdog.c: /dev/watchdog (hardware, else softdog) armed before the first cell with
 * a margin over the longest step, petted between steps, closed with the magic 'V' before a
 * clean power-off. */
void watchdog_start(const struct plan *p);
int watchdog_ruled_out(const struct cmdline *c);   /* no watchdog whatever the plan and disks */
void watchdog_pet(void);
int watchdog_hung(int reboot_s);   /* cell_ops.hung: PID 1 held, the watchdog re-armed short */
void watchdog_stop(void);
void watchdog_json(struct jw *w); /* the header's "watchdog" field */

/* pid1/plan.c: the plan, found and loaded before anything is destroyed; its errors are
 * fatal "FILE:LINE: message" lines. */
struct plan;
struct cell;
const struct plan *plan_stage(void);
void plan_cell_modules(const struct plan *p, const struct cell *c);  /* md, fs: before the cell */
struct estimate_model;
/* The time model of this machine: its MemTotal, its smallest taken disk, the rates the model
 * measured under qemu TCG (a disk's speed is not measured before the cells). */
void plan_machine_model(struct estimate_model *m);
void plan_event(const struct plan *p);     /* the "plan" event; in a dry run, every cell */
void plan_header_json(struct jw *w);       /* the header's "plan" field */
/* fsmatrix.shard=K/N: 1 when the cell at index (0-based, any repetition) is this boot's to
 * run; always 1 without a shard. */
int plan_shard_takes(int index);
/* The run's shuffle seed found in the journal of the run this boot resumes: the order of the
 * boot that began the run is kept. */
void plan_adopt_seed(uint64_t seed);
void plan_shard_json(struct jw *w);        /* the header's "shard" and "run_group" fields */

/* pid1/kernels.c: a run under several kernels (kernels = in the plan, core/matrix/kernels.h): the
 * kernel sets on the results partition, and fsmatrix.kernel= against the kernel running,
 * checked before resume; the kernels given up (kexec refused them, or the journal says they
 * never started); the switch to another by kexec. */
void kernels_stage(const struct plan *p);
int kernels_booted(void);            /* the booted set's index in the plan's kernels, or -1 */
const char *kernels_given_up(int k); /* why kernel k's cells cannot run, or NULL */
/* Switches to kernel k for the cell at position index (0-based): loads it, runs the boot's
 * "end" reference set when measured says a "start" one ran, writes the "kernel-switch"
 * event and restarts into it: never returns then. On failure kernel k is given up (its
 * reason says why) and it returns -1. */
int kernels_switch(const struct plan *p, int k, int index, int measured);

/* pid1/matrix.c: every cell of the plan, its records, progress lines and summaries. */
struct disk_speeds;
void matrix_run(const struct plan *p, const struct disk_speeds *speeds);
/* pid1/diskspeed.c: the taken disks' own speed, alone and all at once, written as a
 * "disk-speed" event; n 0 when the plan turns it off or the run is dry. */
const struct disk_speeds *diskspeed_run(const struct plan *p);
/* A run under several kernels: when the first cell this boot has to run belongs to another
 * kernel (a boot after a power cut comes up under the firmware's), switch to it now, before
 * the boot's reference set and warm-up. */
void matrix_switch_first(const struct plan *p);
/* What the cells may use of this boot (once selection and resume have chosen the disks). */
struct run_env;
struct cell_result;
const struct run_env *matrix_env(const struct disk_speeds *speeds);
/* The plan's warm-ups on cell c's array and filesystem. */
void matrix_warm_up(const struct run_env *env, const struct plan *p, const struct cell *c);
/* Position c alone, resumed as the matrix resumes it: 1 when it ran now (r filled, the
 * boot's counts too), 0 when an earlier boot had settled it. */
int matrix_run_one(const struct run_env *env, const struct plan *p, const struct cell *c,
		   struct cell_result *r);

/* pid1/bisect.c: a plan with [bisect] (core/matrix/bisect.h) instead of its matrix: the search
 * replayed from the journal, the next probe's kernel switched to first (bisect_switch_first,
 * before the boot's reference set), then its repetitions, a "bisect-probe" event as each
 * probe ends, and a "bisect" record with the result. */
void bisect_switch_first(const struct plan *p);
void bisect_run(const struct plan *p, const struct disk_speeds *speeds);
/* pid1/reference.c: the reference set (core/figures/reference.h) measured now and written as a
 * "reference" record of phase "start" or "end"; nothing on a dry run or with reference = no. */
void reference_run(const struct plan *p, const char *phase);

/* pid1/header.c */
void header_emit(void);
/* pid1/bootsec.c: the header kernel's secure_boot, secure_boot_from, lockdown and modules */
void bootsec_json(struct jw *w);
/* The "devices" event after the last cell: each taken disk's write cache as its device
 * reports it, to set beside the header's (what a plan's write_cache put back). */
void devices_end_event(void);
void trailer_emit(void);

/* pid1/entropy.c */
void entropy_wait(void);

/* pid1/deadline.c: bound one blocking call: arm, loop on EINTR while !deadline_passed(),
 * disarm. One deadline at a time. */
void deadline_arm(long ms);
int deadline_passed(void);
void deadline_disarm(void);

/* pid1/console.c: wait until the console's tty has sent everything written to it (a slow
 * serial line still holds the last records), at most max_ms */
void console_drain(long max_ms);

#endif
