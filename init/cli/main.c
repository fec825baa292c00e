/* cli/main.c: out/fsmatrix, the host side of fsmatrix. One row per subcommand. */
#include "cli/cli.h"
#include "lib/version.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const char help_usage[] =
	"usage: fsmatrix help [COMMAND]\n"
	"  the commands, or the usage of one (as fsmatrix COMMAND --help)\n";
static const char version_usage[] = "usage: fsmatrix version (or fsmatrix --version)\n";

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;     /* --help; NULL: workload's, made from the table of engines */
	const char *args;      /* for the list `fsmatrix help` prints */
	const char *summary;
} commands[] = {
	{ "disks", host_cmd_disks, host_disks_usage,
	  "SYSROOT [--dev DEVROOT] [--disks SPEC] [--wipe SPEC] [--boot NAME]",
	  "the disks of a /sys tree, what each holds, and which ones fsmatrix would take" },
	{ "workload", host_cmd_workload, NULL,
	  "ENGINE [OPTIONS] TARGET (`fsmatrix help workload` lists the engines)",
	  "run one workload engine of the image on a host directory; one JSON record out" },
	{ "report", host_cmd_report, host_report_usage,
	  "[--format text|md|csv|json] [--by AXES] [--where AXIS=VALUE]... SOURCE...",
	  "tables of a run's results (SOURCE: .jsonl, console log, run dir, FAT image, results dir)" },
	{ "compare", host_cmd_compare, host_compare_usage,
	  "[--format text|md] [--by AXES] [--where AXIS=VALUE]... A B",
	  "two runs cell by cell: change per metric, Welch's t-test and a verdict" },
	{ "html", host_cmd_html, host_html_usage,
	  "SOURCE... -o FILE [--group-by AXIS] [--by AXES] [--where AXIS=VALUE]...",
	  "one self-contained HTML report with SVG charts; two runs add a comparison" },
	{ "check", host_cmd_check, host_check_usage, "PLAN [--disks N] [--scale X] [--shards N]",
	  "a plan's cells with the exact mdadm/mkfs/mount each runs and a time estimate, or its errors" },
	{ "keys", host_cmd_keys, host_keys_usage, "[--markdown] [SECTION]",
	  "every plan key with its default and what it does" },
	{ "lava", host_cmd_lava, host_lava_usage,
	  "PLAN --shards N [--device-type qemu|x86] [--url BASE] [--select SPEC] [-o DIR]",
	  "one LAVA job per shard of a plan; every cell a test case with its main figure" },
	{ "history", host_cmd_history, host_history_usage,
	  "[--db FILE] add SOURCE... | list | cells | show CELL METRIC [--html FILE] | ack CELL METRIC RUN NOTE",
	  "runs kept in one SQLite file; a cell's metric over them with its change points" },
	{ "site", host_cmd_site, host_site_usage,
	  "[--db FILE] -o DIR [--by date|kernel] [--url URL] [--all-metrics]",
	  "a static site over a history: summary, regressions and feed, a page per series and run" },
	{ "kcidb", host_cmd_kcidb, host_kcidb_usage, "--origin NAME [-o FILE] SOURCE...",
	  "runs as a KernelCI KCIDB v5.3 JSON document (a test per cell and metric); sends nothing" },
	{ "help", cmd_help, help_usage, "[COMMAND]", "this list, or the usage of one command" },
	{ "version", cmd_version, version_usage, "", "the version of this program" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char *usage_of(const struct command *c)
{
	return c->usage ? c->usage : host_workload_usage();
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	if (argc > 2)
		return host_usage_error("help", "unexpected argument \"%s\"", argv[2]);
	if (argc == 2) {
		const struct command *c = find(argv[1]);
		if (argv[1][0] == '-')
			return host_usage_error("help", "unknown option \"%s\"", argv[1]);
		if (!c)
			return host_usage_error("help", "unknown command \"%s\"", argv[1]);
		fputs(usage_of(c), stdout);
		return 0;
	}
	printf("usage: fsmatrix COMMAND [ARGS]   (fsmatrix COMMAND --help for one)\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  fsmatrix %s%s%s\n      %s\n", commands[i].name,
		       commands[i].args[0] ? " " : "", commands[i].args, commands[i].summary);
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	if (argc > 1)
		return host_usage_error("version", "%s \"%s\"", argv[1][0] == '-' ?
					"unknown option" : "unexpected argument", argv[1]);
	printf("fsmatrix %s\n", FSM_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *flag, *command; } aliases[] = {
		{ "--help", "help" }, { "-h", "help" }, { "--version", "version" },
	};
	if (argc < 2) {
		fprintf(stderr, "fsmatrix: no command given (try 'fsmatrix help')\n");
		return 2;
	}
	const char *name = argv[1];
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(name, aliases[i].flag) == 0)
			name = aliases[i].command;
	const struct command *c = find(name);
	if (!c) {
		fprintf(stderr, "fsmatrix: unknown command \"%s\" (try 'fsmatrix help')\n", argv[1]);
		return 2;
	}
	if (host_wants_help(argc - 1, argv + 1)) {
		fputs(usage_of(c), stdout);
		return 0;
	}
	return c->run(argc - 1, argv + 1);
}
