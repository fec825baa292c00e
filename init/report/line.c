/* report/line.c: the one writer of a report line, which every section of a report (header,
 * conditions, verdicts, problems) hands its lines to. */
#include "report/model.h"

#include <stdarg.h>
#include <stdio.h>

const char *report_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* Record strings are JSON and may hold "\n" or an escape sequence: shown as '?', so each
 * line stays one line and a record cannot drive the terminal (found by fuzz_report). */
char *report_plain(char *s)
{
	for (char *c = s; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			*c = '?';
	return s;
}

void report_line(report_line_fn line, void *ctx, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	line(ctx, report_plain(buf));
}
