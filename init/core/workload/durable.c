/* core/workload/durable.c: the durability workload's operations, records and their checks
 * (core/workload/durable.h). */
#include "core/workload/durable.h"
#include "lib/ondisk.h"
#include "lib/record.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dur_kind_names[DUR_KINDS] = { "append", "overwrite", "create", "rename" };
const char *const dur_verdict_names[3] = { "ok", "lost", "torn" };

const struct dur_row dur_cycle[DUR_CYCLE] = {
	{ DUR_APPEND, DUR_FDATASYNC },
	{ DUR_APPEND, DUR_FSYNC },
	{ DUR_OVERWRITE, DUR_FDATASYNC },
	{ DUR_CREATE, DUR_FSYNC },
	{ DUR_APPEND, DUR_FDATASYNC },
	{ DUR_RENAME, DUR_FSYNC },
	{ DUR_OVERWRITE, DUR_FSYNC },
	{ DUR_APPEND, DUR_FDATASYNC },
};

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int add_file(struct dur_model *m, const char *name, size_t *idx)
{
	for (size_t i = 0; i < m->nfiles; i++)
		if (strcmp(m->f[i].name, name) == 0) {
			*idx = i;
			return 0;
		}
	if (m->nfiles == m->cap) {
		size_t c = m->cap ? m->cap * 2 : 16;
		struct dur_file *f = realloc(m->f, c * sizeof *f);
		if (!f)
			return -1;
		m->f = f;
		m->cap = c;
	}
	struct dur_file *f = &m->f[m->nfiles];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	*idx = m->nfiles++;
	return 0;
}

static int put_slot(struct dur_file *f, uint32_t slot, uint64_t seq)
{
	if (slot >= f->cap) {
		uint32_t c = f->cap ? f->cap * 2 : 8;
		while (c <= slot)
			c *= 2;
		uint64_t *s = realloc(f->seq, c * sizeof *s);
		if (!s)
			return -1;
		f->seq = s;
		f->cap = c;
	}
	f->seq[slot] = seq;
	if (slot >= f->nslots)
		f->nslots = slot + 1;
	return 0;
}

int dur_model_init(struct dur_model *m, unsigned files, uint64_t seed)
{
	memset(m, 0, sizeof *m);
	m->seed = seed;
	m->nbase = files ? files : DUR_FILES_DEFAULT;
	for (unsigned i = 0; i < m->nbase; i++) {
		char name[DUR_NAME_MAX];
		size_t idx;
		snprintf(name, sizeof name, "d%u", i);
		if (add_file(m, name, &idx) < 0) {
			dur_model_free(m);
			return -1;
		}
	}
	return 0;
}

void dur_model_free(struct dur_model *m)
{
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->f[i].seq);
	free(m->f);
	memset(m, 0, sizeof *m);
}

/* Where the operation lands: its file (made when new) and slot. */
static int place(struct dur_model *m, struct dur_op *op)
{
	char name[DUR_NAME_MAX];
	size_t base = (size_t)((op->seq + op->seq / DUR_CYCLE) % m->nbase);   /* each row turns */
	struct dur_file *f = &m->f[base];
	if (op->kind == DUR_OVERWRITE && !f->nslots)
		op->kind = DUR_APPEND;      /* an empty file has nothing to overwrite */
	switch (op->kind) {
	case DUR_OVERWRITE:
		op->file = base;
		op->slot = (uint32_t)(mix(m->seed ^ op->seq) % f->nslots);
		return 0;
	case DUR_APPEND:
		op->file = base;
		op->slot = f->nslots;
		return 0;
	case DUR_CREATE:
		snprintf(name, sizeof name, "c%llu", (unsigned long long)op->seq);
		break;
	case DUR_RENAME:
		snprintf(name, sizeof name, "r%zu", base);
		snprintf(op->tmp, sizeof op->tmp, "tmp%llu", (unsigned long long)op->seq);
		break;
	default:
		return -1;
	}
	if (add_file(m, name, &op->file) < 0)
		return -1;
	m->f[op->file].nslots = 0;      /* a new file, or one the rename replaces whole */
	op->slot = 0;
	op->dir_sync = 1;
	return 0;
}

int dur_next(struct dur_model *m, struct dur_op *op)
{
	memset(op, 0, sizeof *op);
	op->seq = m->ops + 1;
	op->kind = dur_cycle[(op->seq - 1) % DUR_CYCLE].kind;
	op->sync = dur_cycle[(op->seq - 1) % DUR_CYCLE].sync;
	if (place(m, op) < 0 || put_slot(&m->f[op->file], op->slot, op->seq) < 0)
		return -1;
	m->ops++;
	return 0;
}

int dur_model_at(struct dur_model *m, unsigned files, uint64_t seed, uint64_t ops)
{
	struct dur_op op;
	if (dur_model_init(m, files, seed) < 0)
		return -1;
	while (m->ops < ops)
		if (dur_next(m, &op) < 0) {
			dur_model_free(m);
			return -1;
		}
	return 0;
}

uint64_t dur_model_records(const struct dur_model *m)
{
	uint64_t n = 0;
	for (size_t i = 0; i < m->nfiles; i++)
		n += m->f[i].nslots;
	return n;
}

static void put32(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t payload_len(uint64_t seed, uint64_t seq)
{
	return 256 + (uint32_t)(mix(seed ^ (seq * 0x9e3779b97f4a7c15ull)) %
				(DUR_SLOT - DUR_HDR - 256 + 1));
}

static uint32_t record_crc(const unsigned char *buf, uint32_t len)
{
	return crc32_ieee(crc32_ieee(0, buf, 24), buf + DUR_HDR, len);
}

void dur_record(uint64_t seed, uint64_t seq, uint32_t file, uint32_t slot, unsigned char *buf)
{
	uint32_t len = payload_len(seed, seq);
	memset(buf, 0, DUR_SLOT);
	put32(buf, DUR_MAGIC);
	put32(buf + 4, file);
	put32(buf + 8, (uint32_t)seq);
	put32(buf + 12, (uint32_t)(seq >> 32));
	put32(buf + 16, len);
	put32(buf + 20, slot);
	uint64_t x = mix(seed + seq);
	for (uint32_t i = 0; i < len; i++) {
		if (i % 8 == 0)
			x = mix(x + 0x9e3779b97f4a7c15ull);
		buf[DUR_HDR + i] = (unsigned char)(x >> (8 * (i % 8)));
	}
	put32(buf + 24, record_crc(buf, len));
}

enum dur_verdict dur_check(const unsigned char *buf, size_t n, uint64_t seq, uint32_t file,
			   uint32_t slot, uint64_t *found)
{
	*found = 0;
	if (n < 24 || le32(buf) != DUR_MAGIC || le32(buf + 4) != file || le32(buf + 20) != slot)
		return DUR_LOST;
	*found = le64(buf + 8);
	if (*found != seq)
		return DUR_LOST;
	uint32_t len = le32(buf + 16);
	if (n < DUR_HDR || len > DUR_SLOT - DUR_HDR || DUR_HDR + len > n)
		return DUR_TORN;
	return record_crc(buf, len) == le32(buf + 24) ? DUR_OK : DUR_TORN;
}
