/* test_resume.c: the JSON validator and lookups /init reads its journal with, and which
 * cells a resumed boot runs, skips or fails, from journals that end in every way a power
 * loss can leave them. */
#include "check.h"
#include "lib/jscan.h"
#include "core/boot/resume.h"

#define SHA "5f0c4e1ab2e44a62bd4e2bd0a9e7c3a3d3bb0b8e1d7a4b0b14d8a0f7f70a0b11"
#define HDR "{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"manifest_sha256\":\"x\",\"plan\":{\"name\":\"p\",\"sha256\":\"" SHA "\",\"scale\":1.0000},\"dry\":false}\n"
#define START(i, a) "{\"v\":1,\"type\":\"event\",\"event\":\"cell-start\",\"run\":\"R1\",\"index\":" #i ",\"attempt\":" #a "}\n"
#define CELL(i, st) "{\"v\":1,\"type\":\"cell\",\"run\":\"R1\",\"cell\":\"a/b/c/d\",\"index\":" #i ",\"status\":\"" st "\",\"steps\":[{\"argv\":[\"x\"],\"ms\":1.5e3}]}\n"
#define TRAILER "{\"v\":1,\"type\":\"trailer\",\"run\":\"R1\",\"cells\":3}\n"
#define RESUME "{\"v\":1,\"type\":\"event\",\"event\":\"resume\",\"run\":\"R1\"}\n"

static void test_valid(void)
{
	static const struct { const char *in; int ok; } rows[] = {
		{ "{}", 1 },
		{ " {\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\n\"],\"b\":{}} ", 1 },
		{ "[]", 1 },
		{ "\"s\"", 1 },
		{ "0", 1 },
		{ "", 0 },
		{ "{", 0 },
		{ "{\"a\":1", 0 },
		{ "{\"a\":1,}", 0 },
		{ "{\"a\" 1}", 0 },
		{ "{\"a\":01}", 0 },
		{ "{\"a\":1.}", 0 },
		{ "{\"a\":\"x}", 0 },
		{ "{\"a\":\"\\q\"}", 0 },
		{ "{\"a\":\"\\u12\"}", 0 },
		{ "{\"a\":tru}", 0 },
		{ "{}{}", 0 },
		{ "{\"a\":\"tab\there\"}", 0 },
		{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 0 },
		{ "\0\0\0\0", 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		size_t n = strlen(rows[i].in);
		if (i == sizeof rows / sizeof rows[0] - 1)
			n = 4;
		CHECK((json_valid(rows[i].in, n) == 0) == rows[i].ok, "row %zu: %s", i, rows[i].in);
	}
	/* every proper prefix of a record is invalid: what makes a torn line detectable */
	const char *rec = CELL(2, "ok");
	size_t n = strlen(rec) - 1;
	int prefixes_valid = 0;
	for (size_t k = 0; k < n; k++)
		prefixes_valid += json_valid(rec, k) == 0;
	CHECK_INT(prefixes_valid, 0);
	CHECK_INT(json_valid(rec, n), 0);
}

static void test_members(void)
{
	const char *o = "{\"v\":1,\"s\":\"a\\\"b\",\"in\":{\"index\":9},\"index\":3,\"t\":\"ok\","
			"\"manifest_sha256\":\"m\",\"sha256\":\"h\"}";
	size_t n = strlen(o);
	long long v = 0;
	char s[16];
	CHECK(json_member_int(o, n, "index", &v) == 0 && v == 3, "top-level index, not the nested one");
	CHECK(json_member_str(o, n, "sha256", s, sizeof s) == 0 && strcmp(s, "h") == 0, "exact key");
	CHECK(json_member_str(o, n, "s", s, sizeof s) < 0, "escaped strings are refused");
	CHECK(json_member_str(o, n, "t", s, 2) < 0, "too long for the buffer");
	CHECK(json_member_str(o, n, "nope", s, sizeof s) < 0, "missing");
	CHECK(json_member_int(o, n, "t", &v) < 0, "not an integer");
}

#define NC 3

static const struct {
	const char *name;
	const char *text;
	int resumable;      /* with SHA and scale 1.0000 */
	int torn, need_newline, records, bad;
	const char *steps;  /* per cell: R run, S skip, F fail; then attempt or status digit, and
	                       interrupted records to write */
} journals[] = {
	{ "a fresh run's header only", HDR, 1, 0, 0, 1, 0, "R10 R10 R10" },
	{ "killed in cell 2", HDR START(1, 1) CELL(1, "ok") START(2, 1), 1, 0, 0, 4, 0,
	  "S00 R21 R10" },
	{ "killed while writing cell 2's record", HDR START(1, 1) CELL(1, "ok") START(2, 1)
	  "{\"v\":1,\"type\":\"cell\",\"run\":\"R1\",\"index\":2,\"status\":\"ok\",\"ste", 1, 1, 0, 4, 0,
	  "S00 R21 R10" },
	{ "a cut-off line of zeros", HDR START(1, 1) "\0\0\0\0", 1, 1, 0, 2, 0, "R21 R10 R10" },
	{ "record complete, newline not written", HDR START(1, 1) "{\"v\":1,\"type\":\"cell\",\"index\":1,\"status\":\"timeout\"}",
	  1, 0, 1, 3, 0, "S30 R10 R10" },
	{ "second interruption of cell 2, retries 1", HDR START(1, 1) CELL(1, "error") START(2, 1)
	  RESUME CELL(2, "interrupted") START(2, 2), 1, 0, 0, 7, 0, "S10 F01 R10" },
	{ "interrupted, recorded, retried and finished", HDR START(1, 1) CELL(1, "ok") START(2, 1)
	  RESUME CELL(2, "interrupted") START(2, 2) CELL(2, "ok") START(3, 1), 1, 0, 0, 9, 0,
	  "S00 S00 R21" },
	{ "a garbled line in the middle is ignored", HDR START(1, 1) "{\"v\":1,\"type\":\"cell\",\"ind\n"
	  START(2, 1), 1, 0, 0, 3, 1, "R21 R21 R10" },
	{ "finished", HDR START(1, 1) CELL(1, "ok") TRAILER, 0, 0, 0, 4, 0, "S00 R10 R10" },
	{ "another plan", "{\"v\":1,\"type\":\"header\",\"run\":\"R0\",\"plan\":{\"sha256\":\"00\",\"scale\":1.0000}}\n",
	  0, 0, 0, 1, 0, "R10 R10 R10" },
	{ "another scale", "{\"v\":1,\"type\":\"header\",\"run\":\"R0\",\"plan\":{\"sha256\":\"" SHA "\",\"scale\":0.0100}}\n",
	  0, 0, 0, 1, 0, "R10 R10 R10" },
	{ "no header", START(1, 1), 0, 0, 0, 1, 0, "R21 R10 R10" },
	{ "torn header", "{\"v\":1,\"type\":\"hea", 0, 1, 0, 0, 0, "R10 R10 R10" },
	{ "an index out of range is ignored", HDR START(9, 1) CELL(0, "ok"), 1, 0, 0, 3, 0,
	  "R10 R10 R10" },
};

static void test_journals(void)
{
	for (size_t i = 0; i < sizeof journals / sizeof journals[0]; i++) {
		const char *t = journals[i].text;
		/* the zeros row holds NULs: its length is the macro text plus four */
		size_t len = strlen(t) + (strstr(journals[i].name, "zeros") ? 4 : 0);
		struct journal j;
		struct resume_cell cells[NC];
		char why[200] = "";
		journal_scan(t, len, &j, cells, NC);
		int ok = journal_resumable(&j, SHA, "1.0000", "", why, sizeof why) == 0;
		CHECK(ok == journals[i].resumable, "%s: resumable %d (%s)", journals[i].name, ok, why);
		CHECK(j.torn == journals[i].torn, "%s: torn %d", journals[i].name, j.torn);
		CHECK(j.need_newline == journals[i].need_newline, "%s: need_newline %d", journals[i].name,
		      j.need_newline);
		CHECK(j.records == journals[i].records, "%s: %d records", journals[i].name, j.records);
		CHECK(j.bad == journals[i].bad, "%s: %d bad", journals[i].name, j.bad);
		/* a torn tail is cut at its start; nothing before it is touched */
		if (j.torn)
			CHECK(j.keep <= len && (j.keep == 0 || t[j.keep - 1] == '\n'), "%s: keep %zu",
			      journals[i].name, j.keep);
		else
			CHECK(j.keep == len, "%s: keep %zu of %zu", journals[i].name, j.keep, len);
		char got[64] = "";
		for (int c = 0; c < NC; c++) {
			struct resume_step s;
			resume_decide(&cells[c], 1, &s);
			char a = s.action == RESUME_RUN ? 'R' : s.action == RESUME_SKIP ? 'S' : 'F';
			int d = s.action == RESUME_RUN ? s.attempt : s.action == RESUME_SKIP ? s.final : 0;
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%c%d%d", c ? " " : "", a, d,
				 s.record_interrupted);
		}
		CHECK(strcmp(got, journals[i].steps) == 0, "%s: got \"%s\", want \"%s\"",
		      journals[i].name, got, journals[i].steps);
	}
}

/* A shard's journal resumes only under the same shard: the same plan and scale are not
 * enough, since every shard of a run shares them. A boot of that plan and scale under
 * another shard is refused (-2), naming both, rather than leaving the run unfinished. */
static void test_shard(void)
{
#define SHDR(sh) "{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"plan\":{\"sha256\":\"" SHA \
	"\",\"scale\":1.0000},\"run_group\":\"g\",\"shard\":" sh "}\n"
	static const struct { const char *text, *shard; int rc; const char *why; } rows[] = {
		{ SHDR("{\"k\":1,\"n\":2,\"cells\":[1,3]}"), "1/2", 0, "" },
		{ SHDR("{\"k\":1,\"n\":2,\"cells\":[1,3]}"), "2/2", -2,
		  "run R1 of this plan ran shard 1/2 and stopped part way, and this boot asks shard "
		  "2/2: refusing to leave it unfinished (boot with fsmatrix.shard=1/2 to resume it, or "
		  "move fsmatrix/results/R1.jsonl aside to start shard 2/2 afresh; nothing was written "
		  "to any test disk)" },
		{ SHDR("{\"k\":1,\"n\":2,\"cells\":[1,3]}"), "1/3", -2,
		  "run R1 of this plan ran shard 1/2 and stopped part way, and this boot asks shard "
		  "1/3: refusing to leave it unfinished (boot with fsmatrix.shard=1/2 to resume it, or "
		  "move fsmatrix/results/R1.jsonl aside to start shard 1/3 afresh; nothing was written "
		  "to any test disk)" },
		{ SHDR("{\"k\":1,\"n\":2,\"cells\":[1,3]}"), "", -2,
		  "run R1 of this plan ran shard 1/2 and stopped part way, and this boot asks every "
		  "cell: refusing to leave it unfinished (boot with fsmatrix.shard=1/2 to resume it, or "
		  "move fsmatrix/results/R1.jsonl aside to start every cell afresh; nothing was "
		  "written to any test disk)" },
		{ SHDR("null"), "1/2", -2,
		  "run R1 of this plan ran every cell and stopped part way, and this boot asks shard "
		  "1/2: refusing to leave it unfinished (boot with no fsmatrix.shard= to resume it, or "
		  "move fsmatrix/results/R1.jsonl aside to start shard 1/2 afresh; nothing was written "
		  "to any test disk)" },
		{ SHDR("null"), "", 0, "" },
		{ HDR, "", 0, "" },
		/* a finished run, another plan or scale: a new run, as before */
		{ SHDR("{\"k\":1,\"n\":2,\"cells\":[1,3]}") "{\"v\":1,\"type\":\"trailer\"}\n", "2/2",
		  -1, "run R1 finished (it has a trailer)" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct journal j;
		struct resume_cell c[NC];
		char why[512] = "";
		journal_scan(rows[i].text, strlen(rows[i].text), &j, c, NC);
		int rc = journal_resumable(&j, SHA, "1.0000", rows[i].shard, why, sizeof why);
		CHECK(rc == rows[i].rc, "row %zu: journal_resumable %d (%s)", i, rc, why);
		CHECK_STR(why, rows[i].why);
	}
}

static void test_decide(void)
{
	static const struct {
		struct resume_cell c;
		int retries;
		enum resume_action action;
		int attempt, record, interruptions;
	} rows[] = {
		{ { 0, 0, -1, 0 }, 1, RESUME_RUN, 1, 0, 0 },
		{ { 1, 0, -1, 0 }, 1, RESUME_RUN, 2, 1, 0 },
		{ { 1, 1, -1, 0 }, 1, RESUME_RUN, 2, 0, 0 },   /* recorded before a second crash at boot */
		{ { 1, 0, -1, 0 }, 0, RESUME_FAIL, 0, 1, 1 },  /* retries = 0: one interruption fails it */
		{ { 2, 1, -1, 0 }, 1, RESUME_FAIL, 0, 1, 2 },
		{ { 3, 1, -1, 0 }, 2, RESUME_FAIL, 0, 2, 3 },
		{ { 2, 1, -1, 0 }, 2, RESUME_RUN, 3, 1, 0 },
		{ { 2, 1, 0, 0 }, 1, RESUME_SKIP, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct resume_step s;
		resume_decide(&rows[i].c, rows[i].retries, &s);
		CHECK(s.action == rows[i].action, "row %zu: action %d", i, s.action);
		CHECK(s.attempt == rows[i].attempt, "row %zu: attempt %d", i, s.attempt);
		CHECK(s.record_interrupted == rows[i].record, "row %zu: record %d", i, s.record_interrupted);
		CHECK(s.interruptions == rows[i].interruptions, "row %zu: interruptions %d", i,
		      s.interruptions);
	}
	struct resume_step s;
	resume_decide(NULL, 1, &s);
	CHECK(s.action == RESUME_RUN && s.attempt == 1, "a cell no journal knows runs");
}

static void test_disks(void)
{
	const char *h = "{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"disks\":["
		"{\"name\":\"vda\",\"serial\":\"fsmresults\",\"wwn\":\"\",\"by_path\":\"pci-3\",\"verdict\":\"results-disk\"},"
		"{\"name\":\"vdb\",\"serial\":\"fsmtest0\",\"wwn\":\"\",\"by_path\":\"pci-4\",\"verdict\":\"taken\"},"
		"{\"name\":\"sda\",\"serial\":\"\",\"wwn\":\"0x5000\",\"by_path\":\"pci-5\",\"verdict\":\"taken\"},"
		"{\"name\":\"sdb\",\"serial\":\"\",\"wwn\":\"\",\"by_path\":\"pci-6\",\"verdict\":\"taken\"},"
		"{\"name\":\"sdc\",\"serial\":\"other\",\"wwn\":\"\",\"by_path\":\"pci-7\",\"verdict\":\"has-signature\"}"
		"],\"plan\":null}\n";
	static const struct { const char *serial, *wwn, *by_path; int took; } rows[] = {
		{ "fsmtest0", "", "pci-9", 1 },     /* moved to another slot: still the disk */
		{ "fsmtest0", "", "pci-4", 1 },
		{ "fsmtest1", "", "pci-4", 0 },     /* another disk in its slot is not it */
		{ "", "0x5000", "", 1 },
		{ "", "", "pci-6", 1 },
		{ "", "", "pci-7", 0 },
		{ "other", "", "pci-7", 0 },        /* not taken then */
		{ "fsmresults", "", "pci-3", 0 },   /* the results disk never */
		{ "", "", "", 0 },
	};
	struct journal j;
	struct resume_cell c[1];
	journal_scan(h, strlen(h), &j, c, 1);
	CHECK_INT(j.ndisks, 3);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(journal_took(&j, rows[i].serial, rows[i].wwn, rows[i].by_path) == rows[i].took,
		      "row %zu: %s %s %s", i, rows[i].serial, rows[i].wwn, rows[i].by_path);
	const char *v;
	size_t n;
	CHECK(json_item("[1, {\"a\":[2]} ,3]", 18, 1, &v, &n) == 0 && n == 9 && v[0] == '{', "item 1");
	CHECK(json_item("[1,2]", 5, 2, &v, &n) < 0, "past the end");
	CHECK(json_item("[]", 2, 0, &v, &n) < 0, "empty");
}

/* The write cache the run's first boot found, by serial, from its header's conditions: a
 * later header (a resumed boot that found what an interrupted cell left) does not replace it. */
static void test_first_write_cache(void)
{
	static const char text[] =
		"{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"conditions\":{\"inputs\":{\"disks\":["
		"{\"serial\":\"S1\",\"write_cache\":\"on\"},{\"serial\":\"S2\",\"write_cache\":\"off\"},"
		"{\"serial\":\"S3\",\"write_cache\":\"write back\"},{\"serial\":\"\",\"write_cache\":\"on\"}]}}}\n"
		"{\"v\":1,\"type\":\"header\",\"run\":\"R1\",\"conditions\":{\"inputs\":{\"disks\":["
		"{\"serial\":\"S1\",\"write_cache\":\"off\"}]}}}\n";
	struct journal j;
	struct resume_cell c[1];
	journal_scan(text, strlen(text), &j, c, 1);
	const char *v = journal_first_write_cache(&j, "S1");
	CHECK(v && strcmp(v, "on") == 0, "S1: the first boot's on, not the second's off: %s", v ? v : "NULL");
	v = journal_first_write_cache(&j, "S2");
	CHECK(v && strcmp(v, "off") == 0, "S2: %s", v ? v : "NULL");
	CHECK(journal_first_write_cache(&j, "S3") == NULL, "the kernel's belief is not the device's word");
	CHECK(journal_first_write_cache(&j, "") == NULL, "no serial, nothing to match");
	CHECK(journal_first_write_cache(&j, "S9") == NULL, "a disk the first boot did not list");
}

int main(void)
{
	test_first_write_cache();
	test_disks();
	test_valid();
	test_members();
	test_journals();
	test_decide();
	test_shard();
	return check_done("test_resume");
}
