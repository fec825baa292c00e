/* host_main.c: out/fsmatrix, the host side of fsmatrix. One row per subcommand. */
#include "host.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;      /* for the usage line */
	const char *summary;   /* one line for `fsmatrix help` */
} commands[] = {
	{ "disks", host_cmd_disks, "SYSROOT [--dev DEVROOT] [--disks SPEC] [--wipe SPEC] [--boot NAME]",
	  "the disks of a /sys tree, what each holds, and which ones fsmatrix would take" },
	{ "workload", host_cmd_workload, "seqwrite|smallfiles|gen-tree|tar [OPTIONS] TARGET",
	  "run one workload engine of the image on a host directory; one JSON record out" },
	{ "report", host_cmd_report, "[--format text|md|csv|json] [--by AXES] [--where AXIS=VALUE]... SOURCE...",
	  "tables of a run's results (SOURCE: .jsonl, console log, run dir, FAT image, results dir)" },
	{ "compare", host_cmd_compare, "[--format text|md] [--by AXES] [--where AXIS=VALUE]... A B",
	  "two runs cell by cell: change per metric, Welch's t-test and a verdict" },
	{ "html", host_cmd_html, "SOURCE... -o FILE [--group-by AXIS] [--by AXES] [--where AXIS=VALUE]...",
	  "one self-contained HTML report with SVG charts; two runs add a comparison" },
	{ "check", host_cmd_check, "PLAN [--disks N] [--scale X]",
	  "a plan's cells with the exact mdadm/mkfs/mount each runs and a time estimate, or its errors" },
	{ "help", cmd_help, "", "this list" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("usage: fsmatrix COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  fsmatrix %s%s%s\n      %s\n", commands[i].name,
		       commands[i].args[0] ? " " : "", commands[i].args, commands[i].summary);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "fsmatrix: no command given (try fsmatrix help)\n");
		return 2;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help(argc - 1, argv + 1);
	fprintf(stderr, "fsmatrix: unknown command \"%s\" (try fsmatrix help)\n", argv[1]);
	return 2;
}
