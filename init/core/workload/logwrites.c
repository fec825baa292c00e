/* core/workload/logwrites.c: the dm-log-writes log read from its bytes (core/workload/logwrites.h). */
#include "core/workload/logwrites.h"
#include "lib/ondisk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lw_super(const unsigned char *buf, size_t n, uint64_t *nr_entries, uint32_t *sectorsize,
	     char *err, size_t len)
{
	if (n < LW_SUPER_BYTES || le64(buf) != LW_MAGIC) {
		snprintf(err, len, "no dm-log-writes super block (magic %#llx)",
			 (unsigned long long)LW_MAGIC);
		return -1;
	}
	uint64_t version = le64(buf + 8);
	uint32_t ss = le32(buf + 24);
	if (version != LW_VERSION) {
		snprintf(err, len, "dm-log-writes log version %llu, not %d",
			 (unsigned long long)version, LW_VERSION);
		return -1;
	}
	if (ss < 512 || ss > LW_SECTOR_MAX || (ss & (ss - 1))) {
		snprintf(err, len, "dm-log-writes sector size %u (512 to %d, a power of two)",
			 (unsigned)ss, LW_SECTOR_MAX);
		return -1;
	}
	*nr_entries = le64(buf + 16);
	*sectorsize = ss;
	return 0;
}

int lw_entry_parse(const unsigned char *hdr, uint32_t sectorsize, uint64_t off,
		   struct lw_entry *e, char *name, size_t namelen, uint64_t *next, char *err,
		   size_t len)
{
	uint64_t flags = le64(hdr + 16), data_len = le64(hdr + 24);
	memset(e, 0, sizeof *e);
	e->sector = le64(hdr);
	e->nr_sectors = le64(hdr + 8);
	e->flags = (uint32_t)flags;
	e->mark = -1;
	if (flags >> 5) {
		snprintf(err, len, "entry at byte %llu: unknown flags %#llx",
			 (unsigned long long)off, (unsigned long long)flags);
		return -1;
	}
	if (name && namelen)
		name[0] = '\0';
	if (flags & LW_MARK) {
		if (data_len > sectorsize - LW_HEADER_BYTES) {
			snprintf(err, len, "entry at byte %llu: a mark of %llu bytes in a %u-byte sector",
				 (unsigned long long)off, (unsigned long long)data_len, (unsigned)sectorsize);
			return -1;
		}
		if (name && namelen)
			snprintf(name, namelen, "%.*s", (int)data_len, (const char *)hdr + LW_HEADER_BYTES);
		*next = off + sectorsize;
		return 0;
	}
	uint64_t data = (flags & LW_DISCARD) ? 0 : e->nr_sectors;
	if (data > (UINT64_MAX - off) / sectorsize - 1) {
		snprintf(err, len, "entry at byte %llu: %llu sectors", (unsigned long long)off,
			 (unsigned long long)e->nr_sectors);
		return -1;
	}
	e->data_off = data ? off + sectorsize : 0;
	*next = off + sectorsize + data * sectorsize;
	return 0;
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static void count(struct lw_log *log, const struct lw_entry *e)
{
	if (e->flags & LW_FLUSH)
		log->flushes++;
	if (e->flags & LW_FUA)
		log->fuas++;
	if (e->flags & LW_DISCARD)
		log->discards++;
	else if (!(e->flags & LW_MARK) && e->nr_sectors) {
		log->writes++;
		log->data_bytes += e->nr_sectors * log->sectorsize;
	}
}

/* One entry at *off appended to log; *off moves past it. */
static int read_entry(lw_read_fn rd, void *ctx, uint64_t log_bytes, struct lw_log *log,
		      uint64_t *off, char *err, size_t len)
{
	unsigned char hdr[LW_SECTOR_MAX];
	char name[LW_MARK_NAME_MAX];
	struct lw_entry e;
	uint64_t next;
	size_t i = log->n;
	if (*off + log->sectorsize > log_bytes || rd(ctx, *off, hdr, log->sectorsize) < 0) {
		snprintf(err, len, "unable to read entry %zu of %llu at byte %llu", i,
			 (unsigned long long)log->nr_entries, (unsigned long long)*off);
		return -1;
	}
	if (lw_entry_parse(hdr, log->sectorsize, *off, &e, name, sizeof name, &next, err, len) < 0)
		return -1;
	if (next > log_bytes) {
		snprintf(err, len, "entry %zu at byte %llu runs past the log's end (%llu bytes)", i,
			 (unsigned long long)*off, (unsigned long long)log_bytes);
		return -1;
	}
	if (grow((void **)&log->e, &log->cap, log->n, sizeof *log->e) < 0 ||
	    ((e.flags & LW_MARK) &&
	     grow((void **)&log->marks, &log->capmarks, log->nmarks, sizeof *log->marks) < 0)) {
		snprintf(err, len, "unable to hold %zu entries of the log", i + 1);
		return -1;
	}
	if (e.flags & LW_MARK) {
		e.mark = (int32_t)log->nmarks;
		log->marks[log->nmarks].entry = i;
		snprintf(log->marks[log->nmarks++].name, LW_MARK_NAME_MAX, "%s", name);
	}
	log->e[log->n++] = e;
	count(log, &e);
	*off = next;
	return 0;
}

int lw_read(lw_read_fn rd, void *ctx, uint64_t log_bytes, struct lw_log *log, char *err,
	    size_t len)
{
	unsigned char sb[LW_SUPER_BYTES];
	memset(log, 0, sizeof *log);
	if (log_bytes < LW_SUPER_BYTES || rd(ctx, 0, sb, sizeof sb) < 0) {
		snprintf(err, len, "unable to read the log's super block");
		return -1;
	}
	if (lw_super(sb, sizeof sb, &log->nr_entries, &log->sectorsize, err, len) < 0)
		return -1;
	if (log_bytes < log->sectorsize) {
		snprintf(err, len, "the log is %llu bytes, less than its %u-byte super block sector",
			 (unsigned long long)log_bytes, (unsigned)log->sectorsize);
		return -1;
	}
	uint64_t off = log->sectorsize;
	for (uint64_t i = 0; i < log->nr_entries; i++)
		if (read_entry(rd, ctx, log_bytes, log, &off, err, len) < 0) {
			lw_free(log);
			return -1;
		}
	log->end = off;
	return 0;
}

void lw_free(struct lw_log *log)
{
	free(log->e);
	free(log->marks);
	log->e = NULL;
	log->marks = NULL;
	log->n = log->cap = log->nmarks = log->capmarks = 0;
}

uint64_t lw_bytes_for(uint64_t entries, uint64_t data_bytes, uint32_t sectorsize)
{
	return (uint64_t)sectorsize * (entries + 1) + data_bytes;
}

void lw_flags_text(uint32_t flags, char *buf, size_t len)
{
	static const char *const names[] = { "FLUSH", "FUA", "DISCARD", "MARK", "METADATA" };
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof names / sizeof names[0] && used < len; i++)
		if (flags & (1u << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "", names[i]);
	if (!used)
		snprintf(buf, len, "-");
}
