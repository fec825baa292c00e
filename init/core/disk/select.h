/* core/disk/select.h: which disks fsmatrix may destroy. Pure: every rule is a host unit test. */
#ifndef FSM_SELECT_H
#define FSM_SELECT_H
#include "core/disk/disk.h"

enum verdict {
	VERDICT_TAKEN,            /* a test disk: may be destroyed */
	VERDICT_NOT_NAMED,        /* fsmatrix.disks= does not name it, or is absent */
	VERDICT_HAS_SIGNATURE,    /* named, but carries data and is not named in fsmatrix.wipe= */
	VERDICT_RESULTS_DISK,     /* holds the results partition: never a test disk */
	VERDICT_BOOT_DISK,        /* the boot medium: never a test disk */
	VERDICT_REMOVABLE,        /* blank would take it, but it is removable */
	VERDICT_UNUSABLE,         /* read-only or size 0: cannot be written whatever is named */
};

struct selection {
	enum verdict verdict;
	char reason[200];         /* one line a person can act on */
};

/* Decides a verdict for each of the n disks. disks_spec and wipe_spec are the raw values of
 * fsmatrix.disks= and fsmatrix.wipe=, items separated by commas or blanks: vdb, serial:GLOB,
 * wwn:GLOB, path:GLOB (fnmatch globs against the serial, the wwn and the by-path name), blank
 * (disks= only). The results disk and the boot disk (disk->is_boot, set by disks_mark_boot)
 * are never taken. Returns the number taken, or -1 with err naming the bad item. */
int select_disks(const struct disk *d, int n, const char *disks_spec, const char *wipe_spec,
		 struct selection *out, char *err, size_t errlen);

/* Items of a spec that name no disk at all ("vdz", "serial:typo*"), space-separated into buf,
 * so that PID 1 can say so before it runs with fewer disks than meant. Returns their count
 * (0 also for a spec select_disks() would reject). */
int select_unmatched(const struct disk *d, int n, const char *spec, char *buf, size_t len);

/* "taken", "not-named", "has-signature", "results-disk", "boot-disk", "removable",
 * "unusable". */
const char *verdict_name(enum verdict v);

#endif
