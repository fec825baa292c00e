/* core/model/tunable.h: the kernel tunables a plan sets per array, as one table: the plan key and
 * the name records use, where the kernel keeps it (the block queue of the array and of each
 * member, md's own sysfs, the vm sysctls), its range, the levels it fits, and its part of a
 * cell id. The plan parser, `fsmatrix check`, the matrix and the cell read the rows here, so
 * that a new tunable is a new row. Pure. */
#ifndef FSM_TUNABLE_H
#define FSM_TUNABLE_H
#include <stddef.h>
#include "core/model/level.h"

enum tun_id {
	TUN_SCHEDULER, TUN_NR_REQUESTS, TUN_READ_AHEAD_KB, TUN_MAX_SECTORS_KB,
	TUN_STRIPE_CACHE_SIZE, TUN_GROUP_THREAD_CNT,
	TUN_DIRTY_RATIO, TUN_DIRTY_BACKGROUND_RATIO, TUN_DIRTY_BYTES, TUN_DIRTY_BACKGROUND_BYTES,
	TUN_DIRTY_EXPIRE_CENTISECS,
	TUN_WRITE_CACHE,
	TUN_COUNT,
};

/* Where a row lives, and so on which places of a cell it is written. */
enum tun_where {
	TUN_QUEUE,   /* /sys/block/DEV/queue/ATTR of the array (md0 or the disk) and each member */
	TUN_MD,      /* /sys/block/md0/md/ATTR */
	TUN_VM,      /* /proc/sys/vm/ATTR, for the whole machine: put back after the cell */
	TUN_DEVICE,  /* each member's own device (the disk, for level none), set and read back
	                through the device itself (cell/device.c), not a file: put back after the
	                cell, and at power-off if a cell was cut short */
};

/* When the cell applies it. Tunables of the queue, md and vm need the array and the
 * filesystem to exist; a device setting that decides what mkfs sees would come before it. */
enum tun_when { TUN_AFTER_MOUNT, TUN_BEFORE_MKFS };

enum tun_kind {
	TUN_INT,     /* a whole number */
	TUN_SIZE,    /* a whole number of bytes: 64m in a plan, 67108864 in the kernel */
	TUN_CHOICE,  /* a word of the row's choices; the kernel shows "[chosen] other ..." */
};

/* Level bits: which arrays a row fits. */
#define TUN_RAW 0x1u      /* level none: the one disk */
#define TUN_MDANY 0x2u    /* any md level */
#define TUN_PARITY 0x4u   /* md levels with parity (raid4, 5, 6): raid456 has the stripe cache */
#define TUN_ALL (TUN_RAW | TUN_MDANY | TUN_PARITY)

struct tun_choice {
	const char *name;     /* as the plan and the kernel spell it */
	const char *module;   /* the module that provides it; NULL when built in */
};

struct tun_row {
	const char *name;     /* the plan key and the name in records */
	const char *abbr;     /* in cell ids: md5-c64k-scs4096 */
	enum tun_where where;
	enum tun_when when;
	const char *attr;     /* the file under where's directory */
	enum tun_kind kind;
	long long min, max;   /* TUN_INT, TUN_SIZE: what the kernel takes at all */
	const struct tun_choice *choices;  /* TUN_CHOICE, NULL-terminated */
	unsigned levels;      /* TUN_RAW, TUN_MDANY, TUN_PARITY */
	int excludes;         /* a row the kernel keeps only one of with this one, or -1:
	                         writing dirty_bytes zeroes dirty_ratio and back */
};
extern const struct tun_row tun_rows[TUN_COUNT];
/* What the tunables are to a plan, for its key table (one text for all of them). */
extern const char tun_plan_help[];

/* The row named name, or -1. */
int tun_find(const char *name);
/* The level bits of an array of level l. */
unsigned tun_level_bits(const struct md_level *l);
/* Whether row id fits an array of level l. */
int tun_fits(int id, const struct md_level *l);
/* The names of the levels row id fits, as an error lists them: "raid4, raid5 or raid6". */
void tun_fits_text(int id, char *buf, size_t len);
/* One value of row id from a plan's text. Returns 0, or -1 with what it expected in msg. */
int tun_parse(int id, const char *text, long long *v, char *msg, size_t len);
/* A value as records show it: "bfq", "4096". */
void tun_format(int id, long long v, char *buf, size_t len);
/* A value as a cell id shows it, the row's abbr first: "scs4096", "db64m", "schedbfq". */
void tun_format_id(int id, long long v, char *buf, size_t len);
/* What the kernel shows in row id's file ("[bfq] mq-deadline none", "4096"), as a value.
 * Returns 0, or -1 when it shows none of the row's values (a scheduler no row names). */
int tun_read(int id, const char *text, long long *v);
/* A value as JSON: a number, or the choice's name as a string. */
struct jw;
void tun_json(struct jw *w, int id, long long v);
/* {NAME: value} of every tunable given (a bit per row) with its value: a record's axes, a
 * dry run's cell. */
void tun_json_given(struct jw *w, unsigned given, const long long *v);
/* The module a value needs loaded first, or NULL. */
const char *tun_module(int id, long long v);

/* write_cache's values: the index is what the device takes (0 off, 1 on); keep sets
 * nothing and records what the device has. */
enum { TUN_WC_OFF, TUN_WC_ON, TUN_WC_KEEP };

/* The places of a cell row id is written to: the target (md0 or the disk) and, for an
 * array, each member (queue); md0 (md); "vm" (vm); each member, or the disk (device).
 * Returns how many, at most max. */
int tun_places(int id, const char *target, char *const *members, int nmembers,
	       const char **out, int max);
/* The file of row id at place: /sys/block/vdb/queue/nr_requests, /proc/sys/vm/dirty_ratio. */
void tun_path(int id, const char *place, char *buf, size_t len);

/* The row that puts back what row id found before the cell: itself, or, when it found 0
 * where the kernel keeps its pair instead (dirty_bytes is 0 while dirty_ratio is in use, and
 * takes no 0), the pair, with the pair's value as found. */
int tun_restore_id(int id, long long found);

/* md's stripe cache (raid4/5/6) is memory the kernel cannot take back: each entry, a
 * stripe_head, holds one page per member device (missing members too: md sizes it by the
 * array's raid disks) and, in the kernel's own structs, an r5dev per member (two struct bio
 * and their bvecs, ~400 bytes) besides its head; md keeps the whole cache it is given, and
 * the shrinker frees nothing below that. So a stripe cache of N entries over M members
 * takes N x (M x (4096 + 512) + 512) bytes, and a value that would take more than
 * 1/TUN_SCS_RAM_DIV of RAM is refused: 32768 entries over 3 members (448 MiB) in a 512 MiB
 * machine left the kernel "deadlocked on memory". */
#define TUN_SCS_PAGE_BYTES 4096
#define TUN_SCS_DEV_BYTES 512     /* an r5dev, rounded up */
#define TUN_SCS_HEAD_BYTES 512    /* the stripe_head, rounded up */
#define TUN_SCS_RAM_DIV 2         /* at most half of RAM */
double tun_stripe_cache_bytes(long long entries, int members);
/* Whether a stripe cache of entries over members fits in mem_bytes of RAM (MemTotal): 0,
 * or -1 with why ("stripe_cache_size = 32768 over 3 members would pin ~448 MiB of memory
 * (...), more than half of the 512 MiB of RAM"). mem_bytes <= 0 (unknown): 0. */
int tun_stripe_cache_check(long long entries, int members, double mem_bytes, char *why,
			   size_t len);

/* What became of a value written and read back. */
enum tun_outcome {
	TUN_APPLIED,   /* read back as asked */
	TUN_REFUSED,   /* the write failed: the kernel said no */
	TUN_CLAMPED,   /* the write succeeded but the kernel shows another value */
	TUN_UNREAD,    /* the file could not be read back */
};
enum tun_outcome tun_judge(long long asked, int write_err, int read_ok, long long got);
const char *tun_outcome_name(enum tun_outcome o);

#endif
