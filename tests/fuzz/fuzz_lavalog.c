/* fuzz_lavalog.c: lava_log_line on any line, and the round trip through LAVA's escaping.
 * Invariants: the text it gives back fits its buffer, NUL-terminated; a console line LAVA
 * would log (no newline, CR or ESC: LAVA drops those) comes back byte for byte after '"' ->
 * '\"' and PyYAML's double-quoted escaping, here done the way lava_common.log.dump does it. */
#include "fuzz.h"
#include "report/lavalog.h"

/* PyYAML's escaping of one byte taken as a code point below 256 (the fuzzer's bytes need not
 * be UTF-8; a byte over 0x7f goes out as \xXX and comes back as its UTF-8 form). */
static size_t yaml_escape(const unsigned char *s, size_t n, char *out)
{
	static const char *const named[32] = { ['\0'] = "0", ['\a'] = "a", ['\b'] = "b",
		['\t'] = "t", ['\v'] = "v", ['\f'] = "f", ['\n'] = "n", ['\r'] = "r", [0x1b] = "e" };
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];
		if (c < 32 && named[c])
			w += (size_t)sprintf(out + w, "\\%s", named[c]);
		else if (c < 32 || c >= 0x7f)
			w += (size_t)sprintf(out + w, "\\x%02X", c);
		else if (c == '"' || c == '\\')
			w += (size_t)sprintf(out + w, "\\%c", c);
		else
			out[w++] = (char)c;
	}
	return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[256];
	size_t len = 0;
	memset(out, 'x', sizeof out);
	if (lava_log_line((const char *)data, size, out, sizeof out, &len) == LAVA_TARGET) {
		FUZZ_ASSERT(len < sizeof out, "%zu bytes into %zu", len, sizeof out);
		FUZZ_ASSERT(out[len] == '\0', "not terminated");
	}

	/* the round trip, on ASCII lines as a serial console gives them */
	if (size > 200 || memchr(data, '\n', size) || memchr(data, '\r', size) || memchr(data, 0x1b, size))
		return 0;
	for (size_t i = 0; i < size; i++)
		if (data[i] >= 0x80)
			return 0;
	unsigned char lava[402];
	size_t ln = 0;
	for (size_t i = 0; i < size; i++) {
		if (data[i] == '"')
			lava[ln++] = '\\';
		lava[ln++] = data[i];
	}
	char line[2048];
	size_t w = (size_t)sprintf(line, "{\"dt\": \"2026-12-01T00:00:00\", \"lvl\": \"target\", \"msg\": \"");
	w += yaml_escape(lava, ln, line + w);
	w += (size_t)sprintf(line + w, "\"}");
	char back[512];
	FUZZ_ASSERT(lava_log_line(line, w, back, sizeof back, &len) == LAVA_TARGET, "own line refused");
	FUZZ_ASSERT(len == size && memcmp(back, data, size) == 0, "round trip changed the line");
	return 0;
}
