/* cli/usage.c: what every subcommand of out/fsmatrix does the same way with its arguments:
 * --help and -h anywhere print its usage on stdout (exit 0), and a mistake is one line on
 * stderr with a hint where the usage is (exit 2), as git and the coreutils do. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int host_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	return 0;
}

int host_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "fsmatrix %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* "workload seqwrite": the usage is the subcommand's, under its first word */
	fprintf(stderr, " (try 'fsmatrix %.*s --help')\n", (int)strcspn(cmd, " "), cmd);
	return 2;
}
