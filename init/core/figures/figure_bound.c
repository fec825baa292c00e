/* core/figures/figure_bound.c: the bounds of core/figures/figure_bound.h, one row per unit. They are far
 * above anything measured, so that no real figure is ever dropped, and far below what a
 * record's JSON can carry (1e308), so that a figure of no device never reaches a mean. */
#include "core/figures/figure_bound.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *unit;
	double max;
} bounds[] = {
	/* ten times the memory bandwidth of the largest two-socket servers of 2026 (about
	 * 1.2 TB/s): no disk, array or page cache streams faster */
	{ "MB/s", 1e7 },
	/* a thousand times the fastest NVMe devices' few million a second */
	{ "IOPS", 1e10 },
	{ "files/s", 1e10 },
	/* a year: no cell runs longer */
	{ "s", 31557600.0 },
	{ "us", 31557600.0 * 1e6 },
};

double figure_bound(const char *unit)
{
	for (size_t i = 0; unit && i < sizeof bounds / sizeof bounds[0]; i++)
		if (strcmp(bounds[i].unit, unit) == 0)
			return bounds[i].max;
	return 0;
}

int figure_possible(const char *unit, double v)
{
	double max = figure_bound(unit);
	return isfinite(v) && v >= 0 && (max == 0 || v <= max);
}
