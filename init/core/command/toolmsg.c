/* core/command/toolmsg.c: the reason line of a failed tool's output (toolmsg.h). */
#include "core/command/toolmsg.h"

#include <stdio.h>
#include <string.h>

static int word_char(char c)
{
	return c && c != ' ' && c != '\t' && c != '(' && c != ')';
}

int tool_banner(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && word_char(s[i]))
		i++;
	if (i == 0 || i == n || s[i] != ' ')
		return 0;
	i++;
	if (n - i > 8 && strncmp(s + i, "version ", 8) == 0)
		i += 8;
	else if (i < n && s[i] == 'v')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return 0;
	while (i < n && word_char(s[i]))
		i++;
	if (i == n)
		return 1;
	/* " (5-Feb-2023)" closes the line, or it says more than its version */
	return n - i >= 3 && s[i] == ' ' && s[i + 1] == '(' && s[n - 1] == ')' &&
	       !memchr(s + i + 2, ')', n - i - 3);
}

/* The first reason line of text into buf; 1 when found. */
static int reason_of(const char *text, char *buf, size_t len)
{
	while (text && *text) {
		size_t l = strcspn(text, "\n"), b = 0;
		while (b < l && (text[b] == ' ' || text[b] == '\t'))
			b++;
		size_t e = l;
		while (e > b && (text[e - 1] == '\r' || text[e - 1] == ' ' || text[e - 1] == '\t'))
			e--;
		if (e > b && !tool_banner(text + b, e - b)) {
			snprintf(buf, len, "%.*s", (int)(e - b), text + b);
			return 1;
		}
		text += l + (text[l] == '\n');
	}
	return 0;
}

void tool_reason(const char *err, const char *out, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!reason_of(err, buf, len))
		reason_of(out, buf, len);
}
