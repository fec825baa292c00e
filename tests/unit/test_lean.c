/* test_lean.c: record lines read lean (report/lean.c): an ok cell record as the members the
 * report reads, a series record's rows as the numbers jansson would give, and every line
 * that jansson refuses still refused; lib/jscan.c's member iterator under it. */
#include "check.h"
#include "lib/jscan.h"
#include "report/lean.h"

#include <math.h>
#include <stdlib.h>

static void test_next_member(void)
{
	static const struct { const char *in; int members; } rows[] = {
		{ "{}", 0 },
		{ " { \"a\" : 1 , \"b\":[1,{\"c\":2}],\"d\":\"x\\\"y\" } ", 3 },
		{ "{\"a\":1,}", -1 },
		{ "{\"a\" 1}", -1 },
		{ "{\"a\":1", -1 },
		{ "[1]", -1 },
		{ "{\"a\":tru}", -1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *s = rows[i].in, *k, *v;
		size_t n = strlen(s), kl, vl, pos = 0;
		int rc, got = 0;
		while ((rc = json_next_member(s, n, &pos, &k, &kl, &v, &vl)) == 1)
			got++;
		CHECK_INT(rc < 0 ? -1 : got, rows[i].members);
	}
	const char *s = "{\"key\":[1, 2],\"z\":null}", *k, *v;
	size_t kl, vl, pos = 0;
	CHECK(json_next_member(s, strlen(s), &pos, &k, &kl, &v, &vl) == 1 && kl == 3 &&
	      memcmp(k, "key", 3) == 0 && vl == 6 && memcmp(v, "[1, 2]", 6) == 0, "key and value spans");
}

#define CELL_OK "{\"v\":1,\"type\":\"cell\",\"cell\":\"a/b/c/d\",\"status\":\"ok\",\"rep\":1," \
	"\"steps\":[{\"argv\":[\"mkfs\"],\"stderr\":\"line\\nline\"}],\"fs_geometry\":\"x\"," \
	"\"result\":{\"mbps\":1.5}}"

static void test_cells(void)
{
	struct series_rows rows = { 0 };
	int has = 0;
	json_t *r = report_parse_record(CELL_OK, strlen(CELL_OK), &rows, &has);
	CHECK(r && json_object_size(r) == 6, "an ok cell keeps the members read and its mkfs argv: %zu",
	      r ? json_object_size(r) : 0);
	CHECK(r && !json_object_get(r, "steps") && !json_object_get(r, "fs_geometry") &&
	      json_real_value(json_object_get(json_object_get(r, "result"), "mbps")) == 1.5,
	      "steps dropped, result kept");
	json_t *want = json_pack("[s]", "mkfs");
	CHECK(r && json_equal(json_object_get(r, REPORT_MKFS_KEY), want), "the mkfs step's argv kept");
	json_decref(r);
	/* the same from a record parsed whole (a \u escape), and an argv holding ']' and '"' */
	static const char *const mk[] = {
		"{\"type\":\"cell\",\"status\":\"ok\",\"cell\":\"\\u00e9\",\"steps\":[{\"argv\":[\"wipe\"]},"
		"{\"argv\":[\"mkfs.xfs\",\"-L\",\"a]\\\"b\",\"/dev/md0\"]}]}",
		"{\"type\":\"cell\",\"status\":\"ok\",\"cell\":\"x\",\"steps\":[{\"argv\":[\"wipe\"]},"
		"{\"argv\":[\"mkfs.xfs\",\"-L\",\"a]\\\"b\",\"/dev/md0\"]}]}",
	};
	json_decref(want);
	want = json_pack("[s,s,s,s]", "mkfs.xfs", "-L", "a]\"b", "/dev/md0");
	for (size_t i = 0; i < sizeof mk / sizeof mk[0]; i++) {
		r = report_parse_record(mk[i], strlen(mk[i]), &rows, &has);
		CHECK(r && json_equal(json_object_get(r, REPORT_MKFS_KEY), want) &&
		      !json_object_get(r, "steps"), "row %zu: the mkfs argv kept, the steps dropped", i);
		json_decref(r);
	}
	json_decref(want);
	/* not ok: whole */
	const char *err = "{\"type\":\"cell\",\"status\":\"error\",\"steps\":[1]}";
	r = report_parse_record(err, strlen(err), &rows, &has);
	CHECK(r && json_object_get(r, "steps"), "a cell not ok is kept whole");
	json_decref(r);
	/* jansson's last of a repeated key: status "ok" after "error" is an ok cell */
	const char *twice = "{\"type\":\"cell\",\"status\":\"error\",\"status\":\"ok\",\"steps\":[1]}";
	r = report_parse_record(twice, strlen(twice), &rows, &has);
	CHECK(r && !json_object_get(r, "steps"), "the last of a repeated key counts");
	json_decref(r);
	/* refused as jansson refuses: in a member the report never reads too */
	static const char *const bad[] = {
		"{\"type\":\"cell\",\"status\":\"ok\",\"steps\":\"\\u0000\"}",
		"{\"type\":\"cell\",\"status\":\"ok\",\"steps\":\"\xff\"}",
		"{\"type\":\"cell\",\"status\":\"ok\",\"steps\":[1,]}",
		"{\"type\":\"cell\",\"status\":\"ok\"} x",
		"{\"type\":\"cell\",\"status\":\"ok\",\"steps\":[1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = report_parse_record(bad[i], strlen(bad[i]), &rows, &has);
		CHECK(r == NULL, "refused: %s", bad[i]);
		json_decref(r);
	}
	free(rows.v);
}

static void test_series(void)
{
	static const char *const nums[] = { "0", "-0", "1", "-7", "0.1", "2.675", "123456.789012345",
					    "1e3", "-1.5E-2", "0.30000000000000004", "12345678901234567",
					    "9007199254740993", "1.7976931348623157e308", "4e-320" };
	char line[2048];
	size_t k = (size_t)snprintf(line, sizeof line, "{\"type\":\"series\",\"cell\":\"c\",\"cost\":1,"
				    "\"columns\":[\"t\",\"x\"],\"rows\":[");
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
		k += (size_t)snprintf(line + k, sizeof line - k, "%s[%zu,%s]", i ? "," : "", i, nums[i]);
	snprintf(line + k, sizeof line - k, ",[99,null]]}");
	struct series_rows rows = { 0 };
	int has = 0;
	json_t *r = report_parse_record(line, strlen(line), &rows, &has);
	CHECK(r && has && !json_object_get(r, "rows") && !json_object_get(r, "cost") &&
	      json_object_get(r, "columns"), "rows apart, the rest lean");
	CHECK(rows.nr == sizeof nums / sizeof nums[0] + 1 && rows.nc == 2, "%zu rows of %zu", rows.nr, rows.nc);
	for (size_t i = 0; has && i < sizeof nums / sizeof nums[0]; i++) {
		json_t *j = json_loads(nums[i], JSON_DECODE_ANY, NULL);
		double want = json_number_value(j), got = rows.v[i * 2 + 1];
		CHECK(memcmp(&got, &want, sizeof got) == 0, "%s: %.17g, jansson %.17g", nums[i], got, want);
		json_decref(j);
	}
	CHECK(has && isnan(rows.v[rows.nr * 2 - 1]), "null as NaN");
	json_decref(r);
	/* anything else stays in the record, for the checks of its shape */
	static const char *const other[] = {
		"{\"type\":\"series\",\"columns\":[\"t\"],\"rows\":[[1],[\"x\"]]}",
		"{\"type\":\"series\",\"columns\":[\"t\"],\"rows\":[[1],[1,2]]}",
		"{\"type\":\"series\",\"columns\":[\"t\"],\"rows\":[[1], [2]]}",
		"{\"type\":\"series\",\"columns\":[\"t\"],\"rows\":[[1],[]]}",
	};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		r = report_parse_record(other[i], strlen(other[i]), &rows, &has);
		CHECK(r && !has && json_object_get(r, "rows"), "kept whole: %s", other[i]);
		json_decref(r);
	}
	static const char *const huge[] = { "{\"type\":\"series\",\"rows\":[[1e400]]}",
					    "{\"type\":\"series\",\"rows\":[[12345678901234567890]]}" };
	for (size_t i = 0; i < 2; i++) {
		r = report_parse_record(huge[i], strlen(huge[i]), &rows, &has);
		CHECK(r == NULL, "a number jansson refuses refuses the line: %s", huge[i]);
		json_decref(r);
	}
	free(rows.v);
}

int main(void)
{
	test_next_member();
	test_cells();
	test_series();
	return check_done("test_lean");
}
