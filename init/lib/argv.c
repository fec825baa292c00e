/* lib/argv.c: argument vectors in a fixed buffer. */
#include "lib/argv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void argv_init(struct argv *a)
{
	a->n = 0;
	a->v[0] = NULL;
	a->used = 0;
	a->overflow = 0;
}

/* Appends n bytes of word as one argument. */
static void add_n(struct argv *a, const char *word, size_t n)
{
	if (a->overflow)
		return;
	if (a->n >= ARGV_MAX || a->used + n + 1 > sizeof a->buf) {
		a->overflow = 1;
		return;
	}
	char *dst = a->buf + a->used;
	memcpy(dst, word, n);
	dst[n] = '\0';
	a->used += n + 1;
	a->v[a->n++] = dst;
	a->v[a->n] = NULL;
}

void argv_add(struct argv *a, const char *word)
{
	add_n(a, word, strlen(word));
}

void argv_addf(struct argv *a, const char *fmt, ...)
{
	char tmp[ARGV_BUF];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp) {
		a->overflow = 1;
		return;
	}
	add_n(a, tmp, (size_t)n);
}

int argv_split(struct argv *a, const char *s, char *err, size_t errlen)
{
	char word[ARGV_BUF];

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t n = 0;
		int quoted = 0;
		/* A word ends at a blank outside quotes; quotes may sit anywhere in it (a"b c"). */
		for (; *s && (quoted || (*s != ' ' && *s != '\t')); s++) {
			if (*s == '"') {
				quoted = !quoted;
				continue;
			}
			if (quoted && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
				s++;
			if (n + 1 >= sizeof word) {
				snprintf(err, errlen, "word too long");
				return -1;
			}
			word[n++] = *s;
		}
		if (quoted) {
			snprintf(err, errlen, "unterminated double quote");
			return -1;
		}
		add_n(a, word, n);
		if (a->overflow) {
			snprintf(err, errlen, "too many words (at most %d)", ARGV_MAX);
			return -1;
		}
	}
	return 0;
}

/* Words that a shell would split or interpret get double quotes. */
static int needs_quotes(const char *w)
{
	if (!*w)
		return 1;
	for (; *w; w++)
		if (strchr(" \t\"'\\$`*?[]|&;<>()#~!{}", *w))
			return 1;
	return 0;
}

size_t argv_join(const struct argv *a, char *buf, size_t len)
{
	size_t need = 0;

#define PUT(c) do { if (need + 1 < len) buf[need] = (c); need++; } while (0)
	for (int i = 0; i < a->n; i++) {
		const char *w = a->v[i];
		int q = needs_quotes(w);
		if (i)
			PUT(' ');
		if (q)
			PUT('"');
		for (; *w; w++) {
			if (q && strchr("\"\\$`", *w))
				PUT('\\');
			PUT(*w);
		}
		if (q)
			PUT('"');
	}
#undef PUT
	if (len)
		buf[need < len ? need : len - 1] = '\0';
	return need;
}

int argv_find(const struct argv *a, const char *w, int from)
{
	for (int i = from; i < a->n; i++)
		if (strcmp(a->v[i], w) == 0)
			return i;
	return -1;
}
