/* test_report_lines.c: the header and problem lines of a report stay one line each, whatever
 * the records' strings hold (a cell id or error with "\n" or an escape sequence: found by
 * tests/fuzz/fuzz_report). */
#include "check.h"
#include "report/sections.h"

static int nlines;

static void one_line(void *ctx, const char *s)
{
	(void)ctx;
	nlines++;
	CHECK(strpbrk(s, "\n\r\033") == NULL, "line holds a control character: \"%s\"", s);
}

int main(void)
{
	/* the hostile fixture, and the report fixtures whose records take the odd paths (lost
	 * positions, unusable figures, ignored mount options): under ASan in make test */
	static const char *const sources[] = {
		"tests/fixtures/report/control-chars.jsonl",
		"tests/fixtures/report/truncated.jsonl",
		"tests/fixtures/report/console-garbled.log",
		"tests/fixtures/report/unusable.jsonl",
		"tests/fixtures/report/ignored.jsonl",
	};
	struct report_opts o = { .format = "text" };
	for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
		struct runset rs = { 0 };
		nlines = 0;
		CHECK_INT(report_load(sources[s], &rs), 0);
		CHECK_INT(rs.n, 1);
		for (size_t i = 0; i < rs.n; i++) {
			report_model(&rs.run[i]);
			report_header_lines(&rs.run[i], one_line, NULL);
			report_problem_lines(&rs.run[i], &o, one_line, NULL);
		}
		CHECK(nlines > 0, "no lines from %s", sources[s]);
		report_free(&rs);
	}
	return check_done("test_report_lines");
}
