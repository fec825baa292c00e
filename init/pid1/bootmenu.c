/* pid1/bootmenu.c: the stick's boot menu while a run is unfinished (core/boot/bootmenu.h): its
 * default becomes the run's own command line before the first cell, so that a watchdog
 * reboot or a power loss resumes the run, and is put back after the trailer. The menu of the
 * boot loader that booted this run: syslinux.cfg at the top of the results partition (a
 * stick's) on a BIOS boot, EFI/BOOT/grub.cfg beside Debian's GRUB on a UEFI one; never on a
 * dry run. */
#include "pid1/pid1.h"
#include "core/boot/bootmenu.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MENU_MAX (64 << 10)

/* The stick's menus, each with the rule that writes its resume entry: the first whose rule
 * takes this boot's command line (syslinux's names its initrd=, GRUB's does not) is marked. */
static const struct menu {
	const char *path, *tmp, *name;
	int (*resume)(const char *cfg, const char *cmdline, const char *run_id, char *out,
		      size_t len, char *why, size_t wlen);
} menus[] = {
	{ RESULTS_MNT "/syslinux.cfg", RESULTS_MNT "/syslinux.new", "syslinux.cfg", bootmenu_resume },
	{ RESULTS_MNT "/EFI/BOOT/grub.cfg", RESULTS_MNT "/EFI/BOOT/grub.new", "EFI/BOOT/grub.cfg",
	  bootmenu_resume_grub },
};
#define NMENUS (sizeof menus / sizeof menus[0])

/* The whole text into a new file, synced, renamed over the menu, the folder synced: a power
 * loss leaves the old menu or the new one, never half of one. */
static int write_menu(const struct menu *m, const char *text)
{
	size_t len = strlen(text), done = 0;
	int fd = open(m->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			close(fd);
			unlink(m->tmp);
			errno = e;
			return -1;
		}
		done += (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0 || rename(m->tmp, m->path) < 0)
		return -1;
	char dir[128];
	snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(m->path, '/') - m->path), m->path);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* A menu of the stick, or NULL when this boot has none to change. */
static char *read_menu(const struct menu *m)
{
	size_t len;
	if (boot.cmd.dry || !results_writable() || boot.results_ro)
		return NULL;
	return file_read(m->path, MENU_MAX, &len);
}

void bootmenu_mark(void)
{
	static char out[MENU_MAX + 4096];
	char cmdline[4096], why[256] = "no boot menu on the results partition";
	size_t len;
	char *cl = NULL;
	for (size_t i = 0; i < NMENUS; i++) {
		char *cfg = read_menu(&menus[i]);
		if (cfg && !cl && !(cl = file_read("/proc/cmdline", sizeof cmdline - 1, &len))) {
			free(cfg);
			return;
		}
		if (!cfg)
			continue;
		snprintf(cmdline, sizeof cmdline, "%s", cl);
		int rc = menus[i].resume(cfg, cmdline, boot.run_id, out, sizeof out, why, sizeof why);
		free(cfg);
		if (rc < 0)
			continue;
		if (write_menu(&menus[i], out) < 0)
			say("fsmatrix: unable to write %s: %s (a reboot will not resume this run)",
			    menus[i].path, strerror(errno));
		else
			say("fsmatrix: boot menu: a reboot now resumes run %s (" BOOTMENU_LABEL
			    " the default of %s, put back when the run ends)", boot.run_id, menus[i].name);
		free(cl);
		return;
	}
	if (cl)
		say("fsmatrix: boot menu: a reboot will not resume this run: %s", why);
	free(cl);
}

void bootmenu_unmark(void)
{
	static char out[MENU_MAX];
	for (size_t i = 0; i < NMENUS; i++) {
		char *cfg = read_menu(&menus[i]);
		if (!cfg)
			continue;
		int rc = bootmenu_restore(cfg, out, sizeof out);
		free(cfg);
		if (rc <= 0)
			continue;
		if (write_menu(&menus[i], out) < 0)
			say("fsmatrix: unable to put back %s: %s", menus[i].path, strerror(errno));
		else
			say("fsmatrix: boot menu: put back as it was (%s), the run is finished",
			    menus[i].name);
	}
}
