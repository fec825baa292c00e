/* core/workload/replay.c: the crash points of a dm-log-writes log and each model's replay steps
 * (core/workload/replay.h). */
#include "core/workload/replay.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const replay_model_names[REPLAY_MODELS] = { "pessimistic", "optimistic" };

static int prefixed(const char *name, const char *prefix, uint64_t *n)
{
	size_t k = strlen(prefix);
	if (strncmp(name, prefix, k) != 0 || !name[k])
		return 0;
	uint64_t v = 0;
	for (const char *c = name + k; *c; c++) {
		if (*c < '0' || *c > '9' || v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	*n = v;
	return 1;
}

int replay_mark_acked(const char *name, uint64_t *acked)
{
	return prefixed(name, REPLAY_MARK_POINT, acked);
}

static int is_pre(const struct lw_log *log, const struct lw_entry *e)
{
	uint64_t n;
	return e->mark >= 0 && prefixed(log->marks[e->mark].name, REPLAY_MARK_PRE, &n);
}

static int is_point_mark(const struct lw_log *log, const struct lw_entry *e)
{
	uint64_t n;
	return e->mark >= 0 && replay_mark_acked(log->marks[e->mark].name, &n);
}

size_t replay_sample(size_t j, size_t m, size_t bound)
{
	return (j + 1) * m / bound - 1;
}

/* The instrument's flushes: in each bracket from fsmpre.N to the next mark, the last flush.
 * flags[i] is set for them. */
static void instrument_flushes(const struct lw_log *log, unsigned char *instr,
			       struct replay_plan *p)
{
	int open = 0;
	size_t last = 0, inside = 0;
	for (size_t i = 0; i < log->n; i++) {
		const struct lw_entry *e = &log->e[i];
		if (e->flags & LW_MARK) {
			if (open && inside)
				instr[last] = 1;
			p->ambiguous += open && inside > 1;
			open = is_pre(log, e);
			inside = 0;
		} else if (open && (e->flags & LW_FLUSH)) {
			last = i;
			inside++;
		}
	}
}

static int is_candidate(const struct lw_log *log, const struct lw_entry *e, int marks,
			const unsigned char *instr, size_t i)
{
	if (marks)
		return is_point_mark(log, e);
	return !instr[i] && (e->flags & (LW_FLUSH | LW_FUA));
}

/* The points, sampled from the candidates; chosen[i] is the point after entry i plus 1. */
static int choose_points(const struct lw_log *log, size_t bound, const unsigned char *instr,
			 struct replay_plan *p, size_t *chosen)
{
	int marks = 0;
	for (size_t i = 0; i < log->n && !marks; i++)
		marks = is_point_mark(log, &log->e[i]);
	size_t m = 0;
	for (size_t i = 0; i < log->n; i++)
		m += (size_t)is_candidate(log, &log->e[i], marks, instr, i);
	p->candidates = m;
	size_t want = bound && bound < m ? bound : m;
	p->points = calloc(want ? want : 1, sizeof *p->points);
	if (!p->points)
		return -1;
	size_t c = 0, next = want ? replay_sample(0, m, want) : 0;
	for (size_t i = 0; i < log->n && p->npoints < want; i++) {
		if (!is_candidate(log, &log->e[i], marks, instr, i))
			continue;
		if (c++ != next)
			continue;
		struct replay_point *pt = &p->points[p->npoints];
		pt->entry = i;
		pt->mark = log->e[i].mark;
		if (pt->mark >= 0)
			replay_mark_acked(log->marks[pt->mark].name, &pt->acked);
		chosen[i] = ++p->npoints;
		if (p->npoints < want)
			next = replay_sample(p->npoints, m, want);
	}
	return 0;
}

static int step(struct replay_plan *p, int model, uint32_t kind, size_t idx)
{
	if (p->nsteps[model] == p->cap[model]) {
		size_t c = p->cap[model] ? p->cap[model] * 2 : 256;
		void *q = realloc(p->steps[model], c * sizeof *p->steps[model]);
		if (!q)
			return -1;
		p->steps[model] = q;
		p->cap[model] = c;
	}
	p->steps[model][p->nsteps[model]++] = (struct replay_step){ kind, (uint32_t)idx };
	return 0;
}

static int has_data(const struct lw_entry *e)
{
	return !(e->flags & LW_MARK) && ((e->flags & LW_DISCARD) || e->nr_sectors);
}

/* The pessimistic model's list. Writes wait in pending until a flush of the filesystem
 * covers them; a FUA write is applied at once, and again after any older pending writes
 * a later flush applies, so that an older write never lands over it. */
struct pess {
	size_t *pending, npending;
	size_t *fua, nfua;
};

static int cover(struct replay_plan *p, struct pess *s)
{
	int rc = 0;
	for (size_t k = 0; k < s->npending; k++)
		rc |= step(p, REPLAY_PESSIMISTIC, REPLAY_APPLY, s->pending[k]);
	for (size_t k = 0; k < s->nfua; k++)
		rc |= step(p, REPLAY_PESSIMISTIC, REPLAY_APPLY, s->fua[k]);
	s->npending = s->nfua = 0;
	return rc;
}

static int pessimistic(const struct lw_log *log, const unsigned char *instr,
		       const size_t *chosen, struct replay_plan *p, struct pess *s)
{
	int rc = 0;
	for (size_t i = 0; i < log->n && rc == 0; i++) {
		const struct lw_entry *e = &log->e[i];
		if ((e->flags & LW_FLUSH) && !instr[i])
			rc |= cover(p, s);
		if (has_data(e) && (e->flags & LW_FUA)) {
			rc |= step(p, REPLAY_PESSIMISTIC, REPLAY_APPLY, i);
			if (s->npending)
				s->fua[s->nfua++] = i;
		} else if (has_data(e))
			s->pending[s->npending++] = i;
		if (chosen[i])
			rc |= step(p, REPLAY_PESSIMISTIC, REPLAY_POINT, chosen[i] - 1);
	}
	return rc;
}

static int optimistic(const struct lw_log *log, const size_t *chosen, struct replay_plan *p)
{
	int rc = 0;
	for (size_t i = 0; i < log->n && rc == 0; i++) {
		if (has_data(&log->e[i]))
			rc |= step(p, REPLAY_OPTIMISTIC, REPLAY_APPLY, i);
		if (chosen[i])
			rc |= step(p, REPLAY_OPTIMISTIC, REPLAY_POINT, chosen[i] - 1);
	}
	return rc;
}

static void count_flushes(const struct lw_log *log, const unsigned char *instr,
			  struct replay_plan *p)
{
	for (size_t i = 0; i < log->n; i++) {
		if (log->e[i].flags & LW_FLUSH) {
			p->instrument_flushes += instr[i];
			p->fs_flushes += !instr[i];
		}
		p->fuas += (log->e[i].flags & LW_FUA) != 0;
	}
}

int replay_plan_build(const struct lw_log *log, size_t bound, struct replay_plan *p, char *err,
		      size_t len)
{
	memset(p, 0, sizeof *p);
	size_t n = log->n ? log->n : 1;
	unsigned char *instr = calloc(n, 1);
	size_t *chosen = calloc(n, sizeof *chosen);
	struct pess s = { calloc(n, sizeof(size_t)), 0, calloc(n, sizeof(size_t)), 0 };
	int rc = -1;
	if (instr && chosen && s.pending && s.fua) {
		instrument_flushes(log, instr, p);
		count_flushes(log, instr, p);
		rc = choose_points(log, bound, instr, p, chosen);
		if (rc == 0)
			rc = pessimistic(log, instr, chosen, p, &s) | optimistic(log, chosen, p);
	}
	free(instr);
	free(chosen);
	free(s.pending);
	free(s.fua);
	if (rc) {
		replay_plan_free(p);
		snprintf(err, len, "unable to plan the replay of %zu log entries", log->n);
		return -1;
	}
	return 0;
}

void replay_lw_table(uint64_t sectors, const char *dev, const char *logdev, char *buf,
		     size_t len)
{
	if (sectors)
		snprintf(buf, len, "0 %llu log-writes %s %s", (unsigned long long)sectors, dev, logdev);
	else
		snprintf(buf, len, "0 <sectors> log-writes %s %s", dev, logdev);
}

unsigned replay_points_for(const struct plan_workload *w, int bound)
{
	uint64_t ops = w->type == WL_DURABILITY ? w->size / 4096 + 1 : (uint64_t)bound;
	return (unsigned)(ops < (uint64_t)bound ? ops : (uint64_t)bound);
}

double replay_check_s(unsigned points)
{
	return points * REPLAY_MODELS * REPLAY_POINT_S;
}

void replay_plan_free(struct replay_plan *p)
{
	free(p->points);
	for (int m = 0; m < REPLAY_MODELS; m++)
		free(p->steps[m]);
	memset(p, 0, sizeof *p);
}
