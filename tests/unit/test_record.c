/* test_record.c: JSON writer, CRC-32 vectors, console framing, run id, SHA-256 vectors. */
#include "check.h"
#include "lib/record.h"
#include "lib/sha256.h"
#include <jansson.h>
#include <stdint.h>

static void test_crc(void)
{
	static const struct { const char *in; uint32_t want; } rows[] = {
		{ "", 0x00000000 },
		{ "a", 0xe8b7be43 },
		{ "123456789", 0xcbf43926 },
		{ "The quick brown fox jumps over the lazy dog", 0x414fa339 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(crc32_ieee(0, rows[i].in, strlen(rows[i].in)) == rows[i].want, "crc32(\"%s\")", rows[i].in);
	/* incremental equals one shot */
	uint32_t c = crc32_ieee(0, "1234", 4);
	CHECK(crc32_ieee(c, "56789", 5) == 0xcbf43926u, "incremental crc");
}

static void test_writer(void)
{
	char buf[512];
	struct jw w;

	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "event");
	jw_kstr(&w, "s", "a\"b\\c\nd\te\x01\x7f" "\xc3\xa9");
	jw_kint(&w, "n", -42);
	jw_kdouble(&w, "ms", 1.26, 1);
	jw_kbool(&w, "ok", 1);
	jw_key(&w, "none");
	jw_str(&w, NULL);
	jw_key(&w, "list");
	jw_arr(&w);
	jw_int(&w, 1);
	jw_obj(&w);
	jw_kstr(&w, "k", "v");
	jw_end_obj(&w);
	jw_arr(&w);
	jw_end_arr(&w);
	jw_end_arr(&w);
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), 0);
	CHECK_STR(buf, "{\"v\":1,\"type\":\"event\",\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f\xc3\xa9\","
		  "\"n\":-42,\"ms\":1.3,\"ok\":true,\"none\":null,\"list\":[1,{\"k\":\"v\"},[]]}");

	/* overflow is sticky and reported */
	char small[16];
	jw_init(&w, small, sizeof small);
	record_begin(&w, "header");
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), -1);

	/* unbalanced nesting is reported */
	jw_init(&w, buf, sizeof buf);
	jw_obj(&w);
	CHECK_INT(jw_done(&w), -1);
	jw_init(&w, buf, sizeof buf);
	jw_obj(&w);
	jw_key(&w, "dangling");
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), -1);
}

static void test_frame(void)
{
	const char *json = "{\"v\":1,\"type\":\"trailer\",\"cells\":0}";
	char line[256], bad[256];
	const char *got;
	size_t gotlen;
	int n = record_frame(json, strlen(json), line, sizeof line);

	CHECK(n > 0, "frame length %d", n);
	CHECK(strncmp(line, "FSMREC ", 7) == 0, "prefix: %s", line);
	CHECK_INT(strlen(line), n);
	CHECK_INT(record_unframe(line, strlen(line), &got, &gotlen), 0);
	CHECK(gotlen == strlen(json) && memcmp(got, json, gotlen) == 0, "round trip");

	/* the same with serial line endings */
	snprintf(bad, sizeof bad, "%s\r\n", line);
	CHECK_INT(record_unframe(bad, strlen(bad), &got, &gotlen), 0);

	/* one flipped byte in the json */
	strcpy(bad, line);
	bad[n - 3] ^= 0x20;
	CHECK_INT(record_unframe(bad, strlen(bad), &got, &gotlen), -1);
	/* a flipped crc digit */
	strcpy(bad, line);
	bad[8] = bad[8] == '0' ? '1' : '0';
	CHECK_INT(record_unframe(bad, strlen(bad), &got, &gotlen), -1);
	/* truncated */
	CHECK_INT(record_unframe(line, (size_t)n - 5, &got, &gotlen), -1);
	CHECK_INT(record_unframe(line, 12, &got, &gotlen), -1);
	/* uppercase hex and wrong prefix are not ours */
	CHECK_INT(record_unframe("FSMREC ZZZZZZZZ {}", 18, &got, &gotlen), -1);
	CHECK_INT(record_unframe("fsmrec 00000000 {}", 18, &got, &gotlen), -1);
	/* human progress lines are not records */
	CHECK_INT(record_unframe("fsmatrix: loading modules", 25, &got, &gotlen), -1);
	/* output too small */
	CHECK_INT(record_frame(json, strlen(json), line, 20), -1);
}

static void test_run_id(void)
{
	const unsigned char s[3] = { 0xab, 0x01, 0xff };
	char id[32];
	record_run_id(1795980600LL, s, id); /* 2026-11-29 19:30:00 UTC */
	CHECK_STR(id, "20261129-193000-ab01ff");
}

static void test_sha256(void)
{
	static const struct { const char *in; const char *want; } rows[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char hex[65];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		sha256_hex(rows[i].in, strlen(rows[i].in), hex);
		CHECK_STR(hex, rows[i].want);
	}
	/* a million 'a', fed in uneven pieces to cross block boundaries */
	struct sha256 st;
	unsigned char d[32], a[997];
	memset(a, 'a', sizeof a);
	sha256_init(&st);
	size_t left = 1000000;
	while (left) {
		size_t n = left < sizeof a ? left : sizeof a;
		sha256_update(&st, a, n);
		left -= n;
	}
	sha256_final(&st, d);
	CHECK(d[0] == 0xcd && d[1] == 0xc7 && d[31] == 0xd0, "sha256 of 10^6 'a'");
	CHECK_INT(sha256_file("tests/fixtures/does-not-exist", hex), -1);
}

/* Text that is not UTF-8 (a plan value, a tool's output) still makes valid JSON: each byte
 * outside a well-formed sequence is escaped as its Latin-1 code point, and jansson, which
 * refuses invalid UTF-8, reads every record back. */
static void test_utf8(void)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "noatime\xff", "\"noatime\\u00ff\"" },
		/* well-formed: 2, 3 and 4 bytes, and the last code point */
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
		  "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"" },
		{ "\x80", "\"\\u0080\"" },                              /* a lone continuation */
		{ "a\xc3", "\"a\\u00c3\"" },                            /* cut short at the end */
		{ "\xe2\x82x", "\"\\u00e2\\u0082x\"" },                 /* cut short inside */
		{ "\xc0\xaf", "\"\\u00c0\\u00af\"" },                   /* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"" },        /* overlong, 3 bytes */
		{ "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" }, /* overlong, 4 bytes */
		{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },        /* a UTF-16 surrogate */
		{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" }, /* past U+10FFFF */
		{ "\xf5\xfe", "\"\\u00f5\\u00fe\"" },
		{ "\xc3\xa9\xa9", "\"\xc3\xa9\\u00a9\"" },              /* one continuation too many */
	};
	char buf[256];
	struct jw w;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		jw_init(&w, buf, sizeof buf);
		jw_str(&w, rows[i].in);
		CHECK_STR(buf, rows[i].want);
		json_t *j = json_loads(buf, JSON_DECODE_ANY, NULL);
		CHECK(json_is_string(j), "row %zu: jansson cannot read %s", i, buf);
		json_decref(j);
	}
	/* keys too, in a whole record */
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "fatal");
	jw_kstr(&w, "k\xff", "plan.ini:4: mount: bad (mount = noatime\xff)");
	jw_end_obj(&w);
	CHECK_INT(jw_done(&w), 0);
	CHECK_STR(buf, "{\"v\":1,\"type\":\"fatal\",\"k\\u00ff\":\"plan.ini:4: mount: bad "
		  "(mount = noatime\\u00ff)\"}");
	json_t *j = json_loads(buf, 0, NULL);
	CHECK(json_is_object(j), "jansson cannot read %s", buf);
	json_decref(j);
}

/* jw_raw: a value made by another writer, placed with the same commas as any value */
static void test_raw(void)
{
	char buf[256];
	struct jw w;
	static const struct { const char *raw; const char *want; } rows[] = {
		{ "{\"a\":1}", "{\"x\":0,\"r\":{\"a\":1},\"l\":[[1,2],3]}" },
		{ "", "{\"x\":0,\"r\":null,\"l\":[[1,2],3]}" },
		{ NULL, "{\"x\":0,\"r\":null,\"l\":[[1,2],3]}" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		jw_init(&w, buf, sizeof buf);
		jw_obj(&w);
		jw_kint(&w, "x", 0);
		jw_key(&w, "r");
		jw_raw(&w, rows[i].raw, rows[i].raw ? strlen(rows[i].raw) : 0);
		jw_key(&w, "l");
		jw_arr(&w);
		jw_raw(&w, "[1,2]", 5);
		jw_int(&w, 3);
		jw_end_arr(&w);
		jw_end_obj(&w);
		CHECK_INT(jw_done(&w), 0);
		CHECK_STR(buf, rows[i].want);
	}
}

/* A comma list as an array: empty, one, several, an empty item kept. */
static void test_klist(void)
{
	static const struct { const char *list, *want; } rows[] = {
		{ "", "{\"k\":[]}" },
		{ "nobh", "{\"k\":[\"nobh\"]}" },
		{ "nr_requests@vdb,scheduler@md0", "{\"k\":[\"nr_requests@vdb\",\"scheduler@md0\"]}" },
		{ "a,,b", "{\"k\":[\"a\",\"\",\"b\"]}" },
	};
	char buf[256];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct jw w;
		jw_init(&w, buf, sizeof buf);
		jw_obj(&w);
		jw_klist(&w, "k", rows[i].list);
		jw_end_obj(&w);
		CHECK_INT(jw_done(&w), 0);
		CHECK_STR(buf, rows[i].want);
	}
}

int main(void)
{
	test_klist();
	test_crc();
	test_writer();
	test_utf8();
	test_raw();
	test_frame();
	test_run_id();
	test_sha256();
	return check_done("test_record");
}
