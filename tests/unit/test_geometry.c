/* test_geometry.c: stripe geometry for every level, merging into plan mkfs options, and the
 * exact mdadm, mkfs, tune2fs and mount(2) arguments a cell runs. */
#include "check.h"
#include "lib/argv.h"
#include "core/command/cellcmd.h"
#include "core/command/geometry.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <sys/mount.h>

static struct plan p;

static const struct geo_case {
	int level, devices;
	uint64_t chunk;
	unsigned block;
	int valid, data_disks;
	unsigned stride, width;
} geo[] = {
	{ LEVEL_NONE, 1, 0, 0, 0, 1, 0, 0 },
	{ LEVEL_NONE, 1, 65536, 4096, 0, 1, 0, 0 },   /* no striping, whatever the chunk */
	{ 1, 2, 0, 0, 0, 1, 0, 0 },
	{ 1, 3, 65536, 4096, 0, 1, 0, 0 },
	{ 0, 2, 65536, 4096, 1, 2, 16, 32 },
	{ 0, 4, 16384, 0, 1, 4, 4, 16 },               /* block 0: the default 4096 */
	{ 4, 3, 65536, 4096, 1, 2, 16, 32 },
	{ 5, 2, 16384, 4096, 1, 1, 4, 4 },
	{ 5, 3, 65536, 4096, 1, 2, 16, 32 },
	{ 5, 5, 524288, 4096, 1, 4, 128, 512 },
	{ 5, 3, 65536, 1024, 1, 2, 64, 128 },          /* 1k blocks: four times the stride */
	{ 6, 4, 16384, 4096, 1, 2, 4, 8 },             /* the degraded raid6: missing count */
	{ 6, 6, 65536, 4096, 1, 4, 16, 64 },
	{ 10, 4, 65536, 4096, 1, 2, 16, 32 },
	{ 10, 2, 65536, 4096, 1, 1, 16, 16 },
	{ 10, 3, 65536, 4096, 1, 3, 16, 48 },          /* odd near-2: every member, as md says */
	{ 5, 3, 0, 4096, 0, 2, 0, 0 },                 /* no chunk: mkfs asks the kernel */
	{ 0, 2, 2048, 4096, 1, 2, 1, 2 },              /* chunk below a block: stride 1 */
};

static void test_derive(void)
{
	for (size_t i = 0; i < sizeof geo / sizeof geo[0]; i++) {
		const struct geo_case *t = &geo[i];
		struct geometry g;
		geom_derive(t->level, t->devices, "", t->chunk, t->block, &g);
		CHECK(g.valid == t->valid && g.data_disks == t->data_disks &&
		      g.stride == t->stride && g.stripe_width == t->width,
		      "case %zu (level %d x %d): valid %d data %d stride %u width %u", i,
		      t->level, t->devices, g.valid, g.data_disks, g.stride, g.stripe_width);
	}
}

static const struct ext_case {
	int level, devices;
	uint64_t chunk;
	int ext4;
	const char *plan_e, *want;
	int nwarn;
	const char *warn;
} ext[] = {
	{ 6, 4, 16384, 1, "", "stride=4,stripe_width=8,lazy_itable_init=0,lazy_journal_init=0", 0,
	  NULL },
	{ 6, 4, 16384, 0, "", "stride=4,stripe_width=8", 0, NULL },
	{ 1, 2, 0, 0, "", "", 0, NULL },
	{ 1, 2, 0, 1, "", "lazy_itable_init=0,lazy_journal_init=0", 0, NULL },
	/* The plan's values win and come first; only missing ones are added. */
	{ 6, 4, 16384, 1, "lazy_itable_init=1", "lazy_itable_init=1,stride=4,stripe_width=8,"
	  "lazy_journal_init=0", 0, NULL },
	{ 5, 3, 65536, 0, "discard,,stride=16", "discard,stride=16,stripe_width=32", 0, NULL },
	{ 6, 4, 16384, 0, "stride=2", "stride=2,stripe_width=4", 1,
	  "plan gives stride=2 but a 16k chunk with 4096-byte blocks gives stride=4" },
	{ 6, 4, 16384, 0, "stripe-width=16", "stripe-width=16,stride=4", 1,
	  "plan gives stripe_width=16 but stride 4 over 2 data disks gives stripe_width=8" },
	{ 0, 2, 65536, 0, "stride=16,stripe_width=32", "stride=16,stripe_width=32", 0, NULL },
};

static void test_ext(void)
{
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		const struct ext_case *t = &ext[i];
		struct geometry g;
		struct warnings w = { 0 };
		char out[256];
		geom_derive(t->level, t->devices, "", t->chunk, 4096, &g);
		CHECK_INT(geom_ext_extended(&g, t->ext4, t->plan_e, out, sizeof out, &w), 0);
		CHECK(strcmp(out, t->want) == 0, "case %zu: got %s, want %s", i, out, t->want);
		CHECK(w.n == t->nwarn, "case %zu: %d warnings", i, w.n);
		if (t->warn && w.n)
			CHECK_STR(w.msg[0], t->warn);
	}
	struct geometry g;
	struct warnings w = { 0 };
	char small[10];
	geom_derive(6, 4, "", 16384, 4096, &g);
	CHECK_INT(geom_ext_extended(&g, 1, "", small, sizeof small, &w), -1);
}

static const struct xfs_case {
	int level, devices;
	uint64_t chunk;
	const char *plan_d, *want;
	int nwarn;
	const char *warn;
} xfs[] = {
	{ 6, 4, 16384, "", "su=16k,sw=2", 0, NULL },
	{ 5, 3, 65536, "agcount=4", "agcount=4,su=64k,sw=2", 0, NULL },
	{ 10, 4, 524288, "", "su=512k,sw=2", 0, NULL },
	{ LEVEL_NONE, 1, 0, "", "", 0, NULL },
	{ 1, 2, 0, "agcount=8", "agcount=8", 0, NULL },
	{ 5, 3, 65536, "su=64k,sw=2", "su=64k,sw=2", 0, NULL },
	{ 5, 3, 65536, "su=32k,sw=2", "su=32k,sw=2", 1,
	  "plan gives su=32k but the array's chunk is 64k" },
	{ 5, 3, 65536, "su=64k,sw=4", "su=64k,sw=4", 1,
	  "plan gives sw=4 but the array has 2 data disks" },
	{ 5, 3, 65536, "sunit=128,swidth=256", "sunit=128,swidth=256", 0, NULL },
	{ 5, 3, 65536, "sunit=64,swidth=128", "sunit=64,swidth=128", 2,
	  "plan gives sunit=64 but a 64k chunk is sunit=128" },
};

static void test_xfs(void)
{
	for (size_t i = 0; i < sizeof xfs / sizeof xfs[0]; i++) {
		const struct xfs_case *t = &xfs[i];
		struct geometry g;
		struct warnings w = { 0 };
		char out[256];
		geom_derive(t->level, t->devices, "", t->chunk, 0, &g);
		CHECK_INT(geom_xfs_data(&g, t->plan_d, out, sizeof out, &w), 0);
		CHECK(strcmp(out, t->want) == 0, "case %zu: got %s, want %s", i, out, t->want);
		CHECK(w.n == t->nwarn, "case %zu: %d warnings", i, w.n);
		if (t->warn && w.n)
			CHECK_STR(w.msg[0], t->warn);
	}
}

/* ------------------------------------------------------------------ whole cells */

static const char *const disks[] = { "/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde" };

static const struct cell_case {
	const char *plan;       /* one array, one fs, one workload */
	const char *mdadm, *mkfs, *tune;
	const char *warn;       /* the first warning, or NULL for none */
} cells[] = {
	/* The cell. */
	{ "[array md6]\nlevel = 6\ndevices = 4\nmissing = 2\nchunk = 16k\n"
	  "[fs ext3]\ntype = ext3\nmkfs = -b 4096 -m 2\ntune = -c0 -i0\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=6 --raid-devices=4 --chunk=16K "
	  "--bitmap=none /dev/vdb /dev/vdc missing missing",
	  "mkfs.ext3 -F -b 4096 -m 2 -E stride=4,stripe_width=8 /dev/md0",
	  "tune2fs -c0 -i0 /dev/md0", NULL },
	{ "[array md6]\nlevel = 6\ndevices = 4\nmissing = 2\nchunk = 16k\n"
	  "[fs ext4]\ntype = ext4\nmkfs = -b 4096 -m 2\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=6 --raid-devices=4 --chunk=16K "
	  "--bitmap=none /dev/vdb /dev/vdc missing missing",
	  "mkfs.ext4 -F -b 4096 -m 2 -E stride=4,stripe_width=8,lazy_itable_init=0,"
	  "lazy_journal_init=0 /dev/md0", "", NULL },
	/* No -b in the plan: the block size the stride assumes is written out. */
	{ "[global]\nresync = assume-clean\n"
	  "[array r5]\nlevel = 5\ndevices = 3\nchunk = 64k\nlayout = left-symmetric\n"
	  "bitmap = none\noptions = --name \"bench one\"\n[fs e]\ntype = ext4\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=5 --raid-devices=3 --chunk=64K "
	  "--layout=left-symmetric --bitmap=none --assume-clean --name \"bench one\" /dev/vdb "
	  "/dev/vdc /dev/vdd",
	  "mkfs.ext4 -F -b 4096 -E stride=16,stripe_width=32,lazy_itable_init=0,"
	  "lazy_journal_init=0 /dev/md0", "", NULL },
	/* raid10 near-2: the second of each mirror pair goes missing, never a whole pair. */
	{ "[array r10]\nlevel = 10\ndevices = 4\nmissing = 2\nchunk = 512k\n[fs x]\ntype = xfs\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=10 --raid-devices=4 --chunk=512K "
	  "--bitmap=none /dev/vdb missing /dev/vdc missing",
	  "mkfs.xfs -f -d su=512k,sw=2 /dev/md0", "", NULL },
	{ "[array r10]\nlevel = 10\ndevices = 4\nmissing = 1\n[fs x]\ntype = xfs\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=10 --raid-devices=4 --bitmap=none "
	  "/dev/vdb missing /dev/vdc /dev/vdd",
	  "mkfs.xfs -f /dev/md0", "", NULL },
	{ "[array r1]\nlevel = 1\ndevices = 3\nmissing = 1\n[fs e]\ntype = ext2\nmkfs = -F -b1024\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=3 --bitmap=none "
	  "/dev/vdb /dev/vdc missing",
	  "mkfs.ext2 -F -b1024 /dev/md0", "", NULL },
	/* discard = no: mke2fs -E nodiscard, mkfs.xfs -K */
	{ "[global]\ndiscard = no\n[array r0]\nlevel = 0\ndevices = 2\nchunk = 64k\n"
	  "[fs e]\ntype = ext4\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=64K "
	  "/dev/vdb /dev/vdc",
	  "mkfs.ext4 -F -b 4096 -E nodiscard,stride=16,stripe_width=32,lazy_itable_init=0,"
	  "lazy_journal_init=0 /dev/md0", "", NULL },
	{ "[global]\ndiscard = no\n[array r0]\nlevel = 0\ndevices = 2\nchunk = 64k\n"
	  "[fs x]\ntype = xfs\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=64K "
	  "/dev/vdb /dev/vdc",
	  "mkfs.xfs -f -K -d su=64k,sw=2 /dev/md0", "", NULL },
	/* bitmap = auto: mdadm's own rule (a bitmap for members of 100 GB or more). */
	{ "[array r1]\nlevel = 1\ndevices = 2\nbitmap = auto\n[fs e]\ntype = ext2\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=2 /dev/vdb "
	  "/dev/vdc",
	  "mkfs.ext2 -F /dev/md0", "", NULL },
	{ "[array r0]\nlevel = 0\ndevices = 4\nchunk = 64k\n[fs e]\ntype = ext2\n"
	  "mkfs = -b 1024 -E stride=16\n",
	  "mdadm --create /dev/md0 --run --metadata=1.2 --level=0 --raid-devices=4 --chunk=64K "
	  "/dev/vdb /dev/vdc /dev/vdd /dev/vde",
	  "mkfs.ext2 -F -b 1024 -E stride=16,stripe_width=64 /dev/md0", "",
	  "plan gives stride=16 but a 64k chunk with 1024-byte blocks gives stride=64" },
	{ "[array disk]\nlevel = none\n[fs x]\ntype = xfs\nmkfs = -f -dagcount=2 -L \"a b\"\n",
	  "", "mkfs.xfs -f -L \"a b\" -d agcount=2 /dev/vdb", "", NULL },
	{ "[array disk]\nlevel = none\n[fs e]\ntype = ext4\ntune = -O ^has_journal\n",
	  "", "mkfs.ext4 -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/vdb",
	  "tune2fs -O ^has_journal /dev/vdb", NULL },
};

static void test_cells(void)
{
	for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
		const struct cell_case *t = &cells[i];
		char text[1024], line[1024], err[256] = "";
		struct cell c;
		struct argv a;
		struct geometry g;
		struct warnings w = { 0 };

		snprintf(text, sizeof text, "%s[workload w]\ntype = seqwrite\nsize = 1m\n", t->plan);
		if (plan_parse("c.ini", text, strlen(text), &p) < 0) {
			CHECK(0, "case %zu: %s", i, p.errors[0]);
			continue;
		}
		CHECK_INT(matrix_cell(&p, 0, &c), 0);
		CHECK_INT(cell_mdadm_argv(&p, &c, "/dev/md0", disks, 4, &a, err, sizeof err), 0);
		argv_join(&a, line, sizeof line);
		CHECK(strcmp(line, t->mdadm) == 0, "case %zu mdadm:\n  got  %s\n  want %s", i, line,
		      t->mdadm);
		const char *dev = cell_target(&p, &c, "/dev/md0", disks);
		CHECK_INT(cell_mkfs_argv(&p, &c, dev, &a, &g, &w, err, sizeof err), 0);
		argv_join(&a, line, sizeof line);
		CHECK(strcmp(line, t->mkfs) == 0, "case %zu mkfs:\n  got  %s\n  want %s", i, line,
		      t->mkfs);
		CHECK(a.v[a.n] == NULL, "case %zu: argv not NULL-terminated", i);
		CHECK_INT(cell_tune_argv(&p, &c, dev, &a, err, sizeof err), 0);
		argv_join(&a, line, sizeof line);
		CHECK(strcmp(line, t->tune) == 0, "case %zu tune:\n  got  %s\n  want %s", i, line,
		      t->tune);
		CHECK(w.n == (t->warn != NULL), "case %zu: %d warnings", i, w.n);
		if (t->warn && w.n)
			CHECK_STR(w.msg[0], t->warn);
	}

	/* Too few disks for the array is an error naming it, not a short mdadm line. */
	static const char three[] = "[array r5]\nlevel = 5\ndevices = 3\n[fs e]\ntype = ext4\n"
		"[workload w]\ntype = seqwrite\nsize = 1m\n";
	struct cell c;
	struct argv a;
	char err[256];
	CHECK_INT(plan_parse("c.ini", three, strlen(three), &p), 0);
	matrix_cell(&p, 0, &c);
	CHECK_INT(cell_mdadm_argv(&p, &c, "/dev/md0", disks, 2, &a, err, sizeof err), -1);
	CHECK_STR(err, "[array r5] needs 3 test disks, 2 taken");
}

/* Whether a cell runs with the disks at hand, and the reason it is skipped: the one decision
 * PID 1 records and `fsmatrix check` and the dry run show. */
static void test_skip(void)
{
	static const struct {
		const char *array;
		int need, have, gone;
		const char *lost, *why;   /* why NULL: the cell runs */
	} rows[] = {
		{ "a", 3, 2, 0, "", "[array a] needs 3 test disks, 2 taken" },
		{ "a", 1, 0, 0, "", "[array a] needs 1 test disk, 0 taken" },
		{ "r1", 2, 1, 1, "vdc", "[array r1] needs 2 test disks, 1 remain (gone: vdc)" },
		{ "r6", 4, 2, 2, "vdc, vde", "[array r6] needs 4 test disks, 2 remain (gone: vdc, vde)" },
		{ "a", 2, 2, 0, "", NULL },
		{ "a", 2, 5, 1, "vdb", NULL },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char why[256] = "";
		int rc = cell_skip_reason(rows[i].array, rows[i].need, rows[i].have, rows[i].gone,
					  rows[i].lost, why, sizeof why);
		CHECK(rc == (rows[i].why ? -1 : 0), "row %zu: rc %d", i, rc);
		if (rows[i].why)
			CHECK_STR(why, rows[i].why);
	}
}

static void test_argv(void)
{
	static const struct { const char *in, *joined; int n, rc; } split[] = {
		{ "", "", 0, 0 },
		{ "  -b 4096\t-m 2 ", "-b 4096 -m 2", 4, 0 },
		{ "-L \"my label\"", "-L \"my label\"", 2, 0 },
		{ "a\"b c\"d", "\"ab cd\"", 1, 0 },
		{ "\"\"", "\"\"", 1, 0 },
		{ "\"say \\\"hi\\\"\"", "\"say \\\"hi\\\"\"", 1, 0 },
		{ "-O ^has_journal", "-O ^has_journal", 2, 0 },
		{ "\"open", "", 0, -1 },
	};
	for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
		struct argv a;
		char err[64] = "", line[256];
		argv_init(&a);
		int rc = argv_split(&a, split[i].in, err, sizeof err);
		CHECK(rc == split[i].rc, "case %zu: rc %d (%s)", i, rc, err);
		if (rc)
			continue;
		CHECK_INT(a.n, split[i].n);
		argv_join(&a, line, sizeof line);
		CHECK_STR(line, split[i].joined);
	}
	struct argv a;
	char err[64];
	argv_init(&a);
	for (int i = 0; i < ARGV_MAX; i++)
		argv_add(&a, "x");
	CHECK_INT(a.overflow, 0);
	CHECK_INT(argv_split(&a, "y", err, sizeof err), -1);
	CHECK_STR(err, "too many words (at most 64)");
	/* join reports the length it needed, and cuts short safely. */
	char tiny[5];
	argv_init(&a);
	argv_add(&a, "mkfs.ext4");
	CHECK_INT(argv_join(&a, tiny, sizeof tiny), 9);
	CHECK_STR(tiny, "mkfs");
}

static void test_mount(void)
{
	static const struct {
		const char *opts;
		unsigned long flags;
		const char *data, *names;
	} m[] = {
		{ "defaults", 0, "", "" },
		{ "data=ordered,barrier=1,commit=4", 0, "data=ordered,barrier=1,commit=4", "" },
		{ "noatime,data=writeback,commit=30", MS_NOATIME, "data=writeback,commit=30",
		  "noatime" },
		{ "ro,nodiratime,,nobh,sync", MS_RDONLY | MS_NODIRATIME | MS_SYNCHRONOUS, "nobh",
		  "ro,sync,nodiratime" },
		{ "ro,rw,noexec,exec,lazytime", MS_LAZYTIME, "", "lazytime" },
		{ "relatime,logbsize=256k,defaults", MS_RELATIME, "logbsize=256k", "relatime" },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		unsigned long flags;
		char data[256], names[128];
		CHECK_INT(mount_opts_split(m[i].opts, &flags, data, sizeof data), 0);
		CHECK(flags == m[i].flags, "case %zu: flags %#lx, want %#lx", i, flags, m[i].flags);
		CHECK_STR(data, m[i].data);
		mount_flags_names(flags, names, sizeof names);
		CHECK_STR(names, m[i].names);
	}
	unsigned long flags;
	char small[8];
	CHECK_INT(mount_opts_split("data=writeback", &flags, small, sizeof small), -1);
}

static void test_estimate(void)
{
	struct estimate_model m;
	struct cell c;
	double rs;

	estimate_model_default(&m);
	CHECK_INT(plan_load("rootfs/plans/raid6-degraded-ext3-vs-ext4.ini", &p), 0);
	matrix_cell(&p, 1, &c);   /* dd: 1g */
	double t = cell_estimate(&p, &c, &m, &rs);
	CHECK(rs == 0, "a raid6 with 2 of 4 missing has nothing to resync: %g", rs);
	CHECK(t > 1024 / m.write_mbps && t < 1024 / m.write_mbps + 15, "estimate %g", t);

	static const char r5[] = "[array r5]\nlevel = 5\ndevices = 3\n[fs e]\ntype = xfs\n"
		"[workload w]\ntype = seqwrite\nsize = 1m\n";
	CHECK_INT(plan_parse("e.ini", r5, strlen(r5), &p), 0);
	matrix_cell(&p, 0, &c);
	cell_estimate(&p, &c, &m, &rs);
	CHECK(rs > 10, "a healthy raid5 resyncs a member: %g", rs);
	p.resync = RESYNC_ASSUME_CLEAN;
	cell_estimate(&p, &c, &m, &rs);
	CHECK(rs == 0, "assume-clean: %g", rs);
}

int main(void)
{
	test_derive();
	test_ext();
	test_xfs();
	test_cells();
	test_skip();
	test_argv();
	test_mount();
	test_estimate();
	return check_done("test_geometry");
}
