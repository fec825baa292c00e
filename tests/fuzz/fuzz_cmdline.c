/* fuzz_cmdline.c: cmdline_parse on any text. Invariants: a failure is one line naming the
 * parameter ("fsmatrix.KEY..."); a success leaves every value in its documented range. */
#include "fuzz.h"
#include "core/parse/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cmdline c;
	char err[256] = "";
	char *text = fuzz_cstr(data, size);
	if (cmdline_parse(text, &c, err, sizeof err) != 0) {
		fuzz_one_line(err, sizeof err);
		FUZZ_ASSERT(strncmp(err, "fsmatrix.", 9) == 0, "no parameter in \"%s\"", err);
	} else {
		FUZZ_ASSERT(c.scale > 0 && c.scale <= 1000, "scale %g", c.scale);
		FUZZ_ASSERT(c.settle_ms >= 0 && c.settle_ms <= 600000, "settle %d", c.settle_ms);
		FUZZ_ASSERT((c.dry | c.debug) <= 1 && c.dry >= 0 && c.debug >= 0, "flags %d %d",
			    c.dry, c.debug);
		FUZZ_ASSERT(c.shell == 0 || c.shell == 1 || c.shell == CMDLINE_SHELL_NOW, "shell %d",
			    c.shell);
		FUZZ_ASSERT(c.watchdog_s == CMDLINE_WATCHDOG_AUTO ||
			    (c.watchdog_s >= 0 && c.watchdog_s <= 65535), "watchdog %d", c.watchdog_s);
		FUZZ_ASSERT(c.debug_hang >= 0, "debug_hang %d", c.debug_hang);
		FUZZ_ASSERT(memchr(c.disks, '\0', sizeof c.disks) && memchr(c.wipe, '\0', sizeof c.wipe) &&
			    memchr(c.plan, '\0', sizeof c.plan), "a value is not terminated");
	}
	FUZZ_ASSERT(memchr(c.raw, '\0', sizeof c.raw) && !strchr(c.raw, '\n'), "raw line");
	free(text);
	return 0;
}
