/* test_changepoint.c: the change-point detector (core/figures/changepoint.h) on series whose truth
 * is known. The t-test rows were computed in Python from the textbook pooled-variance
 * formula on ddof-0 deviations (Otava's call of scipy's ttest_ind_from_stats), with the
 * p-value from Simpson integration of Student's t density (200000 panels). The E-divisive
 * Q is checked against the formula written out directly (every sum recomputed for each
 * tau and kappa). Noise comes from a small PRNG with fixed seeds, so every run draws the
 * same series. */
#include "check.h"
#include "core/figures/changepoint.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define N(a) (sizeof a / sizeof a[0])
#define NEAR(got, want, tol) CHECK(fabs((got) - (want)) <= (tol), "got %.10g, want %.10g", (double)(got), (double)(want))

static const struct cp_opts defaults = { CP_WINDOW, CP_MAX_P, CP_MIN_MAGNITUDE, 0 };

/* xorshift64*, and Box-Muller for a standard normal */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double uniform(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* x[i] = level(i) + sd * noise, seeded */
static void series(double *x, size_t n, uint64_t seed, double sd, const double *levels,
		   const size_t *at, size_t nsteps, double base)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (size_t i = 0; i < n; i++) {
		double level = base;
		for (size_t k = 0; k < nsteps; k++)
			if (i >= at[k])
				level = levels[k];
		x[i] = level + sd * normal(&s);
	}
}

static void test_ttest(void)
{
	static const double a[] = { 1, 2, 3, 4, 5, 6 };
	static const double b[] = { 10, 12, 11, 13, 14, 15, 13, 16, 15 };
	static const double c[] = { 5, 7, 8 };
	static const double d[] = { 3, 3, 3, 4, 4 };
	static const double e[] = { 3, 3, 3, 3 };
	static const struct {
		const double *x;
		size_t s, i, e;
		double mb, ma, sb, p;
	} rows[] = {
		{ a, 0, 3, 6, 2, 5, 0.816496580927726, 0.010822550462620595 },
		{ b, 0, 4, 9, 11.5, 14.6, 1.118033988749895, 0.0033660678679193756 },
		{ c, 0, 1, 3, 5, 7.5, 0, 0.15292825159925283 },
		{ a, 0, 1, 2, 1, 2, 0, 1 },      /* two values in all: no test, as Otava */
		{ d, 0, 3, 5, 3, 4, 0, 0 },      /* both sides constant, the means differ */
		{ e, 0, 2, 4, 3, 3, 0, 1 },      /* both sides constant and equal */
	};
	for (size_t i = 0; i < N(rows); i++) {
		struct cp_point p;
		cp_test(rows[i].x, rows[i].s, rows[i].i, rows[i].e, &p);
		CHECK_INT(p.index, rows[i].i);
		NEAR(p.mean_before, rows[i].mb, 1e-12);
		NEAR(p.mean_after, rows[i].ma, 1e-12);
		NEAR(p.sd_before, rows[i].sb, 1e-12);
		NEAR(p.p, rows[i].p, 1e-7);
		NEAR(p.rel_change, rows[i].ma / rows[i].mb - 1, 1e-12);
	}
	CHECK(cp_first_pass_p(0.001) == 0.01, "first pass of 0.001");
	CHECK(cp_first_pass_p(0.1) == 0.2, "first pass of 0.1");
	CHECK(cp_first_pass_p(0.6) == 0.6, "first pass of 0.6");
}

/* Q(tau, kappa) of x[s..e) written out, and its argmax in (tau, kappa) row order */
static void brute_candidate(const double *x, size_t s, size_t e, size_t *tau, double *q)
{
	double best = -INFINITY;
	for (size_t t = s + 1; t < e; t++)
		for (size_t k = t + 1; k <= e; k++) {
			double n = (double)(t - s), m = (double)(k - t), xy = 0, xx = 0, yy = 0;
			for (size_t i = s; i < t; i++)
				for (size_t j = t; j < k; j++)
					xy += fabs(x[i] - x[j]);
			for (size_t i = s; i < t; i++)
				for (size_t j = i + 1; j < t; j++)
					xx += fabs(x[i] - x[j]);
			for (size_t i = t; i < k; i++)
				for (size_t j = i + 1; j < k; j++)
					yy += fabs(x[i] - x[j]);
			double v = 2 / (m + n) * xy - (n > 1 ? 2 * m / ((m + n) * (n - 1)) * xx : 0) -
				   (m > 1 ? 2 * n / ((m + n) * (m - 1)) * yy : 0);
			if (v > best) {
				best = v;
				*tau = t;
			}
		}
	*q = best;
}

static void test_candidate(void)
{
	double x[40];
	for (uint64_t seed = 1; seed <= 20; seed++) {
		static const double lv[] = { 103 };
		static const size_t at[] = { 17 };
		series(x, N(x), seed, 2, lv, at, 1, 100);
		size_t s = seed % 5, e = N(x) - seed % 3, t1 = 0, t2 = 0;
		double q1, q2;
		CHECK_INT(cp_candidate(x, s, e, &t1, &q1), 0);
		brute_candidate(x, s, e, &t2, &q2);
		CHECK_INT(t1, t2);
		NEAR(q1, q2, 1e-9 * fabs(q2));
	}
	/* a clean step: the split is the step */
	static const double step[] = { 1, 1, 1, 1, 5, 5, 5 };
	size_t t;
	double q;
	cp_candidate(step, 0, N(step), &t, &q);
	CHECK_INT(t, 4);
}

/* Whether out[0..k) holds index at,. */
static int holds(const struct cp_point *out, long k, size_t at)
{
	for (long i = 0; i < k; i++)
		if (out[i].index == at)
			return 1;
	return 0;
}

/* One step of 5 standard deviations (5% of 100, noise sd 1%) at run 30 of 60: found there
 * in every seed, its figures those of the two sides; a point elsewhere is noise, counted
 * against the noise bound below. */
static void test_one_step(void)
{
	static const double lv[] = { 105 };
	static const size_t at[] = { 30 };
	double x[60];
	int found = 0, extra = 0;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct cp_point out[60];
		series(x, N(x), seed, 1, lv, at, 1, 100);
		long k = cp_detect(x, N(x), &defaults, out);
		found += holds(out, k, 30);
		extra += k - holds(out, k, 30);
		if (seed == 1) {
			CHECK_INT(k, 1);
			NEAR(out[0].mean_before, 100, 0.6);
			NEAR(out[0].mean_after, 105, 0.6);
			NEAR(out[0].rel_change, 0.05, 0.01);
			CHECK(out[0].p < CP_MAX_P, "p %g", out[0].p);
			CHECK_INT(out[0].n_before, 30);
			CHECK_INT(out[0].n_after, 30);
		}
	}
	CHECK_INT(found, 50);
	CHECK(extra <= 3, "%d points besides the step over 50 seeds", extra);
	/* a smaller step, 2 standard deviations, at its run (within one) in most seeds */
	static const double lv2[] = { 102 };
	int near = 0;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct cp_point out[60];
		series(x, N(x), seed, 1, lv2, at, 1, 100);
		long k = cp_detect(x, N(x), &defaults, out);
		near += holds(out, k, 29) || holds(out, k, 30) || holds(out, k, 31);
	}
	CHECK(near >= 40, "a 2-sigma step at run 30 +-1 in %d of 50 seeds", near);
}

/* Two steps, up 8% at 40 and down 12% at 80 of 120 (noise 1%), window 50: both found at
 * their runs in every seed, up then down. */
static void test_two_steps(void)
{
	static const double lv[] = { 108, 95 };
	static const size_t at[] = { 40, 80 };
	double x[120];
	int both = 0, extra = 0;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct cp_point out[120];
		series(x, N(x), seed, 1, lv, at, 2, 100);
		long k = cp_detect(x, N(x), &defaults, out);
		int a = 0, b = 0;
		for (long i = 0; i < k; i++) {
			if (out[i].index == 40)
				a = out[i].rel_change > 0.05;
			else if (out[i].index == 80)
				b = out[i].rel_change < -0.08;
			else
				extra++;
		}
		both += a && b;
	}
	CHECK_INT(both, 50);
	CHECK(extra <= 6, "%d points besides the steps over 50 seeds", extra);
}

/* Noise only: 1000 series of 100 runs at Otava's defaults. max_p is the level of each
 * t-test, but E-divisive tests the best split it can find, so a series of 100 holds more
 * than 0.001 false points. The bound we state: false points per position a change could
 * sit at (99 a series) at most max_p, i.e. at most 99 over the 1000 series. Measured
 * 2026-12-04: 62 points, in 44 of the 1000 series. */
static void test_noise(void)
{
	double x[100];
	int series_with = 0;
	long points = 0;
	for (uint64_t seed = 1; seed <= 1000; seed++) {
		struct cp_point out[100];
		series(x, N(x), seed, 1, NULL, NULL, 0, 100);
		long k = cp_detect(x, N(x), &defaults, out);
		CHECK(k >= 0, "seed %llu", (unsigned long long)seed);
		series_with += k > 0;
		points += k > 0 ? k : 0;
	}
	printf("test_changepoint: noise: %ld false points in 1000 series of 100 (%d series with one)\n",
	       points, series_with);
	CHECK(points <= (long)(CP_MAX_P * 1000 * 99), "%ld false points over 1000 x 99 positions", points);
}

/* A slow drift: +10% over 100 runs, in steps far below the noise (0.1% a run, noise 1%). The
 * rule sees no single step: it cuts the ramp into stretches, every cut in the drift's
 * direction (the mean after above the mean before), each a few % at most. */
static void test_drift(void)
{
	double x[100];
	int with = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
		for (size_t i = 0; i < N(x); i++)
			x[i] = 100 + 0.1 * (double)i + normal(&s);
		struct cp_point out[100];
		long k = cp_detect(x, N(x), &defaults, out);
		with += k > 0;
		for (long i = 0; i < k; i++)
			CHECK(out[i].rel_change > 0 && out[i].rel_change < 0.1, "seed %llu cut %ld: %g",
			      (unsigned long long)seed, i, out[i].rel_change);
		if (seed == 1)
			printf("test_changepoint: drift seed 1: %ld cut(s), first at %zu (%+.1f%%)\n", k,
			       k > 0 ? out[0].index : 0, k > 0 ? 100 * out[0].rel_change : 0.0);
	}
	CHECK(with == 20, "the drift cut in %d of 20 seeds", with);
}

/* Against Otava itself (apache/otava 1ceb153, otava/analysis.py compute_change_points on
 * numpy 1.24 and scipy 1.10, run on these very series): with otava_retest its points and
 * p-values; with our retest of both neighbours, the points that survive a correct retest.
 * Seed 169 is a two-step series where Otava keeps a point at 28 whose p (0.00071) was
 * computed against a stretch that a removal had since merged away; seed 50 is noise. On
 * 300 series of the four kinds above the two ways agreed on 254 and Otava's way matched
 * Otava on all 300, p within 5e-10 relative (2026-12-04). */
static void test_otava(void)
{
	static const double lv[] = { 108, 95 };
	static const size_t at[] = { 40, 80 };
	static const struct {
		uint64_t seed;
		size_t n, nsteps;
		int otava;
		long k;
		size_t idx[3];
		double p[3];
	} rows[] = {
		{ 169, 120, 2, 1, 3, { 28, 40, 80 }, { 0.000710091, 5.65149e-28, 2.18579e-67 } },
		{ 169, 120, 2, 0, 2, { 40, 80 }, { 2.19166e-48, 2.18579e-67 } },
		{ 50, 100, 0, 1, 1, { 70 }, { 0.00023742 } },
		{ 50, 100, 0, 0, 0, { 0 }, { 0 } },
	};
	for (size_t r = 0; r < N(rows); r++) {
		double x[120];
		struct cp_point out[120];
		struct cp_opts o = defaults;
		o.otava_retest = rows[r].otava;
		series(x, rows[r].n, rows[r].seed, 1, lv, at, rows[r].nsteps, 100);
		long k = cp_detect(x, rows[r].n, &o, out);
		CHECK_INT(k, rows[r].k);
		for (long i = 0; i < k && i < rows[r].k; i++) {
			CHECK_INT(out[i].index, rows[r].idx[i]);
			NEAR(out[i].p, rows[r].p[i], 1e-5 * rows[r].p[i]);
		}
	}
}

/* min_magnitude drops a significant step that is too small; the options are checked */
static void test_options(void)
{
	static const double lv[] = { 102 };
	static const size_t at[] = { 20 };
	double x[40];
	struct cp_point out[40];
	series(x, N(x), 7, 0.1, lv, at, 1, 100);
	CHECK_INT(cp_detect(x, N(x), &defaults, out), 1);
	CHECK_INT(out[0].index, 20);
	struct cp_opts big = defaults;
	big.min_magnitude = 0.05;
	CHECK_INT(cp_detect(x, N(x), &big, out), 0);
	big.min_magnitude = 0.01;
	CHECK_INT(cp_detect(x, N(x), &big, out), 1);
	/* a window of 10 still finds it; of 2 every window is too short to test */
	struct cp_opts w = defaults;
	w.window = 10;
	CHECK_INT(cp_detect(x, N(x), &w, out), 1);
	CHECK_INT(out[0].index, 20);
	static const struct cp_opts bad[] = {
		{ 1, 0.001, 0, 0 }, { CP_WINDOW_MAX + 1, 0.001, 0, 0 }, { 50, 0, 0, 0 }, { 50, 1.5, 0, 0 },
		{ 50, NAN, 0, 0 }, { 50, 0.001, -1, 0 },
	};
	for (size_t i = 0; i < N(bad); i++)
		CHECK_INT(cp_detect(x, N(x), &bad[i], out), -1);
	x[3] = NAN;
	CHECK_INT(cp_detect(x, N(x), &defaults, out), -1);
	CHECK_INT(cp_detect(x, 0, &defaults, out), 0);
	CHECK_INT(cp_detect((const double[]){ 1 }, 1, &defaults, out), 0);
	CHECK_INT(cp_detect((const double[]){ 1, 9 }, 2, &defaults, out), 0);
}

int main(void)
{
	test_ttest();
	test_candidate();
	test_one_step();
	test_two_steps();
	test_noise();
	test_drift();
	test_otava();
	test_options();
	return check_done("test_changepoint");
}
