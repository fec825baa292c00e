/* core/workload/wlsize.h: workload sizes relative to the machine. A plan written for a 1 GiB VM and
 * run on a 256 GiB server measures the page cache if its sizes are bytes; `size = 2x ram`
 * or `size = 10% fs` (of the filesystem's free space after mkfs) keeps its meaning on both.
 * PID 1 resolves them in each cell (MemTotal, statvfs after mkfs and mount); `fsmatrix
 * check` and the estimate resolve them for an assumed machine. Pure. */
#ifndef FSM_WLSIZE_H
#define FSM_WLSIZE_H
#include <stddef.h>
#include <stdint.h>
#include "core/model/plan.h"

/* What a relative size resolves to until a machine is known (check without --mem, the
 * estimate's nominal machine): 1 GiB of RAM, 1 GiB free on the filesystem. */
#define WLSIZE_NOMINAL_BYTES (1ull << 30)

/* "2x ram", "0.5x ram", "10% fs", "50% ram", "0.5x fs": a factor (Nx) or a percentage
 * (N%) of ram or fs, blanks between the parts allowed. Returns 1 and fills r for a relative
 * size, 0 when text is not one (a size in bytes then), or -1 with msg for one that is out
 * of range (more than 100% of fs, more than 1000x ram, 0). */
int wlsize_parse(const char *text, struct size_rel *r, char *msg, size_t mlen);

/* The formula as a plan writes it: "2x ram", "10% fs", or "" for bytes. */
void wlsize_text(const struct size_rel *r, char *buf, size_t len);

/* The unit a workload's size is a multiple of: its block size where it has one (a seqwrite
 * is a whole number of blocks), else 4 KiB. */
uint64_t wlsize_unit(const struct plan_workload *w);

/* bytes rounded down to the workload's unit, and at least one unit. */
uint64_t wlsize_round(const struct plan_workload *w, double bytes);

/* The workload's size on a machine with ram bytes of memory and fs_free bytes free on the
 * cell's filesystem: factor x scale x the basis, rounded as wlsize_round; w->size for a
 * size in bytes. *basis (may be NULL) gets the basis used (0 for bytes). */
uint64_t wlsize_resolve(const struct plan_workload *w, uint64_t ram, uint64_t fs_free,
			uint64_t *basis);

#endif
