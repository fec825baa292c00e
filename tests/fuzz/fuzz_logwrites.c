/* fuzz_logwrites.c: lw_read, the reader of a dm-log-writes log PID 1 runs on the log disk
 * after a cell, on any bytes, then replay_plan_build on what it accepted. Invariants: every
 * entry and its data lie inside the log; marks point at their entries; a refusal is one
 * line; each model's steps apply only entries that carry data and check each point once, in
 * order; there are no more points than the bound. */
#include "fuzz.h"
#include "core/workload/replay.h"

#define BOUND 8

struct mem {
	const uint8_t *data;
	size_t size;
};

static int rd(void *ctx, uint64_t off, void *buf, size_t len)
{
	const struct mem *m = ctx;
	if (off > m->size || len > m->size - off)
		return -1;
	memcpy(buf, m->data + off, len);
	return 0;
}

static void check_plan(const struct lw_log *log, const struct replay_plan *p)
{
	FUZZ_ASSERT(p->npoints <= BOUND && p->npoints <= p->candidates, "%zu points of %zu",
		    p->npoints, p->candidates);
	for (int m = 0; m < REPLAY_MODELS; m++) {
		size_t next = 0;
		for (size_t i = 0; i < p->nsteps[m]; i++) {
			const struct replay_step *s = &p->steps[m][i];
			if (s->kind == REPLAY_POINT) {
				FUZZ_ASSERT(s->idx == next, "point %u where %zu was due", s->idx, next);
				next++;
				continue;
			}
			FUZZ_ASSERT(s->kind == REPLAY_APPLY && s->idx < log->n, "step %zu", i);
			const struct lw_entry *e = &log->e[s->idx];
			FUZZ_ASSERT(!(e->flags & LW_MARK) && ((e->flags & LW_DISCARD) || e->nr_sectors),
				    "entry %u applied without data", s->idx);
		}
		FUZZ_ASSERT(next == p->npoints, "%zu of %zu points checked", next, p->npoints);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem m = { data, size };
	struct lw_log log;
	struct replay_plan p;
	char err[256] = "";
	if (lw_read(rd, &m, size, &log, err, sizeof err) < 0) {
		fuzz_one_line(err, sizeof err);
		return 0;
	}
	FUZZ_ASSERT(log.end <= size && log.n == log.nr_entries, "end %llu of %zu, %zu entries",
		    (unsigned long long)log.end, size, log.n);
	for (size_t i = 0; i < log.n; i++) {
		const struct lw_entry *e = &log.e[i];
		if (e->data_off)
			FUZZ_ASSERT(e->data_off + e->nr_sectors * log.sectorsize <= size,
				    "entry %zu's data past the log", i);
		if (e->mark >= 0)
			FUZZ_ASSERT((size_t)e->mark < log.nmarks && log.marks[e->mark].entry == i,
				    "mark of entry %zu", i);
	}
	if (replay_plan_build(&log, BOUND, &p, err, sizeof err) == 0) {
		check_plan(&log, &p);
		replay_plan_free(&p);
	} else {
		fuzz_one_line(err, sizeof err);
	}
	lw_free(&log);
	return 0;
}
