/* test_series.c: the parsers of the sampled counters on real text of kernel 6.1's files, the
 * rows made from two samples, the down-sampling rule (rows stay bounded, bytes still add
 * up, the highest Dirty survives), the record's shape, and stall detection on synthetic
 * series: a stall is found where it is, and none is invented. */
#include "check.h"
#include "core/figures/series.h"
#include <jansson.h>
#include <math.h>

static const char meminfo[] =
	"MemTotal:         997956 kB\nMemFree:          612340 kB\nDirty:             51200 kB\n"
	"Writeback:          2048 kB\nAnonPages:          1024 kB\nWritebackTmp:          0 kB\n";
static const char vmstat[] =
	"nr_free_pages 153085\nnr_dirty 12800\nnr_writeback 512\nnr_dirtied 5908125\n"
	"nr_written 5153500\npgpgout 1234\n";
static const char stat[] =
	"cpu  719906 1454 143981 2789408 7568 0 2873 345 1 0\ncpu0 357031 688 61408 1412996 943 0 397 172 0 0\n";
static const char diskstat[] =
	"    6474        0 15654912    34959       42     2032    32768       24        0    14120    35000"
	"        0        0        0        0       16       15\n";

static void test_parsers(void)
{
	struct sample s = { 0 };
	CHECK_INT(sample_parse_meminfo(meminfo, &s), 0);
	CHECK_INT(s.dirty_kb, 51200);
	CHECK_INT(s.writeback_kb, 2048);   /* not WritebackTmp */
	CHECK_INT(sample_parse_vmstat(vmstat, &s), 0);
	CHECK_INT(s.nr_dirtied, 5908125);
	CHECK_INT(s.nr_written, 5153500);
	CHECK_INT(sample_parse_cpu(stat, &s.cpu), 0);
	CHECK_INT(s.cpu.user, 719906);
	CHECK_INT(s.cpu.iowait, 7568);
	CHECK_INT(s.cpu.steal, 345);
	CHECK_INT(sample_parse_cpu("cpu0 1 2 3 4 5\n", &s.cpu), -1);
	struct diskstat d;
	CHECK_INT(sample_parse_diskstat(diskstat, &d), 0);
	CHECK_INT(d.rd_sectors, 15654912);
	CHECK_INT(d.wr_ios, 42);
	CHECK_INT(d.wr_sectors, 32768);
	CHECK_INT(d.io_ticks_ms, 14120);
	CHECK_INT(sample_parse_diskstat("1 2 3\n", &d), -1);
	CHECK(sample_parse_sync_completed("524288 / 2097152\n") == 0.25, "a quarter");
	CHECK(sample_parse_sync_completed("none\n") == -1, "none");
	CHECK(sample_parse_sync_completed("delayed\n") == -1, "delayed");
	CHECK_INT(sample_parse_loadavg_running("0.00 0.01 0.05 1/123 456\n"), 1);
	CHECK_INT(sample_parse_loadavg_running("2.10 1.00 0.50 12/230 7781\n"), 12);
	CHECK_INT(sample_parse_loadavg_running("0.00 0.01 0.05\n"), -1);
	CHECK_INT(sample_parse_loadavg_running("0.00 0.01 0.05 /123 456\n"), -1);
	struct sample e = { 0 };
	CHECK_INT(sample_parse_meminfo("MemTotal: 1 kB\n", &e), -1);
	CHECK_INT(sample_parse_vmstat("", &e), -1);
}

/* A sample at t seconds with w bytes written to the target and each member so far, dirty
 * KiB and cpu ticks that grow with t. */
static void at(struct sample *s, double t, uint64_t w, uint64_t dirty_kb)
{
	memset(s, 0, sizeof *s);
	s->t = 100 + t;
	s->dirty_kb = dirty_kb;
	s->ndisks = 3;
	for (int d = 0; d < 3; d++) {
		s->disk[d].wr_sectors = w / 512 / (d ? 2 : 1);
		s->disk[d].io_ticks_ms = (uint64_t)(t * 1000 * (d == 2 ? 0.9 : 0.5));
	}
	s->cpu.user = (uint64_t)(t * 100);
	s->cpu.idle = (uint64_t)(t * 300);
	s->sync_frac = -1;
}

static char *const members[] = { "vdb", "vdc", NULL };

static void test_rows(void)
{
	static struct series s;
	struct sample a, b;
	at(&a, 0, 0, 0);
	series_setup(&s, "md0", members, 2, 1, &a);
	static const char *const want[] = {
		"t", "write_mbps", "read_mbps", "util_pct", "dirty_mb", "writeback_mb",
		"dirtied_mbps", "written_mbps", "cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct",
		"vdb:write_mbps", "vdb:util_pct", "vdc:write_mbps", "vdc:util_pct", "sync_pct",
		"sync_mbps",
	};
	CHECK_INT(s.ncols, sizeof want / sizeof want[0]);
	for (int c = 0; c < s.ncols && c < (int)(sizeof want / sizeof want[0]); c++)
		CHECK_STR(s.name[c], want[c]);
	at(&b, 0.5, 10000000, 2048);   /* 10 MB in half a second */
	series_add(&s, &a, &b, 4096);
	CHECK_INT(s.nrows, 1);
	CHECK(fabs(s.v[0] - 0.5) < 1e-9, "t %g", s.v[0]);
	CHECK(fabs(s.v[1] - 20) < 0.01, "write_mbps %g", s.v[1]);   /* sectors round down */
	CHECK(fabs(s.v[4] - 2.097152) < 1e-9, "dirty_mb %g", s.v[4]);
	CHECK(fabs(s.v[8] - 25) < 1e-9, "cpu_user_pct %g", s.v[8]);
	CHECK(fabs(s.v[11] - 10) < 0.01, "vdb:write_mbps %g", s.v[11]);
	CHECK(fabs(s.v[14] - 90) < 1e-9, "vdc:util_pct %g", s.v[14]);
	series_add(&s, &b, &b, 4096);  /* no time passed: no row */
	CHECK_INT(s.nrows, 1);
}

/* Many more intervals than rows: the table halves, stays within its bounds, and the bytes
 * and the peak level survive. */
static void test_downsampling(void)
{
	static struct series s;
	struct sample a, b;
	const int n = 5000;
	uint64_t w = 0;
	at(&a, 0, 0, 0);
	series_setup(&s, "md0", members, 2, 0, &a);
	CHECK(s.rows_max == SERIES_ROWS_MAX, "rows_max %d", s.rows_max);
	for (int i = 1; i <= n; i++) {
		w += (uint64_t)(i % 7) * 4096 * 64;
		at(&b, i * 0.1, w, i == 1234 ? 999999 : 1024);
		series_add(&s, &a, &b, 4096);
		a = b;
	}
	series_finish(&s);
	CHECK(s.nrows <= s.rows_max && s.nrows > s.rows_max / 4, "rows %d", s.nrows);
	CHECK_INT(s.step, 16);     /* 5000 periods: 512 rows of 16 are the first that hold them */
	CHECK_INT(s.intervals, n);
	double bytes = 0, maxd = 0;
	for (int r = 0; r < s.nrows; r++) {
		bytes += s.v[r * s.ncols + 1] * 1e6 * s.dt[r];
		maxd = fmax(maxd, s.v[r * s.ncols + 4]);
	}
	CHECK(fabs(bytes - (double)w) / (double)w < 1e-6, "bytes %g of %g", bytes, (double)w);
	CHECK(fabs(maxd - 999999 * 1024 / 1e6) < 1e-6, "max dirty %g", maxd);
	CHECK(fabs(s.v[(s.nrows - 1) * s.ncols] - n * 0.1) < 1e-6, "last t %g", s.v[(s.nrows - 1) * s.ncols]);
	/* many members: fewer rows, numbers still bounded */
	static char names[SAMPLE_DISKS_MAX][8];
	char *many[SAMPLE_DISKS_MAX];
	for (int i = 0; i < PLAN_DEVICES_MAX; i++) {
		snprintf(names[i], sizeof names[i], "vd%c", 'b' + i % 26);
		many[i] = names[i];
	}
	series_setup(&s, "md0", many, PLAN_DEVICES_MAX, 1, &a);
	CHECK(s.rows_max * s.ncols <= SERIES_VALUES_MAX && s.rows_max >= SERIES_MIN_ROWS,
	      "rows_max %d of %d columns", s.rows_max, s.ncols);
}

/* The record's columns and rows parse back as JSON with one number per column. */
static void test_json(void)
{
	static struct series s;
	static char buf[64 * 1024];
	struct sample a, b;
	at(&a, 0, 0, 0);
	series_setup(&s, "vdb", NULL, 0, 0, &a);
	for (int i = 1; i <= 3; i++) {
		at(&b, i * 0.1, (uint64_t)i << 20, 100);
		series_add(&s, &a, &b, 4096);
		a = b;
	}
	series_finish(&s);
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	jw_obj(&w);
	series_json(&w, &s);
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), 0);
	json_t *j = json_loadb(w.buf, w.len, 0, NULL);
	CHECK(j != NULL, "JSON: %.*s", (int)w.len, w.buf);
	json_t *cols = json_object_get(j, "columns"), *rows = json_object_get(j, "rows");
	CHECK_INT(json_array_size(cols), 11);
	CHECK_INT(json_array_size(rows), 3);
	CHECK_INT(json_array_size(json_array_get(rows, 2)), 11);
	CHECK(json_real_value(json_array_get(json_array_get(rows, 2), 0)) == 0.3, "t");
	json_decref(j);
}

/* Stall detection: rows of 0.1 s unless given. */
static const struct stall_case {
	const char *what;
	int n;
	double write[12], dirty[12];
	double want_s, want_at;
} stalls[] = {
	{ "none while writing", 6, { 5, 5, 5, 5, 5, 5 }, { 50, 50, 50, 50, 50, 50 }, 0, 0 },
	{ "idle with nothing dirty is no stall", 6, { 0, 0, 0, 0, 0, 0 }, { 0, 0.5, 0, 0.9, 0, 0 }, 0, 0 },
	{ "dirty, no write, 0.5 s from 0.2", 10, { 9, 9, 0, 0, 0, 0, 0, 9, 9, 9 },
	  { 40, 40, 40, 40, 40, 40, 40, 40, 0, 0 }, 0.5, 0.2 },
	{ "the longer of two", 12, { 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 3 },
	  { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }, 0.4, 0.3 },
	{ "a write breaks it", 6, { 1, 0, 0, 0.01, 0, 9 }, { 9, 9, 9, 9, 9, 9 }, 0.2, 0.1 },
	{ "filling the cache before writeback starts is no stall", 6, { 0, 0, 0, 0, 0, 0 },
	  { 2, 4, 6, 8, 10, 12 }, 0, 0 },
	{ "filling, then waiting: the wait from 0.3", 6, { 0, 0, 0, 0, 0, 0 },
	  { 2, 4, 6, 6, 6, 5 }, 0.3, 0.3 },
};

static void test_stalls(void)
{
	for (size_t i = 0; i < sizeof stalls / sizeof stalls[0]; i++) {
		const struct stall_case *c = &stalls[i];
		double t[12], at_s;
		for (int k = 0; k < c->n; k++)
			t[k] = 0.1 * (k + 1);
		double s = series_longest_stall(t, c->write, c->dirty, NULL, (size_t)c->n,
						SERIES_STALL_DIRTY_MB, &at_s);
		CHECK(fabs(s - c->want_s) < 1e-9 && fabs(at_s - c->want_at) < 1e-9,
		      "%s: got %g s at %g, want %g s at %g", c->what, s, at_s, c->want_s, c->want_at);
	}
	/* uneven rows (a down-sampled series): lengths come from t */
	double t[] = { 0.1, 0.2, 1.8, 3.4, 3.5 }, w[] = { 1, 0, 0, 1, 0 }, d[] = { 5, 5, 5, 5, 5 }, at_s;
	double s = series_longest_stall(t, w, d, NULL, 5, SERIES_STALL_DIRTY_MB, &at_s);
	CHECK(fabs(s - 1.7) < 1e-9 && fabs(at_s - 0.1) < 1e-9, "uneven: %g at %g", s, at_s);
	/* Writeback alone counts as held */
	double dz[] = { 0, 0, 0, 0, 0 }, wb[] = { 2, 2, 2, 2, 2 };
	s = series_longest_stall(t, w, dz, wb, 5, SERIES_STALL_DIRTY_MB, &at_s);
	CHECK(fabs(s - 1.7) < 1e-9, "writeback: %g", s);
}

static void test_figures(void)
{
	double t[100], w[100], d[100], u1[100], u2[100];
	for (int i = 0; i < 100; i++) {
		t[i] = 0.1 * (i + 1);
		w[i] = i == 50 ? 400 : (i >= 20 && i < 35 ? 0 : 10 + i % 3);
		d[i] = i == 70 ? 123 : 30;
		u1[i] = 40;
		u2[i] = i < 50 ? 100 : 60;
	}
	const double *util[] = { u1, NULL, u2 };
	struct series_figs f;
	series_figures(t, w, d, NULL, util, 3, 100, &f);
	CHECK(f.peak_mbps == 400, "peak %g", f.peak_mbps);
	CHECK(f.p99_mbps == 12, "p99 %g", f.p99_mbps);
	CHECK(fabs(f.stall_s - 1.5) < 1e-9 && fabs(f.stall_at - 2.0) < 1e-9, "stall %g at %g",
	      f.stall_s, f.stall_at);
	CHECK(f.max_dirty_mb == 123, "max dirty %g", f.max_dirty_mb);
	CHECK_INT(f.busiest, 2);
	CHECK(fabs(f.busiest_util_pct - 80) < 1e-9, "busiest %g", f.busiest_util_pct);
	series_figures(t, w, d, NULL, util, 3, 0, &f);
	CHECK_INT(f.busiest, -1);
}

/* SNIA's rule over the last 5 of 10 windows: a flat rate is steady; one that still climbs,
 * or swings, is not; a series shorter than 10 rows, or than SERIES_STEADY_MIN_S, is not
 * judged. */
static void test_steady(void)
{
	double t[40], v[40];
	struct series_steady st;
	for (int i = 0; i < 40; i++) {
		t[i] = 0.4 * (i + 1);                   /* 16 s */
		v[i] = 100 + (i % 2 ? 3 : -3);          /* 100 +- 3%: steady */
	}
	series_steady(t, v, 40, &st);
	CHECK(st.judged && st.steady, "range %g slope %g %s", st.range_pct, st.slope_pct, st.why);
	CHECK(fabs(st.mean - 100) < 1, "mean %g", st.mean);
	for (int i = 0; i < 40; i++)
		v[i] = 50 + 5 * i;                      /* still climbing at the end */
	series_steady(t, v, 40, &st);
	CHECK(st.judged && !st.steady && st.slope_pct > 10, "slope %g", st.slope_pct);
	CHECK(strstr(st.why, "trend") != NULL, "%s", st.why);
	for (int i = 0; i < 40; i++)
		v[i] = (i / 4) % 2 ? 150 : 50;          /* a window high, the next low */
	series_steady(t, v, 40, &st);
	CHECK(st.judged && !st.steady && st.range_pct > 20, "range %g", st.range_pct);
	CHECK(strstr(st.why, "(over 20%)") != NULL, "%s", st.why);
	/* a long warm-up that settles in the second half: steady (only the last windows count) */
	for (int i = 0; i < 40; i++)
		v[i] = i < 20 ? 5 * i : 100;
	series_steady(t, v, 40, &st);
	CHECK(st.steady, "%s", st.why);
	/* rows of unequal length: each weighs by its time in the window */
	double t2[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10.5, 20 };
	double v2[12] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 10 };
	series_steady(t2, v2, 12, &st);
	CHECK(st.judged && !st.steady, "%s", st.why);   /* the last 9.5 s at 10 MB/s */
	series_steady(t, v, 9, &st);
	CHECK(!st.judged, "judged %d", st.judged);
	CHECK(strstr(st.why, "too few") != NULL, "%s", st.why);
	for (int i = 0; i < 40; i++)
		v[i] = i < 20 ? 100 : 0;                /* nothing written in the second half */
	series_steady(t, v, 40, &st);
	CHECK(st.judged && !st.steady && strstr(st.why, "nothing moved") != NULL, "%s", st.why);
	/* the default plan's stream of 2.5 s: its windows are the page cache's bursts */
	for (int i = 0; i < 40; i++) {
		t[i] = 0.0625 * (i + 1);
		v[i] = i % 4 ? 0 : 800;
	}
	series_steady(t, v, 40, &st);
	CHECK(!st.judged, "judged %d", st.judged);
	CHECK_STR(st.why, "a stream of 2.5 s: under 10 s, too short to judge");
}

int main(void)
{
	test_steady();
	test_parsers();
	test_rows();
	test_downsampling();
	test_json();
	test_stalls();
	test_figures();
	return check_done("test_series");
}
