/* test_bootsec.c: the header's trust-chain fields from the kernel's texts: the SecureBoot EFI
 * variable, the kernel's secureboot line, the lockdown file and the MANIFEST's modules line. */
#include "check.h"
#include "core/boot/bootsec.h"

static const struct {
	unsigned char b[6];
	size_t len;
	const char *want;
} efivars[] = {
	{ { 6, 0, 0, 0, 1 }, 5, "enabled" },
	{ { 6, 0, 0, 0, 0 }, 5, "disabled" },
	{ { 6, 0, 0, 0, 2 }, 5, NULL },
	{ { 6, 0, 0, 0 }, 4, NULL },
	{ { 6, 0, 0, 0, 1, 0 }, 6, NULL },
};

static const struct {
	const char *log, *want;
} logs[] = {
	{ "<6>[    0.000000] secureboot: Secure boot enabled\n<5>[    0.1] other\n", "enabled" },
	{ "<6>[    0.000000] secureboot: Secure boot disabled\n", "disabled" },
	{ "<6>[    0.000000] secureboot: Secure boot could not be determined (mode 0)\n", "unknown" },
	{ "<6>[    0.000000] Linux version 6.1.0-57-amd64\n", NULL }, /* booted by a BIOS */
	{ "", NULL },
};

static const struct {
	const char *line, *want;
} lockdowns[] = {
	{ "none [integrity] confidentiality", "integrity" },
	{ "[none] integrity confidentiality", "none" },
	{ "none integrity [confidentiality]\n", "confidentiality" },
	{ "none integrity confidentiality", NULL },
	{ "[] x", NULL },
	{ "", NULL },
};

static const struct {
	const char *manifest, *want;
} manifests[] = {
	{ "input linux 6.1.192-3 abc x.deb\nkernel-modules 6.1.0-57-amd64 squashfs pristine\n", "pristine" },
	{ "kernel-modules 6.1.0-57-amd64 plain rewritten-qemu", "rewritten-qemu" },
	{ "kernel-modules 6.1.0-57-amd64 squashfs\ninput x 1 y z\n", NULL }, /* an older image */
	{ "input kernel-modules-x 1 y z\n", NULL },
	{ "", NULL },
};

int main(void)
{
	char out[32];
	for (size_t i = 0; i < sizeof efivars / sizeof efivars[0]; i++) {
		const char *got = bootsec_from_efivar(efivars[i].b, efivars[i].len);
		CHECK(got == efivars[i].want || (got && efivars[i].want && strcmp(got, efivars[i].want) == 0),
		      "efivar row %zu: got %s", i, got ? got : "NULL");
	}
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		const char *got = bootsec_from_log(logs[i].log);
		CHECK(got == logs[i].want || (got && logs[i].want && strcmp(got, logs[i].want) == 0),
		      "log row %zu: got %s", i, got ? got : "NULL");
	}
	for (size_t i = 0; i < sizeof lockdowns / sizeof lockdowns[0]; i++) {
		int rc = bootsec_lockdown(lockdowns[i].line, out, sizeof out);
		CHECK_INT(rc, lockdowns[i].want ? 0 : -1);
		if (rc == 0 && lockdowns[i].want)
			CHECK_STR(out, lockdowns[i].want);
	}
	for (size_t i = 0; i < sizeof manifests / sizeof manifests[0]; i++) {
		int rc = bootsec_modules_state(manifests[i].manifest, out, sizeof out);
		CHECK_INT(rc, manifests[i].want ? 0 : -1);
		if (rc == 0 && manifests[i].want)
			CHECK_STR(out, manifests[i].want);
	}
	return check_done("test_bootsec");
}
