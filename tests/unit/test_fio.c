/* test_fio.c: what a `type = fio` workload hands fio and reads back (core/workload/fio_cmd.c): the
 * command line from a plan's keys, the screen that keeps fio inside the cell's mount, and
 * fio's JSON output (a real one, tests/fixtures/fio/randrw-2jobs.json: fio 3.33, two jobs of
 * randrw 4k over 2 MiB with psync) read into per-job and per-run figures. */
#include "check.h"
#include "core/workload/fio_cmd.h"
#include "lib/file.h"
#include "lib/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_argv(void)
{
	static const struct {
		struct plan_workload w;
		const char *job, *want;
	} rows[] = {
		{ { .name = "rr", .rw = "randread", .bs = 4096, .size = 64 << 20 }, "",
		  "fio --output-format=json --name=rr --rw=randread --bs=4096 --size=67108864" },
		{ { .name = "aio", .rw = "randwrite", .bs = 4096, .size = 1 << 20, .ioengine = "libaio",
		    .iodepth = 16, .numjobs = 2, .direct = 1, .fsync_every = 8, .runtime_s = 30,
		    .time_based = 1, .options = "--rwmixread=70 --norandommap" }, NULL,
		  "fio --output-format=json --name=aio --rw=randwrite --bs=4096 --size=1048576 "
		  "--ioengine=libaio --iodepth=16 --numjobs=2 --direct=1 --fsync=8 --runtime=30s "
		  "--time_based --rwmixread=70 --norandommap" },
		/* the job file is where the confinement puts it, whatever its name */
		{ { .name = "x", .rw = "read" }, "/results/fsmatrix/a b.fio",
		  "fio --output-format=json /job" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct argv a;
		char buf[512];
		fio_argv(&rows[i].w, rows[i].job, &a);
		argv_join(&a, buf, sizeof buf);
		CHECK_STR(buf, rows[i].want);
		CHECK_STR(a.v[0], "fio");
		CHECK(a.v[a.n] == NULL, "row %zu: NULL-terminated", i);
	}
}

static void test_unsafe(void)
{
	static const char outside[] = "names a path outside the cell's mount: fio runs confined "
				      "to it, and relative names land in it";
	static const char program[] = "runs a program: fio runs confined to the cell's mount, "
				      "with no program but itself";
	static const struct {
		const char *text;
		int job_file, line;
		const char *why;   /* NULL: accepted; else what why ends with */
	} rows[] = {
		{ "[global]\nbs=4k\n[a]\nrw=randread\nsize=4m\n", 1, 0, NULL },
		{ "; filename=/dev/sda in a comment\n# directory=/\n[a]\nrw=read\n", 1, 0, NULL },
		/* relative names land in the cell's mount, where fio is confined */
		{ "[a]\nrw=read\nfilename=data:more\ndirectory=sub\nwrite_bw_log=bw\n", 1, 0, NULL },
		{ "[../../x]\nfilename=../../dev/vdb\n", 1, 0, NULL },
		{ "[a]\nrw=read\nfilename=/dev/vda\n", 1, 3, outside },
		{ "[a]\nfilename=data:/dev/vdc\n", 1, 2, outside },
		{ "[a]\n  directory = /results\n", 1, 2, outside },
		{ "[a]\nwrite_iolog=/results/fsmatrix/x\n", 1, 2, outside },
		{ "include other.fio\n", 1, 1, "include reads another file: fio runs confined to the "
		  "cell's mount with only its job; put the options in the job" },
		{ "[a]\nexec_prerun=dd if=/init of=/dev/vdc\n", 1, 2, program },
		{ "[a]\nexec_postrun = sh\n", 1, 2, program },
		{ "[a]\nioengine=exec\nprogram=/bin/dd\n", 1, 2, "ioengine=exec runs or loads a "
		  "program: fio runs confined to the cell's mount, with no program but itself" },
		{ "[a]\nioengine=external:/x.so\n", 1, 2, "ioengine=external:/x.so runs or loads a "
		  "program: fio runs confined to the cell's mount, with no program but itself" },
		{ "[a]\nioengine=libaio\n", 1, 0, NULL },
		{ "[a]\nioscheduler=none\n", 1, 2, "ioscheduler sets a device's queue: fio runs "
		  "confined to the cell's mount, with no device in reach" },
		{ "[a]\nfilenames=1\n", 1, 0, NULL },
		/* fio takes \v and \f for blanks: "\vfilename=" is filename= */
		{ "[a]\nrw=write\n\vfilename=/dev/vdc\n", 1, 3, "a control character (0x0b): fio "
		  "reads it as a blank" },
		{ "[a]\r\nrw=read\r\ndirectory=/\r\n", 1, 3, outside },
		{ "--a=\"x\ny\"", 0, 0, "options hold a control character (0x0a)" },
		{ "", 0, 0, NULL },
		{ "--rwmixread=70 --norandommap --filename=data", 0, 0, NULL },
		{ "--filename=/dev/vdb", 0, 0, outside },
		/* fio's command line takes abbreviations (getopt_long) */
		{ "--exec_pre=touch", 0, 0, program },
		{ "--filen=/dev/vdb", 0, 0, outside },
		{ "--outp=/results/x", 0, 0, "--output is not allowed: fsmatrix runs fio confined "
		  "to the cell's mount and reads its JSON output" },
		{ "--output=/results/x", 0, 0, "--output is not allowed: fsmatrix runs fio confined "
		  "to the cell's mount and reads its JSON output" },
		{ "--client=host", 0, 0, "--client is not allowed: fsmatrix runs fio confined to the "
		  "cell's mount and reads its JSON output" },
		{ "rwmixread=70", 0, 0, "\"rwmixread=70\": expected fio options such as "
		  "--rwmixread=70" },
		{ "\"--a b", 0, 0, "unterminated quote" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char why[256] = "";
		int line = -1;
		int rc = fio_unsafe(rows[i].text, rows[i].job_file, &line, why, sizeof why);
		if (!rows[i].why) {
			CHECK(rc == 0, "row %zu accepted: %s", i, why);
			CHECK_INT(line, 0);
			continue;
		}
		CHECK(rc == -1, "row %zu refused", i);
		CHECK_INT(line, rows[i].line);
		size_t wl = strlen(why), el = strlen(rows[i].why);
		if (strcmp(rows[i].why, "unterminated quote") == 0)
			CHECK(strstr(why, "quote") != NULL, "row %zu: %s", i, why);
		else
			CHECK(wl >= el && strcmp(why + wl - el, rows[i].why) == 0,
			      "row %zu: \"%s\" ends with \"%s\"", i, why, rows[i].why);
	}
}

static int near(double a, double b) { return fabs(a - b) <= 1e-6 * fmax(1, fabs(b)); }

static void test_parse(void)
{
	size_t len;
	char *text = file_read("tests/fixtures/fio/randrw-2jobs.json", 1 << 20, &len);
	CHECK(text != NULL, "fixture read");
	if (!text)
		return;
	struct fio_out o;
	char why[128] = "";
	CHECK_INT(fio_out_parse(text, len, &o, why, sizeof why), 0);
	CHECK_STR(o.version, "fio-3.33");
	CHECK_INT(o.njobs, 2);
	CHECK_INT(o.jobs_total, 2);
	CHECK_STR(o.jobs[0].name, "a");
	CHECK_INT(o.jobs[0].error, 0);
	const struct fio_dir *r0 = &o.jobs[0].read, *w1 = &o.jobs[1].write;
	CHECK_INT(r0->total_ios, 242);
	CHECK_INT(r0->io_bytes, 991232);
	CHECK(near(r0->mbps, 41.301333), "read mbps %g", r0->mbps);
	/* MB/s is 10^6 B/s: fio's bw_bytes / 10^6, which its own bw (KiB/s, 40333 in the
	 * fixture) gives too, within fio's rounding to a whole KiB/s */
	CHECK(fabs(r0->mbps - 40333 * 1024.0 / 1e6) < 1024.0 / 1e6, "read mbps %g against bw",
	      r0->mbps);
	CHECK(near(r0->iops, 10083.333333), "read iops %g", r0->iops);
	CHECK(near(r0->clat.mean, 92.335582645), "read mean %g", r0->clat.mean);
	CHECK(near(r0->clat.p50, 83.456) && near(r0->clat.p90, 130.560) &&
	      near(r0->clat.p99, 264.192) && near(r0->clat.p999, 374.784) &&
	      near(r0->clat.max, 375.785), "read percentiles %g %g %g %g %g", r0->clat.p50,
	      r0->clat.p90, r0->clat.p99, r0->clat.p999, r0->clat.max);
	CHECK(near(w1->clat.p99, 22.144) && near(w1->clat.max, 75.197), "write job 2");
	/* the run: bandwidth and IOPS summed, latency the slowest job's */
	CHECK(near(o.read.mbps, 41.301333 + 43.097043), "total read mbps %g", o.read.mbps);
	CHECK(near(o.read.iops, 10083.333333 + 10521.73913), "total read iops %g", o.read.iops);
	CHECK_INT(o.read.total_ios, 484);
	CHECK(near(o.read.clat.p99, 264.192), "worst read p99 %g", o.read.clat.p99);
	CHECK(near(o.write.clat.p99, 22.144), "worst write p99 %g", o.write.clat.p99);
	CHECK(near(o.write.clat.max, 213.120), "worst write max %g", o.write.clat.max);

	/* a note before the object (fio prints some on stdout) and one after it */
	char *noted = malloc(len + 64);
	int n = snprintf(noted, len + 64, "note: both iodepth >= 1 and synchronous I/O engine\n%s"
			 "\nbye\n", text);
	CHECK_INT(fio_out_parse(noted, (size_t)n, &o, why, sizeof why), 0);
	CHECK_INT(o.njobs, 2);
	/* cut short: not JSON */
	CHECK_INT(fio_out_parse(text, len / 2, &o, why, sizeof why), -1);
	CHECK_STR(why, "fio's output is not valid JSON");
	CHECK_INT(fio_out_parse("fio: no jobs\n", 13, &o, why, sizeof why), -1);
	CHECK_STR(why, "fio printed no JSON");
	const char *nojobs = "{\"fio version\":\"fio-3.33\",\"jobs\":[]}";
	CHECK_INT(fio_out_parse(nojobs, strlen(nojobs), &o, why, sizeof why), -1);
	CHECK_STR(why, "fio's JSON lists no jobs");
	/* a job that did no reads: NaN figures, not zeros */
	const char *wonly = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"w\",\"error\":5,"
			    "\"read\":{\"total_ios\":0},\"write\":{\"total_ios\":3,\"io_bytes\":12288,"
			    "\"bw_bytes\":1000000,\"iops\":250,\"clat_ns\":{\"mean\":2000,\"max\":9000}}}]}";
	CHECK_INT(fio_out_parse(wonly, strlen(wonly), &o, why, sizeof why), 0);
	CHECK_INT(o.jobs[0].error, 5);
	CHECK(isnan(o.read.mbps) && isnan(o.read.clat.p99), "no reads: NaN");
	CHECK(near(o.write.mbps, 1) && near(o.write.clat.mean, 2) && near(o.write.clat.max, 9),
	      "write figures");
	CHECK(isnan(o.write.clat.p99), "no percentiles given: NaN");
	free(noted);
	free(text);
}

static void test_latency(void)
{
	double x[1000];
	for (int i = 0; i < 1000; i++)
		x[i] = 1000 - i;   /* 1000 .. 1, given backwards */
	struct latency l;
	CHECK_INT(stats_latency(x, 1000, &l), 0);
	CHECK_INT(l.n, 1000);
	CHECK(l.p50 == 500 && l.p90 == 900 && l.p99 == 990 && l.p999 == 999 && l.max == 1000,
	      "p50 %g p90 %g p99 %g p99.9 %g max %g", l.p50, l.p90, l.p99, l.p999, l.max);
	CHECK(near(l.mean, 500.5), "mean %g", l.mean);
	double one[] = { 7 };
	CHECK_INT(stats_latency(one, 1, &l), 0);
	CHECK(l.p50 == 7 && l.p999 == 7 && l.max == 7, "one sample");
	double three[] = { 3, 1, 2 };
	CHECK_INT(stats_latency(three, 3, &l), 0);
	CHECK(l.p50 == 2 && l.p90 == 3 && l.p99 == 3, "three: p50 %g p90 %g", l.p50, l.p90);
	CHECK_INT(stats_latency(three, 0, &l), -1);
	CHECK(isnan(l.p99) && l.n == 0, "none: NaN");
}

int main(void)
{
	test_argv();
	test_unsafe();
	test_parse();
	test_latency();
	return check_done("test_fio");
}
