/* core/command/cellshow.h: one cell described as lines of text: its mdadm, mkfs and tune commands, the
 * derived geometry, the mount(2) call, the workload, a time estimate and any warnings.
 * `fsmatrix check` prints these lines and /init shows them in a dry run, so what a user
 * checks on the host is what the image says it will run. Pure: lines go to a callback. */
#ifndef FSM_CELLSHOW_H
#define FSM_CELLSHOW_H
#include <stddef.h>
#include "core/command/cellcmd.h"

typedef void (*show_line_fn)(void *ctx, const char *line);
/* One line made with printf's fmt, handed to out (at most 4 KiB). */
void show_linef(show_line_fn out, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Describes cell c (disks are the test disks' device paths). Adds the estimate to *total
 * and the warnings to *nwarn. Returns 0; 1 after a "  skipped ..." line when there are
 * fewer disks than its array needs (PID 1 records the cell as skipped, for that reason); or
 * -1 after an "  error ..." line when the cell cannot be built (a command too long). */
int cell_show(const struct plan *p, const struct cell *c, const char *const *disks, int ndisks,
	      const struct estimate_model *m, double *total, int *nwarn, show_line_fn out,
	      void *ctx);

/* The same, for a cell that takes over what reuse says from the cell before it in the run
 * (core/matrix/reuse.h): its estimate charges only what it pays. cell_show is this with
 * REUSE_NONE. */
int cell_show_in_run(const struct plan *p, const struct cell *c, enum plan_reuse reuse,
		     const char *const *disks, int ndisks, const struct estimate_model *m,
		     double *total, int *nwarn, show_line_fn out, void *ctx);

/* "seqwrite 512m in 1m blocks, random data": one line about a workload. */
void cell_workload_text(const struct plan_workload *w, char *buf, size_t len);

/* "1g", "64g", "457m" (3 digits when not a whole number of its unit): RAM and disks. */
void show_bytes(double bytes, char *buf, size_t len);

/* "42s", "3m05s", "1h02m". */
void show_secs(double s, char *buf, size_t len);

/* A run estimated past this many hours is worth a warning, not a refusal. */
#define PLAN_WARN_HOURS 24

/* The rough time of the whole run under model m. Writes "FILE:LINE: warning: ..." to buf
 * and returns 1 when it passes PLAN_WARN_HOURS, else 0. */
int plan_time_warning(const struct plan *p, const struct estimate_model *m, char *buf,
		      size_t len);

/* What plan_estimate_warnings may take the model's machine for: its RAM (not the nominal
 * 1 GiB) and its test disks' size (not the nominal 1 GiB). */
#define EST_KNOWN_MEM 1u
#define EST_KNOWN_DISK 2u

/* Every warning the estimate gives, as "FILE:LINE: warning: ..." lines to out: the run past
 * PLAN_WARN_HOURS, an array's resync past resync_timeout, a cell (its resync aside) past the
 * cell timeout, an ext2 or ext3 too large for 32-bit block numbers; with EST_KNOWN_MEM in
 * known, an unscaled plan's buffered seqwrite or seqread smaller than the RAM and a stripe
 * cache past the share of RAM the boot allows it (tun_stripe_cache_check); with
 * EST_KNOWN_DISK, a workload larger than the free space of its filesystem. Returns how many. */
int plan_estimate_warnings(const struct plan *p, const struct estimate_model *m,
			   unsigned known, show_line_fn out, void *ctx);

#endif
