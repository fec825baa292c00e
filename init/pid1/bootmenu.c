/* pid1/bootmenu.c: the stick's boot menu while a run is unfinished (core/bootmenu.h): its
 * default becomes the run's own command line before the first cell, so that a watchdog
 * reboot or a power loss resumes the run, and is put back after the trailer. Only a menu at
 * the top of the results partition (a stick's), only on a boot syslinux made, never on a
 * dry run. */
#include "pid1/pid1.h"
#include "core/bootmenu.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MENU RESULTS_MNT "/syslinux.cfg"
#define MENU_NEW RESULTS_MNT "/syslinux.new"
#define MENU_MAX (64 << 10)

/* The whole text into a new file, synced, renamed over the menu, the folder synced: a power
 * loss leaves the old menu or the new one, never half of one. */
static int write_menu(const char *text)
{
	size_t len = strlen(text), done = 0;
	int fd = open(MENU_NEW, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			close(fd);
			unlink(MENU_NEW);
			errno = e;
			return -1;
		}
		done += (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0 || rename(MENU_NEW, MENU) < 0)
		return -1;
	int dir = open(RESULTS_MNT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir >= 0) {
		fsync(dir);
		close(dir);
	}
	return 0;
}

/* The stick's menu, or NULL when this boot has none to change. */
static char *read_menu(void)
{
	size_t len;
	if (boot.cmd.dry || !results_writable() || boot.results_ro)
		return NULL;
	return file_read(MENU, MENU_MAX, &len);
}

void bootmenu_mark(void)
{
	static char out[MENU_MAX + 4096];
	char cmdline[4096], why[256];
	size_t len;
	char *cfg = read_menu();
	char *cl = cfg ? file_read("/proc/cmdline", sizeof cmdline - 1, &len) : NULL;
	if (!cfg || !cl) {
		free(cfg);
		return;
	}
	snprintf(cmdline, sizeof cmdline, "%s", cl);
	free(cl);
	if (bootmenu_resume(cfg, cmdline, boot.run_id, out, sizeof out, why, sizeof why) < 0)
		say("fsmatrix: boot menu: a reboot will not resume this run: %s", why);
	else if (write_menu(out) < 0)
		say("fsmatrix: unable to write " MENU ": %s (a reboot will not resume this run)",
		    strerror(errno));
	else
		say("fsmatrix: boot menu: a reboot now resumes run %s (DEFAULT " BOOTMENU_LABEL
		    " in syslinux.cfg, put back when the run ends)", boot.run_id);
	free(cfg);
}

void bootmenu_unmark(void)
{
	static char out[MENU_MAX];
	char *cfg = read_menu();
	if (!cfg)
		return;
	int rc = bootmenu_restore(cfg, out, sizeof out);
	free(cfg);
	if (rc <= 0)
		return;
	if (write_menu(out) < 0)
		say("fsmatrix: unable to put back " MENU ": %s", strerror(errno));
	else
		say("fsmatrix: boot menu: put back as it was, the run is finished");
}
