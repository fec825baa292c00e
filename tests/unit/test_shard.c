/* test_shard.c: the split of a plan's cells over N machines (fsmatrix.shard=K/N): rows of
 * estimates with the split expected of longest-processing-time-first, then the properties
 * every split keeps on the shipped plans (each cell in exactly one shard, the union is the
 * plan, the balance bound, the same split twice), and the run group against sha256sum. */
#include "check.h"
#include "core/command/cellcmd.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/matrix/shard.h"
#include "core/matrix/reuse.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

#define NMAX 12

static const struct split_case {
	const char *name;
	int n, ncells;
	double est[NMAX];
	int owner[NMAX];
} rows[] = {
	{ "one shard takes everything", 1, 4, { 5, 1, 3, 2 }, { 0, 0, 0, 0 } },
	{ "equal cells alternate in cell order", 2, 4, { 1, 1, 1, 1 }, { 0, 1, 0, 1 } },
	/* 9 to shard 0, 7 to 1, 5 to 1 (7 < 9), 3 to 0 (9 < 12) */
	{ "longest first, not round-robin", 2, 4, { 3, 9, 5, 7 }, { 0, 0, 1, 1 } },
	{ "one long cell against many short", 2, 5, { 10, 2, 2, 2, 2 }, { 0, 1, 1, 1, 1 } },
	{ "more shards than cells: the last ones are empty", 5, 3, { 1, 2, 3 }, { 2, 1, 0 } },
	{ "no cells", 3, 0, { 0 }, { 0 } },
	{ "ties between shards go to the lower one", 3, 6, { 4, 4, 4, 2, 2, 2 },
	  { 0, 1, 2, 0, 1, 2 } },
};

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct split_case *r = &rows[i];
		int owner[NMAX];
		CHECK(shard_split(r->est, r->ncells, r->n, owner) == 0, "%s", r->name);
		for (int c = 0; c < r->ncells; c++)
			CHECK(owner[c] == r->owner[c], "%s: cell %d in shard %d, want %d", r->name, c,
			      owner[c], r->owner[c]);
	}
	int owner[1];
	CHECK_INT(shard_split((double[]){ 1 }, 1, 0, owner), -1);
}

/* Every shipped plan split 1 to 7 ways. */
static void test_plans(void)
{
	static const char *const plans[] = {
		"rootfs/plans/default.ini", "rootfs/plans/raid6-degraded-ext3-vs-ext4.ini",
		"tests/boot/smoke.ini",
	};
	static struct plan p;
	struct estimate_model m;
	estimate_model_default(&m);
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		CHECK(plan_load(plans[i], &p) == 0, "%s: %s", plans[i], p.errors[0]);
		int per = matrix_per_rep(&p);
		int owner[512], again[512];
		double load[8], est[512], sum = 0, longest = 0;
		struct cell c;
		CHECK(per <= 512, "%s: %d cells", plans[i], per);
		/* the unit of the split: the cells that share an array (reuse = array) */
		int group[512], ngroup = 0;
		double gest[512] = { 0 };
		struct cell prev;
		for (int k = 0; k < per; k++) {
			matrix_slot_cell(&p, k, 1, &c);
			est[k] = cell_estimate(&p, &c, &m, NULL) * p.repeat;
			sum += est[k];
			if (reuse_from(&p, k ? &prev : NULL, &c) == REUSE_NONE)
				ngroup++;
			group[k] = ngroup - 1;
			gest[ngroup - 1] += est[k];
			prev = c;
		}
		for (int g = 0; g < ngroup; g++)
			longest = gest[g] > longest ? gest[g] : longest;
		for (int n = 1; n <= 7; n++) {
			CHECK(shard_plan(&p, &m, n, owner, load) == 0, "%s / %d", plans[i], n);
			CHECK(shard_plan(&p, &m, n, again, NULL) == 0, "%s / %d", plans[i], n);
			int count[8] = { 0 };
			double got = 0, max = 0;
			for (int k = 0; k < per; k++) {
				CHECK(owner[k] >= 0 && owner[k] < n, "%s / %d: cell %d in shard %d",
				      plans[i], n, k, owner[k]);
				CHECK(owner[k] == again[k], "%s / %d: cell %d moved", plans[i], n, k);
				CHECK(k == 0 || group[k] != group[k - 1] || owner[k] == owner[k - 1],
				      "%s / %d: cell %d away from its array's group", plans[i], n, k);
				if (owner[k] >= 0 && owner[k] < n)
					count[owner[k]]++;
			}
			int cells = 0;
			for (int s = 0; s < n; s++) {
				cells += count[s];
				got += load[s];
				max = load[s] > max ? load[s] : max;
			}
			CHECK(cells == per, "%s / %d: %d cells in the shards, plan has %d", plans[i], n,
			      cells, per);
			CHECK(got > sum - 1e-6 && got < sum + 1e-6, "%s / %d: load %g, plan %g",
			      plans[i], n, got, sum);
			/* greedy list scheduling: no shard ends later than the mean plus one group */
			CHECK(max <= sum / n + longest + 1e-6, "%s / %d: longest shard %g, mean %g, "
			      "longest cell %g", plans[i], n, max, sum / n, longest);
		}
	}
}

static void test_run_group(void)
{
	char hex[65];
	/* printf '9cfa2834ca78\n0.0500\n2\n' | sha256sum */
	shard_run_group("9cfa2834ca78", 0.05, 2, hex);
	CHECK_STR(hex, "11da4995e9000ee7b931970dd486a83f9910eee546490eb8ac7f28e8516612d8");
	/* printf '\n1.0000\n1\n' | sha256sum */
	shard_run_group("", 1.0, 1, hex);
	CHECK_STR(hex, "3e9103d257c112a0aca0af690ce683d5ed8af90e6c3b6c7e2e2d6262a46d2cb0");
}

int main(void)
{
	test_rows();
	test_plans();
	test_run_group();
	return check_done("test_shard");
}
