/* cli/site.c: `fsmatrix site -o DIR`: a static site over a history (cli/site.h): its options,
 * the folder it may write, and the order of its pages. */
#include "cli/cli.h"
#include "cli/site.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char host_site_usage[] =
	"usage: fsmatrix site [--db FILE] -o DIR [--by date|kernel] [--url URL] [--all-metrics]\n"
	"                     [--window N] [--p P] [--magnitude M] [--otava-retest] [--quiet]\n"
	"  a static site over a history, self-contained (inline CSS, SVG and one small script),\n"
	"  for file:// or any static server: index.html (every cell and headline metric with a\n"
	"  sparkline, its last value, its change since its last change point, its share of the\n"
	"  limit and a mark when the newest run is outside the spread before it), regressions.html\n"
	"  (every change point once, newest first, new, acknowledged or fixed), feed.atom (the new\n"
	"  ones), runs.html, series/NAME.html (history show --html's chart) and run/NAME.html\n"
	"  (fsmatrix html's report). A page is written only when its bytes change\n"
	"  --db FILE     the history (default " HISTORY_DEFAULT_DB ")\n"
	"  -o DIR        the site's folder: made when missing; one that holds other files and\n"
	"                no " SITE_STATE " is refused\n"
	"  --by          the series' order: date (default) or kernel (as history show)\n"
	"  --url URL     where the site is published: the feed's links start with it\n"
	"  --all-metrics every metric, not only those the report's tables show\n"
	"  --window, --p, --magnitude, --otava-retest: the change points' rule, as history show\n"
	"  --quiet       no closing line\n";

static int number(const char *flag, const char *v, double lo, double hi, int lo_open, double *out)
{
	char *end;
	double d = strtod(v, &end);
	if (!*v || *end || !(d >= lo) || !(d <= hi) || (lo_open && d == lo))
		return host_usage_error("site", "%s: expected a number %s %g to %g, not \"%s\"", flag,
					lo_open ? "above" : "from", lo, hi, v);
	*out = d;
	return 0;
}

/* A valued option f with its value v. 0, or 2 after a usage line. */
static int valued(struct site_opts *o, const char *f, const char *v)
{
	double d;
	if (strcmp(f, "--db") == 0)
		o->db = v;
	else if (strcmp(f, "-o") == 0)
		o->dir = v;
	else if (strcmp(f, "--url") == 0)
		o->url = v;
	else if (strcmp(f, "--by") == 0) {
		if (strcmp(v, "date") && strcmp(v, "kernel"))
			return host_usage_error("site", "--by: date or kernel, not \"%s\"", v);
		o->by_kernel = strcmp(v, "kernel") == 0;
	} else if (strcmp(f, "--window") == 0) {
		if (number(f, v, 2, CP_WINDOW_MAX, 0, &d))
			return 2;
		if (d != (double)(size_t)d)
			return host_usage_error("site", "--window: a whole number, not \"%s\"", v);
		o->o.window = (size_t)d;
	} else if (strcmp(f, "--p") == 0)
		return number(f, v, 0, 1, 1, &o->o.max_p);
	else if (strcmp(f, "--magnitude") == 0)
		return number(f, v, 0, 1e9, 0, &o->o.min_magnitude);
	else
		return -1;
	return 0;
}

static int parse(struct site_opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *f = argv[i];
		if (strcmp(f, "--all-metrics") == 0)
			o->all_metrics = 1;
		else if (strcmp(f, "--otava-retest") == 0)
			o->o.otava_retest = 1;
		else if (strcmp(f, "--quiet") == 0)
			o->quiet = 1;
		else if (f[0] != '-')
			return host_usage_error("site", "unexpected operand \"%s\" (the history is --db "
						"FILE, the folder -o DIR)", f);
		else if (i + 1 >= argc) {
			static const char *const names[] = { "--db", "-o", "--url", "--by", "--window",
							     "--p", "--magnitude" };
			for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
				if (strcmp(f, names[k]) == 0)
					return host_usage_error("site", "%s needs a value", f);
			return host_usage_error("site", "unknown option \"%s\"", f);
		} else {
			int rc = valued(o, f, argv[i + 1]);
			if (rc < 0)
				return host_usage_error("site", "unknown option \"%s\"", f);
			if (rc)
				return rc;
			i++;
		}
	}
	if (!o->dir)
		return host_usage_error("site", "no folder given (-o DIR)");
	return 0;
}

/* 0 when dir may be written: missing, empty, or a site already (it holds SITE_STATE); its
 * sub-folders made. Else 1 (or 2) after a line. */
static int check_dir(const char *dir)
{
	struct stat sb;
	char p[4096];
	if (host_check_operand("site", dir, ROLE_DIR) < 0)
		return 2;
	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "fsmatrix site: refusing to write %s: not a folder\n", dir);
			return 2;
		}
		snprintf(p, sizeof p, "%s/%s", dir, SITE_STATE);
		DIR *d = opendir(dir);
		struct dirent *e;
		int other = 0;
		while (d && (e = readdir(d)))
			other |= strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		if (d)
			closedir(d);
		if (other && stat(p, &sb) != 0) {
			fprintf(stderr, "fsmatrix site: refusing to write into %s: it holds files and is "
				"no fsmatrix site (no %s); name a new or empty folder\n", dir, SITE_STATE);
			return 2;
		}
	} else if (mkdir(dir, 0777) != 0) {
		fprintf(stderr, "fsmatrix site: unable to make %s: %s\n", dir, strerror(errno));
		return 1;
	}
	static const char *const subs[] = { "series", "run" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, subs[i]);
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "fsmatrix site: unable to make %s: %s\n", p, strerror(errno));
			return 1;
		}
	}
	return 0;
}

/* The pages, then the state file (last: a write stopped part way redoes its run pages). */
static int write_pages(struct site *s)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", s->o->dir, SITE_STATE);
	s->state = file_read(p, 0, NULL);
	s->state_out = open_memstream(&s->state_buf, &s->state_len);
	fprintf(s->state_out, "# fsmatrix site: each run page's key (its source and figures)\n");
	site_summary(s);
	site_regressions(s);
	site_feed(s);
	site_series(s);
	site_runs(s);
	if (fclose(s->state_out) == 0)
		site_put(s, SITE_STATE, s->state_buf, s->state_len);
	s->state_out = NULL;
	free(s->state_buf);
	free(s->state);
	return s->failed ? 1 : 0;
}

int host_cmd_site(int argc, char **argv)
{
	struct site_opts o = { .db = HISTORY_DEFAULT_DB,
			       .o = { CP_WINDOW, CP_MAX_P, CP_MIN_MAGNITUDE, 0 } };
	int rc = parse(&o, argc, argv);
	if (rc)
		return rc;
	const char *slash = strrchr(o.db, '/');
	o.db_name = slash && slash[1] ? slash + 1 : o.db;
	struct site s = { .o = &o };
	s.h = history_open(o.db, 0);
	if (!s.h)
		return 1;
	/* read whole before the folder is made: a history that cannot be read leaves none */
	rc = site_read(&s);
	if (rc == 0)
		rc = check_dir(o.dir);
	if (rc == 0)
		rc = write_pages(&s);
	if ((rc == 0 || s.written + s.kept + s.failed > 0) && !o.quiet) {
		size_t fresh = 0;
		for (size_t i = 0; i < s.ncp; i++)
			fresh += s.cp[i].state == TRIAGE_NEW;
		printf("%s: %zu series, %zu change point%s (%zu new), %zu run%s: %zu page%s written, "
		       "%zu unchanged%s\n", o.dir, s.nrow, s.ncp, s.ncp == 1 ? "" : "s", fresh, s.nrun,
		       s.nrun == 1 ? "" : "s", s.written, s.written == 1 ? "" : "s", s.kept,
		       s.failed ? ", some not written" : "");
	}
	site_data_free(&s);
	sqlite3_close(s.h);
	return rc;
}
