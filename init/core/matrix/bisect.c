/* core/matrix/bisect.c: the search over kernel sets (core/matrix/bisect.h). */
#include "core/matrix/bisect.h"
#include "core/figures/verdict.h"
#include "lib/jscan.h"
#include "lib/stats.h"
#include "core/matrix/matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const bisect_class_names[] = { "pending", "good", "bad", "unclear", "skip" };
const char *const bisect_end_names[] = { "found", "no-change", "not-worse", "skipped-only",
					 "end-failed" };

void bisect_init(struct bisect *b, const char (*names)[PLAN_KERNEL_NAME_MAX], int nk, int good,
		 int bad, int repeat_max, int lower_is_worse)
{
	memset(b, 0, sizeof *b);
	for (int k = 0; k < nk && k < PLAN_KERNELS_MAX; k++)
		snprintf(b->names[k], sizeof b->names[k], "%s", names[k]);
	b->nk = nk;
	b->good = good;
	b->bad = bad;
	b->repeat_max = repeat_max < BISECT_REPS_MAX ? repeat_max : BISECT_REPS_MAX;
	b->lower_is_worse = lower_is_worse;
}

void bisect_add(struct bisect *b, int k, int ok, double v)
{
	if (k < 0 || k >= b->nk)
		return;
	struct bisect_set *s = &b->set[k];
	s->reps++;
	if (ok && isfinite(v) && s->n < BISECT_REPS_MAX)
		s->v[s->n++] = v;
}

static double mean_of(const double *x, size_t n)
{
	struct summary s;
	return stats_summary(x, n, &s) == 0 ? s.mean : NAN;
}

/* Welch's p-value, NaN when it cannot be told (fewer than 2 figures a side). */
static double p_of(const double *a, size_t na, const double *b, size_t nb)
{
	struct welch w;
	return stats_welch(a, na, b, nb, &w) == 0 ? w.p : NAN;
}

enum bisect_class bisect_classify(const double *g, size_t ng, const double *b, size_t nb,
				  const double *x, size_t n, double alpha, char *rule, size_t len)
{
	double mg = mean_of(g, ng), mb = mean_of(b, nb), mx = mean_of(x, n);
	if (ng < 2 || nb < 2 || n < 2 || !(mb != mg)) {
		snprintf(rule, len, "unclear: %zu figures (good end %zu, bad end %zu); the rule "
			 "needs 2 on each side and ends that differ", n, ng, nb);
		return BISECT_UNCLEAR;
	}
	double f = (mx - mg) / (mb - mg);
	double pg = p_of(x, n, g, ng), pb = p_of(x, n, b, nb);
	int n_good = f <= 1.0 / 3, n_bad = f >= 2.0 / 3;
	enum bisect_class c = n_good && pb < alpha ? BISECT_GOOD
			    : n_bad && pg < alpha ? BISECT_BAD : BISECT_UNCLEAR;
	const char *why = c == BISECT_GOOD ? "good: f <= 1/3 and p against bad < alpha"
			: c == BISECT_BAD ? "bad: f >= 2/3 and p against good < alpha"
			: n_good || n_bad ? "unclear: not told apart from the far end (p >= alpha)"
			: "unclear: f in the middle third";
	snprintf(rule, len, "mean %.4g between good %.4g and bad %.4g: f = %.2f of the way to bad; "
		 "Welch p %.4g against good, %.4g against bad, alpha %.2g: %s", mx, mg, mb, f, pg,
		 pb, alpha, why);
	return c;
}

/* 1 when set s has run enough for a verdict: its figure stable, failing, or repeat_max. */
static int settled(const struct bisect *b, const struct bisect_set *s)
{
	struct fig_verdict v;
	verdict_of(s->v, NULL, (size_t)s->n, &v);
	return s->reps >= b->repeat_max || verdict_auto_stop(v.stable, s->n, s->reps - s->n);
}

static void set_rule_stats(const struct bisect_set *s, const char *role, char *rule, size_t len)
{
	struct summary m;
	if (stats_summary(s->v, (size_t)s->n, &m) < 0)
		snprintf(rule, len, "%s: no figure in %d repetitions", role, s->reps);
	else
		snprintf(rule, len, "%s: %d figures of %d repetitions, mean %.4g, RSD %.2f%%", role,
			 s->n, s->reps, m.mean, m.n > 1 && m.mean ? 100 * m.stddev / fabs(m.mean) : 0);
}

static void probe(struct bisect_step *st, int k, const struct bisect_set *s, const char *why)
{
	st->what = BISECT_PROBE;
	st->kernel = k;
	st->rep = s->reps + 1;
	snprintf(st->why, sizeof st->why, "%s", why);
}

static void done(struct bisect_step *st, enum bisect_end e)
{
	st->what = BISECT_DONE;
	st->end = e;
}

/* Step 1: each end until settled. 0 when both are, 1 when st says what runs. */
static int ends(struct bisect *b, struct bisect_step *st)
{
	const int at[2] = { b->good, b->bad };
	for (int e = 0; e < 2; e++) {
		struct bisect_set *s = &b->set[at[e]];
		s->order = ++st->probes;
		s->lo = b->good;
		s->hi = b->bad;
		if (!settled(b, s)) {
			probe(st, at[e], s, e ? "the bad end, until its figure is stable"
					      : "the good end, until its figure is stable");
			return 1;
		}
		s->done = 1;
		s->cls = e ? BISECT_BAD : BISECT_GOOD;
		set_rule_stats(s, e ? "bad end" : "good end", s->rule, sizeof s->rule);
	}
	return 0;
}

/* Step 2: the ends differ significantly, and the bad one is worse. 1 when the search ends. */
static int ends_differ(struct bisect *b, struct bisect_step *st)
{
	const struct bisect_set *g = &b->set[b->good], *d = &b->set[b->bad];
	double mg = mean_of(g->v, (size_t)g->n), md = mean_of(d->v, (size_t)d->n);
	if (g->n < 2 || d->n < 2) {
		done(st, BISECT_END_FAILED);
		snprintf(st->why, sizeof st->why, "an end has fewer than 2 figures (good %d, bad %d): "
			 "the ends cannot be compared", g->n, d->n);
		return 1;
	}
	st->ends_p = p_of(g->v, (size_t)g->n, d->v, (size_t)d->n);
	int worse = b->lower_is_worse ? md < mg : md > mg;
	double change = mg != 0 ? 100 * fabs(md - mg) / fabs(mg) : INFINITY;
	if (!(st->ends_p < BISECT_ALPHA) || change < b->min_change_pct) {
		done(st, BISECT_NO_CHANGE);
		snprintf(st->why, sizeof st->why, "no significant change between the ends: good "
			 "%.4g (n %d), bad %.4g (n %d), Welch p %.4g %s %.2g, a change of %.1f%% %s "
			 "min_change %.3g%%", mg, g->n, md, d->n, st->ends_p,
			 st->ends_p < BISECT_ALPHA ? "<" : ">=", BISECT_ALPHA, change,
			 change < b->min_change_pct ? "under" : "over", b->min_change_pct);
		return 1;
	}
	if (!worse) {
		done(st, BISECT_NOT_WORSE);
		snprintf(st->why, sizeof st->why, "the bad end is significantly better, not worse: "
			 "good %.4g (n %d), bad %.4g (n %d), Welch p %.4g (%s is worse)", mg, g->n, md,
			 d->n, st->ends_p, b->lower_is_worse ? "lower" : "higher");
		return 1;
	}
	return 0;
}

/* The set strictly between lo and hi nearest their middle (the lower of two), not skipped. */
static int pick(const struct bisect *b, int lo, int hi)
{
	int best = -1, mid2 = lo + hi;   /* twice the middle, to stay whole */
	for (int k = lo + 1; k < hi; k++) {
		if (b->set[k].done && b->set[k].cls == BISECT_SKIP)
			continue;
		int d = 2 * k > mid2 ? 2 * k - mid2 : mid2 - 2 * k;
		int bd = 2 * best > mid2 ? 2 * best - mid2 : mid2 - 2 * best;
		if (best < 0 || d < bd)
			best = k;
	}
	return best;
}

/* Step 3 for set k: 1 when it must run again (st says so), 0 with its class final. */
static int classify_probe(struct bisect *b, int k, struct bisect_step *st)
{
	struct bisect_set *s = &b->set[k], *g = &b->set[b->good], *d = &b->set[b->bad];
	int last = s->reps >= b->repeat_max || (s->n == 0 && s->reps - s->n >= VERDICT_FAIL_STOP);
	if (!settled(b, s)) {
		probe(st, k, s, "the set nearest the middle, until its figure is stable");
		return 1;
	}
	s->cls = bisect_classify(g->v, (size_t)g->n, d->v, (size_t)d->n, s->v, (size_t)s->n,
				 BISECT_ALPHA, s->rule, sizeof s->rule);
	if (s->cls == BISECT_UNCLEAR && !last) {
		probe(st, k, s, "unclear: one more repetition");
		return 1;
	}
	if (s->cls == BISECT_UNCLEAR) {
		s->cls = BISECT_SKIP;
		size_t l = strlen(s->rule);
		snprintf(s->rule + l, sizeof s->rule - l, "; still unclear after %d repetitions: "
			 "skipped", s->reps);
	}
	s->done = 1;
	return 0;
}

/* Step 4: the result in words. */
static void result(const struct bisect *b, int lo, int hi, struct bisect_step *st)
{
	int skipped = hi - lo - 1;   /* every set between was skipped: none is left to pick */
	done(st, skipped ? BISECT_SKIPPED_ONLY : BISECT_FOUND);
	if (!skipped)
		snprintf(st->why, sizeof st->why, "the first bad set is %s, the last good set %s "
			 "(%d probes; the ends' Welch p %.4g)", b->names[hi], b->names[lo], st->probes,
			 st->ends_p);
	else
		snprintf(st->why, sizeof st->why, "only skipped sets are left: the first bad set is "
			 "%s or one of the %d skipped before it (the last good set %s; %d probes)",
			 b->names[hi], skipped, b->names[lo], st->probes);
}

void bisect_next(struct bisect *b, struct bisect_step *st)
{
	memset(st, 0, sizeof *st);
	st->ends_p = NAN;
	for (int k = 0; k < b->nk; k++) {
		struct bisect_set *s = &b->set[k];
		s->order = s->done = 0;
		s->cls = BISECT_PENDING;
		s->rule[0] = '\0';
	}
	int lo = b->good, hi = b->bad;
	st->lo = lo;
	st->hi = hi;
	if (ends(b, st) || ends_differ(b, st))
		return;
	for (int k; (k = pick(b, lo, hi)) >= 0;) {
		b->set[k].order = ++st->probes;
		if (classify_probe(b, k, st)) {
			st->lo = lo;
			st->hi = hi;
			return;
		}
		if (b->set[k].cls == BISECT_GOOD)
			lo = k;
		else if (b->set[k].cls == BISECT_BAD)
			hi = k;
		b->set[k].lo = lo;
		b->set[k].hi = hi;
	}
	st->lo = lo;
	st->hi = hi;
	result(b, lo, hi, st);
}

/* The figure of a cell record: its result's metric. NaN when it has none. */
static double figure(const char *rec, size_t len, const char *metric)
{
	const char *res;
	size_t rlen;
	double v;
	if (json_member(rec, len, "result", &res, &rlen) < 0 ||
	    json_member_double(res, rlen, metric, &v) < 0)
		return NAN;
	return v;
}

static void scan_line(const char *rec, size_t len, const char *const *ids,
		      const char *const *names, const char *metric, struct bisect *b,
		      int *announced, int *finished)
{
	char type[16], what[CELL_ID_MAX], status[16];
	if (json_valid(rec, len) < 0 || json_member_str(rec, len, "type", type, sizeof type) < 0)
		return;
	if (strcmp(type, "bisect") == 0) {
		*finished = 1;
	} else if (strcmp(type, "cell") == 0 &&
		   json_member_str(rec, len, "cell", what, sizeof what) == 0 &&
		   json_member_str(rec, len, "status", status, sizeof status) == 0 &&
		   strcmp(status, "interrupted") != 0) {
		for (int k = 0; k < b->nk; k++)
			if (strcmp(ids[k], what) == 0)
				bisect_add(b, k, strcmp(status, "ok") == 0, figure(rec, len, metric));
	} else if (strcmp(type, "event") == 0 &&
		   json_member_str(rec, len, "event", what, sizeof what) == 0 &&
		   strcmp(what, "bisect-probe") == 0 &&
		   json_member_str(rec, len, "set", what, sizeof what) == 0) {
		for (int k = 0; k < b->nk; k++)
			if (strcmp(names[k], what) == 0)
				announced[k] = 1;
	}
}

void bisect_scan(const char *text, size_t len, const char *const *ids, const char *const *names,
		 const char *metric, struct bisect *b, int *announced, int *finished)
{
	*finished = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		scan_line(text + pos, n, ids, names, metric, b, announced, finished);
		pos += n + 1;
	}
}

int bisect_shard_check(const struct plan *p, int shard_n, char *why, size_t len)
{
	if (!p->bisect.line || shard_n <= 1)
		return 0;
	snprintf(why, len, "fsmatrix.shard=K/%d with a [bisect] plan (line %d): a search runs on one "
		 "machine, each probe chosen from the figures of the ones before; boot it without "
		 "fsmatrix.shard= (nothing was written to any test disk)", shard_n, p->bisect.line);
	return -1;
}

int bisect_max_probes(const struct plan_bisect *b)
{
	int span = b->bad_k - b->good_k, log2c = 0;
	while ((1 << log2c) < span)
		log2c++;
	return 2 + log2c;
}

int bisect_is_cell(const struct plan_bisect *b, const char *cell_id)
{
	size_t n = strlen(b->cell);
	return strncmp(cell_id, b->cell, n) == 0 && (cell_id[n] == '\0' || cell_id[n] == '@');
}
