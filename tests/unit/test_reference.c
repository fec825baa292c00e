/* test_reference: the reference set's summary and the drift rule (core/figures/reference.c). */
#include "check.h"
#include "core/figures/reference.h"
#include <math.h>

static void test_summary(void)
{
	struct ref_figure f = { .n = 3, .v = { 100, 110, 90 } };
	ref_summarize(&f);
	CHECK(fabs(f.median - 100) < 1e-9, "median %g", f.median);
	CHECK(fabs(f.rsd_pct - 10) < 1e-9, "rsd %g", f.rsd_pct);
	struct ref_figure none = { .n = 0 };
	ref_summarize(&none);
	CHECK(isnan(none.median) && isnan(none.rsd_pct), "%g %g", none.median, none.rsd_pct);
}

static void test_drift(void)
{
	double r, b;
	/* tight spreads: the 10% floor decides */
	CHECK_INT(ref_drift(100, 1, 95, 1, &r, &b), 0);
	CHECK(fabs(b - 10) < 1e-9 && fabs(r - 0.95) < 1e-9, "r %g b %g", r, b);
	CHECK_INT(ref_drift(100, 1, 85, 1, &r, &b), 1);
	CHECK_INT(ref_drift(100, 1, 111, 1, &r, &b), 1);
	/* a noisy reference: 4 x its larger RSD */
	CHECK_INT(ref_drift(100, 5, 85, 2, &r, &b), 0);
	CHECK_INT(ref_drift(100, 5, 82, 2, &r, &b), 1);   /* below 1 / 1.2 */
	CHECK(fabs(b - 20) < 1e-9, "b %g", b);
	CHECK_INT(ref_drift(100, 5, 79, 7, &r, &b), 0);
	CHECK_INT(ref_drift(100, 5, 60, 7, &r, &b), 1);
	/* a spread past 25%: a bound past 100%, which a fall still crosses */
	CHECK_INT(ref_drift(914, 34.5, 2, 21, &r, &b), 1);
	CHECK_INT(ref_drift(914, 34.5, 500, 21, &r, &b), 0);
	/* a throttled disk: 1000 MB/s to 2 */
	CHECK_INT(ref_drift(1000, 8, 2, 1, &r, &b), 1);
	CHECK(fabs(r - 0.002) < 1e-9, "r %g", r);
	/* cannot tell */
	CHECK_INT(ref_drift(NAN, 1, 100, 1, &r, &b), -1);
	CHECK_INT(ref_drift(0, 1, 100, 1, &r, &b), -1);
	CHECK_INT(ref_drift(100, NAN, 100, NAN, &r, &b), 0);
	CHECK(fabs(b - 10) < 1e-9, "b %g", b);
}

/* The disk read counts only a fall: one up at the end is a cache the cells warmed. */
static void test_one_sided(void)
{
	double r, b;
	CHECK_INT(ref_drift_of(REF_DISK_READ, 100, 20, 410, 5, &r, &b), 0);
	CHECK_INT(ref_drift_of(REF_DISK_READ, 1000, 8, 2, 1, &r, &b), 1);
	CHECK_INT(ref_drift_of(REF_CPU, 100, 1, 150, 1, &r, &b), 1);
	CHECK_INT(ref_drift_of(REF_DISK_READ, NAN, 1, 100, 1, &r, &b), -1);
}

int main(void)
{
	test_one_sided();
	test_summary();
	test_drift();
	return check_done("test_reference");
}
