/* core/boot/bootsec.h: what the header says about the boot's trust chain, read from the kernel's
 * own texts: whether the firmware booted with Secure Boot, the lockdown mode, and whether the
 * image's modules are the kernel package's bytes. Pure: pid1/bootsec.c reads the files. */
#ifndef FSM_BOOTSEC_H
#define FSM_BOOTSEC_H
#include <stddef.h>

/* The SecureBoot EFI variable as efivarfs shows it (4 bytes of attributes, then one byte:
 * 1 enabled, 0 disabled): "enabled", "disabled", or NULL for anything else. */
const char *bootsec_from_efivar(const unsigned char *b, size_t len);
/* The kernel's own line in its log (x86 prints "secureboot: Secure boot enabled" when booted
 * through UEFI): "enabled", "disabled", "unknown" (it "could not be determined"), or NULL
 * when the log has no such line. */
const char *bootsec_from_log(const char *log);
/* /sys/kernel/security/lockdown, "none [integrity] confidentiality": the bracketed mode into
 * out; -1 when the line names none. */
int bootsec_lockdown(const char *line, char *out, size_t len);
/* The image's MANIFEST: the last word of its "kernel-modules VERSION IMAGE STATE" line
 * (recipes/pack: pristine or rewritten-qemu) into out; -1 when there is no such word. */
int bootsec_modules_state(const char *manifest, char *out, size_t len);

#endif
