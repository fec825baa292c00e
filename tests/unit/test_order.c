/* test_order.c: the order cells run in (core/matrix/order.c): interleave and sequential by rule, a
 * shuffle that is a permutation of each repetition, replays from its seed alone, differs
 * between seeds and between repetitions, and favours no slot; the plan keys and the kernel
 * parameter that choose it; the cells a plan expands to in each order; and the seed a resumed
 * boot keeps. */
#include "check.h"
#include "plan_text.h"
#include "core/parse/cmdline.h"
#include "core/matrix/matrix.h"
#include "core/matrix/order.h"
#include "core/model/plan.h"
#include "core/boot/resume.h"
#include "core/parse/plan_parse.h"

static struct plan p;

static int load(const char *text)
{
	return plan_text("o.ini", text, &p);
}

/* The flat shapes of a run without blocks. */
static int at(enum plan_order o, uint64_t seed, int per, int repeat, int pos, int *rep, int *slot)
{
	struct order_shape s = order_flat(o, seed, per, repeat);
	return order_at(&s, pos, rep, slot);
}

static int position(enum plan_order o, uint64_t seed, int per, int repeat, int rep, int slot)
{
	struct order_shape s = order_flat(o, seed, per, repeat);
	return order_position(&s, rep, slot);
}

static void test_rules(void)
{
	int rep, slot;
	/* 4 cells x 3 repetitions */
	for (int pos = 0; pos < 12; pos++) {
		CHECK_INT(at(ORDER_INTERLEAVE, 7, 4, 3, pos, &rep, &slot), 0);
		CHECK_INT(rep, pos / 4 + 1);
		CHECK_INT(slot, pos % 4);
		CHECK_INT(position(ORDER_INTERLEAVE, 7, 4, 3, rep, slot), pos);
		CHECK_INT(at(ORDER_SEQUENTIAL, 7, 4, 3, pos, &rep, &slot), 0);
		CHECK_INT(slot, pos / 3);
		CHECK_INT(rep, pos % 3 + 1);
		CHECK_INT(position(ORDER_SEQUENTIAL, 7, 4, 3, rep, slot), pos);
	}
	static const enum plan_order all[] = { ORDER_INTERLEAVE, ORDER_SEQUENTIAL, ORDER_SHUFFLE };
	for (int o = 0; o < 3; o++) {
		CHECK_INT(at(all[o], 7, 4, 3, 12, &rep, &slot), -1);
		CHECK_INT(at(all[o], 7, 4, 3, -1, &rep, &slot), -1);
		CHECK_INT(at(all[o], 7, 0, 3, 0, &rep, &slot), -1);
		CHECK_INT(position(all[o], 7, 4, 3, 4, 0), -1);
		CHECK_INT(position(all[o], 7, 4, 3, 1, 4), -1);
		CHECK_INT(position(all[o], 7, 4, 3, 0, 0), -1);
	}
}

/* Every repetition holds each slot once, and position and (rep, slot) map both ways. */
static void test_shuffle_permutes(void)
{
	static const int pers[] = { 1, 2, 3, 4, 5, 6, 7, 15, 16, 17, 54, 63, 64, 65, 1000, 10000 };
	static char seen[10000];
	for (size_t k = 0; k < sizeof pers / sizeof pers[0]; k++) {
		int per = pers[k], repeat = per > 1000 ? 1 : 3, bad = 0;
		for (int r = 1; r <= repeat; r++) {
			memset(seen, 0, sizeof seen);
			for (int i = 0; i < per; i++) {
				int rep = 0, slot = -1, pos = (r - 1) * per + i;
				if (at(ORDER_SHUFFLE, 20261203, per, repeat, pos, &rep, &slot) < 0 ||
				    rep != r || slot < 0 || slot >= per || seen[slot]++ ||
				    position(ORDER_SHUFFLE, 20261203, per, repeat, rep, slot) != pos)
					bad++;
			}
		}
		CHECK(bad == 0, "%d cells: %d positions not a permutation or not inverted", per, bad);
	}
}

/* The order of a seed is fixed: these are what seed 42 gives 6 cells in each repetition. A
 * change here changes every run replayed from a recorded seed. */
static void test_shuffle_replays(void)
{
	static const int want[3][6] = {
		{ 4, 3, 1, 2, 5, 0 }, { 5, 3, 2, 0, 4, 1 }, { 4, 3, 0, 1, 2, 5 },
	};
	int got[3][6], rep, slot;
	for (int pos = 0; pos < 18; pos++) {
		at(ORDER_SHUFFLE, 42, 6, 3, pos, &rep, &slot);
		got[pos / 6][pos % 6] = slot;
	}
	for (int r = 0; r < 3; r++) {
		char g[64] = "", w[64] = "";
		for (int i = 0; i < 6; i++) {
			snprintf(g + strlen(g), sizeof g - strlen(g), "%d ", got[r][i]);
			snprintf(w + strlen(w), sizeof w - strlen(w), "%d ", want[r][i]);
		}
		CHECK_STR(g, w);
	}
}

/* Seeds differ from each other, repetitions from each other, and no slot is favoured first:
 * over 6000 seeds each of 6 cells comes first about 1000 times. */
static void test_shuffle_spreads(void)
{
	int first[6] = { 0 }, same_seed = 0, same_rep = 0, rep, slot;
	for (uint64_t seed = 0; seed < 6000; seed++) {
		int a[6], b[6], c[6];
		for (int i = 0; i < 6; i++) {
			at(ORDER_SHUFFLE, seed, 6, 2, i, &rep, &a[i]);
			at(ORDER_SHUFFLE, seed, 6, 2, 6 + i, &rep, &b[i]);
			at(ORDER_SHUFFLE, seed + 1, 6, 2, i, &rep, &c[i]);
		}
		first[a[0]]++;
		same_rep += memcmp(a, b, sizeof a) == 0;
		same_seed += memcmp(a, c, sizeof a) == 0;
	}
	for (int s = 0; s < 6; s++)
		CHECK(first[s] > 850 && first[s] < 1150, "slot %d first %d times of 6000", s, first[s]);
	/* one in 720 for a fair shuffle: about 8 */
	CHECK(same_rep < 30, "%d of 6000 seeds give both repetitions the same order", same_rep);
	CHECK(same_seed < 30, "%d of 6000 seeds give their successor's order", same_seed);
	(void)slot;
}

/* With blocks (an array variant's cells) and runs (one filesystem's within it): still a
 * permutation of each repetition that inverts, each block's slots at consecutive places, and
 * each run's within its block; blocks and runs themselves shuffled. */
static void test_shuffle_blocks(void)
{
	static const struct { int per, block, nrun, run[4]; } shapes[] = {
		{ 12, 4, 0, { 0 } }, { 12, 6, 2, { 4, 2 } }, { 60, 12, 3, { 2, 4, 6 } },
		{ 7, 7, 0, { 0 } }, { 9, 1, 0, { 0 } }, { 48, 16, 4, { 1, 3, 5, 7 } },
	};
	int moved_blocks = 0, moved_runs = 0;
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		struct order_shape s = order_flat(ORDER_SHUFFLE, 20261203 + k, shapes[k].per, 2);
		s.block = shapes[k].block;
		s.nrun = shapes[k].nrun;
		memcpy(s.run, shapes[k].run, sizeof shapes[k].run);
		int bad = 0, apart = 0, split = 0;
		for (int r = 1; r <= 2; r++) {
			char seen[64] = { 0 };
			int slots[64];
			for (int i = 0; i < s.per; i++) {
				int rep, slot, pos = (r - 1) * s.per + i;
				if (order_at(&s, pos, &rep, &slot) < 0 || rep != r || slot < 0 ||
				    slot >= s.per || seen[slot]++ || order_position(&s, rep, slot) != pos)
					bad++;
				slots[i] = slot;
			}
			int b = s.block > 1 ? s.block : 1;
			for (int i = 0; i < s.per; i++) {
				apart += slots[i] / b != slots[i / b * b] / b;
				if (i % b == 0 && slots[i] / b != i / b)
					moved_blocks++;
			}
			/* the runs: a run's slots at consecutive places */
			for (int i = 1; s.nrun && i < s.per; i++) {
				int off_a = slots[i - 1] % b, off_b = slots[i] % b, ra = 0, rb = 0, acc = 0;
				for (int q = 0; q < s.nrun; q++) {
					ra += off_a >= acc + s.run[q];
					rb += off_b >= acc + s.run[q];
					acc += s.run[q];
				}
				if (i % b && ra != rb) {
					int more = 0;
					for (int t = i + 1; t < (i / b + 1) * b; t++) {
						int o = slots[t] % b, rt = 0;
						acc = 0;
						for (int q = 0; q < s.nrun; q++) {
							rt += o >= acc + s.run[q];
							acc += s.run[q];
						}
						more += rt == ra;
					}
					split += more;
				}
				if (i % b == 1 && s.nrun && ra != 0)
					moved_runs++;
			}
		}
		CHECK(bad == 0, "shape %zu: %d positions not a permutation or not inverted", k, bad);
		CHECK(apart == 0, "shape %zu: %d places outside their block", k, apart);
		CHECK(split == 0, "shape %zu: a run split %d times", k, split);
	}
	CHECK(moved_blocks > 0, "no block ever moved");
	CHECK(moved_runs > 0, "no run ever moved");
	/* a shape that does not tile is refused */
	struct order_shape s = order_flat(ORDER_SHUFFLE, 1, 10, 1);
	int rep, slot;
	s.block = 4;
	CHECK_INT(order_at(&s, 0, &rep, &slot), -1);
	s.block = 5;
	s.nrun = 2;
	s.run[0] = 2;
	s.run[1] = 2;
	CHECK_INT(order_at(&s, 0, &rep, &slot), -1);
}

#define PLAN6 "[array a]\nlevel = none\n[fs e]\ntype = ext4\nmount = defaults\nmount = noatime\n" \
	"[fs x]\ntype = xfs\n[workload w1]\ntype = seqwrite\nsize = 1m\n" \
	"[workload w2]\ntype = smallfiles\nsize = 1m\n"

/* The plan's keys: defaults, each value, and the mistakes. */
static void test_keys(void)
{
	CHECK_INT(load(PLAN6), 0);
	CHECK_INT(p.warmup, 1);
	CHECK_INT(p.order, ORDER_INTERLEAVE);
	CHECK_INT(plan_global_given(&p, "seed"), 0);
	CHECK_INT(load("[global]\nwarmup = 0\norder = sequential\n" PLAN6), 0);
	CHECK_INT(p.warmup, 0);
	CHECK_INT(p.order, ORDER_SEQUENTIAL);
	CHECK_INT(load("[global]\nwarmup = 3\norder = shuffle\nseed = 9007199254740991\n" PLAN6), 0);
	CHECK_INT(p.warmup, 3);
	CHECK_INT(p.order, ORDER_SHUFFLE);
	CHECK_INT(p.seed, 9007199254740991ull);
	CHECK_INT(plan_global_given(&p, "seed"), 1);
	CHECK_STR(plan_order_name(ORDER_SHUFFLE), "shuffle");
	static const struct { const char *text, *err; } bad[] = {
		{ "[global]\norder = random\n", "o.ini:2: order: expected interleave, sequential or "
		  "shuffle (order = random)" },
		{ "[global]\nwarmup = 101\n", "o.ini:2: warmup: expected a whole number from 0 to 100 "
		  "(warmup = 101)" },
		{ "[global]\nwarmup = -1\n", "o.ini:2: warmup: expected a whole number from 0 to 100 "
		  "(warmup = -1)" },
		{ "[global]\nseed = 5\n", "o.ini:2: [global]: \"seed\" applies to order = shuffle only "
		  "(order = interleave)" },
		{ "[global]\norder = sequential\nseed = 5\n", "o.ini:3: [global]: \"seed\" applies to "
		  "order = shuffle only (order = sequential)" },
		{ "[global]\norder = shuffle\nseed = 9007199254740992\n", "o.ini:3: [global]: seed: "
		  "expected a whole number from 0 to 9007199254740991" },
		{ "[global]\norder = shuffle\nseed = x\n", "o.ini:3: seed: expected a whole number "
		  "(seed = x)" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, "%s%s", bad[i].text, PLAN6);
		CHECK_INT(plan_parse("o.ini", text, strlen(text), &p), -1);
		CHECK_STR(p.nerrors ? p.errors[0] : "", bad[i].err);
	}
}

/* The cells of a plan in each order: the same cells and repetitions, each once; the slot
 * names the cell whatever its position. */
static void test_matrix_orders(void)
{
	static const char *const ids[] = {
		"a/e/defaults/w1", "a/e/defaults/w2", "a/e/noatime/w1", "a/e/noatime/w2",
		"a/x/defaults/w1", "a/x/defaults/w2",
	};
	static const char *const texts[] = {
		"[global]\nrepeat = 3\n" PLAN6,
		"[global]\nrepeat = 3\norder = sequential\n" PLAN6,
		"[global]\nrepeat = 3\norder = shuffle\nseed = 1\n" PLAN6,
	};
	struct cell c, d;
	for (int o = 0; o < 3; o++) {
		int count[6][4] = { { 0 } };
		CHECK_INT(load(texts[o]), 0);
		CHECK_INT(matrix_count(&p), 18);
		for (int i = 0; i < 18; i++) {
			CHECK_INT(matrix_cell(&p, i, &c), 0);
			CHECK_INT(c.index, i);
			CHECK_STR(c.id, ids[c.slot]);
			count[c.slot][c.rep]++;
			CHECK_INT(matrix_slot_cell(&p, c.slot, c.rep, &d), 0);
			CHECK_INT(d.index, i);
			CHECK_STR(d.id, c.id);
		}
		for (int s = 0; s < 6; s++)
			for (int r = 1; r <= 3; r++)
				CHECK(count[s][r] == 1, "order %d: slot %d rep %d ran %d times", o, s, r,
				      count[s][r]);
		CHECK_INT(matrix_cell(&p, 18, &c), -1);
	}
	/* sequential: a cell's repetitions back to back */
	load(texts[1]);
	matrix_cell(&p, 4, &c);
	CHECK_STR(c.id, "a/e/defaults/w2");
	CHECK_INT(c.rep, 2);
	/* shuffle: repetition-major, and not the plan's order in every repetition */
	load(texts[2]);
	int unshuffled = 0;
	for (int i = 0; i < 18; i++) {
		matrix_cell(&p, i, &c);
		CHECK_INT(c.rep, i / 6 + 1);
		unshuffled += c.slot == i % 6;
	}
	CHECK(unshuffled < 18, "seed 1 left every repetition in the plan's order");
}

static void test_cmdline_seed(void)
{
	struct cmdline cl;
	char err[256];
	CHECK_INT(cmdline_parse("fsmatrix.seed=42", &cl, err, sizeof err), 0);
	CHECK_INT(cl.seed_given, 1);
	CHECK_INT(cl.seed, 42);
	CHECK_INT(cmdline_parse("quiet", &cl, err, sizeof err), 0);
	CHECK_INT(cl.seed_given, 0);
	static const char *const bad[] = { "fsmatrix.seed=", "fsmatrix.seed", "fsmatrix.seed=-1",
		"fsmatrix.seed=1x", "fsmatrix.seed=9007199254740992" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[128];
		snprintf(want, sizeof want, "%s: expected a whole number, 0 to 9007199254740991", bad[i]);
		CHECK_INT(cmdline_parse(bad[i], &cl, err, sizeof err), -1);
		CHECK_STR(err, want);
	}
}

/* A resumed boot keeps the run's seed, from its first plan event. */
static void test_journal_seed(void)
{
	static const char text[] =
		"{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"plan\":{\"sha256\":\"s\",\"scale\":1.0000}}\n"
		"{\"v\":1,\"type\":\"event\",\"event\":\"plan\",\"order\":\"shuffle\",\"seed\":777}\n"
		"{\"v\":1,\"type\":\"event\",\"event\":\"plan\",\"order\":\"shuffle\",\"seed\":5}\n";
	static const char unseeded[] =
		"{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"plan\":{\"sha256\":\"s\",\"scale\":1.0000}}\n"
		"{\"v\":1,\"type\":\"event\",\"event\":\"plan\",\"order\":\"interleave\",\"seed\":null}\n";
	struct journal j;
	struct resume_cell cells[4];
	unsigned long long seed = 0;
	char why[256];
	journal_scan(text, strlen(text), &j, cells, 4);
	CHECK_INT(journal_seed(&j, 0, 0, &seed, why, sizeof why), 0);
	CHECK_INT(seed, 777);
	CHECK_INT(journal_seed(&j, 1, 777, &seed, why, sizeof why), 0);
	CHECK_INT(journal_seed(&j, 1, 5, &seed, why, sizeof why), -1);
	CHECK_STR(why, "run R1 shuffles with seed 777, this boot asks fsmatrix.seed=5");
	journal_scan(unseeded, strlen(unseeded), &j, cells, 4);
	CHECK_INT(journal_seed(&j, 0, 0, &seed, why, sizeof why), -1);
	CHECK_STR(why, "run R1's shuffle seed is unknown (no plan event with a seed): its order "
		  "cannot be kept");
}

/* repeat = auto: the plan expands to repeat_max repetitions, the bound; a summary that ended
 * a cell as stable marks its position for a resumed boot. */
static void test_repeat_auto(void)
{
	CHECK_INT(load("[global]\nrepeat = auto\n" PLAN6), 0);
	CHECK_INT(p.repeat_auto, 1);
	CHECK_INT(p.repeat, 10);
	CHECK_INT(matrix_count(&p), 60);
	CHECK_INT(load("[global]\nrepeat_max = 4\nrepeat = auto\norder = sequential\n" PLAN6), 0);
	CHECK_INT(p.repeat, 4);
	CHECK_INT(matrix_count(&p), 24);
	CHECK_INT(load("[global]\nrepeat = 3\n" PLAN6), 0);
	CHECK_INT(p.repeat_auto, 0);
	CHECK_INT(load("[global]\nrepeat = auto\ndetect = 5%\n" PLAN6), 0);
	CHECK(p.detect_pct == 5.0, "detect %g", p.detect_pct);
	CHECK_INT(load("[global]\ndetect = 2.5\nrepeat = auto\n" PLAN6), 0);
	CHECK(p.detect_pct == 2.5, "detect %g", p.detect_pct);
	static const struct { const char *text, *err; } bad[] = {
		{ "[global]\nrepeat = 3\ndetect = 5%\n", "o.ini:3: [global]: \"detect\" applies "
		  "to repeat = auto only (repeat = 3)" },
		{ "[global]\nrepeat = auto\ndetect = 0%\n", "o.ini:3: detect: expected a percentage "
		  "above 0 up to 100, such as 5% (detect = 0%)" },
		{ "[global]\nrepeat = auto\ndetect = five\n", "o.ini:3: detect: expected a percentage "
		  "above 0 up to 100, such as 5% (detect = five)" },
		{ "[global]\nrepeat = 3\nrepeat_max = 5\n", "o.ini:3: [global]: \"repeat_max\" applies "
		  "to repeat = auto only (repeat = 3)" },
		{ "[global]\nrepeat_max = 5\n", "o.ini:2: [global]: \"repeat_max\" applies to repeat = "
		  "auto only (repeat = 1)" },
		{ "[global]\nrepeat = auto\nrepeat_max = 2\n", "o.ini:3: repeat_max: expected a whole "
		  "number from 3 to 1000 (repeat_max = 2)" },
		{ "[global]\nrepeat = sometimes\n", "o.ini:2: repeat: expected auto or a whole number "
		  "from 1 to 1000 (repeat = sometimes)" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, "%s%s", bad[i].text, PLAN6);
		CHECK_INT(plan_parse("o.ini", text, strlen(text), &p), -1);
		CHECK_STR(p.nerrors ? p.errors[0] : "", bad[i].err);
	}
	static const char text[] =
		"{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"plan\":{\"sha256\":\"s\",\"scale\":1.0000}}\n"
		"{\"v\":1,\"type\":\"summary\",\"cell\":\"a\",\"n\":3,\"index\":3,\"auto\":\"stable\"}\n"
		"{\"v\":1,\"type\":\"summary\",\"cell\":\"b\",\"n\":4,\"index\":4,\"auto\":\"repeat_max\"}\n"
		"{\"v\":1,\"type\":\"summary\",\"cell\":\"c\",\"n\":3,\"reps\":3}\n";
	struct journal j;
	struct resume_cell cells[4];
	journal_scan(text, strlen(text), &j, cells, 4);
	CHECK_INT(cells[2].stopped, 1);
	CHECK_INT(cells[3].stopped, 0);
	CHECK_INT(cells[0].stopped + cells[1].stopped, 0);
}

int main(void)
{
	test_rules();
	test_shuffle_permutes();
	test_shuffle_replays();
	test_shuffle_spreads();
	test_shuffle_blocks();
	test_keys();
	test_matrix_orders();
	test_cmdline_seed();
	test_journal_seed();
	test_repeat_auto();
	return check_done("test_order");
}
