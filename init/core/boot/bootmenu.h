/* core/boot/bootmenu.h: the stick's boot menus (syslinux.cfg, read by syslinux on BIOS machines;
 * EFI/BOOT/grub.cfg, read by GRUB on UEFI ones) while a run is unfinished. As shipped their
 * default is "dry", so a reboot by the watchdog, or after a power loss, would come back to a
 * dry run and the run would never resume. While a run is unfinished its own command line is
 * the default: /init adds a resume entry and points DEFAULT (and ONTIMEOUT, if the menu has
 * one; GRUB's "set default=") at it when the run starts, and puts the menu back as it was when the run ends. Pure: text in,
 * text out; pid1/bootmenu.c reads and writes the file. */
#ifndef FSM_BOOTMENU_H
#define FSM_BOOTMENU_H
#include <stddef.h>

#define BOOTMENU_LABEL "fsmatrix-resume"

/* The menu cfg with a resume entry for cmdline (the kernel's command line as booted:
 * syslinux adds BOOT_IMAGE= and initrd=, which name the entry's kernel and initramfs) as
 * its default, into out; an earlier resume entry is replaced. Returns 0, or -1 with why
 * (cmdline names no BOOT_IMAGE or initrd: not booted by syslinux; no DEFAULT line; out too
 * small). */
int bootmenu_resume(const char *cfg, const char *cmdline, const char *run_id, char *out,
		    size_t len, char *why, size_t wlen);

/* The same for GRUB's menu (grub.cfg, read by Debian's signed GRUB on UEFI machines): a
 * menuentry with the command line as booted (less GRUB's BOOT_IMAGE=) and the menu's own
 * initrd, and "set default=" pointed at it. -1 with why when cmdline has no BOOT_IMAGE=, the
 * menu no "set default=" or no initrd line. */
int bootmenu_resume_grub(const char *cfg, const char *cmdline, const char *run_id, char *out,
			 size_t len, char *why, size_t wlen);

/* The menu as it was before bootmenu_resume or bootmenu_resume_grub, into out. Returns 1 when there was a resume
 * entry to take out, 0 when cfg had none (out is then cfg), -1 when out is too small. */
int bootmenu_restore(const char *cfg, char *out, size_t len);

#endif
