/* test_site.c: the pure rules of `fsmatrix site`: page names (report/sitename.c: URL-safe,
 * distinct for distinct names, cut with a hash when long), a cell id's parts, a series at a
 * glance (core/figures/trend.c: the change since the last change point, the newest against the
 * spread before it) and a change point's triage state (fixed by a later one). */
#include "check.h"
#include "report/sitename.h"
#include "core/figures/trend.h"

#include <stdio.h>
#include <string.h>

static void names(void)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "md1/ext4/defaults/seqwrite/mbps", "md1~ext4~defaults~seqwrite~mbps" },
		{ "r5-c64k/ext4/noatime,data=writeback/tree", "r5-c64k~ext4~noatime_2Cdata_3Dwriteback~tree" },
		{ "a<b>&\"c\" %2F#?x", "a_3Cb_3E_26_22c_22_20_252F_23_3Fx" },
		{ "total_s", "total_5Fs" },
		{ "..", "_2E." },
		{ ".hidden", "_2Ehidden" },
		{ "a~b", "a_7Eb" },
		{ "r6+ssd+luks", "r6_2Bssd_2Bluks" },
		{ "\xc3\xa9t\xc3\xa9", "_C3_A9t_C3_A9" },
	};
	char out[SITENAME_MAX];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK_STR(sitename(rows[i].in, out, sizeof out), rows[i].want);
	/* two names that differ only past the cut keep distinct names, within the limit */
	char a[400], b[400], na[SITENAME_MAX], nb[SITENAME_MAX];
	memset(a, 'x', 300);
	a[300] = 0;
	memcpy(b, a, 301);
	b[299] = 'y';
	sitename(a, na, sizeof na);
	sitename(b, nb, sizeof nb);
	CHECK(strlen(na) == SITENAME_MAX - 1 && strlen(nb) == SITENAME_MAX - 1, "%zu %zu", strlen(na),
	      strlen(nb));
	CHECK(strcmp(na, nb) != 0, "%s", na);
	CHECK(strncmp(na, "xxxx", 4) == 0 && strchr(na, '_'), "%s", na);
	/* a name of escapes only, cut between them: every byte still from the safe set */
	memset(a, '<', 150);
	a[150] = 0;
	sitename(a, na, sizeof na);
	CHECK(strspn(na, "0123456789ABCDEFabcdef_3C") == strlen(na) && strlen(na) < SITENAME_MAX, "%s", na);
}

static void parts(void)
{
	struct cell_parts p;
	CHECK_INT(cell_parts("md1/ext4/defaults/seqwrite", &p), 0);
	CHECK_STR(p.array, "md1");
	CHECK_STR(p.layer, "");
	CHECK_STR(p.fs, "ext4");
	CHECK_STR(p.mount, "defaults");
	CHECK_STR(p.workload, "seqwrite");
	CHECK_INT(cell_parts("r6+ssd+luks/xfs/noatime,logbsize=256k/stream", &p), 0);
	CHECK_STR(p.array, "r6");
	CHECK_STR(p.layer, "ssd+luks");
	CHECK_STR(p.mount, "noatime,logbsize=256k");
	CHECK_INT(cell_parts("oddcell", &p), -1);
	CHECK_STR(p.array, "oddcell");
}

/* a series of means with change points at the given positions (groups all 0 unless set) */
static void glance(void)
{
	struct trend_point p[12];
	struct cp_point cp[2] = { { .index = 6, .mean_before = 100, .mean_after = 80 } };
	struct trend t;
	for (int i = 0; i < 12; i++)
		p[i] = (struct trend_point){ i < 6 ? 100 + i % 2 : 80 + i % 3 * 0.5, 0, i == 6 };
	trend_of(p, 12, cp, &t);
	CHECK_INT(t.has_change, 1);
	CHECK_INT(t.change_at, 6);
	CHECK(t.last == 81 && t.since > -0.191 && t.since < -0.189, "last %g since %g", t.last, t.since);
	CHECK_INT(t.nspread, 5);   /* runs 7 to 11, before the newest */
	CHECK(t.lo == 80 && t.hi == 81, "%g %g", t.lo, t.hi);
	CHECK_INT(t.outside, 0);
	p[11].mean = 75;   /* the newest below every run since the change point */
	trend_of(p, 12, cp, &t);
	CHECK_INT(t.outside, -1);
	p[11].mean = 90;
	trend_of(p, 12, cp, &t);
	CHECK_INT(t.outside, 1);
	/* the newest of another group: its own stretch, none of A's change points */
	p[11] = (struct trend_point){ 120, 1, 0 };
	trend_of(p, 12, cp, &t);
	CHECK_INT(t.has_change, 0);
	CHECK_INT(t.nspread, 0);
	CHECK_INT(t.outside, 0);
	/* too few runs before the newest: no judgement */
	trend_of(p, 3, cp, &t);
	CHECK_INT(t.nspread, 2);
	CHECK_INT(t.outside, 0);
	/* one point */
	trend_of(p, 1, cp, &t);
	CHECK(t.last == 100 && !t.has_change && !t.outside, "one point");
}

static void triage(void)
{
	static const struct {
		int higher;
		double b0, a0, b1, a1;   /* two change points of one group, the second later */
		int g1;
		long want;               /* trend_fixed_by of the first */
	} rows[] = {
		{ 1, 100, 80, 80, 100, 0, 1 },    /* back where it was */
		{ 1, 100, 80, 80, 90, 0, 1 },     /* half won back: fixed */
		{ 1, 100, 80, 80, 89, 0, -1 },    /* under half */
		{ 1, 100, 80, 80, 70, 0, -1 },    /* worse again */
		{ 1, 100, 80, 80, 100, 1, -1 },   /* another group's */
		{ 1, 80, 100, 100, 80, 0, -1 },   /* the first is better: nothing to fix */
		{ 0, 2.0, 3.0, 3.0, 2.2, 0, 1 },  /* lower is better: a time back down */
		{ 0, 2.0, 3.0, 3.0, 2.8, 0, -1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cp_point cp[2] = {
			{ .index = 5, .mean_before = rows[i].b0, .mean_after = rows[i].a0 },
			{ .index = 9, .mean_before = rows[i].b1, .mean_after = rows[i].a1 },
		};
		int group[2] = { 0, rows[i].g1 };
		CHECK(trend_fixed_by(cp, group, 2, 0, rows[i].higher) == rows[i].want, "row %zu", i);
	}
	/* never fixed by an earlier one, whatever the order of the array */
	struct cp_point up_then_down[2] = {
		{ .index = 9, .mean_before = 100, .mean_after = 80 },
		{ .index = 5, .mean_before = 80, .mean_after = 100 },
	};
	int g0[2] = { 0, 0 };
	CHECK_INT(trend_fixed_by(up_then_down, g0, 2, 0, 1), -1);
	up_then_down[1].index = 12;
	CHECK_INT(trend_fixed_by(up_then_down, g0, 2, 0, 1), 1);
	CHECK_STR(triage_names[trend_triage(-1, 0)], "new");
	CHECK_STR(triage_names[trend_triage(-1, 1)], "acknowledged");
	CHECK_STR(triage_names[trend_triage(1, 1)], "fixed");
}

int main(void)
{
	names();
	parts();
	glance();
	triage();
	return check_done("test_site");
}
