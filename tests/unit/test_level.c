/* test_level.c: every md level, one row each, and what the rest of the program decides from
 * it: how a plan spells it and what records call it, the fewest members, which array keys
 * apply, how many members may be missing and which slots they take, data disks and striping,
 * whether md resyncs at create, the mdadm argv, the lines `fsmatrix check` shows, and the
 * kernel modules a plan's arrays need. The rows say what the program did before its levels
 * became one table (core/model/level.c), and are checked both through that table and through
 * everything that reads it. */
#include "check.h"
#include "lib/argv.h"
#include "core/command/cellcmd.h"
#include "core/command/cellshow.h"
#include "core/command/geometry.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

static struct plan p;

#define TAIL "[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n"
#define NMAX 8   /* members the rows below go up to */

static const char *const disks[NMAX] = {
	"/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", "/dev/vdf", "/dev/vdg", "/dev/vdh",
	"/dev/vdi",
};

static const struct level_case {
	const char *key;           /* level = KEY in a plan */
	const char *name;          /* in records and `fsmatrix check` */
	int level;                 /* mdadm --level */
	int md;                    /* 0: one raw disk, no mdadm */
	int min_devices;
	int striped;               /* takes a chunk, and has a stripe geometry */
	int data[NMAX + 1];        /* data disks over [n] members */
	int max_missing[NMAX + 1]; /* most members that may be missing over [n] (n >= min) */
	const char *module;        /* the md personality /init loads for it */
} rows[] = {
	{ "none", "none", LEVEL_NONE, 0, 1, 0,
	  { 0, 1, 1, 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0, 0, 0, 0 }, NULL },
	{ "0", "raid0", 0, 1, 2, 1,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, { 0, 0, 0, 0, 0, 0, 0, 0, 0 }, "raid0" },
	{ "1", "raid1", 1, 1, 2, 0,
	  { 0, 1, 1, 1, 1, 1, 1, 1, 1 }, { 0, 0, 1, 2, 3, 4, 5, 6, 7 }, "raid1" },
	{ "4", "raid4", 4, 1, 2, 1,
	  { 0, 1, 1, 2, 3, 4, 5, 6, 7 }, { 0, 0, 1, 1, 1, 1, 1, 1, 1 }, "raid456" },
	{ "5", "raid5", 5, 1, 2, 1,
	  { 0, 1, 1, 2, 3, 4, 5, 6, 7 }, { 0, 0, 1, 1, 1, 1, 1, 1, 1 }, "raid456" },
	{ "6", "raid6", 6, 1, 4, 1,
	  { 0, 1, 1, 1, 2, 3, 4, 5, 6 }, { 0, 0, 0, 0, 2, 2, 2, 2, 2 }, "raid456" },
	/* md's optimal I/O size: n / near copies when that divides evenly, else n */
	{ "10", "raid10", 10, 1, 2, 1,
	  { 0, 1, 1, 3, 2, 5, 3, 7, 4 }, { 0, 0, 1, 1, 2, 2, 3, 3, 4 }, "raid10" },
};

#define NROWS (sizeof rows / sizeof rows[0])

/* Parses one array section (extra: more keys, may be "") with the usual fs and workload. */
static int parse_array(const struct level_case *r, int devices, const char *extra)
{
	char text[1024], dev[32] = "";
	if (devices)
		snprintf(dev, sizeof dev, "devices = %d\n", devices);
	snprintf(text, sizeof text, "[array a]\nlevel = %s\n%s%s" TAIL, r->key, dev, extra);
	return plan_parse("t.ini", text, strlen(text), &p);
}

/* The spelling, the number and the name. */
static void test_names(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		CHECK(parse_array(r, r->md ? r->min_devices : 0, "") == 0, "%s: %s", r->key,
		      p.errors[0]);
		CHECK_INT(p.arrays[0].level, r->level);
		CHECK_STR(level_name(r->level), r->name);
		CHECK_INT(p.arrays[0].devices, r->min_devices);
	}
	CHECK_STR(level_name(3), "unknown");
	CHECK_STR(level_name(-2), "unknown");
}

/* The table itself: the same rows, in the same order, and the rules read straight from it. */
static void test_table(void)
{
	size_t n = 0;
	char keys[256];
	/* md's rows and none; btrfs's own profiles follow them (test_btrfs.c) */
	for (const struct md_level *l = md_levels; l->key && !l->profile; l++, n++) {
		const struct level_case *r = &rows[n < NROWS ? n : NROWS - 1];
		CHECK(n < NROWS, "table row %zu (%s) not in the test", n, l->key);
		CHECK_STR(l->key, r->key);
		CHECK_STR(l->name, r->name);
		CHECK_INT(l->level, r->level);
		CHECK_INT(l->md, r->md);
		CHECK_INT(l->min_devices, r->min_devices);
		CHECK_INT(l->striped, r->striped);
		CHECK(r->module ? l->module && strcmp(l->module, r->module) == 0 : !l->module,
		      "%s: module %s", r->key, l->module ? l->module : "none");
		CHECK(level_find(r->level) == l, "%s: level_find", r->key);
		CHECK(level_by_key(r->key) == l, "%s: level_by_key", r->key);
		for (int d = r->min_devices; d <= NMAX; d++) {
			CHECK_INT(level_max_missing(r->level, d), r->max_missing[d]);
			for (int miss = 0; miss <= d; miss++)
				CHECK_INT(level_resyncs(r->level, d, miss), miss < r->max_missing[d]);
		}
	}
	CHECK_INT(n, NROWS);
	CHECK(level_by_key("raid5") == NULL && level_by_key("") == NULL && level_by_key("7") == NULL,
	      "keys are only the table's");
	CHECK_INT(level_find(7)->md, 0);
	level_keys_text(keys, sizeof keys, "");
	CHECK_STR(keys, "none, 0, 1, 4, 5, 6, 10, btrfs-single, btrfs-raid0, btrfs-raid1, "
		  "btrfs-raid1c3, btrfs-raid10, btrfs-raid5, btrfs-raid6, lvm-linear, lvm-striped, "
		  "lvm-raid1, lvm-raid5, lvm-raid6 or lvm-raid10");
	level_keys_text(keys, 10, "");
	CHECK_STR(keys, "none, 0, ");
	level_keys_text(keys, sizeof keys, "lvm-");
	CHECK_STR(keys, "lvm-linear, lvm-striped, lvm-raid1, lvm-raid5, lvm-raid6 or lvm-raid10");
}

/* The modules a plan's arrays need: each once, in the order they always loaded in. */
static void test_modules(void)
{
	static const struct {
		int n, levels[4];
		const char *want;
	} mods[] = {
		{ 0, { 0 }, "" },
		{ 1, { LEVEL_NONE }, "" },
		{ 1, { 6 }, "raid456" },
		{ 3, { 4, 5, 6 }, "raid456" },
		{ 4, { 10, 1, 0, LEVEL_NONE }, "raid0 raid1 raid10" },
		{ 4, { 5, 10, 1, 0 }, "raid0 raid1 raid10 raid456" },
		{ 4, { 6, 6, 10, 10 }, "raid10 raid456" },
		{ 2, { 1, 1 }, "raid1" },
	};
	for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
		const char *names[8];
		char got[128] = "";
		int n = level_modules(mods[i].levels, mods[i].n, names, 8);
		for (int k = 0; k < n; k++)
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? " " : "",
				 names[k]);
		CHECK(strcmp(got, mods[i].want) == 0, "case %zu: got \"%s\", want \"%s\"", i, got,
		      mods[i].want);
	}
	const char *names[1];
	static const int two[] = { 0, 1 };
	CHECK_INT(level_modules(two, 2, names, 1), 1);
	CHECK_STR(names[0], "raid0");
}

/* The fewest members, and the message one too few gives. */
static void test_min_devices(void)
{
	char want[256];
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		if (!r->md)
			continue;
		CHECK(parse_array(r, r->min_devices, "") == 0, "%s: %s", r->key, p.errors[0]);
		CHECK_INT(parse_array(r, r->min_devices - 1, ""), -1);
		snprintf(want, sizeof want, "t.ini:3: [array a]: %s needs at least %d devices, plan "
			 "gives %d", r->name, r->min_devices, r->min_devices - 1);
		CHECK_STR(p.errors[0], want);
	}
	/* none is one disk, whatever else a plan says. */
	CHECK_INT(parse_array(&rows[0], 1, ""), 0);
	CHECK_INT(parse_array(&rows[0], 2, ""), -1);
	CHECK_STR(p.errors[0], "t.ini:3: [array a]: level none is one disk: devices = 1");
}

/* Which array keys a level takes: md keys for every md level, chunk for striped ones. */
static void test_keys(void)
{
	static const struct { const char *text; int striped_only; } keys[] = {
		{ "missing = 0\n", 0 }, { "layout = x\n", 0 }, { "bitmap = none\n", 0 },
		{ "options = --name x\n", 0 }, { "chunk = 64k\n", 1 },
	};
	char want[256], name[32];
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		snprintf(name, sizeof name, "%s", r->md ? r->name : "level none");
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			int applies = keys[k].striped_only ? r->striped : r->md;
			int line = r->md ? 4 : 3;
			int rc = parse_array(r, r->md ? r->min_devices : 0, keys[k].text);
			CHECK(rc == (applies ? 0 : -1), "%s with %s", r->key, keys[k].text);
			if (applies || rc == 0)
				continue;
			snprintf(want, sizeof want, "t.ini:%d: [array a]: \"%.*s\" does not apply to %s",
				 line, (int)strcspn(keys[k].text, " "), keys[k].text, name);
			CHECK_STR(p.errors[0], want);
		}
	}
}

/* How many members may be missing, and the message one more gives. */
static void test_max_missing(void)
{
	char extra[64], want[256];
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		for (int n = r->min_devices; r->md && n <= NMAX; n++) {
			int max = r->max_missing[n];
			snprintf(extra, sizeof extra, "missing = %d\n", max);
			CHECK(parse_array(r, n, extra) == 0, "%s x %d missing %d: %s", r->key, n, max,
			      p.errors[0]);
			CHECK_INT(plan_array_disks(&p.arrays[0]), n - max);
			snprintf(extra, sizeof extra, "missing = %d\n", max + 1);
			CHECK_INT(parse_array(r, n, extra), -1);
			if (max == 0)
				snprintf(want, sizeof want, "t.ini:4: [array a]: %s cannot run with "
					 "missing members", r->name);
			else
				snprintf(want, sizeof want, "t.ini:4: [array a]: %s over %d devices runs "
					 "with at most %d missing, plan gives %d", r->name, n, max,
					 max + 1);
			CHECK_STR(p.errors[0], want);
		}
	}
	CHECK_INT(parse_array(&rows[0], 0, ""), 0);
	CHECK_INT(plan_array_disks(&p.arrays[0]), 1);
}

/* raid10's layouts as md counts them (raid10_nr_stripes): the near copies divide the
 * members when they can; far and offset copies never do. */
static void test_raid10_layouts(void)
{
	static const struct {
		const char *layout;
		int devices, data;
	} rows[] = {
		{ "", 4, 2 }, { "n2", 4, 2 }, { "n2", 5, 5 }, { "", 31, 31 }, { "n3", 31, 31 },
		{ "n3", 6, 2 }, { "f2", 4, 4 }, { "f3", 31, 31 }, { "o2", 4, 4 }, { "o3", 31, 31 },
		{ "n4", 8, 2 }, { "f2", 3, 3 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct geometry g;
		int got = geom_data_disks(10, rows[i].devices, rows[i].layout);
		CHECK(got == rows[i].data, "raid10 %s x %d: %d data disks, want %d",
		      rows[i].layout, rows[i].devices, got, rows[i].data);
		geom_derive(10, rows[i].devices, rows[i].layout, 16384, 4096, &g);
		CHECK_INT(g.stripe_width, 4 * rows[i].data);
	}
	/* raid5's layouts move parity, not data */
	CHECK_INT(geom_data_disks(5, 4, "left-symmetric"), 3);
}

/* Data disks over any member count, and whether a chunk makes a stripe geometry. */
static void test_geometry(void)
{
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		for (int n = 1; n <= NMAX; n++) {
			struct geometry g;
			CHECK(geom_data_disks(r->level, n, "") == r->data[n], "%s x %d: %d data disks",
			      r->key, n, geom_data_disks(r->level, n, ""));
			geom_derive(r->level, n, "", 65536, 4096, &g);
			CHECK(g.valid == r->striped && g.data_disks == r->data[n],
			      "%s x %d: valid %d data %d", r->key, n, g.valid, g.data_disks);
			geom_derive(r->level, n, "", 0, 4096, &g);
			CHECK_INT(g.valid, 0);
		}
	}
}

/* mdadm's argv for one array, joined; "" for none. */
static int mdadm_line(const struct level_case *r, int n, int missing, const char *global,
		      char *line, size_t len)
{
	char text[1024];
	struct cell c;
	struct argv a;
	char err[256];
	snprintf(text, sizeof text, "%s[array a]\nlevel = %s\ndevices = %d\nmissing = %d\n" TAIL,
		 global, r->key, n, missing);
	if (!r->md)
		snprintf(text, sizeof text, "%s[array a]\nlevel = none\n" TAIL, global);
	if (plan_parse("t.ini", text, strlen(text), &p) < 0 || matrix_cell(&p, 0, &c) < 0)
		return -1;
	if (cell_mdadm_argv(&p, &c, "/dev/md0", disks, NMAX, &a, err, sizeof err) < 0)
		return -1;
	argv_join(&a, line, len);
	return 0;
}

/* Which member slots are "missing": the last ones, or the second of each raid10 pair. */
static const struct slot_case {
	int row, devices, missing;
	const char *members;
} slots[] = {
	{ 1, 2, 0, "/dev/vdb /dev/vdc" },
	{ 2, 2, 1, "/dev/vdb missing" },
	{ 2, 4, 3, "/dev/vdb missing missing missing" },
	{ 3, 3, 1, "/dev/vdb /dev/vdc missing" },
	{ 4, 5, 1, "/dev/vdb /dev/vdc /dev/vdd /dev/vde missing" },
	{ 5, 4, 2, "/dev/vdb /dev/vdc missing missing" },
	{ 5, 5, 1, "/dev/vdb /dev/vdc /dev/vdd /dev/vde missing" },
	{ 6, 4, 1, "/dev/vdb missing /dev/vdc /dev/vdd" },
	{ 6, 4, 2, "/dev/vdb missing /dev/vdc missing" },
	{ 6, 5, 2, "/dev/vdb missing /dev/vdc missing /dev/vdd" },
	{ 6, 6, 3, "/dev/vdb missing /dev/vdc missing /dev/vdd missing" },
	{ 6, 3, 1, "/dev/vdb missing /dev/vdc" },
};

static void test_mdadm(void)
{
	char line[1024], want[1024];
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
		const struct slot_case *s = &slots[i];
		const struct level_case *r = &rows[s->row];
		CHECK_INT(mdadm_line(r, s->devices, s->missing, "", line, sizeof line), 0);
		/* every level but raid0 keeps redundancy, and gets no bitmap unless asked */
		snprintf(want, sizeof want, "mdadm --create /dev/md0 --run --metadata=1.2 --level=%d "
			 "--raid-devices=%d %s%s", r->level, s->devices,
			 r->level == 0 ? "" : "--bitmap=none ", s->members);
		CHECK(strcmp(line, want) == 0, "case %zu:\n  got  %s\n  want %s", i, line, want);
		/* The same slots, straight from the table's rule. */
		char pattern[256] = "";
		for (int slot = 0, d = 0; slot < s->devices; slot++) {
			int gone = level_slot_missing(r->level, s->devices, s->missing, slot);
			snprintf(pattern + strlen(pattern), sizeof pattern - strlen(pattern), "%s%s",
				 slot ? " " : "", gone ? "missing" : disks[d++]);
		}
		CHECK_STR(pattern, s->members);
	}
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		CHECK_INT(mdadm_line(r, r->min_devices, 0, "", line, sizeof line), 0);
		CHECK(r->md ? strstr(line, "mdadm --create") == line : !line[0], "%s: %s", r->key,
		      line);
		const char *dev = cell_target(&p, &(struct cell){ 0 }, "/dev/md0", disks);
		CHECK_STR(dev, r->md ? "/dev/md0" : "/dev/vdb");
	}
}

/* md resyncs at create while fewer members are missing than the level can lose. */
static void test_resync(void)
{
	struct estimate_model m;
	char line[1024];
	estimate_model_default(&m);
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		for (int n = r->min_devices; n <= (r->md ? NMAX : 1); n++)
			for (int miss = 0; miss <= r->max_missing[n]; miss++) {
				double rs = -1, rs_clean = -1;
				struct cell c;
				CHECK_INT(mdadm_line(r, n, miss, "", line, sizeof line), 0);
				matrix_cell(&p, 0, &c);
				cell_estimate(&p, &c, &m, &rs);
				CHECK((rs > 0) == (miss < r->max_missing[n]), "%s x %d missing %d: "
				      "resync %g s", r->key, n, miss, rs);
				CHECK_INT(mdadm_line(r, n, miss, "[global]\nresync = assume-clean\n",
						     line, sizeof line), 0);
				cell_estimate(&p, &c, &m, &rs_clean);
				CHECK(rs_clean == 0, "%s x %d assume-clean: resync %g s", r->key, n,
				      rs_clean);
				CHECK(!r->md || strstr(line, " --assume-clean "), "%s: %s", r->key, line);
			}
	}
}

/* The geometry line of `fsmatrix check`: names the level, and says why nothing is derived. */
struct lines {
	int n;
	char geometry[512];
};

static void collect(void *ctx, const char *line)
{
	struct lines *l = ctx;
	l->n++;
	if (strncmp(line, "  geometry ", 11) == 0)
		snprintf(l->geometry, sizeof l->geometry, "%s", line);
}

static void test_show(void)
{
	struct estimate_model m;
	char line[1024], want[512];
	estimate_model_default(&m);
	for (size_t i = 0; i < NROWS; i++) {
		const struct level_case *r = &rows[i];
		struct lines l = { 0 };
		struct cell c;
		double total = 0;
		int nwarn = 0;
		CHECK_INT(mdadm_line(r, r->min_devices, 0, "", line, sizeof line), 0);
		matrix_cell(&p, 0, &c);
		CHECK_INT(cell_show(&p, &c, disks, NMAX, &m, &total, &nwarn, collect, &l), 0);
		snprintf(want, sizeof want, "  geometry  %s: none derived%s", r->name,
			 r->striped ? " (no chunk in the plan: mkfs reads md's own from the kernel)"
				    : " (no striping)");
		CHECK_STR(l.geometry, want);
	}
}

int main(void)
{
	test_table();
	test_modules();
	test_names();
	test_min_devices();
	test_keys();
	test_max_missing();
	test_geometry();
	test_raid10_layouts();
	test_mdadm();
	test_resync();
	test_show();
	return check_done("test_level");
}
