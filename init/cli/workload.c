/* cli/workload.c: `fsmatrix workload ...`: the engines /init runs, on a host directory, so
 * that they can be compared with fio and GNU tar on the same filesystem. The result is one
 * JSON record line on stdout, with the field names of the image's records, and a summary
 * for people on stderr. */
#include "cli/cli.h"
#include "core/model/plan.h"
#include "engines/engine.h"
#include "core/parse/plan_parse.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ usage */

#define USAGE_WIDTH 92

static char usage[4096];
static size_t used;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(usage + used, sizeof usage - used, fmt, ap);
	va_end(ap);
	if (n > 0)
		used = used + (size_t)n < sizeof usage ? used + (size_t)n : sizeof usage - 1;
}

/* One word on the line at *col, or on a new one indented to indent when it would pass
 * USAGE_WIDTH. */
static void put_word(const char *w, size_t n, size_t *col, size_t indent)
{
	if (*col + 1 + n > USAGE_WIDTH) {
		put("\n%*s", (int)indent, "");
		*col = indent;
	} else {
		put(" ");
		(*col)++;
	}
	put("%.*s", (int)n, w);
	*col += n;
}

/* The words of text, wrapped: a bracketed option ("[--data random|zero]") is one word. */
static void put_words(const char *text, size_t *col, size_t indent)
{
	while (*text) {
		size_t n = text[0] == '[' ? strcspn(text, "]") + 1 : strcspn(text, " ");
		if (n > strlen(text))
			n = strlen(text);
		put_word(text, n, col, indent);
		text += n;
		text += strspn(text, " ");
	}
}

/* `fsmatrix workload --help`, from the table of engines: a line for each, with its default
 * --size, options and operands, then what sizes take and each engine's note. */
const char *host_workload_usage(void)
{
	if (used)
		return usage;
	for (size_t i = 0; engines[i]; i++) {
		const struct engine *e = engines[i];
		char head[64], size[32], opt[48];
		snprintf(head, sizeof head, "%s fsmatrix workload %s", i ? "      " : "usage:", e->name);
		put("%s", head);
		size_t col = strlen(head), indent = col + 1;   /* continuations under the options */
		if (e->host_size) {
			plan_fmt_size(e->host_size, size, sizeof size);   /* 1g, 220m */
			snprintf(opt, sizeof opt, "[--size %s]", size);
			put_words(opt, &col, indent);
		}
		put_words(e->options ? e->options : "", &col, indent);
		/* the operands, as the message names them ("ARCHIVE and DIR") without the "and" */
		for (const char *w = e->operands; *w;) {
			size_t n = strcspn(w, " ");
			if (n != 3 || strncmp(w, "and", 3) != 0)
				put_word(w, n, &col, indent);
			w += n;
			w += strspn(w, " ");
		}
		put("\n");
	}
	put("  sizes take k/m/g/t suffixes in powers of 1024; rates are MB/s with MB = 10^6 bytes.\n");
	for (size_t i = 0; engines[i]; i++)
		if (engines[i]->about) {
			size_t col = 1;   /* and put_word's space before each word: two in */
			put(" ");
			put_words(engines[i]->about, &col, 2);
			put("\n");
		}
	return usage;
}

/* O_PLAN options are the plan's workload keys of the same name: one parser, one set of
 * limits and messages for both (plan.c). */
enum { O_PLAN = 1, O_DIRECT_, O_FALLOCATE, O_DATA, O_KEEP, O_NOSYNC, O_DROP, O_LIST, O_TAR };

static const struct option longopts[] = {
	{ "size", required_argument, NULL, O_PLAN },
	{ "bs", required_argument, NULL, O_PLAN },
	{ "files", required_argument, NULL, O_PLAN },
	{ "seed", required_argument, NULL, O_PLAN },
	{ "passes", required_argument, NULL, O_PLAN },
	{ "background", required_argument, NULL, O_PLAN },
	{ "direct", no_argument, NULL, O_DIRECT_ },
	{ "fallocate", no_argument, NULL, O_FALLOCATE },
	{ "data", required_argument, NULL, O_DATA },
	{ "keep", no_argument, NULL, O_KEEP },
	{ "no-sync", no_argument, NULL, O_NOSYNC },
	{ "drop-caches", no_argument, NULL, O_DROP },
	{ "list", no_argument, NULL, O_LIST },
	{ "tar", required_argument, NULL, O_TAR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse(int argc, char **argv, struct engine_host *a)
{
	int c, li;
	char msg[160];

	optind = 1;
	opterr = 0;   /* our own one-line messages, below */
	while ((c = getopt_long(argc, argv, ":", longopts, &li)) != -1) {
		switch (c) {
		case O_PLAN:
			if (plan_workload_set(&a->w, longopts[li].name, optarg, msg, sizeof msg) < 0) {
				fprintf(stderr, "fsmatrix %s: --%s %s: %s\n", a->cmd,
					longopts[li].name, optarg, msg);
				return -1;
			}
			if (a->w.size_rel.base != SIZE_BYTES) {
				/* a share of the machine is resolved by a cell, not here */
				fprintf(stderr, "fsmatrix %s: --%s %s: expected bytes (2x ram and 10%% fs "
					"are for plans)\n", a->cmd, longopts[li].name, optarg);
				return -1;
			}
			break;
		case O_DIRECT_: a->direct = 1; break;
		case O_FALLOCATE: a->w.fallocate = 1; break;
		case O_DATA:
			if (strcmp(optarg, "zero") == 0)
				a->zero = 1;
			else if (strcmp(optarg, "random") == 0)
				a->zero = 0;
			else {
				fprintf(stderr, "fsmatrix %s: --data %s: expected random or zero\n",
					a->cmd, optarg);
				return -1;
			}
			break;
		case O_KEEP: a->keep = 1; break;
		case O_NOSYNC: a->no_sync = 1; break;
		case O_DROP: a->drop = 1; break;
		case O_LIST: a->list = 1; break;
		case O_TAR: a->tar = optarg; break;
		case ':':
			host_usage_error(a->cmd, "%s wants a value", argv[optind - 1]);
			return -1;
		default:
			host_usage_error(a->cmd, "unknown option \"%s\"", argv[optind - 1]);
			return -1;
		}
	}
	return optind;
}

int host_cmd_workload(int argc, char **argv)
{
	struct engine_host a = { 0 };
	const char *name = argc > 1 ? argv[1] : "";
	const struct engine *k = engine_named(name);
	int first;

	if (!k && name[0] == '-')
		return host_usage_error("workload", "unknown option \"%s\"", name);
	if (!k && !name[0])
		return host_usage_error("workload", "no workload given");
	if (!k)
		return host_usage_error("workload", "unknown workload \"%s\"", name);
	char cmd[32];
	snprintf(cmd, sizeof cmd, "workload %s", k->name);
	a.cmd = cmd;
	plan_workload_defaults(&a.w);
	a.w.type = k->type;
	a.w.size = k->host_size;
	if ((first = parse(argc - 1, argv + 1, &a)) < 0)
		return 2;
	int nargs = argc - 1 - first;
	char **rest = argv + 1 + first;
	if (nargs != k->nargs)
		return host_usage_error(cmd, "expected %s", k->operands);
	for (int i = 0; i < nargs; i++)
		if (host_check_operand(cmd, rest[i], k->role[i]) < 0)
			return 2;
	/* one record per line even when stdout is a pipe to the benchmark script */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return k->host(&a, rest);
}
