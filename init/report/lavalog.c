/* report/lavalog.c: LAVA log lines back into console lines (lavalog.h). The escapes are those
 * of PyYAML's double-quoted scalars (its emitter's ESCAPE_REPLACEMENTS, and \xXX, \uXXXX,
 * \UXXXXXXXX for what it does not print as is). */
#include "report/lavalog.h"

#include <string.h>

static int hexval(const char *s, int digits, unsigned long *v)
{
	*v = 0;
	for (int i = 0; i < digits; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*v = *v * 16 + (unsigned long)d;
	}
	return 0;
}

/* One code point as UTF-8. Returns the bytes written, 0 when it does not fit. */
static size_t utf8(unsigned long cp, char *out, size_t room)
{
	unsigned char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | (cp >> 18 & 0x07));
		b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (n > room)
		return 0;
	memcpy(out, b, n);
	return n;
}

static const struct {
	char esc;
	unsigned long cp;
} simple[] = {
	{ '0', 0 }, { 'a', 7 }, { 'b', 8 }, { 't', 9 }, { '\t', 9 }, { 'n', 10 }, { 'v', 11 },
	{ 'f', 12 }, { 'r', 13 }, { 'e', 27 }, { ' ', ' ' }, { '"', '"' }, { '/', '/' },
	{ '\\', '\\' }, { 'N', 0x85 }, { '_', 0xa0 }, { 'L', 0x2028 }, { 'P', 0x2029 },
};

/* The double-quoted scalar starting after its opening quote at s (e is the end of the
 * line) into out. Returns a pointer past its closing quote, or NULL. */
static const char *unquote(const char *s, const char *e, char *out, size_t cap, size_t *len)
{
	size_t n = 0;
	while (s < e && *s != '"') {
		unsigned long cp;
		size_t w;
		if (*s != '\\') {
			cp = (unsigned char)*s++;
			if (n + 1 >= cap)
				return NULL;
			out[n++] = (char)cp;
			continue;
		}
		if (++s >= e)
			return NULL;
		int digits = *s == 'x' ? 2 : *s == 'u' ? 4 : *s == 'U' ? 8 : 0;
		if (digits) {
			if (e - s <= digits || hexval(s + 1, digits, &cp) < 0)
				return NULL;
			s += digits + 1;
		} else {
			size_t i;
			for (i = 0; i < sizeof simple / sizeof simple[0] && simple[i].esc != *s; i++)
				;
			if (i == sizeof simple / sizeof simple[0])
				return NULL;
			cp = simple[i].cp;
			s++;
		}
		if (n + 1 >= cap || (w = utf8(cp, out + n, cap - n - 1)) == 0)
			return NULL;
		n += w;
	}
	if (s >= e)
		return NULL;
	out[n] = '\0';
	*len = n;
	return s + 1;
}

#define LVL_TARGET "\"lvl\": \"target\""
#define MSG "\"msg\": \""

enum lava_line lava_log_line(const char *line, size_t n, char *out, size_t cap, size_t *outlen)
{
	const char *e = line + n;
	if (n >= 2 && line[0] == '-' && line[1] == ' ')
		line += 2;
	if (e - line < 8 || memcmp(line, "{\"dt\": \"", 8) != 0 || e[-1] != '}')
		return LAVA_NOT;
	/* dt comes first and is a plain timestamp: the level follows it */
	const char *lvl = memmem(line, (size_t)(e - line), "\"lvl\": \"", 8);
	if (!lvl)
		return LAVA_NOT;
	if ((size_t)(e - lvl) < sizeof LVL_TARGET - 1 ||
	    memcmp(lvl, LVL_TARGET, sizeof LVL_TARGET - 1) != 0)
		return LAVA_OTHER;
	const char *msg = lvl + sizeof LVL_TARGET - 1;
	if ((size_t)(e - msg) < 2 + sizeof MSG - 1 || memcmp(msg, ", " MSG, 2 + sizeof MSG - 1) != 0)
		return LAVA_OTHER;
	msg += 2 + sizeof MSG - 1;
	size_t len;
	const char *end = unquote(msg, e, out, cap, &len);
	if (!end || end + 1 != e)
		return LAVA_OTHER;
	/* ShellLogger's '"' -> '\"': every quote of the console has one backslash before it */
	size_t w = 0;
	for (size_t r = 0; r < len; r++) {
		if (out[r] == '\\' && r + 1 < len && out[r + 1] == '"')
			r++;
		out[w++] = out[r];
	}
	out[w] = '\0';
	*outlen = w;
	return LAVA_TARGET;
}
