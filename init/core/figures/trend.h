/* core/figures/trend.h: what `fsmatrix site` says of a series at a glance, and the triage state of a
 * change point, from the series' figures and its change points (core/figures/changepoint.h). Pure:
 * no I/O. */
#ifndef FSM_TREND_H
#define FSM_TREND_H
#include <stddef.h>

#include "core/figures/changepoint.h"

/* the fewest earlier runs of a stretch that make a spread to judge the newest against */
#define TREND_MIN_SPREAD 3
/* a later change point fixes a worse one when it wins back at least this share of it */
#define TREND_FIX_SHARE 0.5

/* One point of a series, in its order: its mean, its conditions group, and 1 + the index
 * of the change point starting at it in the series' cp[] (0: none). */
struct trend_point {
	double mean;
	int group;
	int change;
};

struct trend {
	double last;            /* the newest (last) point's mean */
	int has_change;         /* its group has a change point at or before it */
	size_t change_at;       /* that change point's position in the series */
	double since;           /* last / the mean before that change point - 1 */
	size_t nspread;         /* the earlier points of the newest's stretch (its group's,
				   from its last change point) */
	double lo, hi;          /* their lowest and highest means, when nspread >= TREND_MIN_SPREAD */
	int outside;            /* the newest above hi: 1, below lo: -1; else (or too few) 0 */
};

/* The glance at p[0..n) (n >= 1) with its change points cp[] (cp[k].mean_before). */
void trend_of(const struct trend_point *p, size_t n, const struct cp_point *cp,
	      struct trend *t);

/* Whether change point k made the figure worse (its metric higher_better or not). */
int trend_worse(const struct cp_point *c, int higher_better);

/* The change point that fixes worse change point k: the first after it of the same group
 * (group[j] == group[k]) that goes the better way and brings the mean back by at least
 * TREND_FIX_SHARE of k's step. Its index in cp[0..n), or -1 (none, or k is no worse). */
long trend_fixed_by(const struct cp_point *cp, const int *group, size_t n, size_t k,
		    int higher_better);

/* A change point's triage state: fixed by a later one, else acknowledged (a note kept in
 * the history), else new. */
enum triage { TRIAGE_NEW, TRIAGE_ACK, TRIAGE_FIXED };
enum triage trend_triage(long fixed_by, int acknowledged);
extern const char *const triage_names[];   /* "new", "acknowledged", "fixed" */

#endif
