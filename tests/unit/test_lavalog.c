/* test_lavalog.c: LAVA job log lines back into the console lines they carry, one row per
 * case: lines as lava-run 2023.01 wrote them (tests/boot/24-lava.sh), as lava-server's
 * output.yaml holds them ("- " before each), every PyYAML escape, LAVA's own '"' -> '\"',
 * and what is no console line. Then a whole real log: every framed record in it passes its
 * CRC once decoded. */
#include "check.h"
#include "report/lavalog.h"
#include "lib/record.h"

#include <stdio.h>
#include <stdlib.h>

static const struct row {
	const char *name;
	const char *line;
	enum lava_line kind;
	const char *console;    /* LAVA_TARGET: the text back */
} rows[] = {
	{ "a plain target line, from lava-run",
	  "{\"dt\": \"2026-12-01T00:11:56.414978\", \"lvl\": \"target\", \"msg\": \"fsmatrix: plan "
	  "default from /plans/default.ini (cmdline), sha256 967d16751b103170...: 54 cells\"}",
	  LAVA_TARGET, "fsmatrix: plan default from /plans/default.ini (cmdline), sha256 "
	  "967d16751b103170...: 54 cells" },
	{ "the same in lava-server's output.yaml",
	  "- {\"dt\": \"2026-12-01T00:11:56.414978\", \"lvl\": \"target\", \"msg\": \"fsmatrix: ok\"}",
	  LAVA_TARGET, "fsmatrix: ok" },
	{ "a record: LAVA's \\\" then YAML's escapes of both characters",
	  "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"FSMREC 1e5a1db0 {\\\\\\\"v\\\\\\\":1,"
	  "\\\\\\\"t\\\\\\\":\\\\\\\"a\\\\nb\\\\\\\"}\"}",
	  LAVA_TARGET, "FSMREC 1e5a1db0 {\"v\":1,\"t\":\"a\\nb\"}" },
	{ "a JSON-escaped quote inside a string keeps its backslash (made with lava_common.log.dump)",
	  "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"{\\\\\\\"e\\\\\\\":\\\\\\\"say \\\\\\\\\\\"hi"
	  "\\\\\\\\\\\"\\\\\\\"}\"}",
	  LAVA_TARGET, "{\"e\":\"say \\\"hi\\\"\"}" },
	/* what lava_common.log.dump wrote for "\tA\u00e9\u00a0\x1b\0z/ " (LAVA itself drops
	 * ESC from the console first), then the escapes it does not use but YAML has */
	{ "PyYAML's escapes", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\tA\\xE9\\_\\e\\0z/ \"}",
	  LAVA_TARGET, "\tA\xc3\xa9\xc2\xa0\x1b" "\0z/ " },
	{ "YAML's other escapes", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\u00e9\\/\\ \\N\"}",
	  LAVA_TARGET, "\xc3\xa9/ \xc2\x85" },
	{ "an astral code point", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\U0001F600\"}",
	  LAVA_TARGET, "\xf0\x9f\x98\x80" },
	{ "an empty console line", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\"}", LAVA_TARGET, "" },
	{ "the dispatcher's own line",
	  "{\"dt\": \"2026-12-01T00:04:34.46\", \"lvl\": \"info\", \"msg\": \"lava-dispatcher, installed "
	  "at version: 2023.01\"}", LAVA_OTHER, NULL },
	{ "a results line",
	  "{\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"disk_ext4_defaults_seq\", "
	  "\"definition\": \"fsmatrix\", \"measurement\": \"98.6\", \"result\": \"pass\", \"units\": \"MB/s\"}}",
	  LAVA_OTHER, NULL },
	{ "a feedback line of another namespace",
	  "{\"dt\": \"x\", \"lvl\": \"feedback\", \"msg\": \"FSMREC 00000000 {}\", \"ns\": \"other\"}",
	  LAVA_OTHER, NULL },
	{ "an unknown escape", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\q\"}", LAVA_OTHER, NULL },
	{ "a short \\x escape", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\x4\"}", LAVA_OTHER, NULL },
	{ "an unterminated scalar", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"abc}", LAVA_OTHER, NULL },
	{ "text after the scalar", "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"abc\", \"x\": 1}",
	  LAVA_OTHER, NULL },
	{ "a console line", "FSMREC 1e5a1db0 {\"v\":1}", LAVA_NOT, NULL },
	{ "a JSON record", "{\"v\":1,\"type\":\"cell\"}", LAVA_NOT, NULL },
	{ "a YAML item of something else", "- {\"a\": 1}", LAVA_NOT, NULL },
	{ "nothing", "", LAVA_NOT, NULL },
};

static void test_rows(void)
{
	char out[512];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		size_t len = 12345;
		enum lava_line k = lava_log_line(r->line, strlen(r->line), out, sizeof out, &len);
		CHECK(k == r->kind, "%s: kind %d, want %d", r->name, k, r->kind);
		if (k != LAVA_TARGET || !r->console)
			continue;
		/* the \0 row: compare by length */
		size_t want = strlen(r->console) + (strstr(r->name, "PyYAML") ? 4 : 0);
		CHECK(len == want && memcmp(out, r->console, want) == 0, "%s: got \"%.*s\" (%zu bytes)",
		      r->name, (int)len, out, len);
	}
	/* too long for the buffer: not decoded, never written past it */
	const char *l = "{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"abcdefghij\"}";
	size_t len;
	CHECK_INT(lava_log_line(l, strlen(l), out, 8, &len), LAVA_OTHER);
}

/* Every line of a real lava-run log: its framed records all pass their CRC once decoded. */
static void test_real_log(const char *path, int want_records)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "%s: unable to open", path);
	if (!f)
		return;
	static char line[1 << 20], out[1 << 20];
	int targets = 0, records = 0, bad = 0;
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\n"), len;
		if (lava_log_line(line, n, out, sizeof out, &len) != LAVA_TARGET)
			continue;
		targets++;
		const char *p = strstr(out, RECORD_PREFIX), *js;
		size_t jl;
		if (!p)
			continue;
		if (record_unframe(p, len - (size_t)(p - out), &js, &jl) == 0)
			records++;
		else
			bad++;
	}
	fclose(f);
	CHECK(targets > 100, "%s: %d target lines", path, targets);
	CHECK_INT(records, want_records);
	CHECK_INT(bad, 0);
}

int main(int argc, char **argv)
{
	test_rows();
	/* tests/run hands the decompressed fixture (tests/fixtures/lava/) when it has one */
	if (argc > 1)
		test_real_log(argv[1], atoi(argv[2]));
	return check_done("test_lavalog");
}
