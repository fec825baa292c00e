/* lib/record.c: JSON writer, CRC-32 and console framing for run records. */
#include "lib/record.h"
#include "lib/stats.h"
#include "lib/utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void put(struct jw *w, const char *s, size_t n)
{
	if (w->err)
		return;
	if (w->len + n + 1 > w->cap) {
		w->err = 1;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void putc_(struct jw *w, char c) { put(w, &c, 1); }

/* Every value (and every key) is preceded by a comma unless it opens its container
 * or completes a key. */
static void sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0 && !w->first[w->depth - 1])
		putc_(w, ',');
	if (w->depth > 0)
		w->first[w->depth - 1] = 0;
}

void jw_init(struct jw *w, char *buf, size_t cap)
{
	memset(w, 0, sizeof *w);
	w->buf = buf;
	w->cap = cap;
	if (cap)
		buf[0] = '\0';
	else
		w->err = 1;
}

static void open_(struct jw *w, char c)
{
	sep(w);
	putc_(w, c);
	if (w->depth >= JW_DEPTH) {
		w->err = 1;
		return;
	}
	w->first[w->depth++] = 1;
}

static void close_(struct jw *w, char c)
{
	if (w->depth <= 0 || w->after_key) {
		w->err = 1;
		return;
	}
	w->depth--;
	putc_(w, c);
}

void jw_raw(struct jw *w, const char *json, size_t n)
{
	sep(w);
	if (json && n)
		put(w, json, n);
	else
		put(w, "null", 4);
}

void jw_obj(struct jw *w) { open_(w, '{'); }
void jw_end_obj(struct jw *w) { close_(w, '}'); }
void jw_arr(struct jw *w) { open_(w, '['); }
void jw_end_arr(struct jw *w) { close_(w, ']'); }

static void quoted(struct jw *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	putc_(w, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[7] = "\\u00";
		switch (c) {
		case '"': put(w, "\\\"", 2); break;
		case '\\': put(w, "\\\\", 2); break;
		case '\n': put(w, "\\n", 2); break;
		case '\r': put(w, "\\r", 2); break;
		case '\t': put(w, "\\t", 2); break;
		default: {
			/* Control bytes and DEL are escaped, and so is every byte outside a
			 * well-formed UTF-8 character (see record.h); characters pass as they are. */
			size_t k = c < 0x20 || c == 0x7f ? 0 : utf8_char(s + i, n - i);
			if (k == 0) {
				esc[4] = hex[c >> 4];
				esc[5] = hex[c & 15];
				put(w, esc, 6);
			} else {
				put(w, s + i, k);
				i += k - 1;
			}
		}
		}
	}
	putc_(w, '"');
}

void jw_key(struct jw *w, const char *key)
{
	if (w->depth <= 0 || w->after_key) {
		w->err = 1;
		return;
	}
	sep(w);
	quoted(w, key, strlen(key));
	putc_(w, ':');
	w->after_key = 1;
}

void jw_strn(struct jw *w, const char *s, size_t n)
{
	sep(w);
	quoted(w, s, n);
}

void jw_str(struct jw *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	jw_strn(w, s, strlen(s));
}

void jw_int(struct jw *w, long long v)
{
	char b[32];
	int n = snprintf(b, sizeof b, "%lld", v);
	sep(w);
	put(w, b, (size_t)n);
}

void jw_double(struct jw *w, double v, int decimals)
{
	char b[64];
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	int n = snprintf(b, sizeof b, "%.*f", decimals, v);
	sep(w);
	put(w, b, (size_t)n);
}

void jw_bool(struct jw *w, int v)
{
	sep(w);
	put(w, v ? "true" : "false", v ? 4 : 5);
}

void jw_null(struct jw *w)
{
	sep(w);
	put(w, "null", 4);
}

void jw_kstr(struct jw *w, const char *k, const char *s) { jw_key(w, k); jw_str(w, s); }
void jw_kint(struct jw *w, const char *k, long long v) { jw_key(w, k); jw_int(w, v); }
void jw_kdouble(struct jw *w, const char *k, double v, int d) { jw_key(w, k); jw_double(w, v, d); }
void jw_kbool(struct jw *w, const char *k, int v) { jw_key(w, k); jw_bool(w, v); }

void jw_klist(struct jw *w, const char *key, const char *list)
{
	jw_key(w, key);
	jw_arr(w);
	for (const char *o = list; *o;) {
		size_t n = strcspn(o, ",");
		jw_strn(w, o, n < 127 ? n : 127);
		o += n + (o[n] == ',');
	}
	jw_end_arr(w);
}

void jw_summary_stats(struct jw *w, const struct stats_cell *c)
{
	jw_obj(w);
	for (size_t m = 0; m < c->nmetric; m++) {
		struct summary s;
		if (stats_cell_summary(c, m, &s) < 0)
			continue;
		jw_key(w, c->name[m]);
		jw_obj(w);
		jw_kdouble(w, "min", s.min, 6);
		jw_kdouble(w, "median", s.median, 6);
		jw_kdouble(w, "mean", s.mean, 6);
		jw_kdouble(w, "max", s.max, 6);
		jw_kdouble(w, "stddev", s.stddev, 6);
		jw_kdouble(w, "cv", s.cv, 6);
		jw_end_obj(w);
	}
	jw_end_obj(w);
}

void record_begin(struct jw *w, const char *type)
{
	jw_obj(w);
	jw_kint(w, "v", RECORD_SCHEMA);
	jw_kstr(w, "type", type);
}

int jw_done(const struct jw *w)
{
	return (w->err || w->depth != 0 || w->after_key || w->len == 0) ? -1 : 0;
}

uint32_t crc32_ieee(uint32_t crc, const void *data, size_t len)
{
	static uint32_t table[256];
	static int ready;
	const unsigned char *p = data;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = 1;
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

int record_frame(const char *json, size_t jsonlen, char *out, size_t outlen)
{
	size_t need = sizeof RECORD_PREFIX - 1 + 9 + jsonlen;
	if (need + 1 > outlen)
		return -1;
	snprintf(out, outlen, RECORD_PREFIX "%08x ", (unsigned)crc32_ieee(0, json, jsonlen));
	memcpy(out + need - jsonlen, json, jsonlen);
	out[need] = '\0';
	return (int)need;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int record_unframe(const char *line, size_t n, const char **json, size_t *jsonlen)
{
	const size_t plen = sizeof RECORD_PREFIX - 1;
	uint32_t want = 0;

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	/* prefix, 8 hex digits, a space, and at least "{}" */
	if (n < plen + 9 + 2 || memcmp(line, RECORD_PREFIX, plen) != 0 || line[plen + 8] != ' ')
		return -1;
	for (size_t i = 0; i < 8; i++) {
		int v = hexval(line[plen + i]);
		if (v < 0)
			return -1;
		want = want << 4 | (uint32_t)v;
	}
	const char *j = line + plen + 9;
	size_t jl = n - plen - 9;
	if (crc32_ieee(0, j, jl) != want)
		return -1;
	*json = j;
	*jsonlen = jl;
	return 0;
}

void record_run_id(long long epoch, const unsigned char s[3], char out[32])
{
	time_t t = (time_t)epoch;
	struct tm tm;
	char ts[20];

	gmtime_r(&t, &tm);
	strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
	snprintf(out, 32, "%s-%02x%02x%02x", ts, s[0], s[1], s[2]);
}
