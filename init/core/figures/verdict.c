/* core/figures/verdict.c: the verdict on a figure over its repeats (the rules are in verdict.h). */
#include "core/figures/verdict.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "≤ 5%" holds at 5% itself: (110 - 90) / 100 is 20.000000000000004% in binary. */
#define LIMIT_SLACK 1e-9

struct spread {
	double rsd_pct, range_pct, median;
};

/* The RSD and range of x[0..n-1], n >= 2, leaving out x[skip] (skip >= n: none). Equal
 * figures have neither, whatever their value; a mean or median of 0 under unequal figures
 * makes the ratio infinite. */
static int spread_of(const double *x, size_t n, size_t skip, struct spread *out)
{
	double small[64] = { 0 }, *v = n <= 64 ? small : malloc(n * sizeof *v);
	size_t k = 0;
	struct summary s;
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (i != skip)
			v[k++] = x[i];
	int rc = stats_summary(v, k, &s);
	if (v != small)
		free(v);
	if (rc != 0)
		return -1;
	out->median = s.median;
	if (s.max == s.min) {
		out->rsd_pct = out->range_pct = 0;
		return 0;
	}
	out->rsd_pct = s.mean != 0 ? 100 * s.stddev / fabs(s.mean) : INFINITY;
	out->range_pct = s.median != 0 ? 100 * (s.max - s.min) / fabs(s.median) : INFINITY;
	return 0;
}

static int within(const struct spread *s)
{
	return s->rsd_pct <= VERDICT_RSD_PCT + LIMIT_SLACK &&
	       s->range_pct <= VERDICT_RANGE_PCT + LIMIT_SLACK;
}

/* The repeat more than twice as far from the median as any other, or n when none is. */
static size_t farthest(const double *x, size_t n, double median)
{
	size_t best = n;
	double d = -1, next = -1;
	for (size_t i = 0; i < n; i++) {
		double e = fabs(x[i] - median);
		if (e > d) {
			next = d;
			d = e;
			best = i;
		} else if (e > next) {
			next = e;
		}
	}
	return d > 2 * next ? best : n;
}

/* Decimals to print a percentage over its limit with: one, or as many as it takes (up to
 * four) not to print the limit itself, "RSD 5.0%" for 5.02%. */
static int over_decimals(double pct, double limit)
{
	int d = 1;
	while (d < 4 && round(pct * pow(10, d)) / pow(10, d) <= limit)
		d++;
	return d;
}

void verdict_of(const double *x, const int *rep, size_t n, struct fig_verdict *out)
{
	memset(out, 0, sizeof *out);
	out->n = n;
	out->rsd_pct = out->range_pct = NAN;
	struct spread all = { NAN, NAN, NAN };
	if (n >= 2 && spread_of(x, n, n, &all) == 0) {
		out->rsd_pct = all.rsd_pct;
		out->range_pct = all.range_pct;
	}
	if (n < VERDICT_MIN_N) {
		snprintf(out->reason, sizeof out->reason, "too few repeats: %zu of %d", n, VERDICT_MIN_N);
		return;
	}
	if (within(&all)) {
		out->stable = 1;
		return;
	}
	size_t far = farthest(x, n, all.median);
	struct spread rest;
	if (all.range_pct > VERDICT_RANGE_PCT + LIMIT_SLACK && far < n && all.median != 0 &&
	    spread_of(x, n, far, &rest) == 0 && within(&rest)) {
		out->outlier_rep = rep ? rep[far] : (int)far + 1;
		out->outlier_x = x[far] / all.median;
		snprintf(out->reason, sizeof out->reason, "an outlier: repeat %d at %.2fx the median",
			 out->outlier_rep, out->outlier_x);
	} else if (!isfinite(all.rsd_pct) || !isfinite(all.range_pct)) {
		snprintf(out->reason, sizeof out->reason, "spread: figures around 0 (median %g)",
			 all.median);
	} else if (all.rsd_pct > VERDICT_RSD_PCT + LIMIT_SLACK) {
		snprintf(out->reason, sizeof out->reason, "spread: RSD %.*f%%",
			 over_decimals(all.rsd_pct, VERDICT_RSD_PCT), all.rsd_pct);
	} else {
		snprintf(out->reason, sizeof out->reason, "spread: range %.*f%%",
			 over_decimals(all.range_pct, VERDICT_RANGE_PCT), all.range_pct);
	}
}

const char *verdict_cell(const struct stats_cell *c, const struct wl_kind *k, struct fig_verdict *out)
{
	const char *first = NULL;
	for (int col = 1; k; col++) {
		const struct metric *m = wl_kind_column(k, col);
		if (!m)
			break;
		if (!first)
			first = m->key;
		for (size_t i = 0; i < c->nmetric; i++)
			if (c->nv[i] && strcmp(c->name[i], m->key) == 0) {
				verdict_of(c->v[i], c->rep[i], c->nv[i], out);
				return m->key;
			}
	}
	for (size_t i = 0; !k && i < c->nmetric; i++)
		if (c->nv[i]) {
			verdict_of(c->v[i], c->rep[i], c->nv[i], out);
			return c->name[i];
		}
	verdict_of(NULL, NULL, 0, out);
	return first;
}

void jw_verdict(struct jw *w, const char *metric, const struct fig_verdict *v)
{
	jw_obj(w);
	jw_kstr(w, "metric", metric);
	jw_kbool(w, "stable", v->stable);
	jw_kint(w, "n", (long long)v->n);
	jw_kdouble(w, "rsd_pct", v->rsd_pct, 2);
	jw_kdouble(w, "range_pct", v->range_pct, 2);
	jw_kstr(w, "reason", v->stable ? NULL : v->reason);
	jw_end_obj(w);
}

double verdict_mde_pct(const struct fig_verdict *v, double alpha)
{
	if (v->n < 2 || !isfinite(v->rsd_pct))
		return NAN;
	double df = 2.0 * (double)v->n - 2;
	return (stats_t_upper(alpha / 2, df) + stats_t_upper(0.2, df)) * sqrt(2.0 / (double)v->n) *
	       v->rsd_pct;
}

const char *verdict_auto_stop(int stable, int ok_reps, int failed_reps)
{
	if (stable)
		return "stable";
	return ok_reps == 0 && failed_reps >= VERDICT_FAIL_STOP ? "failing" : NULL;
}
