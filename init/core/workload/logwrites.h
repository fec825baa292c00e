/* core/workload/logwrites.h: the on-disk log of the kernel's dm-log-writes target, read as the kernel
 * documents and writes it (Documentation/admin-guide/device-mapper/log-writes.rst,
 * drivers/md/dm-log-writes.c): at byte 0 a super block (magic, version, the entries logged,
 * the log's sector size), then for each entry one sector holding its header (the sector and
 * count written, in the log's sectors, its flags and data_len) and, for a write, the data
 * written; a mark's name sits in its header sector after the header. The super's count is
 * brought up to date at each FUA write and each mark (the target's own end mark among them),
 * so a log whose target was removed cleanly is read whole.
 *
 * The target logs a write once a flush covers it (it keeps completed writes aside until the
 * next flush, then logs them before that flush) and a FUA write or a mark at once: the log
 * is in the order writes reached stable storage if the disk's cache were volatile.
 *
 * Pure: the caller hands a function that reads the log's bytes. */
#ifndef FSM_LOGWRITES_H
#define FSM_LOGWRITES_H
#include <stddef.h>
#include <stdint.h>

#define LW_MAGIC 0x6a736677736872ULL
#define LW_VERSION 1
#define LW_FLUSH (1u << 0)
#define LW_FUA (1u << 1)
#define LW_DISCARD (1u << 2)
#define LW_MARK (1u << 3)
#define LW_METADATA (1u << 4)
#define LW_HEADER_BYTES 32      /* sector, nr_sectors, flags, data_len: four le64 */
#define LW_SUPER_BYTES 28       /* magic, version, nr_entries (le64), sectorsize (le32) */
#define LW_SECTOR_MAX 4096      /* the largest sector size the reader takes */
#define LW_MARK_NAME_MAX 64     /* a mark's name as kept (longer ones are cut) */

/* One entry. sector and nr_sectors are in the log's sectors (sectorsize bytes); data_off is
 * the log's byte offset of its data (nr_sectors * sectorsize bytes), for a write. */
struct lw_entry {
	uint64_t sector, nr_sectors;
	uint64_t data_off;
	uint32_t flags;
	int32_t mark;               /* its index in marks[], or -1 */
};

struct lw_mark {
	size_t entry;
	char name[LW_MARK_NAME_MAX];
};

struct lw_log {
	uint64_t nr_entries;        /* as the super block says */
	uint32_t sectorsize;
	uint64_t end;               /* the byte just past the last entry read */
	size_t n, cap;
	struct lw_entry *e;
	size_t nmarks, capmarks;
	struct lw_mark *marks;
	/* what the log holds */
	uint64_t writes, flushes, fuas, discards, data_bytes;
};

/* Reads len bytes at byte off of the log into buf: 0, or -1. */
typedef int (*lw_read_fn)(void *ctx, uint64_t off, void *buf, size_t len);

/* The super block in buf (at least LW_SUPER_BYTES): 0, or -1 with why in err (no magic, a
 * version or sector size this reader does not take). */
int lw_super(const unsigned char *buf, size_t n, uint64_t *nr_entries, uint32_t *sectorsize,
	     char *err, size_t len);

/* The header sector hdr (sectorsize bytes) of an entry at byte off: into e (and its mark's
 * name into name when it is a mark); *next is the byte of the entry after it. 0, or -1 with
 * err. */
int lw_entry_parse(const unsigned char *hdr, uint32_t sectorsize, uint64_t off,
		   struct lw_entry *e, char *name, size_t namelen, uint64_t *next, char *err,
		   size_t len);

/* The whole log (log_bytes long) read through rd into log. 0, or -1 with err naming the
 * entry that could not be read or runs past the log's end. lw_free releases it. */
int lw_read(lw_read_fn rd, void *ctx, uint64_t log_bytes, struct lw_log *log, char *err,
	    size_t len);
void lw_free(struct lw_log *log);

/* The log's bytes for n entries of the given write sizes (bytes each): what a log of these
 * writes takes, for the estimate that warns a log disk may be too small. */
uint64_t lw_bytes_for(uint64_t entries, uint64_t data_bytes, uint32_t sectorsize);

/* "FLUSH|FUA" for flags, "-" for none. */
void lw_flags_text(uint32_t flags, char *buf, size_t len);

#endif
