/* core/figures/trend.c: a series at a glance and a change point's triage state, for `fsmatrix site`. */
#include "core/figures/trend.h"

const char *const triage_names[] = { [TRIAGE_NEW] = "new", [TRIAGE_ACK] = "acknowledged",
				     [TRIAGE_FIXED] = "fixed" };

void trend_of(const struct trend_point *p, size_t n, const struct cp_point *cp, struct trend *t)
{
	*t = (struct trend){ 0 };
	if (n == 0)
		return;
	size_t last = n - 1, from = 0;
	int g = p[last].group;
	t->last = p[last].mean;
	/* the newest's stretch starts at its group's last change point at or before it */
	for (size_t i = 0; i <= last; i++)
		if (p[i].group == g && p[i].change) {
			from = i;
			t->has_change = 1;
			t->change_at = i;
		}
	if (t->has_change) {
		double before = cp[p[t->change_at].change - 1].mean_before;
		t->since = before != 0 ? t->last / before - 1 : 0;
	}
	for (size_t i = from; i < last; i++) {
		if (p[i].group != g)
			continue;
		if (t->nspread == 0 || p[i].mean < t->lo)
			t->lo = p[i].mean;
		if (t->nspread == 0 || p[i].mean > t->hi)
			t->hi = p[i].mean;
		t->nspread++;
	}
	if (t->nspread >= TREND_MIN_SPREAD)
		t->outside = t->last > t->hi ? 1 : t->last < t->lo ? -1 : 0;
}

int trend_worse(const struct cp_point *c, int higher_better)
{
	return higher_better ? c->mean_after < c->mean_before : c->mean_after > c->mean_before;
}

long trend_fixed_by(const struct cp_point *cp, const int *group, size_t n, size_t k,
		    int higher_better)
{
	if (k >= n || !trend_worse(&cp[k], higher_better))
		return -1;
	double step = cp[k].mean_before - cp[k].mean_after;   /* what k lost, signed */
	long best = -1;
	for (size_t j = 0; j < n; j++) {
		if (group[j] != group[k] || cp[j].index <= cp[k].index ||
		    trend_worse(&cp[j], higher_better))
			continue;
		if ((cp[j].mean_after - cp[k].mean_after) / step >= TREND_FIX_SHARE &&
		    (best < 0 || cp[j].index < cp[best].index))
			best = (long)j;
	}
	return best;
}

enum triage trend_triage(long fixed_by, int acknowledged)
{
	return fixed_by >= 0 ? TRIAGE_FIXED : acknowledged ? TRIAGE_ACK : TRIAGE_NEW;
}
