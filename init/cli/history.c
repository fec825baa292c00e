/* cli/history.c: `fsmatrix history`: its options and subcommands (add, list, cells, show, ack). */
#include "cli/cli.h"
#include "cli/history.h"

#include <stdlib.h>
#include <string.h>

const char host_history_usage[] =
	"usage: fsmatrix history [--db FILE] add SOURCE...\n"
	"       fsmatrix history [--db FILE] list\n"
	"       fsmatrix history [--db FILE] cells\n"
	"       fsmatrix history [--db FILE] show CELL METRIC [--by date|kernel] [--window N] [--p P]\n"
	"                        [--magnitude M] [--otava-retest] [--html FILE]\n"
	"       fsmatrix history [--db FILE] ack CELL METRIC RUN NOTE\n"
	"  runs kept in one SQLite file, and one cell's metric over them with its change points\n"
	"  --db FILE   the history (default " HISTORY_DEFAULT_DB "); add makes it when missing\n"
	"  add         the runs of each SOURCE (as fsmatrix report reads them); a run's cells\n"
	"              already kept (by run id and cell) stay as they are\n"
	"  list        the runs kept; cells: the cells, with their metrics\n"
	"  show        CELL (ID, or ID@SET for one kernel set) and METRIC (mbps, total_s, ...) over\n"
	"              the runs: each run's mean, stddev and repeats, its verdict, its conditions\n"
	"              group; the change points of each group's series (Apache Otava's rule)\n"
	"  ack         the change point of CELL (ID@SET for one kernel set) METRIC at RUN seen,\n"
	"              with NOTE: fsmatrix site shows it acknowledged, not new\n"
	"  --by        the runs' order: date (default) or kernel (the release in version order)\n"
	"  --window N  values the E-divisive search sees at once (2 to 1000; Otava's 50)\n"
	"  --p P       the t-test's largest p kept (0 < P <= 1; Otava's 0.001)\n"
	"  --magnitude M  the smallest relative change kept (0.05: 5%; Otava's 0)\n"
	"  --otava-retest  after a merge removal, retest as Otava does (its points exactly)\n"
	"  --html FILE  also the chart and table as one self-contained page\n";

struct hargs {
	const char *db, *sub, *html, *pos[REPORT_MAX_SOURCES];
	size_t npos;
	int by_kernel, show_only;
	struct cp_opts o;
};

static int number(const char *flag, const char *v, double lo, double hi, int lo_open, double *out)
{
	char *end;
	double d = v ? strtod(v, &end) : 0;
	if (!v || !*v || *end || !(d >= lo) || !(d <= hi) || (lo_open && d == lo))
		return host_usage_error("history", "%s: expected a number %s %g to %g, not \"%s\"", flag,
					lo_open ? "above" : "from", lo, hi, v ? v : "");
	*out = d;
	return 0;
}

/* One option at argv[*i] (its value after it). 0, or 2 after a usage line. */
static int option(struct hargs *a, int argc, char **argv, int *i)
{
	const char *f = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	double d = 0;
	static const char *const valued[] = { "--db", "--by", "--window", "--p", "--magnitude",
					      "--html", NULL };
	for (int k = 0; valued[k]; k++)
		if (strcmp(f, valued[k]) == 0) {
			if (!v)
				return host_usage_error("history", "%s needs a value", f);
			(*i)++;
		}
	if (strcmp(f, "--db") == 0)
		a->db = v;
	else if (strcmp(f, "--html") == 0)
		a->html = v, a->show_only++;
	else if (strcmp(f, "--by") == 0) {
		if (strcmp(v, "date") && strcmp(v, "kernel"))
			return host_usage_error("history", "--by: date or kernel, not \"%s\"", v);
		a->by_kernel = strcmp(v, "kernel") == 0;
		a->show_only++;
	} else if (strcmp(f, "--window") == 0) {
		if (number(f, v, 2, CP_WINDOW_MAX, 0, &d))
			return 2;
		if (d != (double)(size_t)d)
			return host_usage_error("history", "--window: a whole number, not \"%s\"", v);
		a->o.window = (size_t)d;
		a->show_only++;
	} else if (strcmp(f, "--p") == 0) {
		if (number(f, v, 0, 1, 1, &a->o.max_p))
			return 2;
		a->show_only++;
	} else if (strcmp(f, "--magnitude") == 0) {
		if (number(f, v, 0, 1e9, 0, &a->o.min_magnitude))
			return 2;
		a->show_only++;
	} else if (strcmp(f, "--otava-retest") == 0) {
		a->o.otava_retest = 1;
		a->show_only++;
	} else
		return host_usage_error("history", "unknown option \"%s\"", f);
	return 0;
}

static int parse(struct hargs *a, int argc, char **argv)
{
	int dashdash = 0;
	for (int i = 1; i < argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0) {
			dashdash = 1;
		} else if (!dashdash && argv[i][0] == '-' && argv[i][1]) {
			int rc = option(a, argc, argv, &i);
			if (rc)
				return rc;
		} else if (!a->sub) {
			a->sub = argv[i];
		} else if (a->npos < REPORT_MAX_SOURCES) {
			a->pos[a->npos++] = argv[i];
		} else {
			return host_usage_error("history", "more than %d operands", REPORT_MAX_SOURCES);
		}
	}
	if (!a->sub)
		return host_usage_error("history", "no subcommand given (add, list, cells, show or ack)");
	return 0;
}

static int run_show(const struct hargs *a)
{
	if (a->npos != 2)
		return host_usage_error("history", "show takes CELL and METRIC, not %zu operand%s",
					a->npos, a->npos == 1 ? "" : "s");
	if (a->html) {
		if (host_check_operand("history", a->html, ROLE_FILE) < 0)
			return 2;
		if (host_same_file(a->html, a->db)) {
			fprintf(stderr, "fsmatrix history: refusing to write %s: it is the history "
				"itself\n", a->html);
			return 2;
		}
	}
	return history_show(a->db, a->pos[0], a->pos[1], a->by_kernel, &a->o, a->html);
}

int host_cmd_history(int argc, char **argv)
{
	struct hargs a = { .db = HISTORY_DEFAULT_DB,
			   .o = { CP_WINDOW, CP_MAX_P, CP_MIN_MAGNITUDE, 0 } };
	int rc = parse(&a, argc, argv);
	if (rc)
		return rc;
	if (strcmp(a.sub, "show") == 0)
		return run_show(&a);
	if (a.show_only)
		return host_usage_error("history", "--by, --window, --p, --magnitude, --otava-retest "
					"and --html are show's");
	if (strcmp(a.sub, "add") == 0) {
		if (a.npos == 0)
			return host_usage_error("history", "add: no SOURCE given");
		for (size_t i = 0; i < a.npos; i++)
			if (host_same_file(a.pos[i], a.db)) {
				fprintf(stderr, "fsmatrix history: %s is the history itself, not a run\n",
					a.pos[i]);
				return 2;
			}
		return history_add(a.db, a.pos, a.npos);
	}
	if (strcmp(a.sub, "ack") == 0) {
		if (a.npos != 4)
			return host_usage_error("history", "ack takes CELL, METRIC, RUN and NOTE, not "
						"%zu operand%s", a.npos, a.npos == 1 ? "" : "s");
		return history_ack(a.db, a.pos[0], a.pos[1], a.pos[2], a.pos[3]);
	}
	if (strcmp(a.sub, "list") == 0 || strcmp(a.sub, "cells") == 0) {
		if (a.npos)
			return host_usage_error("history", "%s takes no operand (\"%s\")", a.sub, a.pos[0]);
		return strcmp(a.sub, "list") == 0 ? history_list(a.db) : history_cells(a.db);
	}
	return host_usage_error("history", "unknown subcommand \"%s\" (add, list, cells, show or ack)", a.sub);
}
