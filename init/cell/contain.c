/* cell/contain.c: a workload's processes, kept in a cgroup of their own (cgroup v2), so that
 * ending a workload ends all it started. A process group is not enough: fio, run confined
 * (lib/run.c), sits in a group of its own, and a tool may start a session or a daemon; a
 * killed workload that left one writing would keep the cell's filesystem mounted in its own
 * namespace and every later cell would find the disk busy. cgroup.kill (Linux 5.14) kills
 * every process in the group at once, and no process can leave it. */
#include "cell/cell.h"
#include "lib/file.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup"
#define CGROUP_DIR CGROUP_ROOT "/fsmatrix-workload"

int contain_ready(void)
{
	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) < 0)
		return -1;
	if (mkdir(CGROUP_DIR, 0755) < 0 && errno != EEXIST)
		return -1;
	return access(CGROUP_DIR "/cgroup.kill", W_OK);
}

int contain_join(void)
{
	return file_put_value(CGROUP_DIR "/cgroup.procs", "0");
}

/* Whether any process is left in the group: cgroup.events says "populated 0" once the last
 * one has exited (a zombie no longer counts). */
static int populated(void)
{
	char line[64];
	if (file_first_line(CGROUP_DIR "/cgroup.events", line, sizeof line) < 0)
		return 0;
	return strcmp(line, "populated 1") == 0;
}

/* "fio 214, fio 215": who was still there, from cgroup.procs and each one's comm. */
static void list_left(char *names, size_t len)
{
	char comm[64], path[64];
	names[0] = '\0';
	char *procs = file_read(CGROUP_DIR "/cgroup.procs", 0, NULL);
	if (!procs)
		return;
	size_t used = 0;
	for (char *s = procs, *end; *s; s = end) {
		long pid = strtol(s, &end, 10);
		if (end == s)
			break;
		/* argv[0], as the tool was named: a confined tool's comm is the file it was
		 * run from (lib/confine.h), not its name */
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		if (file_first_line(path, comm, sizeof comm) < 0 || !comm[0]) {
			snprintf(path, sizeof path, "/proc/%ld/comm", pid);
			if (file_first_line(path, comm, sizeof comm) < 0)
				snprintf(comm, sizeof comm, "?");
		}
		const char *base = strrchr(comm, '/');
		base = base ? base + 1 : comm;
		if (used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s %ld", used ? ", " : "",
						 base, pid);
	}
	free(procs);
}

int contain_end(char *left, size_t len, int wait_ms)
{
	left[0] = '\0';
	if (!populated())
		return 0;
	list_left(left, len);
	if (file_put_value(CGROUP_DIR "/cgroup.kill", "1") < 0)
		return -1;
	for (int waited = 0; populated(); waited += 50) {
		if (waited >= wait_ms)
			return -1;
		/* the killed are this process's children or orphans it inherited */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		usleep(50 * 1000);
	}
	return 1;
}
