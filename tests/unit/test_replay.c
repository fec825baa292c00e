/* test_replay: dm-log-writes logs built here byte by byte as the kernel writes them (super
 * block, a header sector per entry, the data after it, a mark's name in its header), read
 * back by core/logwrites.c, planned by core/workload/replay.c, and each model's steps applied to a
 * small disk in RAM: what survives at each crash point is what the model says. */
#include "check.h"
#include "core/workload/logwrites.h"
#include "core/workload/replay.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_MAX (256 << 10)
#define DISK_SECTORS 8

struct builder {
	unsigned char buf[LOG_MAX];
	uint32_t ss;
	uint64_t off, entries;
};

static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void super(struct builder *b, uint64_t magic, uint64_t version)
{
	memset(b->buf, 0, b->ss);
	put64(b->buf, magic);
	put64(b->buf + 8, version);
	put64(b->buf + 16, b->entries);
	for (int i = 0; i < 4; i++)
		b->buf[24 + i] = (unsigned char)(b->ss >> (8 * i));
}

static void start(struct builder *b, uint32_t ss)
{
	memset(b, 0, sizeof *b);
	b->ss = ss;
	b->off = ss;
}

/* An entry: a write of n sectors of byte fill at sector (none for a flush), or a mark. */
static void entry(struct builder *b, uint64_t sector, uint64_t n, uint32_t flags, int fill,
		  const char *mark)
{
	unsigned char *h = b->buf + b->off;
	memset(h, 0, b->ss);
	put64(h, sector);
	put64(h + 8, n);
	put64(h + 16, flags);
	put64(h + 24, mark ? strlen(mark) : 0);
	if (mark)
		memcpy(h + 32, mark, strlen(mark));
	b->off += b->ss;
	if (!(flags & (LW_DISCARD | LW_MARK))) {
		memset(b->buf + b->off, fill, n * b->ss);
		b->off += n * b->ss;
	}
	b->entries++;
}

static void write_(struct builder *b, uint64_t sector, int fill, uint32_t flags)
{
	entry(b, sector, 1, flags, fill, NULL);
}
static void flush(struct builder *b) { entry(b, 0, 0, LW_FLUSH, 0, NULL); }
static void mark(struct builder *b, const char *name) { entry(b, 0, 0, LW_MARK, 0, name); }

static int rd(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct builder *b = ctx;
	if (off + len > LOG_MAX)
		return -1;
	memcpy(buf, b->buf + off, len);
	return 0;
}

static int parse(struct builder *b, struct lw_log *log, char *err)
{
	super(b, LW_MAGIC, LW_VERSION);
	return lw_read(rd, b, b->off, log, err, 200);
}

/* The disk after each model's steps up to point pt: one byte per sector, 0 unwritten. */
static void disk_at(const struct builder *b, const struct lw_log *log,
		    const struct replay_plan *p, int model, size_t pt, unsigned char *disk)
{
	memset(disk, 0, DISK_SECTORS);
	for (size_t k = 0; k < p->nsteps[model]; k++) {
		const struct replay_step *s = &p->steps[model][k];
		if (s->kind == REPLAY_POINT && s->idx == pt)
			return;
		if (s->kind != REPLAY_APPLY)
			continue;
		const struct lw_entry *e = &log->e[s->idx];
		for (uint64_t j = 0; j < e->nr_sectors && e->sector + j < DISK_SECTORS; j++)
			disk[e->sector + j] = (e->flags & LW_DISCARD) ? 0 :
				b->buf[e->data_off + j * log->sectorsize];
	}
	CHECK(0, "point %zu not in the %s steps", pt, replay_model_names[model]);
}

static void check_disk(const struct builder *b, const struct lw_log *log,
		       const struct replay_plan *p, int model, size_t pt, const char *want)
{
	unsigned char disk[DISK_SECTORS];
	char got[DISK_SECTORS + 1];
	disk_at(b, log, p, model, pt, disk);
	for (int i = 0; i < DISK_SECTORS; i++)
		got[i] = disk[i] ? (char)disk[i] : '.';
	got[DISK_SECTORS] = '\0';
	CHECK(strcmp(got, want) == 0, "%s at point %zu: got %s, want %s",
	      replay_model_names[model], pt, got, want);
}

/* The engine's brackets: fsmpre.N, the instrument's flush, fsm.N. */
static void bracket(struct builder *b, int n)
{
	char pre[32], pt[32];
	snprintf(pre, sizeof pre, "fsmpre.%d", n);
	snprintf(pt, sizeof pt, "fsm.%d", n);
	mark(b, pre);
	flush(b);
	mark(b, pt);
}

static void test_models(void)
{
	static struct builder b;
	struct lw_log log;
	struct replay_plan p;
	char err[200] = "";
	start(&b, 512);
	write_(&b, 0, 'A', 0);          /* the filesystem's write and flush */
	flush(&b);
	mark(&b, "fsmpre.1");
	write_(&b, 1, 'B', 0);          /* completed, carried in only by the instrument's flush */
	flush(&b);
	mark(&b, "fsm.1");
	write_(&b, 1, 'C', LW_FUA);     /* FUA over the pending B */
	write_(&b, 0, 'D', 0);
	bracket(&b, 2);
	entry(&b, 3, 1, 0, 'E', NULL);
	flush(&b);                      /* the filesystem's: covers B, D, E */
	bracket(&b, 3);
	CHECK_INT(parse(&b, &log, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(log.n, 16);
	CHECK_INT(log.nmarks, 6);
	CHECK_INT(log.writes, 5);
	CHECK_INT(log.flushes, 5);
	CHECK_INT(log.fuas, 1);
	CHECK_STR(log.marks[1].name, "fsm.1");
	CHECK_INT(replay_plan_build(&log, 0, &p, err, sizeof err), 0);
	CHECK_INT(p.candidates, 3);
	CHECK_INT(p.npoints, 3);
	CHECK_INT(p.points[0].acked, 1);
	CHECK_INT(p.points[2].acked, 3);
	CHECK_INT(p.points[1].entry, 10);
	CHECK_INT(p.fs_flushes, 2);
	CHECK_INT(p.instrument_flushes, 3);
	CHECK_INT(p.fuas, 1);
	CHECK_INT(p.ambiguous, 0);
	check_disk(&b, &log, &p, REPLAY_OPTIMISTIC, 0, "AB......");
	check_disk(&b, &log, &p, REPLAY_OPTIMISTIC, 1, "DC......");
	check_disk(&b, &log, &p, REPLAY_OPTIMISTIC, 2, "DC.E....");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 0, "A.......");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 1, "AC......");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 2, "DC.E....");
	replay_plan_free(&p);
	lw_free(&log);
}

/* No flush of the filesystem at all (barrier=0): the optimistic model keeps what the
 * instrument's flushes carried, the pessimistic one keeps nothing. */
static void test_no_barrier(void)
{
	static struct builder b;
	struct lw_log log;
	struct replay_plan p;
	char err[200] = "";
	start(&b, 512);
	for (int i = 1; i <= 4; i++) {
		char pre[16], pt[16];
		snprintf(pre, sizeof pre, "fsmpre.%d", i);
		snprintf(pt, sizeof pt, "fsm.%d", i);
		mark(&b, pre);
		write_(&b, (uint64_t)i, '0' + i, 0);
		flush(&b);
		mark(&b, pt);
	}
	mark(&b, "dm-log-writes-end");
	CHECK_INT(parse(&b, &log, err), 0);
	CHECK_INT(replay_plan_build(&log, 0, &p, err, sizeof err), 0);
	CHECK_INT(p.npoints, 4);
	CHECK_INT(p.fs_flushes, 0);
	CHECK_INT(p.instrument_flushes, 4);
	check_disk(&b, &log, &p, REPLAY_OPTIMISTIC, 3, ".1234...");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 3, "........");
	replay_plan_free(&p);
	lw_free(&log);
}

/* Another workload under the log: a point after each flush and FUA write of the
 * filesystem; discards are applied as zeros; a 4 KiB-sector log with a two-sector write. */
static void test_flush_points(void)
{
	static struct builder b;
	struct lw_log log;
	struct replay_plan p;
	char err[200] = "";
	start(&b, 4096);
	entry(&b, 0, 2, LW_METADATA, 'M', NULL);
	flush(&b);
	entry(&b, 1, 1, LW_DISCARD, 0, NULL);
	write_(&b, 4, 'F', LW_FUA);
	flush(&b);
	CHECK_INT(parse(&b, &log, err), 0);
	CHECK_INT(log.sectorsize, 4096);
	CHECK_INT(log.e[0].data_off, 8192);
	CHECK_INT(log.e[2].data_off, 0);
	CHECK_INT(log.end, b.off);
	CHECK_INT(log.discards, 1);
	CHECK_INT(log.data_bytes, 3 * 4096);
	CHECK_INT(replay_plan_build(&log, 0, &p, err, sizeof err), 0);
	CHECK_INT(p.npoints, 3);
	CHECK_INT(p.points[0].entry, 1);
	CHECK_INT(p.points[0].mark, -1);
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 0, "MM......");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 1, "MM..F...");
	check_disk(&b, &log, &p, REPLAY_OPTIMISTIC, 1, "M...F...");
	check_disk(&b, &log, &p, REPLAY_PESSIMISTIC, 2, "M...F...");
	replay_plan_free(&p);
	lw_free(&log);
}

/* Ten marks under a bound of 3: the 3rd, 6th and 10th; a bracket with two flushes. */
static void test_bound(void)
{
	static struct builder b;
	struct lw_log log;
	struct replay_plan p;
	char err[200] = "";
	CHECK_INT(replay_sample(0, 10, 3), 2);
	CHECK_INT(replay_sample(1, 10, 3), 5);
	CHECK_INT(replay_sample(2, 10, 3), 9);
	start(&b, 512);
	for (int i = 1; i <= 10; i++) {
		char pre[16], pt[16];
		snprintf(pre, sizeof pre, "fsmpre.%d", i);
		snprintf(pt, sizeof pt, "fsm.%d", i);
		mark(&b, pre);
		flush(&b);
		if (i == 4)
			flush(&b);
		mark(&b, pt);
	}
	CHECK_INT(parse(&b, &log, err), 0);
	CHECK_INT(replay_plan_build(&log, 3, &p, err, sizeof err), 0);
	CHECK_INT(p.candidates, 10);
	CHECK_INT(p.npoints, 3);
	CHECK_INT(p.points[0].acked, 3);
	CHECK_INT(p.points[1].acked, 6);
	CHECK_INT(p.points[2].acked, 10);
	CHECK_INT(p.ambiguous, 1);
	CHECK_INT(p.fs_flushes, 1);
	CHECK_INT(p.instrument_flushes, 10);
	replay_plan_free(&p);
	lw_free(&log);
	uint64_t n = 0;
	CHECK_INT(replay_mark_acked("fsm.42", &n), 1);
	CHECK_INT(n, 42);
	CHECK_INT(replay_mark_acked("fsm.", &n), 0);
	CHECK_INT(replay_mark_acked("fsm.4x", &n), 0);
	CHECK_INT(replay_mark_acked("fsmpre.4", &n), 0);
}

/* What is not a whole log is refused, naming why. */
static void test_refused(void)
{
	static struct builder b;
	struct lw_log log;
	char err[200] = "";
	start(&b, 512);
	entry(&b, 0, 2, 0, 'A', NULL);
	super(&b, LW_MAGIC + 1, LW_VERSION);
	CHECK_INT(lw_read(rd, &b, b.off, &log, err, sizeof err), -1);
	CHECK(strstr(err, "no dm-log-writes super block") != NULL, "%s", err);
	super(&b, LW_MAGIC, 2);
	CHECK_INT(lw_read(rd, &b, b.off, &log, err, sizeof err), -1);
	CHECK_STR(err, "dm-log-writes log version 2, not 1");
	b.entries = 2;                  /* one more than there is */
	super(&b, LW_MAGIC, LW_VERSION);
	CHECK_INT(lw_read(rd, &b, b.off, &log, err, sizeof err), -1);
	CHECK_STR(err, "unable to read entry 1 of 2 at byte 2048");
	b.entries = 1;
	super(&b, LW_MAGIC, LW_VERSION);
	CHECK_INT(lw_read(rd, &b, b.off - 1, &log, err, sizeof err), -1);
	CHECK_STR(err, "entry 0 at byte 512 runs past the log's end (2047 bytes)");
	b.entries = 0;                  /* found by fuzz_logwrites: a super block in 436 bytes */
	super(&b, LW_MAGIC, LW_VERSION);
	CHECK_INT(lw_read(rd, &b, 436, &log, err, sizeof err), -1);
	CHECK_STR(err, "the log is 436 bytes, less than its 512-byte super block sector");
	b.entries = 1;
	super(&b, LW_MAGIC, LW_VERSION);
	b.buf[512 + 16] = 0x40;
	CHECK_INT(lw_read(rd, &b, b.off, &log, err, sizeof err), -1);
	CHECK_STR(err, "entry at byte 512: unknown flags 0x40");
	b.buf[24] = 0, b.buf[25] = 3;   /* 768 */
	CHECK_INT(lw_read(rd, &b, b.off, &log, err, sizeof err), -1);
	CHECK_STR(err, "dm-log-writes sector size 768 (512 to 4096, a power of two)");
	char f[40];
	lw_flags_text(LW_FLUSH | LW_FUA, f, sizeof f);
	CHECK_STR(f, "FLUSH|FUA");
	lw_flags_text(0, f, sizeof f);
	CHECK_STR(f, "-");
	CHECK_INT(lw_bytes_for(10, 40960, 512), 512 * 11 + 40960);
}

int main(void)
{
	test_models();
	test_no_barrier();
	test_flush_points();
	test_bound();
	test_refused();
	return check_done("test_replay");
}
