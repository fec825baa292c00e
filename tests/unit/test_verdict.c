/* test_verdict.c: the verdict on a figure over its repeats (core/figures/verdict.h), a table of
 * cases: stable, too few repeats, an outlier, spread by RSD or by range, the limits
 * themselves; then a cell's main figure and the summary record's "verdict" object. The RSD
 * and range columns were computed with Python's statistics module (stdev, median). */
#include "check.h"
#include "core/figures/verdict.h"
#include <math.h>

#define N(a) (sizeof a / sizeof a[0])
#define NEAR(got, want, tol) CHECK(fabs((got) - (want)) <= (tol) || (isnan(got) && isnan(want)), \
				   "got %.10g, want %.10g", (double)(got), (double)(want))

static const double stable3[] = { 100, 101, 99 };
static const double two[] = { 100, 101 };
static const double one[] = { 5 };
static const double low_first[] = { 61, 100, 101 };
static const double even[] = { 92, 100, 108 };            /* 92 and 108 tie: no single outlier */
static const double range_only[] = { 89.5, 110.5, 100, 100, 100, 100, 100, 100, 100, 100, 100,
				     100, 100, 100, 100, 100, 100, 100, 100, 100 };
static const double rsd_out[] = { 100, 100, 100, 100, 82 };  /* range 18%, but RSD 8.4% */
static const double not_twice[] = { 86, 100, 107 };  /* 14 from the median, the other 7 */
static const double high[] = { 100, 101, 99, 150 };
static const double at_limit[] = { 90, 110, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
static const double past_limit[] = { 89.9, 110, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
static const double zeros[] = { 0, 0, 0 };
static const double just_over[] = { 100, 100, 91.55 };
static const double gap[] = { 100, 60, 101 };
static const int gap_reps[] = { 1, 3, 4 };
static const double spread_wide[] = { 100, 130, 110 };

static const struct {
	const char *name;
	const double *x;
	size_t n;
	const int *rep;
	int stable;
	double rsd, range;
	int outlier;
	const char *reason;
} rows[] = {
	{ "stable", stable3, N(stable3), NULL, 1, 1.0, 2.0, 0, "" },
	{ "two repeats", two, N(two), NULL, 0, 0.703589, 0.995025, 0, "too few repeats: 2 of 3" },
	{ "one repeat", one, N(one), NULL, 0, NAN, NAN, 0, "too few repeats: 1 of 3" },
	{ "none", NULL, 0, NULL, 0, NAN, NAN, 0, "too few repeats: 0 of 3" },
	{ "outlier low", low_first, N(low_first), NULL, 0, 26.119255, 40.0, 1,
	  "an outlier: repeat 1 at 0.61x the median" },
	{ "outlier high", high, N(high), NULL, 0, 22.234071, 50.746269, 4,
	  "an outlier: repeat 4 at 1.49x the median" },
	/* one repeat apart, but within the range: spread, not an outlier */
	{ "RSD, no outlier", rsd_out, N(rsd_out), NULL, 0, 8.350461, 18.0, 0, "spread: RSD 8.4%" },
	{ "not twice as far", not_twice, N(not_twice), NULL, 0, 10.948133, 21.0, 0,
	  "spread: RSD 10.9%" },
	{ "outlier after a gap", gap, N(gap), gap_reps, 0, 26.882794, 41.0, 3,
	  "an outlier: repeat 3 at 0.60x the median" },
	{ "spread, tie", even, N(even), NULL, 0, 8.0, 16.0, 0, "spread: RSD 8.0%" },
	{ "spread, both", spread_wide, N(spread_wide), NULL, 0, 13.478164, 27.272727, 0,
	  "spread: RSD 13.5%" },
	{ "spread by range", range_only, N(range_only), NULL, 0, 3.406650, 21.0, 0,
	  "spread: range 21.0%" },
	/* just over the limit: as many decimals as it takes not to read 5.0% */
	{ "RSD past 5%", just_over, N(just_over), NULL, 0, 5.020007, 8.45, 0, "spread: RSD 5.02%" },
	{ "range at 20%", at_limit, N(at_limit), NULL, 1, 4.264014, 20.0, 0, "" },
	{ "range past 20%", past_limit, N(past_limit), NULL, 0, 4.285736, 20.1, 0,
	  "spread: range 20.1%" },
	{ "zeros", zeros, N(zeros), NULL, 1, 0, 0, 0, "" },
};

static void test_table(void)
{
	for (size_t i = 0; i < N(rows); i++) {
		struct fig_verdict v;
		verdict_of(rows[i].x, rows[i].rep, rows[i].n, &v);
		CHECK(v.stable == rows[i].stable, "%s: stable %d", rows[i].name, v.stable);
		CHECK_INT(v.n, rows[i].n);
		NEAR(v.rsd_pct, rows[i].rsd, 1e-3);
		NEAR(v.range_pct, rows[i].range, 1e-3);
		CHECK(v.outlier_rep == rows[i].outlier, "%s: outlier %d", rows[i].name, v.outlier_rep);
		CHECK_STR(v.reason, rows[i].reason);
	}
	/* more repeats than an on-stack copy holds */
	double many[100];
	struct fig_verdict v;
	for (size_t i = 0; i < N(many); i++)
		many[i] = i == 37 ? 50 : 100 + (double)(i % 2);
	verdict_of(many, NULL, N(many), &v);
	CHECK_STR(v.reason, "an outlier: repeat 38 at 0.50x the median");
	/* the input is left as it was */
	CHECK(low_first[0] == 61 && low_first[2] == 101, "input reordered");
}

/* A cell's main figure: the kind's first report column with a figure (fio: read_mbps, or
 * write_mbps for a job that only wrote), whatever order the figures were added in. */
static void test_cell(void)
{
	const struct wl_kind *fio = wl_kind_named("fio"), *seq = wl_kind_named("seqwrite");
	struct stats_cell c = { 0 };
	struct fig_verdict v;
	for (int rep = 1; rep <= 3; rep++) {
		stats_cell_add(&c, "read_iops", NAN);
		stats_cell_add(&c, "read_mbps", NAN);
		stats_cell_add(&c, "write_mbps", rep == 2 ? 50 : 100);
	}
	CHECK_STR(verdict_cell(&c, fio, &v) ? verdict_cell(&c, fio, &v) : "(null)", "write_mbps");
	CHECK_STR(v.reason, "an outlier: repeat 2 at 0.50x the median");
	stats_cell_free(&c);

	/* nothing measured: the first column, and no repeats */
	CHECK_STR(verdict_cell(&c, seq, &v) ? verdict_cell(&c, seq, &v) : "(null)", "mbps");
	CHECK_STR(v.reason, "too few repeats: 0 of 3");

	/* an unknown kind: the first metric with figures */
	stats_cell_add(&c, "odd", NAN);
	stats_cell_add(&c, "even", 2);
	CHECK_STR(verdict_cell(&c, NULL, &v) ? verdict_cell(&c, NULL, &v) : "(null)", "even");
	CHECK_STR(v.reason, "too few repeats: 1 of 3");
	stats_cell_free(&c);
}

static void test_json(void)
{
	static const struct {
		const double *x;
		size_t n;
		const char *want;
	} j[] = {
		{ stable3, N(stable3), "{\"metric\":\"mbps\",\"stable\":true,\"n\":3,\"rsd_pct\":1.00,"
		  "\"range_pct\":2.00,\"reason\":null}" },
		{ low_first, N(low_first), "{\"metric\":\"mbps\",\"stable\":false,\"n\":3,\"rsd_pct\":26.12,"
		  "\"range_pct\":40.00,\"reason\":\"an outlier: repeat 1 at 0.61x the median\"}" },
		{ one, N(one), "{\"metric\":\"mbps\",\"stable\":false,\"n\":1,\"rsd_pct\":null,"
		  "\"range_pct\":null,\"reason\":\"too few repeats: 1 of 3\"}" },
	};
	for (size_t i = 0; i < N(j); i++) {
		char buf[512];
		struct jw w;
		struct fig_verdict v;
		verdict_of(j[i].x, NULL, j[i].n, &v);
		jw_init(&w, buf, sizeof buf);
		jw_verdict(&w, "mbps", &v);
		CHECK_INT(jw_done(&w), 0);
		CHECK_STR(buf, j[i].want);
	}
}

/* The smallest detectable change: (t_{0.975,2n-2} + t_{0.8,2n-2}) x sqrt(2/n) x RSD, worked
 * by hand from the t table: n 3 (df 4: 2.776 + 0.941), n 10 (df 18: 2.101 + 0.862). */
static void test_mde(void)
{
	static const struct { size_t n; double rsd, want; } rows[] = {
		{ 3, 5.0, 15.18 }, { 10, 2.0, 2.65 }, { 5, 0.0, 0.0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct fig_verdict v = { .n = rows[i].n, .rsd_pct = rows[i].rsd };
		double got = verdict_mde_pct(&v, VERDICT_DETECT_ALPHA);
		CHECK(fabs(got - rows[i].want) < 0.02, "n %zu, RSD %g%%: MDE %.3f%%, want %.2f%%",
		      rows[i].n, rows[i].rsd, got, rows[i].want);
	}
	struct fig_verdict one = { .n = 1, .rsd_pct = NAN };
	CHECK(isnan(verdict_mde_pct(&one, VERDICT_DETECT_ALPHA)), "one repeat: a number");
	/* more repeats see smaller changes at the same spread */
	struct fig_verdict a = { .n = 3, .rsd_pct = 3 }, b = { .n = 6, .rsd_pct = 3 };
	CHECK(verdict_mde_pct(&b, 0.05) < verdict_mde_pct(&a, 0.05), "6 repeats see no more than 3");
}

/* repeat = auto: stable ends a cell; so do two failures with no ok repetition. */
static void test_auto_stop(void)
{
	static const struct {
		int stable, ok, failed;
		const char *want;
	} rows[] = {
		{ 1, 3, 0, "stable" },
		{ 0, 2, 0, NULL },
		{ 0, 0, 1, NULL },          /* one failure may be bad luck */
		{ 0, 0, 2, "failing" },     /* two in a row, none ok: given up */
		{ 0, 0, 5, "failing" },
		{ 0, 1, 2, NULL },          /* it ran ok once: its failures are intermittent */
		{ 0, 3, 4, NULL },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *got = verdict_auto_stop(rows[i].stable, rows[i].ok, rows[i].failed);
		CHECK(got == rows[i].want || (got && rows[i].want && strcmp(got, rows[i].want) == 0),
		      "row %zu: %s, want %s", i, got ? got : "NULL", rows[i].want ? rows[i].want : "NULL");
	}
}

int main(void)
{
	test_auto_stop();
	test_mde();
	test_table();
	test_cell();
	test_json();
	return check_done("test_verdict");
}
