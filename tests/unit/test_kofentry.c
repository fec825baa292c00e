/* test_kofentry.c: the ftrace call-site rewrite, on an object gcc compiled as the kernel
 * compiles a module (tests/unit/fentry_fixture.c, built by the Makefile): every listed call
 * becomes the 5-byte NOP and its relocation R_X86_64_NONE, and nothing else changes; a module
 * with one site it does not recognise, a truncated file, another machine's module or one
 * without __mcount_loc is left byte for byte as it was. */
#include "check.h"
#include "pack/kofentry.h"
#include "lib/file.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>

#include "fentry_fixture.h"

#ifndef KO_FIXTURE
#error "KO_FIXTURE: the compiled fentry_fixture.o (the Makefile passes it)"
#endif

static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

static unsigned char *copy(const unsigned char *b, size_t len)
{
	unsigned char *c = malloc(len ? len : 1);
	memcpy(c, b, len);
	return c;
}

/* A module the rewrite must refuse: it says why in one line, and leaves every byte. */
static void expect_left(const unsigned char *m, size_t len, const char *why_has, const char *label)
{
	unsigned char *t = copy(m, len);
	size_t sites = 0;
	char why[256] = "";
	CHECK_INT(ko_nop_fentry(t, len, &sites, why, sizeof why), KO_FENTRY_LEFT);
	CHECK(why[0] && strchr(why, '\n') == NULL && strstr(why, why_has), "%s: why: \"%s\"", label, why);
	CHECK(memcmp(t, m, len) == 0, "%s: the module was changed", label);
	free(t);
}

/* offset of the first occurrence of s in b, or 0 */
static size_t find(const unsigned char *b, size_t len, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(b + i, s, n) == 0)
			return i;
	return 0;
}

/* Every byte that changed lies in a 5-byte window now holding the NOP, or in a relocation's
 * r_info whose type went from PLT32 or PC32 to NONE: counts each kind. */
static void changes(const unsigned char *was, const unsigned char *now, size_t len,
		    int *windows, int *relocs, int *other)
{
	*windows = *relocs = *other = 0;
	for (size_t i = 0; i < len; i++) {
		if (was[i] == now[i])
			continue;
		if (was[i] == 0xe8 && i + 5 <= len && memcmp(now + i, nop5, 5) == 0) {
			(*windows)++;
			i += 4;
			continue;
		}
		/* r_info's low byte is the type (little-endian): 4 (PLT32) or 2 (PC32) -> 0 */
		if ((was[i] == R_X86_64_PLT32 || was[i] == R_X86_64_PC32) && now[i] == R_X86_64_NONE &&
		    memcmp(was + i + 1, now + i + 1, 7) == 0) {
			(*relocs)++;
			i += 7;
			continue;
		}
		(*other)++;
	}
}

int main(void)
{
	size_t len = 0, sites = 0;
	char why[256];
	unsigned char *orig = (unsigned char *)file_read(KO_FIXTURE, 0, &len);
	CHECK(orig != NULL && len > 0, "unable to read %s", KO_FIXTURE);
	if (!orig)
		return check_done("test_kofentry");

	/* the rewrite: one NOP and one relocation per listed function, nothing else */
	unsigned char *b = copy(orig, len);
	CHECK_INT(ko_nop_fentry(b, len, &sites, why, sizeof why), KO_FENTRY_DONE);
	CHECK_INT(sites, FIXTURE_SITES);
	int windows, relocs, other;
	changes(orig, b, len, &windows, &relocs, &other);
	CHECK_INT(windows, FIXTURE_SITES);
	CHECK_INT(relocs, FIXTURE_SITES);
	CHECK_INT(other, 0);

	/* again: the sites are NOPs already, and nothing changes */
	unsigned char *again = copy(b, len);
	sites = 0;
	CHECK_INT(ko_nop_fentry(again, len, &sites, why, sizeof why), KO_FENTRY_DONE);
	CHECK_INT(sites, FIXTURE_SITES);
	CHECK(memcmp(again, b, len) == 0, "a second rewrite changed the module");
	free(again);

	/* one byte changed where it matters: refused, as a whole */
	size_t first_call = 0;
	for (size_t i = 0; i + 5 <= len; i++)
		if (memcmp(b + i, nop5, 5) == 0 && orig[i] == 0xe8) {
			first_call = i;
			break;
		}
	CHECK(first_call > 0, "no rewritten site found");
	const struct { const char *name; size_t at; unsigned char byte; const char *why; } bad[] = {
		{ "a site that is no call", first_call, 0x90, "neither a call" },
		{ "another machine's module", offsetof(Elf64_Ehdr, e_machine), EM_AARCH64, "x86-64" },
	};
	for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
		unsigned char *m = copy(orig, len);
		m[bad[r].at] = bad[r].byte;
		expect_left(m, len, bad[r].why, bad[r].name);
		free(m);
	}

	/* no __mcount_loc (its name changed in the section names): nothing to do */
	unsigned char *plain = copy(orig, len);
	size_t at = find(plain, len, "__mcount_loc");
	CHECK(at > 0, "no __mcount_loc in the fixture");
	plain[at + 2] = 'X';
	sites = 99;
	CHECK_INT(ko_nop_fentry(plain, len, &sites, why, sizeof why), KO_FENTRY_DONE);
	CHECK_INT(sites, 0);
	plain[at + 2] = 'm';
	CHECK(memcmp(plain, orig, len) == 0, "a module without __mcount_loc was changed");
	free(plain);

	/* every truncation: refused, never a read or write past its end (unit-asan watches) */
	for (size_t n = 0; n < len; n++) {
		char label[64];
		snprintf(label, sizeof label, "cut at %zu bytes", n);
		expect_left(orig, n, "", label);
	}

	free(b);
	free(orig);
	return check_done("test_kofentry");
}
