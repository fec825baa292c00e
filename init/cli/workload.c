/* cli/workload.c: `fsmatrix workload ...`: the engines /init runs, on a host directory, so
 * that they can be compared with fio and GNU tar on the same filesystem. The result is one
 * JSON record line on stdout, with the field names of the image's records, and a summary
 * for people on stderr. */
#include "cli/cli.h"
#include "core/plan.h"
#include "engines/engine.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char host_workload_usage[] =
	"usage: fsmatrix workload seqwrite [--size 1g] [--bs 1m] [--direct] [--data random|zero]\n"
	"                                  [--keep] [--drop-caches] FILE\n"
	"       fsmatrix workload smallfiles [--size 220m] [--files N] [--seed N] [--passes N]\n"
	"                                    [--no-sync] [--drop-caches] DIR\n"
	"       fsmatrix workload gen-tree [--size 220m] [--files N] [--seed N] [--list] DIR\n"
	"       fsmatrix workload tar [--tar PROGRAM] [--no-sync] [--drop-caches] ARCHIVE DIR\n"
	"       fsmatrix workload seqread [--size 1g] [--bs 1m] [--direct] [--data random|zero]\n"
	"                                 [--keep] FILE\n"
	"       fsmatrix workload fsync [--size 4m] [--bs 4k] [--background SIZE] [--drop-caches] DIR\n"
	"       fsmatrix workload fio [--drop-caches] JOB DIR\n"
	"  sizes take k/m/g/t suffixes in powers of 1024; rates are MB/s with MB = 10^6 bytes.\n"
	"  smallfiles with --passes N writes DIR/pass1 .. DIR/passN, one record each.\n"
	"  gen-tree writes the same file set untimed and unsynced; --list prints its paths in\n"
	"  creation order, for `tar -cf set.tar -C DIR --no-recursion -T LIST`.\n"
	"  seqread writes FILE as seqwrite does, drops the caches (as root) and reads it back.\n"
	"  fsync appends --bs at a time to DIR/fsync.dat, each followed by fsync; --background\n"
	"  streams through DIR/background.dat meanwhile. fio runs the job file JOB in DIR.\n";

/* O_PLAN options are the plan's workload keys of the same name: one parser, one set of
 * limits and messages for both (plan.c). */
enum { O_PLAN = 1, O_DIRECT_, O_DATA, O_KEEP, O_NOSYNC, O_DROP, O_LIST, O_TAR };

static const struct option longopts[] = {
	{ "size", required_argument, NULL, O_PLAN },
	{ "bs", required_argument, NULL, O_PLAN },
	{ "files", required_argument, NULL, O_PLAN },
	{ "seed", required_argument, NULL, O_PLAN },
	{ "passes", required_argument, NULL, O_PLAN },
	{ "background", required_argument, NULL, O_PLAN },
	{ "direct", no_argument, NULL, O_DIRECT_ },
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
			break;
		case O_DIRECT_: a->direct = 1; break;
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
