/* core/boot/bootsec.c: the boot's trust chain from the kernel's texts (core/boot/bootsec.h). */
#include "core/boot/bootsec.h"
#include <stdio.h>
#include <string.h>

const char *bootsec_from_efivar(const unsigned char *b, size_t len)
{
	if (len != 5)
		return NULL;
	return b[4] == 1 ? "enabled" : b[4] == 0 ? "disabled" : NULL;
}

static const struct {
	const char *text, *state;
} log_lines[] = {
	{ "Secure boot enabled", "enabled" },
	{ "Secure boot disabled", "disabled" },
	{ "Secure boot could not be determined", "unknown" },
};

const char *bootsec_from_log(const char *log)
{
	for (size_t i = 0; i < sizeof log_lines / sizeof log_lines[0]; i++)
		if (strstr(log, log_lines[i].text))
			return log_lines[i].state;
	return NULL;
}

int bootsec_lockdown(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
	if (!a || !b || b == a + 1 || len == 0)
		return -1;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

int bootsec_modules_state(const char *manifest, char *out, size_t len)
{
	static const char key[] = "kernel-modules ";
	for (const char *l = manifest; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, sizeof key - 1) != 0)
			continue;
		size_t n = strcspn(l, "\n");
		const char *w[4];
		int nw = 0;
		for (size_t i = 0; i < n && nw < 4; i++)
			if (l[i] != ' ' && (i == 0 || l[i - 1] == ' '))
				w[nw++] = l + i;
		/* kernel-modules VERSION IMAGE STATE: an image older than the state has three */
		if (nw < 4 || len == 0)
			return -1;
		snprintf(out, len, "%.*s", (int)strcspn(w[3], " \n"), w[3]);
		return 0;
	}
	return -1;
}
