/* core/boot/resume.h: what a boot does with the journal of an unfinished run. After a
 * watchdog reboot, a crash or a power loss, /init reads <run>.jsonl back from the results
 * partition: the same plan (sha256 and scale) and no trailer means the run goes on under
 * its old id. Every cell PID 1 starts is announced first by a "cell-start" event, written
 * and fsynced, so a cell that began and has no cell record was interrupted.
 * Pure: text in, decisions out; tests/unit/test_resume.c runs it on journals. */
#ifndef FSM_RESUME_H
#define FSM_RESUME_H
#include <stddef.h>

/* Status names in the order of cell/cell.h's enum cell_status. */
#define RESUME_NSTATUS 6
extern const char *const resume_status_names[RESUME_NSTATUS];
#define RESUME_INTERRUPTED 4
#define RESUME_HUNG 5

/* One cell (by index) as the journal left it. */
struct resume_cell {
	int starts;         /* cell-start events: attempts begun */
	int interrupted;    /* cell records with status "interrupted" already written */
	int final;          /* status of its final (not interrupted) record, -1: none */
	int stopped;        /* repeat = auto: a summary found its cell stable at this position,
	                       and the cell's later repetitions are not run */
};

/* A disk the run's first boot took, by the names that survive a reboot. */
#define RESUME_DISKS_MAX 32
struct resume_disk {
	char serial[64], wwn[64], by_path[160];
};

/* A disk's volatile write cache as the run's first boot found it (its header's
 * conditions.inputs.disks), by serial: what every later boot of the run puts back first. A
 * disk that keeps its setting over a reset (a SAS disk with a saveable caching page) would
 * otherwise show a resumed boot what an interrupted cell set, as if it were the original. */
#define RESUME_WC_MAX 32
struct resume_wc {
	char serial[64];
	char found[8];      /* "on" or "off" */
};

struct journal {
	char run[32];       /* the header's run id, "" if no valid header */
	char plan_sha256[65];
	char scale[24];     /* the header's plan.scale as written */
	char shard[24];     /* the header's shard as "K/N", "" for a run of every cell */
	int seeded;         /* the first plan event gave a shuffle's seed: */
	unsigned long long seed;  /* the order every boot of the run keeps */
	int trailer;        /* a trailer record: the run finished */
	int resumes;        /* resume events: boots after the first */
	int records;        /* valid lines */
	int bad;            /* invalid lines before the last one (kept, ignored) */
	int torn;           /* the last line is cut short: drop it before appending */
	int need_newline;   /* the last record is complete but its newline was not written */
	size_t keep;        /* the journal's length without a torn last line */
	char switch_to[32]; /* a kernel-switch event's kernel set while no header followed it */
	char missed[32];    /* the kernel set the last switches went to and never reached */
	int misses;         /* how many switches in a row did not reach it */
	int ndisks;         /* disks the first header lists as taken */
	struct resume_disk disks[RESUME_DISKS_MAX];
	int nwc;            /* write caches the first header found, by serial */
	struct resume_wc wc[RESUME_WC_MAX];
};

/* Reads a journal's text. cells[0..ncells) are filled from the records' 1-based "index";
 * records beyond ncells are ignored. A line counts only if it is one complete JSON object
 * (json_valid): a torn append leaves a prefix of an object or zeros, never a whole object.
 * The .jsonl lines carry no CRC of their own (the console's frames do), so that jq and any
 * JSON-lines reader take the file as it is. */
void journal_scan(const char *text, size_t len, struct journal *j, struct resume_cell *cells,
		  int ncells);

/* 0 when this boot may go on with the journal's run: a header, no trailer, the same plan
 * sha256, scale text and shard ("K/N", or "" for every cell). Otherwise -1 and why (for the
 * console): this boot starts a new run. -2 when only the shard differs: the journal's run,
 * of this plan and scale, stopped part way under another shard than this boot's, and why is
 * the boot's refusal naming both shards and the way out of either (a new run would leave the
 * interrupted one unfinished; resuming it would run cells the command line did not ask). */
int journal_resumable(const struct journal *j, const char *plan_sha256, const char *scale,
		      const char *shard, char *why, size_t len);

/* The shuffle's seed a resumed boot goes on with: the run's own, from its first plan event.
 * asked: fsmatrix.seed= of this boot (given: it was), which must then be the same. Returns 0
 * with *seed set, or -1 and why: the run's order cannot be kept. */
int journal_seed(const struct journal *j, int given, unsigned long long asked,
		 unsigned long long *seed, char *why, size_t len);

/* 1 when a disk with these names is one the run took in its first boot: by serial, else by
 * wwn, else (a disk with neither) by its by-path name. A resumed run takes such a disk
 * again although it carries the filesystem or array the interrupted cell left on it. */
int journal_took(const struct journal *j, const char *serial, const char *wwn, const char *by_path);

/* The write cache ("on" or "off") the run's first boot found on the disk with this serial;
 * NULL when it found none there (no serial, a device that did not say). */
const char *journal_first_write_cache(const struct journal *j, const char *serial);

/* A boot under kernel set `set` ("" unnamed) after the journal's last kernel-switch event:
 * the switch arrived when set is the kernel switched to; otherwise the machine came up under
 * another one (the kernel switched to did not start, the firmware booted its own), a miss.
 * journal_scan applies it to each header; a boot applies it for itself. */
void journal_arrive(struct journal *j, const char *set);

/* Switches in a row to kernel set name that never reached it. */
int journal_kernel_misses(const struct journal *j, const char *name);

enum resume_action { RESUME_RUN, RESUME_SKIP, RESUME_FAIL };

struct resume_step {
	enum resume_action action;
	int attempt;        /* RUN: this attempt's number, 1 for a cell never begun */
	int record_interrupted; /* interrupted records to write first (attempts that ended
	                           with no record and were not yet recorded as interrupted) */
	int final;          /* SKIP: the status index of the record it already has */
	int interruptions;  /* FAIL: attempts interrupted, more than retries allows */
	int recorded;       /* interrupted records the journal already holds (for counts) */
};

/* A cell with a final record is skipped; one begun n times without a final record was
 * interrupted n times, and runs again while n <= retries, else fails. A NULL c is a cell
 * never begun. */
void resume_decide(const struct resume_cell *c, int retries, struct resume_step *out);

#endif
