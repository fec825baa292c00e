/* core/model/conditions.h: the machine's controls that decide a figure and stay the same for a
 * whole boot (the CPU's frequency governor, turbo, C-states, transparent huge pages, swap,
 * the NMI watchdog, the clocksource), as a table: their names, defaults and values. PID 1
 * (pid1/conditions.c) applies each before the first cell and reads it back; the plan's
 * [global] and the kernel command line (fsmatrix.NAME=) ask for values; `keep` leaves the
 * machine as it is but still records it. Pure. */
#ifndef FSM_CONDITIONS_H
#define FSM_CONDITIONS_H
#include <stddef.h>

/* The controls, the one list of them: X(ID, name, default, values, what, where): what says
 * what the control is on the machine (for the docs' tables), and where is
 * COND_PLAN (a [global] key of the plan and fsmatrix.NAME= on the kernel command line) or
 * COND_CMDLINE (fsmatrix.NAME= only). The enum, the table below, the command line's
 * parameters (core/parse/cmdline.c) and the plan's [global] keys (core/parse/plan_keys.c) are made from
 * it. The defaults are what a storage engineer sets before measuring (as LKP-tests and
 * pyperf's `system tune` do): the performance governor and C-states held at 0 us of exit
 * latency, so that neither a frequency ramp nor a deep idle state sits between an I/O's
 * completion and the CPU that handles it. Turbo, THP, the NMI watchdog and the clocksource
 * are recorded as found unless asked: changing them changes what is measured, and there is
 * no one right value. The image never enables swap; `none` is verified. */
#define COND_CONTROLS(X) \
	X(GOVERNOR, "governor", "performance", "a cpufreq governor (performance, powersave, " \
	  "schedutil, ondemand, conservative, userspace)", \
	  "the cpufreq governor set on every policy", COND_PLAN) \
	X(TURBO, "turbo", "keep", "on or off", \
	  "intel_pstate's `no_turbo`, else cpufreq's `boost`", COND_PLAN) \
	X(CSTATES, "cstates", "0", "the wakeup latency allowed, in microseconds (0: the " \
	  "shallowest idle state only)", \
	  "the C-states allowed, held through `/dev/cpu_dma_latency` (PM QoS) for the whole " \
	  "run by PID 1", COND_PLAN) \
	X(THP, "thp", "keep", "always, madvise or never", "transparent huge pages", COND_PLAN) \
	X(SWAP, "swap", "none", "none", \
	  "swap: `none` turns off any swap area (the image enables none) and verifies it", \
	  COND_CMDLINE) \
	X(NMI_WATCHDOG, "nmi_watchdog", "keep", "0 or 1", "`/proc/sys/kernel/nmi_watchdog`", \
	  COND_CMDLINE) \
	X(CLOCKSOURCE, "clocksource", "keep", "a clocksource name (tsc, hpet, acpi_pm, " \
	  "kvm-clock, ...)", "the current clocksource", COND_CMDLINE)

#define COND_ENUM(id, name, dflt, values, what, where) COND_##id,
enum cond_id { COND_CONTROLS(COND_ENUM) COND_COUNT };
#undef COND_ENUM

/* A control's row among a table's, for the tables that take only those of the plan: a
 * control of the command line only makes none. */
#define COND_IF_PLAN(where, ...) COND_IF_##where(__VA_ARGS__)
#define COND_IF_COND_PLAN(...) __VA_ARGS__
#define COND_IF_COND_CMDLINE(...)

enum cond_status { COND_APPLIED, COND_KEPT, COND_REFUSED, COND_UNAVAILABLE };

#define COND_VALUE_MAX 48

struct cond_row {
	const char *name;       /* the plan key and fsmatrix.NAME= */
	const char *dflt;       /* asked when neither the plan nor the command line asks */
	const char *values;     /* the values it takes besides keep, for the error message */
	const char *what;       /* what it is on the machine, for the docs' tables */
	int in_plan;            /* a [global] key too, not only a kernel parameter (COND_PLAN) */
};
extern const struct cond_row cond_rows[COND_COUNT];

/* What became of one control. */
struct cond_state {
	char asked[COND_VALUE_MAX];
	char found[COND_VALUE_MAX];      /* before PID 1 touched it; "" when unreadable */
	char effective[COND_VALUE_MAX];  /* read back after */
	enum cond_status status;
	char why[160];                   /* for refused and unavailable */
};

/* The row named name, or -1. */
int cond_find(const char *name);
/* Whether value is one control id takes: 0, or -1 with what it expected in why. */
int cond_check(int id, const char *value, char *why, size_t len);
/* What is asked of control id: the command line's value, else the plan's, else the
 * default ("" means not given). */
const char *cond_asked(int id, const char *from_cmdline, const char *from_plan);
const char *cond_status_name(enum cond_status s);
/* The kernel command line as the fingerprint takes it, into out: less what a boot loader
 * adds (BOOT_IMAGE=, initrd=) and what names this run's disks or share of the work
 * (fsmatrix.disks=, fsmatrix.wipe=, fsmatrix.shard=), which do not decide a figure, and the
 * kernel set's name (fsmatrix.kernel=), an axis of the records rather than a condition. */
void cond_cmdline(const char *raw, char *out, size_t len);
/* The order the fingerprint lists the taken disks in: keys[0..n) is each disk's text as the
 * inputs write it (serial, model, firmware, write cache), order[0..n) gets their indexes
 * sorted by it (bytewise; equal keys keep their order). Not the kernel's discovery order,
 * which one machine can change from boot to boot (fsmtest3 listed before fsmtest0-2): the
 * same disks give the same fingerprint. */
void cond_disk_order(const char *const *keys, int n, int *order);

#endif
