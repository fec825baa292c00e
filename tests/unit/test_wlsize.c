/* test_wlsize.c: workload sizes relative to the machine (core/workload/wlsize.c): the forms a plan
 * writes, the ones it refuses, the text a record keeps, and the bytes each resolves to on a
 * machine, with fsmatrix.scale= and the block size's rounding. */
#include "check.h"
#include "core/model/plan.h"
#include "core/workload/wlsize.h"
#include "core/parse/plan_parse.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

static const struct parse_case {
	const char *text;
	int want;                 /* 1 relative, 0 not one (bytes), -1 refused */
	enum size_base base;
	double factor;
	const char *shown;        /* wlsize_text */
} parse_cases[] = {
	{ "2x ram", 1, SIZE_RAM, 2, "2x ram" },
	{ "0.5x ram", 1, SIZE_RAM, 0.5, "0.5x ram" },
	{ "2xram", 1, SIZE_RAM, 2, "2x ram" },
	{ "2 x RAM", 1, SIZE_RAM, 2, "2x ram" },
	{ "10% fs", 1, SIZE_FS, 0.1, "10% fs" },
	{ "100% fs", 1, SIZE_FS, 1, "100% fs" },
	{ "50% ram", 1, SIZE_RAM, 0.5, "0.5x ram" },
	{ "0.5x fs", 1, SIZE_FS, 0.5, "50% fs" },
	{ "1g", 0, SIZE_BYTES, 0, "" },
	{ "4096", 0, SIZE_BYTES, 0, "" },
	{ "2x disk", 0, SIZE_BYTES, 0, "" },
	{ "x ram", 0, SIZE_BYTES, 0, "" },
	{ "2x ram please", 0, SIZE_BYTES, 0, "" },
	{ "101% fs", -1, SIZE_BYTES, 0, "" },
	{ "2x fs", -1, SIZE_BYTES, 0, "" },
	{ "0% fs", -1, SIZE_BYTES, 0, "" },
	{ "1001x ram", -1, SIZE_BYTES, 0, "" },
};

static void test_parse(void)
{
	for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
		const struct parse_case *t = &parse_cases[i];
		struct size_rel r = { SIZE_BYTES, 0, 1 };
		char msg[200] = "", text[48];
		int got = wlsize_parse(t->text, &r, msg, sizeof msg);
		CHECK(got == t->want, "%s: got %d, want %d (%s)", t->text, got, t->want, msg);
		if (got != 1 || t->want != 1)
			continue;
		CHECK(r.base == t->base && r.factor == t->factor && r.scale == 1,
		      "%s: base %d factor %g scale %g", t->text, r.base, r.factor, r.scale);
		wlsize_text(&r, text, sizeof text);
		CHECK_STR(text, t->shown);
	}
}

static const struct resolve_case {
	const char *size;         /* the plan's size = */
	const char *bs;
	double scale;             /* fsmatrix.scale= */
	uint64_t ram, fs_free;
	uint64_t want, basis;
} resolve_cases[] = {
	{ "2x ram", "1m", 1, GIB, 100 * GIB, 2 * GIB, GIB },
	{ "2x ram", "1m", 1, 256 * GIB, 100 * GIB, 512 * GIB, 256 * GIB },
	/* MemTotal is never a round number: whole blocks, rounded down */
	{ "2x ram", "1m", 1, 1000 * MIB + 12345, GIB, 2000 * MIB, 1000 * MIB + 12345 },
	{ "0.5x ram", "1m", 1, 4 * GIB, GIB, 2 * GIB, 4 * GIB },
	{ "10% fs", "1m", 1, GIB, 10 * GIB, 1024 * MIB, 10 * GIB },
	{ "10% fs", "1m", 1, GIB, 9 * GIB, 921 * MIB, 9 * GIB },
	/* scale multiplies the resolved size, as it does a size in bytes */
	{ "2x ram", "1m", 0.05, 512 * MIB, GIB, 51 * MIB, 512 * MIB },
	{ "10% fs", "1m", 0.5, GIB, 20 * GIB, 1024 * MIB, 20 * GIB },
	/* at least one block */
	{ "10% fs", "1m", 0.001, GIB, 1 * GIB, 1 * MIB, GIB },
	/* a size in bytes is the plan's, scaled at load */
	{ "256m", "1m", 1, 64 * GIB, 64 * GIB, 256 * MIB, 0 },
	{ "256m", "1m", 0.5, 64 * GIB, 64 * GIB, 128 * MIB, 0 },
};

static void test_resolve(void)
{
	for (size_t i = 0; i < sizeof resolve_cases / sizeof resolve_cases[0]; i++) {
		const struct resolve_case *t = &resolve_cases[i];
		static struct plan p;
		char text[512];
		snprintf(text, sizeof text, "[array a]\nlevel = none\n[fs f]\ntype = ext4\n"
			 "[workload w]\ntype = seqwrite\nsize = %s\nbs = %s\n", t->size, t->bs);
		if (plan_parse("w.ini", text, strlen(text), &p) != 0) {
			CHECK(0, "%s: %s", t->size, p.errors[0]);
			continue;
		}
		if (t->scale != 1)
			plan_scale(&p, t->scale);
		uint64_t basis = 99;
		uint64_t got = wlsize_resolve(&p.workloads[0], t->ram, t->fs_free, &basis);
		CHECK(got == t->want, "case %zu (%s, scale %g): got %llu, want %llu", i, t->size,
		      t->scale, (unsigned long long)got, (unsigned long long)t->want);
		CHECK(basis == t->basis, "case %zu: basis %llu, want %llu", i,
		      (unsigned long long)basis, (unsigned long long)t->basis);
	}
}

/* Before the run resolves it, a relative size holds its size on the nominal machine, so
 * that what reads w->size (fio's --size, a check of the plan) has a sensible value. */
static void test_nominal(void)
{
	static struct plan p;
	static const char text[] = "[array a]\nlevel = none\n[fs f]\ntype = ext4\n"
		"[workload w]\ntype = fio\nrw = write\nsize = 0.25x ram\n";
	CHECK_INT(plan_parse("n.ini", text, strlen(text), &p), 0);
	CHECK(p.workloads[0].size == WLSIZE_NOMINAL_BYTES / 4, "nominal %llu",
	      (unsigned long long)p.workloads[0].size);
	CHECK_INT(p.workloads[0].size_rel.base, SIZE_RAM);
}

int main(void)
{
	test_parse();
	test_resolve();
	test_nominal();
	return check_done("test_wlsize");
}
