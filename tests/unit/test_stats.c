/* test_stats.c: summaries, the incomplete beta function and Welch's t-test against values
 * computed another way. scipy is not on the build machine, so the Welch rows were computed
 * in Python from the textbook formulas for t and df, with the p-value from Simpson
 * integration of Student's t density (200000 panels), a method independent of betacf.
 * Note: for ([1..5], [2,4..10]) that gives p = 0.107531, which is what scipy's
 * ttest_ind(equal_var=False) prints too; "0.1080" sometimes quoted for it is a rounding
 * slip. */
#include "check.h"
#include "lib/record.h"
#include "lib/stats.h"
#include <math.h>

#define N(a) (sizeof a / sizeof a[0])
#define NEAR(got, want, tol) CHECK(fabs((got) - (want)) <= (tol), "got %.10g, want %.10g", (double)(got), (double)(want))

static void test_summary(void)
{
	static const double one[] = { 7 };
	static const double odd[] = { 5, 1, 4, 2, 3 };
	static const double even[] = { 10, 2, 4, 8 };
	static const double zero[] = { 0, 0, 0 };
	static const struct {
		const double *x;
		size_t n;
		double min, median, mean, max, sd, cv;
	} rows[] = {
		{ one, N(one), 7, 7, 7, 7, 0, 0 },
		{ odd, N(odd), 1, 3, 3, 5, 1.5811388300841898, 0.5270462766947299 },
		{ even, N(even), 2, 6, 6, 10, 3.6514837167011076, 0.6085806194501846 },
		{ zero, N(zero), 0, 0, 0, 0, 0, NAN },
	};
	for (size_t i = 0; i < N(rows); i++) {
		struct summary s;
		CHECK_INT(stats_summary(rows[i].x, rows[i].n, &s), 0);
		CHECK_INT(s.n, rows[i].n);
		NEAR(s.min, rows[i].min, 1e-12);
		NEAR(s.median, rows[i].median, 1e-12);
		NEAR(s.mean, rows[i].mean, 1e-12);
		NEAR(s.max, rows[i].max, 1e-12);
		NEAR(s.stddev, rows[i].sd, 1e-12);
		if (isnan(rows[i].cv))
			CHECK(isnan(s.cv), "cv of a zero mean is NaN, got %g", s.cv);
		else
			NEAR(s.cv, rows[i].cv, 1e-12);
	}
	struct summary s;
	CHECK_INT(stats_summary(odd, 0, &s), -1);
	/* input is left in its order */
	CHECK(odd[0] == 5 && odd[1] == 1, "input reordered");
	/* large, close values: a naive sum of squares would lose the variance */
	double big[100];
	for (size_t i = 0; i < N(big); i++)
		big[i] = 1e9 + (double)(i % 2);
	stats_summary(big, N(big), &s);
	NEAR(s.stddev, 0.5025189076296060, 1e-9);
	/* more values than the on-stack copy holds */
	double many[1001];
	for (size_t i = 0; i < N(many); i++)
		many[i] = (double)((i * 7919) % 1001);
	stats_summary(many, N(many), &s);
	NEAR(s.median, 500, 0);
	NEAR(s.max, 1000, 0);
}

/* A cell's figures: metrics in the order first given, NaN counted as unusable and left out,
 * and the summary record's "stats" written from them. */
static void test_cell(void)
{
	static const struct { const char *name; double v; } adds[] = {
		{ "mbps", 100 }, { "time_s", NAN }, { "none", NAN }, { "mbps", 102 },
		{ "time_s", 2 }, { "mbps", NAN }, { "cpu", 0 }, { "none", NAN },
	};
	static const struct {
		const char *name;
		size_t nv;
		int unusable, has;
		double median;
	} want[] = {
		{ "mbps", 2, 1, 1, 101 },
		{ "time_s", 1, 1, 1, 2 },
		{ "none", 0, 2, 0, 0 },
		{ "cpu", 1, 0, 1, 0 },
	};
	struct stats_cell c = { 0 };
	for (size_t i = 0; i < N(adds); i++) {
		int m = stats_cell_add(&c, adds[i].name, adds[i].v);
		CHECK(m >= 0 && strcmp(c.name[m], adds[i].name) == 0, "add %zu: index %d", i, m);
	}
	CHECK_INT(c.nmetric, N(want));
	for (size_t m = 0; m < N(want) && m < c.nmetric; m++) {
		struct summary s;
		CHECK_STR(c.name[m], want[m].name);
		CHECK_INT(c.nv[m], want[m].nv);
		CHECK_INT(c.unusable[m], want[m].unusable);
		CHECK_INT(stats_cell_summary(&c, m, &s), want[m].has ? 0 : -1);
		NEAR(s.median, want[m].median, 0);
		CHECK_INT(s.n, want[m].nv);
	}
	struct summary s;
	CHECK_INT(stats_cell_summary(&c, N(want), &s), -1);
	/* each usable figure keeps its repeat: by default its add's ordinal among the metric's,
	 * unusable ones counted (mbps: 1 and 2 of 3; time_s: 2 of 2) */
	CHECK(c.rep[0] && c.rep[0][0] == 1 && c.rep[0][1] == 2, "mbps repeats %d, %d",
	      c.rep[0] ? c.rep[0][0] : -1, c.rep[0] ? c.rep[0][1] : -1);
	CHECK(c.rep[1] && c.rep[1][0] == 2, "time_s repeat %d", c.rep[1] ? c.rep[1][0] : -1);

	/* the metric without a usable figure is left out; a zero mean has no cv (null) */
	char buf[1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	jw_summary_stats(&w, &c);
	CHECK_INT(jw_done(&w), 0);
	CHECK_STR(buf, "{\"mbps\":{\"min\":100.000000,\"median\":101.000000,\"mean\":101.000000,"
		  "\"max\":102.000000,\"stddev\":1.414214,\"cv\":0.014002},"
		  "\"time_s\":{\"min\":2.000000,\"median\":2.000000,\"mean\":2.000000,"
		  "\"max\":2.000000,\"stddev\":0.000000,\"cv\":0.000000},"
		  "\"cpu\":{\"min\":0.000000,\"median\":0.000000,\"mean\":0.000000,"
		  "\"max\":0.000000,\"stddev\":0.000000,\"cv\":null}}");
	stats_cell_free(&c);
	CHECK_INT(c.nmetric, 0);

	/* a full table refuses a new metric, and still takes figures of the ones it has */
	static char names[STATS_CELL_METRICS + 1][8];
	for (size_t i = 0; i <= STATS_CELL_METRICS; i++) {
		snprintf(names[i], sizeof names[i], "m%zu", i);
		CHECK_INT(stats_cell_add(&c, names[i], 1), i < STATS_CELL_METRICS ? (int)i : -1);
	}
	CHECK_INT(c.nmetric, STATS_CELL_METRICS);
	CHECK_INT(stats_cell_add(&c, "m0", 2), 0);
	CHECK_INT(c.nv[0], 2);
	stats_cell_free(&c);

	/* repeats given: rep 2 failed, so the figures are of repeats 1 and 3 */
	CHECK_INT(stats_cell_add_rep(&c, "mbps", 100, 1), 0);
	CHECK_INT(stats_cell_add_rep(&c, "mbps", 90, 3), 0);
	CHECK(c.nv[0] == 2 && c.rep[0][0] == 1 && c.rep[0][1] == 3, "repeats %d, %d", c.rep[0][0],
	      c.rep[0][1]);
	stats_cell_free(&c);
}

static void test_betai(void)
{
	static const struct { double a, b, x, want; } rows[] = {
		{ 2, 3, 0.5, 0.6875 },                   /* P(Binomial(4, .5) >= 2) = 11/16 */
		{ 1, 1, 0.3, 0.3 },                      /* uniform */
		{ 3, 1, 0.2, 0.008 },                    /* x^a */
		{ 0.5, 0.5, 0.9, 0.7951672353008666 },   /* (2/pi) asin(sqrt x) */
		{ 5, 5, 0.5, 0.5 },                      /* symmetry */
		{ 2, 3, 0, 0 },
		{ 2, 3, 1, 1 },
	};
	for (size_t i = 0; i < N(rows); i++)
		NEAR(stats_betai(rows[i].a, rows[i].b, rows[i].x), rows[i].want, 1e-12);
	CHECK(isnan(stats_betai(0, 1, 0.5)), "a = 0 is outside the domain");
	CHECK(isnan(stats_betai(1, 1, 1.5)), "x > 1 is outside the domain");
}

static void test_t(void)
{
	static const struct { double t, df, want; } rows[] = {
		{ 1, 1, 0.5 },                           /* Cauchy: 1 - (2/pi) atan|t| */
		{ 2, 2, 0.18350341907227385 },           /* 1 - |t| / sqrt(t^2 + 2) */
		{ -2, 2, 0.18350341907227385 },
		{ 0, 7, 1 },
		{ 2.5, 10, 0.0314468442366 },
	};
	for (size_t i = 0; i < N(rows); i++)
		NEAR(stats_t_p2(rows[i].t, rows[i].df), rows[i].want, 1e-9);
}

static void test_welch(void)
{
	static const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 2, 4, 6, 8, 10 };
	static const double a2[] = { 10.1, 9.8, 10.3, 10.0, 9.9 }, b2[] = { 10.6, 10.4, 10.9, 10.5, 10.7 };
	static const double a3[] = { 3.1, 2.9, 3.3, 3.0 }, b3[] = { 2.5, 2.7, 2.4, 2.6, 2.8, 2.3 };
	static const double a4[] = { 812.5, 798.1, 805.3, 820.9, 801.7 };
	static const double b4[] = { 809.4, 815.2, 799.8, 811.1, 806.0 };
	static const struct {
		const double *a, *b;
		size_t na, nb;
		double t, df, p;
	} rows[] = {
		{ a1, b1, N(a1), N(b1), -1.8973665961, 5.8823529412, 0.1075311949 },
		{ a2, b2, N(a2), N(b2), -4.9319696192, 8.0000000000, 0.0011465920 },
		{ a3, b3, N(a3), N(b3), 4.5825756950, 7.0231213873, 0.0025145628 },
		{ a4, b4, N(a4), N(b4), -0.1243807178, 6.7843989354, 0.9046185841 },
	};
	for (size_t i = 0; i < N(rows); i++) {
		struct welch w;
		CHECK_INT(stats_welch(rows[i].a, rows[i].na, rows[i].b, rows[i].nb, &w), 0);
		NEAR(w.t, rows[i].t, 1e-9);
		NEAR(w.df, rows[i].df, 1e-9);
		NEAR(w.p, rows[i].p, 1e-8);
	}
	struct welch w;
	CHECK_INT(stats_welch(a1, 1, b1, N(b1), &w), -1);
	static const double c[] = { 2, 2, 2 }, d[] = { 3, 3 };
	CHECK_INT(stats_welch(c, N(c), d, N(d), &w), 0);
	CHECK(isinf(w.t) && w.t < 0 && w.p == 0, "constant, different samples: t=%g p=%g", w.t, w.p);
	CHECK_INT(stats_welch(c, N(c), c, N(c), &w), 0);
	CHECK(isnan(w.t) && isnan(w.p), "identical constant samples: t=%g p=%g", w.t, w.p);
}

/* Quantiles of Student's t from printed tables (to 6 or more figures), and at a fractional
 * df (Welch's) by the round trip through stats_t_p2. */
static void test_t_upper(void)
{
	static const struct { double q, df, want; } rows[] = {
		{ 0.025, 4, 2.776445105 },    /* 95% two-sided, 4 df */
		{ 0.2, 4, 0.940964577 },      /* 80% power, 4 df */
		{ 0.025, 1, 12.70620474 },
		{ 0.005, 10, 3.169272673 },
		{ 0.2, 10, 0.879058128 },
		{ 0.025, 1e6, 1.959966 },     /* the normal's 1.959964 */
		{ 0.975, 4, -2.776445105 },
		{ 0.5, 7, 0 },
	};
	for (size_t i = 0; i < N(rows); i++)
		NEAR(stats_t_upper(rows[i].q, rows[i].df), rows[i].want, 2e-6);
	double t = stats_t_upper(0.025, 2.5);
	NEAR(stats_t_p2(t, 2.5), 0.05, 1e-9);
	CHECK(t > 2.776445105 && t < 4.302652730, "t(0.025, 2.5) = %g, between 4 df's and 2 df's", t);
	CHECK(isnan(stats_t_upper(0, 4)) && isnan(stats_t_upper(0.1, 0)) && isnan(stats_t_upper(NAN, 3)),
	      "outside the domain: NaN");
}

/* Holm-Bonferroni adjusted p-values, in the order given: ties get one value, none exceeds 1,
 * and NaN counts as 1 (no evidence). */
static void test_holm(void)
{
	static const struct { double p[4]; size_t m; double want[4]; } rows[] = {
		{ { 0.01, 0.04, 0.03, 0.005 }, 4, { 0.03, 0.06, 0.06, 0.02 } },
		{ { 0.02, 0.02 }, 2, { 0.04, 0.04 } },
		{ { 0.5, 0.6 }, 2, { 1, 1 } },
		{ { 0.2 }, 1, { 0.2 } },
		{ { NAN, 0.01 }, 2, { 1, 0.02 } },
	};
	for (size_t i = 0; i < N(rows); i++) {
		double adj[4] = { -1, -1, -1, -1 };
		stats_holm(rows[i].p, rows[i].m, adj);
		for (size_t k = 0; k < rows[i].m; k++)
			NEAR(adj[k], rows[i].want[k], 1e-12);
	}
	double many[100], adj[100];
	for (size_t i = 0; i < N(many); i++)
		many[i] = 0.0001 * (double)(i + 1);
	stats_holm(many, N(many), adj);
	NEAR(adj[0], 0.01, 1e-12);    /* 100 x 0.0001 */
	/* the running maximum: (100 - k)(k + 1) x 0.0001 peaks at k = 49 and 50, 0.255 */
	NEAR(adj[49], 0.255, 1e-12);
	NEAR(adj[99], 0.255, 1e-12);
}

int main(void)
{
	test_summary();
	test_cell();
	test_betai();
	test_t();
	test_welch();
	test_t_upper();
	test_holm();
	return check_done("test_stats");
}
