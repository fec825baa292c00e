/* test_bisect.c: the search over kernel sets (core/matrix/bisect.h): the classification rule on
 * figures whose answer is known, whole searches replayed from figures (a step at each
 * possible set, A/A, a change the other way, an unclear set skipped, an end that fails),
 * the probe count bound, and the journal scan. */
#include "check.h"
#include "core/matrix/bisect.h"
#include <math.h>
#include <stdio.h>

#define N(a) (sizeof a / sizeof a[0])

static const double good[] = { 8.00, 8.05, 7.95, 8.02 };
static const double bad[] = { 4.00, 4.03, 3.98, 4.01 };
static const double near_good[] = { 7.90, 7.95, 8.00 };
static const double near_bad[] = { 4.10, 4.05, 4.08 };
static const double middle[] = { 6.00, 6.02, 5.98 };
static const double wide_bad[] = { 3.0, 7.9, 5.0 };   /* f >= 2/3 in mean, not told from good */

static const struct {
	const char *name;
	const double *x;
	size_t n;
	enum bisect_class want;
	const char *says;
} rows[] = {
	{ "a figure like the good end's", near_good, N(near_good), BISECT_GOOD, "good: f <= 1/3" },
	{ "a figure like the bad end's", near_bad, N(near_bad), BISECT_BAD, "bad: f >= 2/3" },
	{ "half-way: the middle third", middle, N(middle), BISECT_UNCLEAR, "middle third" },
	{ "near bad by its mean, too spread to tell from good", wide_bad, N(wide_bad),
	  BISECT_UNCLEAR, "not told apart" },
	{ "one figure", near_bad, 1, BISECT_UNCLEAR, "needs 2 on each side" },
};

static void test_classify(void)
{
	char rule[BISECT_RULE_MAX];
	for (size_t i = 0; i < N(rows); i++) {
		enum bisect_class c = bisect_classify(good, N(good), bad, N(bad), rows[i].x, rows[i].n,
						      BISECT_ALPHA, rule, sizeof rule);
		CHECK(c == rows[i].want, "%s: got %s, want %s (%s)", rows[i].name,
		      bisect_class_names[c], bisect_class_names[rows[i].want], rule);
		CHECK(strstr(rule, rows[i].says) != NULL, "%s: rule \"%s\" lacks \"%s\"", rows[i].name,
		      rule, rows[i].says);
	}
	bisect_classify(good, N(good), bad, N(bad), near_bad, N(near_bad), BISECT_ALPHA, rule,
			sizeof rule);
	CHECK(strstr(rule, "f = 0.98 of the way to bad") != NULL, "the numbers: %s", rule);
}

static const char names[8][PLAN_KERNEL_NAME_MAX] = { "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8" };

/* A machine whose set k gives fig(k, rep): the search run to its end. Returns the step. */
typedef double (*figure_fn)(int k, int rep, int first_slow);
static double step_at(int k, int rep, int first_slow)
{
	double jitter[] = { 0, 0.04, -0.03, 0.02, -0.01, 0.03 };
	return (k >= first_slow ? 4.0 : 8.0) + jitter[rep % 6];
}
static double half_way(int k, int rep, int first_slow)
{
	/* set first_slow - 1 sits half-way: unclear whatever its repetitions */
	double jitter[] = { 0, 0.04, -0.03, 0.02, -0.01, 0.03 };
	if (k == first_slow - 1)
		return 6.0 + jitter[rep % 6];
	return step_at(k, rep, first_slow);
}

static double noisy_third(int k, int rep, int first_slow)
{
	/* set 3 swings between the two ends: never stable, never told apart, skipped */
	if (k == 2)
		return rep % 2 ? 8.0 : 4.0;
	return step_at(k, rep, first_slow);
}

static void search(int nk, int first_slow, figure_fn fig, int lower_is_worse, struct bisect *b,
		   struct bisect_step *st, int *runs)
{
	bisect_init(b, names, nk, 0, nk - 1, 6, lower_is_worse);
	*runs = 0;
	for (;;) {
		bisect_next(b, st);
		if (st->what == BISECT_DONE || ++*runs > 500)
			return;
		CHECK(st->rep == b->set[st->kernel].reps + 1, "the next repetition of %s", names[st->kernel]);
		bisect_add(b, st->kernel, 1, fig(st->kernel, st->rep, first_slow));
	}
}

static void test_searches(void)
{
	struct bisect b;
	struct bisect_step st;
	int runs;
	for (int nk = 2; nk <= 8; nk++)
		for (int slow = 1; slow < nk; slow++) {
			search(nk, slow, step_at, 1, &b, &st, &runs);
			int bound = 2 + (int)ceil(log2(nk - 1 > 0 ? nk - 1 : 1));
			CHECK(st.end == BISECT_FOUND && st.hi == slow && st.lo == slow - 1,
			      "%d sets, slow from %d: %s, %s (%s)", nk, slow + 1, bisect_end_names[st.end],
			      names[st.hi], st.why);
			CHECK(st.probes <= bound && st.probes <= 2 + (int)ceil(log2(nk)),
			      "%d sets: %d probes, bound %d", nk, st.probes, bound);
			for (int k = 0; k < nk; k++)
				CHECK(!b.set[k].order || b.set[k].reps == 3, "%s ran %d repetitions, stable at 3",
				      names[k], b.set[k].reps);
		}
	/* A/A: nothing slower */
	search(5, 99, step_at, 1, &b, &st, &runs);
	CHECK(st.end == BISECT_NO_CHANGE && st.probes == 2, "A/A: %s after %d probes",
	      bisect_end_names[st.end], st.probes);
	CHECK(strncmp(st.why, "no significant change between the ends", 38) == 0, "A/A says: %s", st.why);
	/* a change the other way: higher-is-worse on a figure that fell */
	search(5, 2, step_at, 0, &b, &st, &runs);
	CHECK(st.end == BISECT_NOT_WORSE, "the other way: %s (%s)", bisect_end_names[st.end], st.why);
	/* the set before the step is half-way: more repetitions, then skipped; with only it
	 * left between, the first bad set is it or the next, as git bisect says */
	search(5, 3, half_way, 1, &b, &st, &runs);
	CHECK(b.set[2].cls == BISECT_SKIP && b.set[2].reps == 6, "half-way k3: %s after %d",
	      bisect_class_names[b.set[2].cls], b.set[2].reps);
	CHECK(st.end == BISECT_SKIPPED_ONLY && st.hi == 3 && st.lo == 1,
	      "with k3 skipped: first bad %s, last good %s (%s)", names[st.hi], names[st.lo], st.why);
	/* a set that cannot be told is skipped and the search goes round it */
	search(6, 4, noisy_third, 1, &b, &st, &runs);
	CHECK(b.set[2].cls == BISECT_SKIP && b.set[2].order == 3, "noisy k3 probed third, skipped: %s",
	      bisect_class_names[b.set[2].cls]);
	CHECK(st.end == BISECT_FOUND && st.hi == 4 && st.lo == 3,
	      "round the skipped k3: first bad %s, last good %s (%s)", names[st.hi], names[st.lo], st.why);
	search(4, 2, half_way, 1, &b, &st, &runs);
	CHECK(st.end == BISECT_SKIPPED_ONLY && st.hi == 2 && st.lo == 0,
	      "only the skipped k2 between: %s (%s)", bisect_end_names[st.end], st.why);
}

static double small_step(int k, int rep, int first_slow)
{
	double jitter[] = { 0, 0.004, -0.003, 0.002, -0.001, 0.003 };
	return (k >= first_slow ? 7.84 : 8.0) + jitter[rep % 6];   /* 2% slower, significant */
}

/* min_change: a significant 2% step is chased with min_change 1%, not with 5% */
static void test_min_change(void)
{
	struct bisect b;
	struct bisect_step st;
	for (int i = 0; i < 2; i++) {
		double min = i ? 5 : 1;
		bisect_init(&b, names, 4, 0, 3, 6, 1);
		b.min_change_pct = min;
		for (int n = 0; n < 100; n++) {
			bisect_next(&b, &st);
			if (st.what == BISECT_DONE)
				break;
			bisect_add(&b, st.kernel, 1, small_step(st.kernel, st.rep, 2));
		}
		CHECK(st.end == (i ? BISECT_NO_CHANGE : BISECT_FOUND), "min_change %g%%: %s (%s)", min,
		      bisect_end_names[st.end], st.why);
		CHECK(!i || (strstr(st.why, "< 0.05") && strstr(st.why, "a change of 2.0% under min_change 5%")),
		      "says why: %s", st.why);
	}
}

static void test_failing_end(void)
{
	struct bisect b;
	struct bisect_step st;
	bisect_init(&b, names, 4, 0, 3, 6, 1);
	bisect_add(&b, 0, 0, NAN);
	bisect_add(&b, 0, 0, NAN);
	bisect_next(&b, &st);
	CHECK(st.what == BISECT_PROBE && st.kernel == 3 && st.rep == 1,
	      "a good end failing twice is settled: the bad end next (%d rep %d)", st.kernel, st.rep);
	for (int i = 0; i < 3; i++)
		bisect_add(&b, 3, 1, 4.0 + i * 0.01);
	bisect_next(&b, &st);
	CHECK(st.what == BISECT_DONE && st.end == BISECT_END_FAILED, "then it ends: %s",
	      bisect_end_names[st.end]);
}

/* The journal: final cell records of the probe's cell count, interrupted ones do not; other
 * cells, a probe event and the result record are read as such. */
static const char journal[] =
	"{\"v\":1,\"type\":\"header\",\"run\":\"r\"}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/ext4/defaults/seq@k1\",\"status\":\"ok\",\"result\":{\"mbps\":8.01}}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/ext4/defaults/seq@k1\",\"status\":\"interrupted\"}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/ext4/defaults/seq@k1\",\"status\":\"ok\",\"result\":{\"mbps\":7.99}}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/ext4/defaults/seq@k3\",\"status\":\"error\",\"error\":\"x\"}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/xfs/defaults/seq@k1\",\"status\":\"ok\",\"result\":{\"mbps\":99}}\n"
	"{\"v\":1,\"type\":\"event\",\"event\":\"bisect-probe\",\"set\":\"k2\"}\n"
	"{\"v\":1,\"type\":\"cell\",\"cell\":\"d/ext4/defaults/seq@k2\",\"status\":\"ok\",\"res";

static void test_scan(void)
{
	struct bisect b;
	const char *ids[] = { "d/ext4/defaults/seq@k1", "d/ext4/defaults/seq@k2",
			      "d/ext4/defaults/seq@k3" };
	const char *nm[] = { "k1", "k2", "k3" };
	int announced[3] = { 0 }, finished = -1;
	bisect_init(&b, names, 3, 0, 2, 6, 1);
	bisect_scan(journal, sizeof journal - 1, ids, nm, "mbps", &b, announced, &finished);
	CHECK_INT(b.set[0].reps, 2);
	CHECK_INT(b.set[0].n, 2);
	CHECK(b.set[0].v[0] == 8.01 && b.set[0].v[1] == 7.99, "figures %g %g", b.set[0].v[0], b.set[0].v[1]);
	CHECK_INT(b.set[1].reps, 0);   /* its record torn: not there */
	CHECK_INT(b.set[2].reps, 1);
	CHECK_INT(b.set[2].n, 0);
	CHECK(announced[1] && !announced[0] && !announced[2], "the probe event names k2 only");
	CHECK_INT(finished, 0);
	const char done[] = "{\"v\":1,\"type\":\"bisect\",\"status\":\"found\"}\n";
	bisect_scan(done, sizeof done - 1, ids, nm, "mbps", &b, announced, &finished);
	CHECK_INT(finished, 1);
}

/* A search cannot be split over machines: a shard of two refused, one line naming it. */
static void test_shard(void)
{
	static struct plan p;
	char why[256] = "";
	CHECK_INT(bisect_shard_check(&p, 2, why, sizeof why), 0);          /* no [bisect] */
	p.bisect.line = 12;
	CHECK_INT(bisect_shard_check(&p, 0, why, sizeof why), 0);          /* no shard */
	CHECK_INT(bisect_shard_check(&p, 1, why, sizeof why), 0);          /* 1/1: the whole */
	CHECK_INT(bisect_shard_check(&p, 2, why, sizeof why), -1);
	CHECK_STR(why, "fsmatrix.shard=K/2 with a [bisect] plan (line 12): a search runs on one "
		  "machine, each probe chosen from the figures of the ones before; boot it without "
		  "fsmatrix.shard= (nothing was written to any test disk)");
}

int main(void)
{
	test_classify();
	test_searches();
	test_failing_end();
	test_min_change();
	test_scan();
	test_shard();
	return check_done("test_bisect");
}
