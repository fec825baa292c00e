/* lib/stats.c: summaries and Welch's t-test. The incomplete beta function follows the
 * continued fraction of Numerical Recipes (betacf, modified Lentz), evaluated on the side
 * where it converges fast and mirrored through I_x(a,b) = 1 - I_{1-x}(b,a) otherwise. */
#include "lib/stats.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, s = 0;
	/* Welford: one pass, no catastrophic cancellation on large, close values */
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;
		m += d / (double)(i + 1);
		s += d * (x[i] - m);
	}
	*mean = m;
	*var = n > 1 ? s / (double)(n - 1) : 0;
}

int stats_summary(const double *x, size_t n, struct summary *out)
{
	double var, small[64], *s = small;

	memset(out, 0, sizeof *out);
	if (n == 0)
		return -1;
	if (n > sizeof small / sizeof small[0] && !(s = malloc(n * sizeof *s)))
		return -1;
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (s != small)
		free(s);
	mean_var(x, n, &out->mean, &var);
	out->stddev = sqrt(var);
	out->cv = out->mean != 0 ? out->stddev / out->mean : NAN;
	return 0;
}

double stats_rank(const double *sorted, size_t n, double p)
{
	/* rank = ceil(p/100 * n), computed so that 99.9% of 1000 is exactly 999 */
	double r = ceil(p * (double)n / 100.0 - 1e-9);
	size_t i = r < 1 ? 0 : (size_t)r - 1;
	return sorted[i < n ? i : n - 1];
}

int stats_latency(double *x, size_t n, struct latency *out)
{
	double sum = 0;
	*out = (struct latency){ 0, NAN, NAN, NAN, NAN, NAN, NAN };
	if (n == 0)
		return -1;
	qsort(x, n, sizeof *x, cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	*out = (struct latency){ n, sum / (double)n, stats_rank(x, n, 50), stats_rank(x, n, 90),
				 stats_rank(x, n, 99), stats_rank(x, n, 99.9), x[n - 1] };
	return 0;
}

int stats_cell_add(struct stats_cell *c, const char *name, double v)
{
	return stats_cell_add_rep(c, name, v, 0);
}

int stats_cell_add_rep(struct stats_cell *c, const char *name, double v, int rep)
{
	size_t m = 0;
	while (m < c->nmetric && strcmp(c->name[m], name) != 0)
		m++;
	if (m == STATS_CELL_METRICS)
		return -1;
	if (m == c->nmetric) {
		c->name[m] = name;
		c->nmetric++;
	}
	if (rep <= 0)
		rep = (int)c->nv[m] + c->unusable[m] + 1;
	if (isnan(v)) {
		c->unusable[m]++;
		return (int)m;
	}
	double *grown = realloc(c->v[m], (c->nv[m] + 1) * sizeof *grown);
	if (!grown)
		return -1;
	c->v[m] = grown;
	int *reps = realloc(c->rep[m], (c->nv[m] + 1) * sizeof *reps);
	if (!reps)
		return -1;
	c->rep[m] = reps;
	c->rep[m][c->nv[m]] = rep;
	c->v[m][c->nv[m]++] = v;
	return (int)m;
}

int stats_cell_summary(const struct stats_cell *c, size_t m, struct summary *out)
{
	if (m >= c->nmetric)
		return -1;
	return stats_summary(c->v[m], c->nv[m], out);
}

void stats_cell_free(struct stats_cell *c)
{
	for (size_t m = 0; m < c->nmetric; m++) {
		free(c->v[m]);
		free(c->rep[m]);
	}
	memset(c, 0, sizeof *c);
}

/* One step of the Lentz continued fraction: folds the coefficient aa into c and d, keeping
 * both away from zero, and returns the factor to multiply the result by. */
static double cf_step(double aa, double *c, double *d)
{
	const double fpmin = 1e-300;
	*d = 1 + aa * *d;
	if (fabs(*d) < fpmin)
		*d = fpmin;
	*c = 1 + aa / *c;
	if (fabs(*c) < fpmin)
		*c = fpmin;
	*d = 1 / *d;
	return *d * *c;
}

static double betacf(double a, double b, double x)
{
	const double eps = 1e-15, fpmin = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < fpmin)
		d = fpmin;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		h *= cf_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		double del = cf_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out)
{
	double ma, va, mb, vb;

	if (na < 2 || nb < 2)
		return -1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
	if (se2 == 0) {
		out->df = NAN;
		out->t = ma == mb ? NAN : (ma > mb ? INFINITY : -INFINITY);
		out->p = ma == mb ? NAN : 0;
		return 0;
	}
	out->t = (ma - mb) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = stats_t_p2(out->t, out->df);
	return 0;
}

double stats_t_upper(double q, double df)
{
	if (!(q > 0) || !(q < 1) || !(df > 0))
		return NAN;
	if (q > 0.5)
		return -stats_t_upper(1 - q, df);
	if (q == 0.5)
		return 0;
	/* the two-sided p falls from 1 at t = 0: bracket 2q, then halve the bracket */
	double lo = 0, hi = 1;
	while (stats_t_p2(hi, df) > 2 * q && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_p2(mid, df) > 2 * q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->i > y->i) - (x->i < y->i);
}

void stats_holm(const double *p, size_t m, double *adj)
{
	struct ranked *r = malloc(m * sizeof *r);
	if (!r) {
		/* Bonferroni, a bound Holm's values never exceed */
		for (size_t i = 0; i < m; i++)
			adj[i] = isnan(p[i]) ? 1 : fmin(1, (double)m * p[i]);
		return;
	}
	for (size_t i = 0; i < m; i++)
		r[i] = (struct ranked){ isnan(p[i]) ? 1 : p[i], i };
	qsort(r, m, sizeof *r, cmp_ranked);
	double run = 0;
	for (size_t k = 0; k < m; k++) {
		double v = fmin(1, (double)(m - k) * r[k].p);
		run = v > run ? v : run;
		adj[r[k].i] = run;
	}
	free(r);
}

const struct latency_field latency_fields[LATENCY_FIELDS] = {
	{ "mean", offsetof(struct latency, mean) }, { "p50", offsetof(struct latency, p50) },
	{ "p90", offsetof(struct latency, p90) },   { "p99", offsetof(struct latency, p99) },
	{ "p999", offsetof(struct latency, p999) }, { "max", offsetof(struct latency, max) },
};
