/* test_bootmenu.c: the stick's boot menu while a run is unfinished (core/boot/bootmenu.c), on the
 * menu the stick ships (build/media/syslinux.cfg, as media/bootcfg writes it): the resume
 * entry becomes the default with the command line as booted, less syslinux's own words; a
 * second resume replaces the first; restoring gives back the shipped bytes; a menu with
 * ONTIMEOUT has it pointed at the entry too; a command line not from syslinux is refused.
 * The same for GRUB's menu (build/media/grub.cfg): "set default=" points at a menuentry with
 * the command line less BOOT_IMAGE= and the menu's own initrd. */
#include "check.h"
#include "core/boot/bootmenu.h"
#include "lib/file.h"

#include <stdlib.h>
#include <string.h>

static char out[32768], back[32768], twice[32768];

int main(void)
{
	size_t len;
	char why[256] = "";
	char *cfg = file_read("build/media/syslinux.cfg", 1 << 20, &len);
	CHECK(cfg != NULL, "build/media/syslinux.cfg read (make unit writes it)");
	if (!cfg)
		return check_done("test_bootmenu");
	const char *cmdline = "BOOT_IMAGE=/vmlinuz initrd=/initramfs.img console=tty0 "
			      "console=ttyS0,115200 fsmatrix.disks=serial:S4EW* fsmatrix.watchdog=20\n";
	CHECK_INT(bootmenu_resume(cfg, cmdline, "20261202-1", out, sizeof out, why, sizeof why), 0);
	CHECK(strstr(out, "\nDEFAULT fsmatrix-resume\n#fsmatrix-was DEFAULT dry\n") != NULL,
	      "the default is the resume entry:\n%s", out);
	CHECK(strstr(out, "\nLABEL fsmatrix-resume\n  KERNEL /vmlinuz\n  INITRD /initramfs.img\n"
		      "  APPEND console=tty0 console=ttyS0,115200 fsmatrix.disks=serial:S4EW* "
		      "fsmatrix.watchdog=20\n# fsmatrix-resume: end\n") != NULL, "the entry:\n%s", out);
	CHECK(strstr(out, "run 20261202-1 is unfinished") != NULL, "the run is named");
	CHECK(strstr(out, "LABEL dry\n") && strstr(out, "LABEL run\n"), "the other entries stay");

	CHECK_INT(bootmenu_restore(out, back, sizeof back), 1);
	CHECK(strcmp(back, cfg) == 0, "restored byte for byte:\n%s", back);
	CHECK_INT(bootmenu_restore(cfg, back, sizeof back), 0);
	CHECK(strcmp(back, cfg) == 0, "nothing to restore: the same text");

	/* a resumed boot marks again: one entry, the newer run's */
	CHECK_INT(bootmenu_resume(out, cmdline, "20261202-2", twice, sizeof twice, why, sizeof why), 0);
	char *first = strstr(twice, "LABEL fsmatrix-resume");
	CHECK(first && !strstr(first + 1, "LABEL fsmatrix-resume"), "one resume entry");
	CHECK(strstr(twice, "20261202-2") && !strstr(twice, "20261202-1"), "the newer run");
	CHECK_INT(bootmenu_restore(twice, back, sizeof back), 1);
	CHECK(strcmp(back, cfg) == 0, "restored after two marks");

	/* ONTIMEOUT decides what a timeout boots: it points at the entry too */
	const char *menu = "PROMPT 1\nTIMEOUT 50\ndefault dry\nONTIMEOUT run\nLABEL dry\n  KERNEL /k\n"
			   "LABEL run\n  KERNEL /k\n";
	CHECK_INT(bootmenu_resume(menu, cmdline, "r", out, sizeof out, why, sizeof why), 0);
	CHECK(strstr(out, "DEFAULT fsmatrix-resume\n#fsmatrix-was default dry\n") &&
	      strstr(out, "ONTIMEOUT fsmatrix-resume\n#fsmatrix-was ONTIMEOUT run\n"), "%s", out);
	CHECK_INT(bootmenu_restore(out, back, sizeof back), 1);
	CHECK_STR(back, menu);

	/* not from syslinux, or a menu without a default: refused, with why */
	CHECK_INT(bootmenu_resume(cfg, "console=ttyS0 fsmatrix.disks=serial:x", "r", out, sizeof out,
				  why, sizeof why), -1);
	CHECK(strstr(why, "not booted by syslinux") != NULL, "%s", why);
	CHECK_INT(bootmenu_resume("LABEL a\n", cmdline, "r", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "no DEFAULT") != NULL, "%s", why);
	CHECK_INT(bootmenu_resume(cfg, cmdline, "r", out, 100, why, sizeof why), -1);
	free(cfg);

	/* GRUB's menu (UEFI): the same, on the grub.cfg the stick ships */
	cfg = file_read("build/media/grub.cfg", 1 << 20, &len);
	CHECK(cfg != NULL, "build/media/grub.cfg read (make unit writes it)");
	if (!cfg)
		return check_done("test_bootmenu");
	const char *grubline = "BOOT_IMAGE=/vmlinuz console=tty0 console=ttyS0,115200 "
			       "fsmatrix.disks=serial:S4EW* fsmatrix.watchdog=20\n";
	CHECK_INT(bootmenu_resume_grub(cfg, grubline, "20261203-1", out, sizeof out, why, sizeof why), 0);
	CHECK(strstr(out, "\nset default=fsmatrix-resume\n#fsmatrix-was set default=dry\n") != NULL,
	      "the default is the resume entry:\n%s", out);
	CHECK(strstr(out, "\nmenuentry 'fsmatrix: resume run 20261203-1' --id fsmatrix-resume {\n"
		      "\tlinux /vmlinuz console=tty0 console=ttyS0,115200 fsmatrix.disks=serial:S4EW* "
		      "fsmatrix.watchdog=20\n\tinitrd /initramfs.img\n}\n# fsmatrix-resume: end\n") != NULL,
	      "the entry:\n%s", out);
	CHECK(strstr(out, "--id dry {") && strstr(out, "--id run {"), "the other entries stay");
	CHECK_INT(bootmenu_restore(out, back, sizeof back), 1);
	CHECK(strcmp(back, cfg) == 0, "restored byte for byte:\n%s", back);
	CHECK_INT(bootmenu_resume_grub(out, grubline, "20261203-2", twice, sizeof twice, why, sizeof why), 0);
	first = strstr(twice, "--id fsmatrix-resume");
	CHECK(first && !strstr(first + 1, "--id fsmatrix-resume"), "one resume entry");
	CHECK_INT(bootmenu_restore(twice, back, sizeof back), 1);
	CHECK(strcmp(back, cfg) == 0, "restored after two marks");
	/* no BOOT_IMAGE=, no default, no initrd: refused with why */
	CHECK_INT(bootmenu_resume_grub(cfg, "console=ttyS0", "r", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "not booted by GRUB") != NULL, "%s", why);
	CHECK_INT(bootmenu_resume_grub("menuentry 'a' --id a {\n\tlinux /k\n\tinitrd /i\n}\n", grubline,
				       "r", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "set default=") != NULL, "%s", why);
	CHECK_INT(bootmenu_resume_grub("set default=a\nmenuentry 'a' --id a {\n\tlinux /k\n}\n", grubline,
				       "r", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "initrd") != NULL, "%s", why);
	free(cfg);
	return check_done("test_bootmenu");
}
