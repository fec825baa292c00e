/* core/figures/changepoint.c: Otava's change-point rule (core/figures/changepoint.h says it step by step). */
#include "core/figures/changepoint.h"
#include "lib/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double cp_first_pass_p(double max_p)
{
	return max_p < 0.05 ? max_p * 10 : max_p < 0.5 ? max_p * 2 : max_p;
}

static void mean_sd0(const double *x, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = n ? s / (double)n : NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = n >= 2 ? sqrt(ss / (double)n) : 0;
}

static double rel(double from, double to)
{
	return from == 0 ? 0 : to / from - 1.0;
}

void cp_test(const double *x, size_t s, size_t i, size_t e, struct cp_point *out)
{
	size_t nl = i - s, nr = e - i;
	*out = (struct cp_point){ .index = i, .n_before = nl, .n_after = nr, .p = 1 };
	mean_sd0(x + s, nl, &out->mean_before, &out->sd_before);
	mean_sd0(x + i, nr, &out->mean_after, &out->sd_after);
	out->rel_change = rel(out->mean_before, out->mean_after);
	double back = rel(out->mean_after, out->mean_before);
	out->magnitude = fmax(fabs(out->rel_change), fabs(back));
	if (nl == 0 || nr == 0 || nl + nr <= 2)
		return;
	/* scipy's ttest_ind_from_stats(equal_var=True) on the ddof-0 deviations, as Otava calls it */
	double df = (double)(nl + nr - 2);
	double vl = out->sd_before * out->sd_before, vr = out->sd_after * out->sd_after;
	double svar = ((double)(nl - 1) * vl + (double)(nr - 1) * vr) / df;
	double denom = sqrt(svar * (1.0 / (double)nl + 1.0 / (double)nr));
	double d = out->mean_before - out->mean_after;
	if (!(denom > 0)) {
		out->p = d == 0 ? 1 : 0;
		return;
	}
	out->p = stats_t_p2(d / denom, df);
}

/* P[j * (L + 1) + t] = sum over i in [0, t) of |z_i - z_j|, for z = x[s..e) of length L. */
static double *row_prefix(const double *z, size_t L)
{
	double *P = malloc(L * (L + 1) * sizeof *P);
	if (!P)
		return NULL;
	for (size_t j = 0; j < L; j++) {
		double *r = P + j * (L + 1);
		r[0] = 0;
		for (size_t t = 0; t < L; t++)
			r[t + 1] = r[t] + fabs(z[t] - z[j]);
	}
	return P;
}

int cp_candidate(const double *x, size_t s, size_t e, size_t *tau, double *q)
{
	const double *z = x + s;
	size_t L = e - s;
	double *P = row_prefix(z, L);
	if (!P)
		return -1;
	double xx = 0, best = -INFINITY;
	size_t best_t = 1;
	/* numpy's argmax over Q[tau][kappa] in row order: the first of equal maxima */
	for (size_t t = 1; t < L; t++) {
		const double *rl = P + (t - 1) * (L + 1);
		xx += rl[t - 1];                   /* X gained z[t-1]: its distances to X before it */
		double xy = 0, yy = 0, n = (double)t;
		for (size_t k = t + 1; k <= L; k++) {
			const double *r = P + (k - 1) * (L + 1);
			xy += r[t];                    /* Y gained z[k-1]: to X, and to Y before it */
			yy += r[k - 1] - r[t];
			double m = (double)(k - t);
			double v = 2 / (m + n) * xy;
			if (t > 1)
				v -= 2 * m / ((m + n) * (n - 1)) * xx;
			if (k - t > 1)
				v -= 2 * n / ((m + n) * (m - 1)) * yy;
			if (v > best) {
				best = v;
				best_t = t;
			}
		}
	}
	free(P);
	*tau = s + best_t;
	*q = best;
	return 0;
}

/* Inserts p into cps[0..*k) kept in index order. */
static void insert(struct cp_point *cps, size_t *k, const struct cp_point *p)
{
	size_t i = *k;
	while (i > 0 && cps[i - 1].index > p->index) {
		cps[i] = cps[i - 1];
		i--;
	}
	cps[i] = *p;
	(*k)++;
}

/* E-divisive with the t-test in x[0..n): the points with p <= max_p, in index order, into
 * cps (room for n). Returns how many, or -1 on no memory. */
static long divisive(const double *x, size_t n, double max_p, struct cp_point *cps)
{
	size_t k = 0;
	for (;;) {
		size_t best_t = 0, bs = 0, be = 0;
		double best_q = -INFINITY;
		for (size_t i = 0; i <= k; i++) {
			size_t s = i ? cps[i - 1].index : 0, e = i < k ? cps[i].index : n;
			size_t t;
			double q;
			if (e - s < 2)
				continue;
			if (cp_candidate(x, s, e, &t, &q) < 0)
				return -1;
			if (q > best_q || best_t == 0) {
				best_q = q, best_t = t, bs = s, be = e;
			}
		}
		if (best_t == 0)
			break;
		struct cp_point p;
		cp_test(x, bs, best_t, be, &p);
		if (!(p.p <= max_p))
			break;
		insert(cps, &k, &p);
	}
	return (long)k;
}

/* Each point tested between its neighbours (Otava's intervals). */
static void retest(const double *x, size_t n, struct cp_point *cps, size_t k, size_t i)
{
	if (i >= k)
		return;
	size_t s = i ? cps[i - 1].index : 0, e = i + 1 < k ? cps[i + 1].index : n;
	cp_test(x, s, cps[i].index, e, &cps[i]);
}

/* Step 1: the weak change points over the sliding windows, in index order. */
static long split(const double *x, size_t n, size_t window, double p1, struct cp_point *weak)
{
	struct cp_point *local = malloc(window * sizeof *local);
	size_t k = 0, start = 0, step = window / 2;
	if (!local)
		return -1;
	while (start < n) {
		size_t end = start + window < n ? start + window : n;
		long nl = divisive(x + start, end - start, p1, local);
		if (nl < 0) {
			free(local);
			return -1;
		}
		size_t last = nl ? local[nl - 1].index + start : 0;
		for (long i = 0; i < nl; i++) {
			local[i].index += start;
			size_t j;
			for (j = 0; j < k && weak[j].index != local[i].index; j++)
				;
			if (j == k)
				insert(weak, &k, &local[i]);
		}
		start = last > start + step ? last : start + step;
	}
	free(local);
	for (size_t i = 0; i < k; i++)
		retest(x, n, weak, k, i);
	return (long)k;
}

/* Step 2: drops the weakest point while one fails, testing its neighbours again. */
static size_t merge(const double *x, size_t n, const struct cp_opts *o, struct cp_point *cps,
		    size_t k)
{
	while (k > 0) {
		size_t w = 0;
		for (size_t i = 1; i < k; i++)
			if (cps[i].p > cps[w].p)
				w = i;
		if (cps[w].p < o->max_p) {
			w = 0;
			for (size_t i = 1; i < k; i++)
				if (cps[i].magnitude < cps[w].magnitude)
					w = i;
			if (cps[w].magnitude > o->min_magnitude)
				return k;
		}
		memmove(cps + w, cps + w + 1, (k - w - 1) * sizeof *cps);
		k--;
		/* the two whose stretches grew; Otava's own order retests w and w + 1 */
		if (o->otava_retest) {
			retest(x, n, cps, k, w);
			retest(x, n, cps, k, w + 1);
		} else {
			if (w > 0)
				retest(x, n, cps, k, w - 1);
			retest(x, n, cps, k, w);
		}
	}
	return 0;
}

long cp_detect(const double *x, size_t n, const struct cp_opts *o, struct cp_point *out)
{
	if (o->window < 2 || o->window > CP_WINDOW_MAX || !(o->max_p > 0) || !(o->max_p <= 1) ||
	    !(o->min_magnitude >= 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -1;
	long k = split(x, n, o->window, cp_first_pass_p(o->max_p), out);
	if (k < 0)
		return -1;
	return (long)merge(x, n, o, out, (size_t)k);
}
