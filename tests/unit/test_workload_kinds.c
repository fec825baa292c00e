/* test_workload_kinds.c: the table of workload engines as plans, check and reports see them
 * (core/workload/workload_kinds.c): every row well formed, its keys real plan keys, its description
 * and estimate as check prints them. */
#include "check.h"
#include "core/command/cellshow.h"
#include "core/workload/workload_kinds.h"
#include "report/model.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>

static void test_rows(void)
{
	size_t n = 0;
	for (const struct wl_kind *k = wl_kinds; k->name; k++, n++) {
		CHECK_INT(k->type, n);
		CHECK(wl_kind_of((int)n) == k, "wl_kind_of(%zu)", n);
		CHECK(wl_kind_named(k->name) == k, "wl_kind_named(%s)", k->name);
		CHECK(k->estimate && k->describe, "%s: estimate and describe", k->name);
		/* every key it takes is one the plan parser knows, and applies to it */
		for (const char *s = k->keys; *s;) {
			char key[32], msg[160] = "";
			int len;
			if (sscanf(s, "%31s%n", key, &len) != 1)
				break;
			struct plan_workload w;
			plan_workload_defaults(&w);
			w.type = k->type;
			int rc = plan_workload_set(&w, key, "\x01", msg, sizeof msg);
			/* a bad value: refused by the key's own parser, or taken as text */
			CHECK(rc == 0 || (!strstr(msg, "no workload key") &&
					  !strstr(msg, "does not apply")), "%s: key %s: %s", k->name,
			      key, msg);
			s += len;
			while (*s == ' ')
				s++;
		}
		for (const char *s = k->required; *s;) {
			char key[32];
			int len;
			if (sscanf(s, "%31s%n", key, &len) != 1)
				break;
			CHECK(wl_kind_has(k->keys, key), "%s: requires %s but does not take it",
			      k->name, key);
			s += len;
			while (*s == ' ')
				s++;
		}
		/* what it ran, which compare holds two cells of one id to (report/workdiff.c):
		 * no metric is among it, or a changed figure would read as another workload */
		CHECK(k->defines && k->defines[0], "%s: no result field defines it", k->name);
		for (const struct metric *m = k->metrics; k->defines && m->key; m++)
			CHECK(!wl_kind_has(k->defines, m->key), "%s: %s is measured, not a definition",
			      k->name, m->key);
		/* the report's columns: 1, 2, ... each once */
		int cols = 0, seen[16] = { 0 };
		for (const struct metric *m = k->metrics; m->key; m++) {
			CHECK(m->label && m->unit, "%s.%s: label and unit", k->name, m->key);
			CHECK(m->report >= 0 && m->report < 16, "%s.%s: column %d", k->name, m->key,
			      m->report);
			if (m->report > 0 && m->report < 16) {
				seen[m->report]++;
				cols++;
			}
		}
		for (int c = 1; c <= cols; c++)
			CHECK_INT(seen[c], 1);
	}
	CHECK_INT(n, 7);
	CHECK(wl_kind_of(-1) == NULL, "no row for an unset type");
	CHECK(wl_kind_of((int)n) == NULL, "no row past the end");
	CHECK(wl_kind_named("fio") == &wl_kinds[WL_FIO], "fio's row");
	CHECK(wl_kind_named("fio ") == NULL, "no fio with a blank");
	CHECK(wl_kind_named("") == NULL, "no empty name");
	CHECK_STR(plan_wl_name(WL_TAR), "tar");
	CHECK_STR(plan_wl_name((enum wl_type)-1), "unknown");
}

static void test_names(void)
{
	char buf[64];
	wl_kind_names(buf, sizeof buf);
	CHECK_STR(buf, "seqwrite, smallfiles, tar, seqread, fsync, fio or durability");
	wl_kind_names(buf, 10);
	CHECK_STR(buf, "seqwrite,");
}

static void test_has(void)
{
	static const struct { const char *list, *key; int want; } rows[] = {
		{ "size bs direct", "size", 1 },
		{ "size bs direct", "bs", 1 },
		{ "size bs direct", "direct", 1 },
		{ "size bs direct", "b", 0 },
		{ "size bs direct", "dir", 0 },
		{ "size bs direct", "size bs", 0 },
		{ "size  bs", "bs", 1 },
		{ "", "size", 0 },
		{ "files", "file", 0 },
		{ "file", "files", 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(wl_kind_has(rows[i].list, rows[i].key) == rows[i].want, "\"%s\" has \"%s\"",
		      rows[i].list, rows[i].key);
}

/* The lines `fsmatrix check` prints, and the estimate under the default model (80 MB/s
 * streaming, 15 MB/s small files, 0.3 s a mount). */
static void test_describe(void)
{
	static const struct {
		struct plan_workload w;
		const char *text;
		double secs;
	} rows[] = {
		{ { .type = WL_SEQWRITE, .size = 512 << 20, .bs = 1 << 20 },
		  "seqwrite 512m in 1m blocks, random data", 512.0 / 80 },
		{ { .type = WL_SEQWRITE, .size = 4096, .bs = 4096, .direct = 1, .data = DATA_ZERO },
		  "seqwrite 4k in 4k blocks, zero data, O_DIRECT", 4096.0 / 1048576 / 80 },
		{ { .type = WL_SMALLFILES, .size = 30 << 20, .passes = 1, .seed = 7 },
		  "smallfiles 30m, 1 pass, seed 7, sync timed", 30.0 / 15 + 0.3 },
		{ { .type = WL_SMALLFILES, .size = 15 << 20, .passes = 3, .seed = 1, .files = 9,
		    .sync = SYNC_NONE },
		  "smallfiles 15m (file count set), 3 passes, seed 1, sync none", 3 * (15.0 / 15 + 0.3) },
		{ { .type = WL_TAR, .file = "src.tar" }, "tar src.tar, sync timed", 30 },
		{ { .type = WL_TAR, .file = "/a b.tar", .sync = SYNC_NONE }, "tar /a b.tar, sync none",
		  30 },
		{ { .type = WL_SEQREAD, .size = 80 << 20, .bs = 1 << 20, .direct = 1 },
		  "seqread 80m in 1m blocks, written first (random data), read back after dropping "
		  "caches, O_DIRECT", 80.0 / 80 * 1.5 },
		{ { .type = WL_FSYNC, .size = 400 << 10, .bs = 4096 },
		  "fsync 4k appends each followed by fsync, 400k in all, no background writer",
		  0.5 + 400.0 / 1024 / 80 },
		{ { .type = WL_FSYNC, .size = 4096, .bs = 4096, .background = 256 << 20 },
		  "fsync 4k appends each followed by fsync, 4k in all, while a background writer "
		  "streams through 256m", 0.005 + 1 + 4096.0 / 1048576 / 80 },
		{ { .type = WL_FIO, .name = "rr", .rw = "randread", .bs = 4096, .size = 40 << 20,
		    .ioengine = "io_uring", .iodepth = 8 },
		  "fio, confined to the cell's mount: fio --output-format=json --name=rr --rw=randread "
		  "--bs=4096 --size=41943040 --ioengine=io_uring --iodepth=8", 40.0 / 80 },
		{ { .type = WL_FIO, .name = "t", .rw = "randwrite", .bs = 4096, .size = 40 << 20,
		    .runtime_s = 20, .time_based = 1 },
		  "fio, confined to the cell's mount: fio --output-format=json --name=t --rw=randwrite "
		  "--bs=4096 --size=41943040 --runtime=20s --time_based", 20 },
		{ { .type = WL_FIO, .job = "rand.fio" },
		  "fio, confined to the cell's mount: fio --output-format=json /job (/job: rand.fio)", 30 },
	};
	struct estimate_model m;
	estimate_model_default(&m);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[256];
		cell_workload_text(&rows[i].w, buf, sizeof buf);
		CHECK_STR(buf, rows[i].text);
		double s = wl_kind_of(rows[i].w.type)->estimate(&rows[i].w, &m);
		CHECK(s > rows[i].secs - 1e-9 && s < rows[i].secs + 1e-9, "%s: %g s, want %g",
		      rows[i].text, s, rows[i].secs);
	}
	struct plan_workload unset;
	plan_workload_defaults(&unset);
	char buf[8] = "x";
	cell_workload_text(&unset, buf, sizeof buf);
	CHECK_STR(buf, "");
}

static void test_defaults(void)
{
	struct plan_workload w;
	memset(&w, 0xa5, sizeof w);
	plan_workload_defaults(&w);
	CHECK_INT((int)w.type, -1);
	CHECK_INT(w.bs, 1 << 20);
	CHECK_INT(w.data, DATA_RANDOM);
	CHECK_INT(w.passes, 1);
	CHECK_INT(w.sync, SYNC_TIMED);
	CHECK_INT(w.seed, PLAN_DEFAULT_SEED);
}

/* The report's columns per workload type, as its tables have always shown them. */
static void test_report_columns(void)
{
	static const struct {
		const char *wtype;
		const char *cols;   /* key:label:unit:higher:decimals, one per column */
	} rows[] = {
		{ "seqwrite", "mbps:MB/s:MB/s:1:1 total_s:total:s:0:2" },
		{ "smallfiles", "time_s:time:s:0:2 sync_s:sync:s:0:2 mbps:MB/s:MB/s:1:1 "
				"files_per_s:files/s:files/s:1:0" },
		{ "tar", "time_s:time:s:0:2 sync_s:sync:s:0:2 mbps:MB/s:MB/s:1:1" },
		{ "untar", "time_s:time:s:0:2 sync_s:sync:s:0:2 mbps:MB/s:MB/s:1:1" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct metric *ms[REPORT_MAX_METRICS];
		size_t n = report_metrics(rows[i].wtype, NULL, ms, REPORT_MAX_METRICS);
		char got[256] = "";
		for (size_t j = 0; j < n; j++)
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s:%s:%s:%d:%d",
				 j ? " " : "", ms[j]->key, ms[j]->label, ms[j]->unit,
				 ms[j]->higher_better, ms[j]->decimals);
		CHECK_STR(got, rows[i].cols);
		/* room for fewer: the first columns */
		CHECK_INT(report_metrics(rows[i].wtype, NULL, ms, 1), 1);
	}
}

int main(void)
{
	test_rows();
	test_names();
	test_has();
	test_describe();
	test_defaults();
	test_report_columns();
	return check_done("test_workload_kinds");
}
