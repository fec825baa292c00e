/* cli/operand.c: what a subcommand may write to or read from, judged before it starts: a
 * device or a FIFO named by mistake (a typo of /dev/sdb for a mount point, a page written over
 * a disk) is refused with one line, and nothing is written. */
#include "cli/cli.h"
#include "lib/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int host_check_operand(const char *cmd, const char *path, enum engine_role role)
{
	static const char *const want[] = {
		[ROLE_FILE] = "FILE must be a regular file or a name for a new one",
		[ROLE_DIR] = "DIR must be a directory or a name for a new one",
		[ROLE_READ] = "ARCHIVE must be a regular file",
	};
	static const char *const verb[] = { [ROLE_FILE] = "write", [ROLE_DIR] = "write in",
					    [ROLE_READ] = "read" };
	struct stat st, lst;
	int linked = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if (stat(path, &st) < 0) {
		if (errno == ENOENT && role != ROLE_READ && !linked)
			return 0;   /* the command creates it, or says why it cannot */
		fprintf(stderr, "fsmatrix %s: unable to %s %s: %s\n", cmd, verb[role], path,
			linked && errno == ENOENT ? "a symbolic link to nothing" : strerror(errno));
		return -1;
	}
	if (role == ROLE_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))
		return 0;
	fprintf(stderr, "fsmatrix %s: refusing to %s %s: it is %s%s; %s\n", cmd,
		verb[role], path, linked ? "a symbolic link to " : "", file_type_name(st.st_mode),
		want[role]);
	return -1;
}

int host_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int host_out_not_source(const char *cmd, const char *out, const char *const *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (host_same_file(out, src[i])) {
			fprintf(stderr, "fsmatrix %s: refusing to write %s: it is the source %s; FILE "
				"must be another file\n", cmd, out, src[i]);
			return -1;
		}
	return 0;
}
