/* fuzz_kofentry.c: the ftrace call-site rewrite (ko_nop_fentry) on any bytes, as a module from
 * a MODULES= tree may be anything. Invariants: it reads and writes only within the buffer
 * (the sanitizers watch); a refusal says why in one line and leaves every byte as it was; a
 * rewrite changes only bytes of the 5-byte windows it made NOPs and relocation types. */
#include "fuzz.h"
#include "pack/kofentry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *b = malloc(size ? size : 1);
	FUZZ_ASSERT(b != NULL, "out of memory");
	memcpy(b, data, size);
	size_t sites = 0;
	char why[256] = "";
	if (ko_nop_fentry(b, size, &sites, why, sizeof why) == KO_FENTRY_LEFT) {
		fuzz_one_line(why, sizeof why);
		FUZZ_ASSERT(memcmp(b, data, size) == 0, "refused (%s) and changed", why);
	} else {
		size_t changed = 0;
		for (size_t i = 0; i < size; i++)
			changed += b[i] != data[i];
		/* at most 5 code bytes and 1 type byte per site */
		FUZZ_ASSERT(changed <= sites * 6, "%zu bytes changed for %zu sites", changed, sites);
	}
	free(b);
	return 0;
}
