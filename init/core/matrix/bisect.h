/* core/matrix/bisect.h: the search for the first kernel set where a cell's figure got worse, as
 * `git bisect` searches commits, with the statistics deciding each step. A plan's [bisect]
 * names the sets in order, a good and a bad end, a cell and its metric (core/model/plan.h).
 *
 * The search is a function of the figures measured so far, set by set: bisect_next replays
 * it from them every time, so that a boot after a kexec or a power cut, given the figures
 * the journal holds (bisect_scan), takes the decisions the boots before it took and goes on
 * where they stopped, never running a finished probe again. Its steps:
 *   1. the good end, then the bad end, each repeated until its figure is stable
 *      (core/figures/verdict.h) or repeat_max;
 *   2. the ends compared as `fsmatrix compare` compares (Welch's t-test, p < alpha), and
 *      by at least min_change_pct of the good end's mean: no significant change (or one
 *      too small), or a change the other way, ends the search there;
 *   3. the set nearest the middle of the last good and the first bad so far (the lower of
 *      two) is probed: repeated until stable, then classified (bisect_classify); an unclear
 *      probe is repeated up to repeat_max and classified again after each, and is then
 *      skipped, as `git bisect skip`, and the next nearest the middle probed instead;
 *   4. when no set lies between the last good and the first bad one, the search ends: the
 *      first bad set found, or with skipped sets between, the sets it could be.
 * At most 2 + ceil(log2(bad - good)) probes when none is skipped. Pure. */
#ifndef FSM_BISECT_H
#define FSM_BISECT_H
#include <stddef.h>
#include "core/model/plan.h"

#define BISECT_REPS_MAX 64          /* figures kept per set: a plan's repeat_max at most */
#define BISECT_ALPHA 0.05           /* compare's level */
#define BISECT_RULE_MAX 320
#define BISECT_MIN_CHANGE_PCT 5.0   /* [bisect] min_change's default */

enum bisect_class { BISECT_PENDING, BISECT_GOOD, BISECT_BAD, BISECT_UNCLEAR, BISECT_SKIP };
extern const char *const bisect_class_names[];   /* "pending", "good", "bad", ... */

/* One set: what was measured under it, and what the search made of it. */
struct bisect_set {
	int reps;                   /* repetitions recorded, whatever their status */
	int n;                      /* of them with a figure: v[0..n) */
	double v[BISECT_REPS_MAX];
	/* bisect_next fills these: */
	int order;                  /* 1-based: when the search probed it; 0: not probed */
	int done;                   /* its probe finished: cls is final */
	enum bisect_class cls;
	int lo, hi;                 /* the last good and first bad set after its probe */
	char rule[BISECT_RULE_MAX]; /* the rule and its numbers */
};

struct bisect {
	int nk, good, bad;          /* sets, and the ends' indexes (good < bad) */
	char names[PLAN_KERNELS_MAX][PLAN_KERNEL_NAME_MAX];   /* for the texts */
	int repeat_max;
	int lower_is_worse;         /* 1: a lower figure is the slowdown (a rate) */
	double min_change_pct;      /* the ends must differ by this % of the good one's mean too
	                               (0 after bisect_init: any significant change) */
	struct bisect_set set[PLAN_KERNELS_MAX];
};

enum bisect_what { BISECT_PROBE, BISECT_DONE };
enum bisect_end { BISECT_FOUND, BISECT_NO_CHANGE, BISECT_NOT_WORSE, BISECT_SKIPPED_ONLY,
		  BISECT_END_FAILED };
extern const char *const bisect_end_names[];     /* "found", "no-change", ... */

struct bisect_step {
	enum bisect_what what;
	int kernel, rep;            /* PROBE: the set and the repetition (1-based) to run */
	int probes;                 /* probes begun so far, this one included */
	int lo, hi;                 /* the last good and first bad set so far */
	enum bisect_end end;        /* DONE */
	double ends_p;              /* the ends' Welch p-value, NaN before both are done */
	char why[400];              /* PROBE: why this set and repetition; DONE: the result */
};

/* An empty search over the nk sets names[], from good to bad. */
void bisect_init(struct bisect *b, const char (*names)[PLAN_KERNEL_NAME_MAX], int nk, int good,
		 int bad, int repeat_max, int lower_is_worse);

/* One repetition of set k recorded: ok with its figure v, or not (error, timeout, no figure). */
void bisect_add(struct bisect *b, int k, int ok, double v);

/* The search replayed from the figures: what runs next, or how it ended. Fills each set's
 * order, done, cls, lo, hi and rule. */
void bisect_next(struct bisect *b, struct bisect_step *s);

/* A probe's figures x[0..n) between the good end's g[0..ng) and the bad end's b[0..nb):
 *   f = (mean x - mean g) / (mean b - mean g), how far it lies from good (0) to bad (1);
 *   good when f <= 1/3 and it differs from the bad end (Welch p < alpha),
 *   bad when f >= 2/3 and it differs from the good end (Welch p < alpha),
 *   unclear otherwise (in the middle third, or not told apart from the end it is far from).
 * rule: the rule with its numbers. Needs 2 figures on each side, else unclear. */
enum bisect_class bisect_classify(const double *g, size_t ng, const double *b, size_t nb,
				  const double *x, size_t n, double alpha, char *rule, size_t len);

/* Reads a journal (the run's .jsonl text) into b: each final cell record (not interrupted)
 * whose "cell" is ids[k] is a repetition of set k, with its result's metric as the figure.
 * announced[k] is set when a "bisect-probe" event names set names[k]; *finished when a
 * "bisect" record is there. */
void bisect_scan(const char *text, size_t len, const char *const *ids, const char *const *names,
		 const char *metric, struct bisect *b, int *announced, int *finished);

/* The most probes a search over the plan's [bisect] makes when none is skipped: the two
 * ends, then one for each halving of the sets between, 2 + ceil(log2(bad - good)). */
int bisect_max_probes(const struct plan_bisect *b);
/* Whether cell_id ("disk/ext4/defaults/seq@b2") is the plan's [bisect] cell under a set. */
int bisect_is_cell(const struct plan_bisect *b, const char *cell_id);

/* Whether a boot under fsmatrix.shard=K/N (shard_n: N, 0 without one) can run plan p: a
 * [bisect] search cannot be split over machines, as each probe is chosen from the figures of
 * the ones before. 0, or -1 with why, for the boot to stop before any disk is written. */
int bisect_shard_check(const struct plan *p, int shard_n, char *why, size_t len);

#endif
