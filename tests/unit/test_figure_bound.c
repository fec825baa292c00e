/* test_figure_bound.c: the figures no device gives (core/figures/figure_bound.c): not finite,
 * negative, or beyond the bound of the unit; and every real figure kept, at the bound too. */
#include "check.h"
#include "core/figures/figure_bound.h"

#include <math.h>

int main(void)
{
	static const struct { const char *unit; double v; int ok; } rows[] = {
		{ "MB/s", 0, 1 },
		{ "MB/s", 263.7, 1 },
		{ "MB/s", 14000, 1 },          /* a PCIe 5.0 NVMe drive */
		{ "MB/s", 1e7, 1 },            /* the bound itself */
		{ "MB/s", 1.0000001e7, 0 },
		{ "MB/s", 1e308, 0 },
		{ "MB/s", -5, 0 },
		{ "MB/s", -1e-9, 0 },
		{ "IOPS", 2.5e6, 1 },
		{ "IOPS", 1e11, 0 },
		{ "files/s", 40000, 1 },
		{ "files/s", -1, 0 },
		{ "s", 0.004, 1 },
		{ "s", 86400 * 30.0, 1 },      /* a month-long cell */
		{ "s", 1e9, 0 },
		{ "us", 120, 1 },
		{ "us", 1e15, 0 },
		{ "us", -3, 0 },
		/* a unit the table does not know: only finite and not negative */
		{ "widgets", 1e300, 1 },
		{ "widgets", -1, 0 },
		{ NULL, 5, 1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(figure_possible(rows[i].unit, rows[i].v) == rows[i].ok, "row %zu: %s %g", i,
		      rows[i].unit ? rows[i].unit : "(null)", rows[i].v);
	static const char *const units[] = { "MB/s", "IOPS", "files/s", "s", "us" };
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		CHECK(!figure_possible(units[i], NAN), "%s NaN", units[i]);
		CHECK(!figure_possible(units[i], INFINITY), "%s inf", units[i]);
		CHECK(!figure_possible(units[i], -INFINITY), "%s -inf", units[i]);
		CHECK(figure_bound(units[i]) > 0, "%s has a bound", units[i]);
	}
	CHECK(!figure_possible("widgets", NAN), "an unknown unit's NaN");
	CHECK(figure_bound("widgets") == 0, "no bound for an unknown unit");
	return check_done("test_figure_bound");
}
