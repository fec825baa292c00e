/* report/missing.c: what a run lacks, named the way `fsmatrix check --shards` numbers cells
 * (cell N of the plan's M per repetition, repetition R), and the exit status that report,
 * compare and html give scripts: a run that did not finish, or finished with cells not ok. */
#include "report/model.h"

#include <stdlib.h>
#include <string.h>

/* "1-3, 6" of the indexes 1..n whose in[] is set, into out; returns how many. */
static int ranges(const char *in, int n, char *out, size_t len)
{
	size_t k = 0;
	int count = 0;
	out[0] = '\0';
	for (int i = 1; i <= n; i++) {
		if (!in[i])
			continue;
		int j = i;
		while (j < n && in[j + 1])
			j++;
		count += j - i + 1;
		k += (size_t)snprintf(out + k, k < len ? len - k : 0, i == j ? "%s%d" : "%s%d-%d",
				      k ? ", " : "", i, j);
		i = j;
	}
	return count;
}

char *report_cells_reps_text(const char *flag, int total, int per, int *count)
{
	*count = 0;
	if (per <= 0 || total <= 0 || total % per)
		return NULL;
	int reps = total / per;
	/* each cell's repetitions as text; cells with the same text are named together */
	char (*reptext)[128] = calloc((size_t)per + 1, sizeof *reptext);
	char *set = calloc((size_t)(per > reps ? per : reps) + 2, 1), *done = calloc((size_t)per + 2, 1);
	size_t cap = 256, len = 0;
	char *s = malloc(cap);
	if (!reptext || !set || !done || !s) {
		free(reptext), free(set), free(done), free(s);
		return NULL;
	}
	s[0] = '\0';
	for (int c = 1; c <= per; c++) {
		for (int r = 1; r <= reps; r++)
			set[r] = flag[(r - 1) * per + c] != 0;
		*count += ranges(set, reps, reptext[c], sizeof reptext[c]);
	}
	for (int c = 1; c <= per; c++) {
		if (done[c] || !reptext[c][0])
			continue;
		memset(set, 0, (size_t)per + 2);
		for (int d = c; d <= per; d++)
			if (!done[d] && strcmp(reptext[d], reptext[c]) == 0)
				set[d] = done[d] = 1;
		char cells[2048];
		int ncells = ranges(set, per, cells, sizeof cells);
		int nreps = strchr(reptext[c], ',') || strchr(reptext[c], '-') ? 2 : 1;
		char part[2400];
		/* with one repetition, a cell's number says it all */
		int n = reps == 1 ? snprintf(part, sizeof part, "%scell%s %s of %d", len ? "; " : "",
					     ncells == 1 ? "" : "s", cells, per)
			: snprintf(part, sizeof part, "%scell%s %s of %d, repetition%s %s of %d",
				   len ? "; " : "", ncells == 1 ? "" : "s", cells, per,
				   nreps == 1 ? "" : "s", reptext[c], reps);
		if (n < 0 || (size_t)n >= sizeof part)
			n = (int)strlen(part);
		if (len + (size_t)n + 1 > cap) {
			char *t = realloc(s, cap = 2 * (len + (size_t)n + 1));
			if (!t)
				break;
			s = t;
		}
		memcpy(s + len, part, (size_t)n + 1);
		len += (size_t)n;
	}
	free(reptext);
	free(set);
	free(done);
	if (!*count) {
		free(s);
		return NULL;
	}
	return s;
}

int report_run_status(const struct rrun *r)
{
	if (!r->trailer || r->nmissing || r->nlost)
		return REPORT_STATUS_INCOMPLETE;
	int failed = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		size_t k;
		json_t *rec;
		/* fewer repetitions than the cell's records say it had: one's record was lost
		 * (records that number cells, not repetitions, show it only so) */
		if (c->missing || (c->seen < c->reps && !r->bisect))
			return REPORT_STATUS_INCOMPLETE;
		/* an attempt a reboot cut short is followed by the cell's own record */
		json_array_foreach(c->bad, k, rec)
			failed |= strcmp(json_string_value(json_object_get(rec, "status")) ?: "",
					 "interrupted") != 0;
	}
	return failed ? REPORT_STATUS_FAILED : 0;
}

int report_status_worse(int a, int b)
{
	/* by precedence: a source not read, then incomplete, then failed cells, then clean */
	static const int order[] = { 1, REPORT_STATUS_INCOMPLETE, REPORT_STATUS_FAILED };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a ? a : b;
}

int report_runs_status(const struct runset *rs)
{
	int st = 0;
	for (size_t i = 0; i < rs->n; i++)
		st = report_status_worse(st, report_run_status(&rs->run[i]));
	return st;
}
