/* cli/site_runs.c: the site's runs.html (every run, newest first) and run/NAME.html, one
 * per run: its report as `fsmatrix html` writes it (cli/html.c, the same code), read again
 * from the source the history names. A run's page is remade only when its key changes (its
 * source's size and time, its figures in the history): reading a thousand runs' records
 * every night is what a site over a long history must not do. A run whose source cannot be
 * read gets a page of the figures the history kept. */
#include "cli/cli.h"
#include "cli/site.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* what a run page is made of: a change to how it is made bumps it */
#define RUN_PAGE_FORMAT 1

/* fsmatrix html's page has no style for it: the links apart by their text */
static const char run_nav[] =
	"<nav><a href=\"../index.html\">summary</a> | <a href=\"../regressions.html\">regressions</a>"
	" | <a href=\"../runs.html\">runs</a> | <a href=\"../feed.atom\">feed</a></nav>\n";

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL;
}

static void run_key(const struct site_run *r, char *out, size_t len)
{
	struct stat sb;
	char st[96] = "unreadable";
	if (stat(r->source, &sb) == 0)
		snprintf(st, sizeof st, "%lld.%lld.%09ld", (long long)sb.st_size,
			 (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec);
	char n[32];
	snprintf(n, sizeof n, "%d.%d", RUN_PAGE_FORMAT, r->nfig);
	uint64_t h = fnv(fnv(fnv(fnv(fnv(1469598103934665603ULL, r->run), r->source), r->kernels), st), n);
	snprintf(out, len, "%016llx", (unsigned long long)h);
}

/* The page of a run the history names but whose records cannot be read. */
static void fallback(struct site *s, const struct site_run *r, FILE *f)
{
	char date[32];
	history_date(r->time, date, sizeof date);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
	      "fsmatrix run</title>\n</head>\n<body>\n", f);
	fputs(run_nav, f);
	fputs("<h1>Run ", f);
	html_escape(f, r->run);
	fprintf(f, "</h1>\n<p>%s UTC, kernel ", date);
	html_escape(f, r->kernels);
	fputs(". Its records, at <code>", f);
	html_escape(f, r->source);
	fputs("</code> when it was added, cannot be read now: the figures the history kept.</p>\n", f);
	site_run_figures(s, r, f);
	fputs("</body>\n</html>\n", f);
}

static int run_page(struct site *s, const struct site_run *r, const struct runset *rs)
{
	char rel[SITENAME_MAX + 16], *buf;
	size_t len;
	snprintf(rel, sizeof rel, "run/%s.html", r->name);
	FILE *f = site_page(&buf, &len);
	if (!f)
		return site_done(s, rel, f, &buf, &len);
	size_t i = 0;
	while (rs && i < rs->n && strcmp(rs->run[i].id ? rs->run[i].id : "", r->run))
		i++;
	if (rs && i < rs->n) {
		struct runset one = { .run = &rs->run[i], .n = 1 };
		struct report_opts o = { .format = "html" };
		html_report(f, &one, &o, run_nav);
	} else
		fallback(s, r, f);
	return site_done(s, rel, f, &buf, &len);
}

static int by_source(const void *a, const void *b)
{
	const struct site_run *const *x = a, *const *y = b;
	return strcmp((*x)->source, (*y)->source);
}

/* The pages of the runs whose key changed, each source read once for all its runs. */
static int run_pages(struct site *s)
{
	const struct site_run **todo = malloc((s->nrun + 1) * sizeof *todo);
	size_t n = 0;
	int rc = 0;
	if (!todo)
		return -1;
	for (size_t i = 0; i < s->nrun; i++) {
		char rel[SITENAME_MAX + 16], old[64], key[64];
		snprintf(rel, sizeof rel, "run/%s.html", s->run[i].name);
		run_key(&s->run[i], key, sizeof key);
		site_state_set(s, rel, key);
		if (strcmp(site_state_key(s, rel, old, sizeof old), key) != 0)
			todo[n++] = &s->run[i];
		else
			s->kept++;
	}
	qsort(todo, n, sizeof *todo, by_source);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && strcmp(todo[b]->source, todo[a]->source) == 0; b++)
			;
		struct runset rs = { 0 };
		const char *src = todo[a]->source;
		struct stat sb;
		/* a source gone is said here, once; one that cannot be read, by report_load */
		int gone = !*src || stat(src, &sb) != 0;
		int bad = gone || report_load_all(&src, 1, &rs) != 0;
		if (gone)
			fprintf(stderr, "fsmatrix site: %s: %s: the page%s of its run%s show%s the "
				"history's figures\n", *src ? src : "(no source)", *src ? strerror(errno) :
				"not kept", b - a > 1 ? "s" : "", b - a > 1 ? "s" : "", b - a > 1 ? "" : "s");
		for (size_t k = a; k < b; k++)
			rc |= run_page(s, todo[k], bad ? NULL : &rs);
		report_free(&rs);
	}
	free(todo);
	return rc;
}

static void runs_list(struct site *s)
{
	char *buf;
	size_t len;
	FILE *f = site_page(&buf, &len);
	if (!f) {
		site_done(s, "runs.html", f, &buf, &len);
		return;
	}
	site_head(f, "fsmatrix: runs", "");
	fprintf(f, "<h1>Runs</h1>\n<p class=\"note\">%zu runs, newest first; each links to its "
		"report.</p>\n<table id=\"runs\">\n<thead><tr><th>run</th><th>date (UTC)</th>"
		"<th>kernel</th><th>figures</th><th>source</th></tr></thead>\n<tbody>\n", s->nrun);
	for (size_t i = 0; i < s->nrun; i++) {
		const struct site_run *r = &s->run[i];
		char date[32];
		history_date(r->time, date, sizeof date);
		fprintf(f, "<tr id=\"%s\"><td><a href=\"run/%s.html\">", r->name, r->name);
		html_escape(f, r->run);
		fprintf(f, "</a></td><td>%s</td><td>", date);
		html_escape(f, r->kernels);
		fprintf(f, "</td><td class=\"num\">%d</td><td>", r->nfig);
		html_escape(f, r->source);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
	site_tail(f);
	site_done(s, "runs.html", f, &buf, &len);
}

int site_runs(struct site *s)
{
	runs_list(s);
	return run_pages(s);
}
