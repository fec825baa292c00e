/* pid1/bootsec.c: the header's word on the boot's trust chain (core/boot/bootsec.h): Secure Boot
 * as the firmware's variable says it (efivarfs) or else as the kernel logged it, the
 * lockdown mode (securityfs, mounted at boot by pid1/mounts.c), and whether the image's
 * modules are the kernel package's bytes (the image's MANIFEST). */
#include "pid1/pid1.h"
#include "core/boot/bootsec.h"
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define EFI_DIR "/sys/firmware/efi"
#define EFIVARS EFI_DIR "/efivars"
#define SECUREBOOT_VAR EFIVARS "/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define LOCKDOWN "/sys/kernel/security/lockdown"

/* The firmware's own variable, when efivarfs can be mounted: the pinned kernel has it as a
 * module, which nothing loads, so this is for kernels with it built in. Read-only: a write
 * to some variables can brick a machine. */
static const char *from_efivar(void)
{
	if (mount("efivarfs", EFIVARS, "efivarfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) != 0 && access(SECUREBOOT_VAR, R_OK) != 0)
		return NULL;
	size_t len = 0;
	unsigned char *b = (unsigned char *)file_read(SECUREBOOT_VAR, 16, &len);
	const char *s = b ? bootsec_from_efivar(b, len) : NULL;
	free(b);
	return s;
}

/* The kernel's view: the line its EFI setup logged. The log buffer still holds it when the
 * header is written (early in the boot). */
static const char *from_log(void)
{
	static char log[1 << 18];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, (int)sizeof log - 1);
	if (n < 0)
		return NULL;
	log[n] = '\0';
	return bootsec_from_log(log);
}

void bootsec_json(struct jw *w)
{
	struct stat st;
	const char *sb = NULL, *from = NULL;
	if (stat(EFI_DIR, &st) != 0) {
		sb = "no-uefi";
	} else if ((sb = from_efivar())) {
		from = "efivarfs";
	} else if ((sb = from_log())) {
		from = "kernel-log";
	}
	jw_kstr(w, "secure_boot", sb ? sb : "unknown");
	jw_kstr(w, "secure_boot_from", from);
	char line[128], mode[32];
	int have_ld = file_first_line(LOCKDOWN, line, sizeof line) == 0 &&
		      bootsec_lockdown(line, mode, sizeof mode) == 0;
	jw_kstr(w, "lockdown", have_ld ? mode : NULL);
	char *man = file_read(MANIFEST_PATH, 1 << 16, NULL), state[32];
	int have_st = man && bootsec_modules_state(man, state, sizeof state) == 0;
	free(man);
	jw_kstr(w, "modules", have_st ? state : NULL);
	say("fsmatrix: secure boot %s%s%s%s, lockdown %s, modules %s", sb ? sb : "unknown",
	    from ? " (" : "", from ? from : "", from ? ")" : "", have_ld ? mode : "unknown",
	    have_st ? state : "unknown");
}
