/* cli/site_write.c: how `fsmatrix site` writes a page: only when its bytes changed, so that a
 * nightly write rewrites the pages whose data moved and leaves the rest (and their times)
 * alone; through a temporary file and a rename, so that a server never hands out half a
 * page. And what every page shares: its head, its links to the others, its figures. */
#include "cli/site.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char site_style[] =
	"nav{margin:0 0 1em;padding:.3em 0;border-bottom:1px solid #ccc}nav a{margin-right:1.2em}"
	"td.mark{font-weight:bold}tr:target td{background:#fff6c8}"
	"svg.spark{vertical-align:middle}svg.spark .line{fill:none;stroke:#4e79a7;stroke-width:1.2}"
	"svg.spark .other{stroke:#f28e2b;stroke-dasharray:3 2}"
	"svg.spark .cp{fill:#c00;stroke:none}svg.spark .last{fill:#222}"
	"th.sort{cursor:pointer}.filters{margin:.5em 0}.filters label{margin-right:1em}"
	"td.worse{background:#fde2e2}td.better{background:#dff3df}"
	"td.new{font-weight:bold}code{font-size:12px}td.wrap{white-space:normal;min-width:12em}"
	"td.ack{white-space:normal;min-width:24em}";

int site_put(struct site *s, const char *rel, const char *buf, size_t len)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/%s", s->o->dir, rel);
	FILE *f = fopen(path, "rb");
	if (f) {
		int same = 1;
		char chunk[65536];
		size_t at = 0, n;
		while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
			same = at + n <= len && memcmp(chunk, buf + at, n) == 0;
			at += n;
		}
		fclose(f);
		if (same && at == len) {
			s->kept++;
			return 0;
		}
	}
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "fsmatrix site: unable to write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		s->failed++;
		return -1;
	}
	s->written++;
	return 0;
}

FILE *site_page(char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	return open_memstream(buf, len);
}

int site_done(struct site *s, const char *rel, FILE *f, char **buf, size_t *len)
{
	int rc = -1;
	if (f && fclose(f) == 0)
		rc = site_put(s, rel, *buf, *len);
	else {
		fprintf(stderr, "fsmatrix site: unable to make %s: out of memory\n", rel);
		s->failed++;
	}
	free(*buf);
	*buf = NULL;
	return rc;
}

const char *site_state_key(struct site *s, const char *rel, char *out, size_t len)
{
	size_t rl = strlen(rel);
	out[0] = '\0';
	for (const char *p = s->state; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);
		if (ll > rl && strncmp(p, rel, rl) == 0 && p[rl] == ' ') {
			snprintf(out, len, "%.*s", (int)(ll - rl - 1), p + rl + 1);
			break;
		}
		p = eol ? eol + 1 : p + ll;
	}
	return out;
}

void site_state_set(struct site *s, const char *rel, const char *key)
{
	if (s->state_out)
		fprintf(s->state_out, "%s %s\n", rel, key);
}

void site_head(FILE *f, const char *title, const char *up)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", f);
	html_escape(f, title);
	fprintf(f, "</title>\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"new "
		"regressions\" href=\"%sfeed.atom\">\n<style>%s%s</style>\n</head>\n<body>\n",
		up, history_html_style, site_style);
	site_nav(f, up);
}

void site_nav(FILE *f, const char *up)
{
	fprintf(f, "<nav><a href=\"%sindex.html\">summary</a><a href=\"%sregressions.html\">"
		"regressions</a><a href=\"%sruns.html\">runs</a><a href=\"%sfeed.atom\">feed</a></nav>\n",
		up, up, up, up);
}

void site_tail(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

void site_num(double v, char *out, size_t len)
{
	double a = fabs(v);
	snprintf(out, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.4g", v);
}

void site_rfc3339(long long t, char *out, size_t len)
{
	time_t tt = (time_t)(t > 0 ? t : 0);
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, len, "1970-01-01T00:00:00Z");
}
