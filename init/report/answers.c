/* report/answers.c: each cell's answer over its ok repeats, from the cell records' limit,
 * efficiency and bottleneck (cell/answer.c writes them): the median figure and efficiency, and
 * the bottleneck most repeats named with the evidence of the first that named it. Findings,
 * the limits table, compare's why lines and the contrasts read them. */
#include "report/sections.h"
#include "core/figures/bottleneck.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}


static double median_of(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One ok repeat's answer, as read from its record. */
struct rep_answer {
	size_t cell;
	json_t *rec;
};

static int cmp_rep(const void *a, const void *b)
{
	const struct rep_answer *x = a, *y = b;
	return (x->cell > y->cell) - (x->cell < y->cell);
}

/* The answer of one cell from its ok repeats rep[0..n-1]. */
static void answer_of(const struct rep_answer *rep, size_t n, double *fig, double *eff,
		      struct cell_answer *a)
{
	const char *kinds[16];
	int counts[16], nk = 0, ne = 0, nf = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *rec = rep[i].rec;
		json_t *lim = json_object_get(rec, "limit"), *bn = json_object_get(rec, "bottleneck");
		if (json_is_object(lim) && !a->rule) {
			a->rule = report_str(lim, "rule");
			a->metric = json_string_value(json_object_get(lim, "metric"));
			a->direction = report_str(lim, "direction");
			json_t *m = json_object_get(lim, "mbps");
			a->limit = json_is_number(m) ? json_number_value(m) : NAN;
		}
		/* the figure the limit is set against, also without a limit to set it against
		 * (disk_speed = off measures none) */
		json_t *e = json_object_get(rec, "efficiency");
		json_t *v = a->metric ? json_object_get(json_object_get(rec, "result"), a->metric) : NULL;
		if (json_is_number(e) || json_is_number(v))
			fig[nf++] = json_is_number(v) ? json_number_value(v) : NAN;
		if (json_is_number(e))
			eff[ne++] = json_number_value(e);
		if (!json_is_object(bn))
			continue;
		const char *k = report_str(bn, "kind");
		int j = 0;
		while (j < nk && strcmp(kinds[j], k))
			j++;
		if (j == nk && nk < 16) {
			kinds[nk] = k;
			counts[nk++] = 0;
		}
		a->judged++;
		if (j < nk && ++counts[j] > a->kind_n) {
			a->kind_n = counts[j];
			a->kind = k;
		}
	}
	/* the evidence of the first repeat that named the kind most of them named */
	for (size_t i = 0; i < n && a->kind; i++) {
		json_t *bn = json_object_get(rep[i].rec, "bottleneck");
		if (!strcmp(report_str(bn, "kind"), a->kind)) {
			a->evidence = report_str(bn, "evidence");
			break;
		}
	}
	a->n = ne;
	a->efficiency = median_of(eff, ne);
	a->figure = median_of(fig, nf);
	/* records of images before the stale-limit rule named the disks for a figure far beyond
	 * what they gave when measured: that limit no longer held, and the disks held nothing */
	if (a->efficiency >= BN_BEYOND_LIMIT && a->kind && strcmp(a->kind, "disks") == 0) {
		a->kind = "stale-limit";
		a->evidence = "far beyond what the members gave alone when measured at boot: they "
			      "are faster now than then (a cache, a throttle lifted), so that limit no "
			      "longer holds";
	}
}

/* Every cell's answer, in one pass over the records (a run may hold 100,000 of them): the ok
 * records sorted by their cell, then each cell's run of them. NULL on no memory. */
struct cell_answer *report_answers(const struct rrun *r)
{
	size_t nrec = json_array_size(r->records), n = 0, i;
	struct cell_answer *a = calloc(r->ncells + 1, sizeof *a);
	struct rep_answer *rep = malloc((nrec + 1) * sizeof *rep);
	double *fig = malloc((nrec + 1) * sizeof *fig), *eff = malloc((nrec + 1) * sizeof *eff);
	json_t *rec;
	if (!a || !rep || !fig || !eff) {
		free(rep), free(fig), free(eff), free(a);
		return NULL;
	}
	json_array_foreach(r->records, i, rec) {
		json_t *ix = json_object_get(r->cell_ix, report_str(rec, "cell"));
		if (json_is_integer(ix) && !strcmp(report_str(rec, "status"), "ok"))
			rep[n++] = (struct rep_answer){ (size_t)json_integer_value(ix), rec };
	}
	qsort(rep, n, sizeof *rep, cmp_rep);   /* equal cells keep no order: answers are medians */
	for (size_t k = 0; k < r->ncells; k++)
		a[k].figure = a[k].limit = a[k].efficiency = NAN;
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s; e < n && rep[e].cell == rep[s].cell; e++)
			;
		if (rep[s].cell < r->ncells)
			answer_of(rep + s, e - s, fig, eff, &a[rep[s].cell]);
	}
	free(rep), free(fig), free(eff);
	return a;
}
