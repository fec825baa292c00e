/* core/conditions.h: the machine's controls that decide a figure and stay the same for a
 * whole boot (the CPU's frequency governor, turbo, C-states, transparent huge pages, swap,
 * the NMI watchdog, the clocksource), as a table: their names, defaults and values. PID 1
 * (pid1/conditions.c) applies each before the first cell and reads it back; the plan's
 * [global] and the kernel command line (fsmatrix.NAME=) ask for values; `keep` leaves the
 * machine as it is but still records it. Pure. */
#ifndef FSM_CONDITIONS_H
#define FSM_CONDITIONS_H
#include <stddef.h>

enum cond_id {
	COND_GOVERNOR, COND_TURBO, COND_CSTATES, COND_THP, COND_SWAP, COND_NMI_WATCHDOG,
	COND_CLOCKSOURCE, COND_COUNT,
};

enum cond_status { COND_APPLIED, COND_KEPT, COND_REFUSED, COND_UNAVAILABLE };

#define COND_VALUE_MAX 48

struct cond_row {
	const char *name;       /* the plan key and fsmatrix.NAME= */
	const char *dflt;       /* asked when neither the plan nor the command line asks */
	const char *values;     /* the values it takes besides keep, for the error message */
	int in_plan;            /* a [global] key too, not only a kernel parameter */
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

#endif
