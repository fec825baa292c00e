/* pid1/mounts.c: the boot mounts, as a table. A required row that fails stops the boot;
 * an optional one is reported and skipped. */
#include "pid1/pid1.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

static const struct {
	const char *source, *target, *type;
	unsigned long flags;
	const char *data;
	int required;
} mounts[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, 1 },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, 1 },
	/* the lockdown mode the header records (pid1/bootsec.c) */
	{ "securityfs", "/sys/kernel/security", "securityfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, 0 },
	/* a workload's processes are kept in a cgroup of their own and killed with it
	 * (cell/contain.c), whatever process groups or sessions they made */
	{ "cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, 0 },
	{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755", 1 },
	{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755", 0 },
	{ "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777", 0 },
};

int mounts_boot(char *err, size_t errlen)
{
	int rc = 0;
	for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
		mkdir(mounts[i].target, 0755);
		if (mount(mounts[i].source, mounts[i].target, mounts[i].type, mounts[i].flags,
			  mounts[i].data) == 0 || errno == EBUSY) /* EBUSY: the kernel mounted it */
			continue;
		if (mounts[i].required && rc == 0) {
			snprintf(err, errlen, "unable to mount %s on %s: %s", mounts[i].type,
				 mounts[i].target, strerror(errno));
			rc = -1;
		} else if (!mounts[i].required) {
			/* stdout may not exist yet: the caller prints after fixing the console */
			say("fsmatrix: unable to mount %s on %s: %s (optional, going on)", mounts[i].type,
			    mounts[i].target, strerror(errno));
		}
	}
	return rc;
}
