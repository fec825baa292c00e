/* core/matrix/kernels.c: the kernel list of a plan and the passes of a run (core/matrix/kernels.h). */
#include "core/matrix/kernels.h"

#include <stdio.h>
#include <string.h>

const char *const kernel_set_files[KERNEL_SET_FILES] = { "vmlinuz", "initramfs.img" };

void kernel_set_unreadable(const char *name, const char *path, int err, char *buf,
			   size_t len)
{
	snprintf(buf, len, "kernels = %s: unable to read %s: %s", name, path, strerror(err));
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

int kernel_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= PLAN_KERNEL_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!name_char(s[i]))
			return 0;
	return 1;
}

int kernels_parse(const char *val, char names[][PLAN_KERNEL_NAME_MAX], int *n, char *msg,
		  size_t mlen)
{
	*n = 0;
	for (const char *s = val;;) {
		size_t len = strcspn(s, ",");
		const char *b = s;
		while (len && (*b == ' ' || *b == '\t'))
			b++, len--;
		while (len && (b[len - 1] == ' ' || b[len - 1] == '\t'))
			len--;
		int ok = len > 0 && len < PLAN_KERNEL_NAME_MAX;
		for (size_t i = 0; ok && i < len; i++)
			ok = name_char(b[i]);
		if (!ok) {
			snprintf(msg, mlen, "expected kernel set names (letters, digits, '.', '_', "
				 "'-'; at most %d characters) such as 6.1, 6.12",
				 PLAN_KERNEL_NAME_MAX - 1);
			return -1;
		}
		if (*n == PLAN_KERNELS_MAX) {
			snprintf(msg, mlen, "at most %d kernels", PLAN_KERNELS_MAX);
			return -1;
		}
		memcpy(names[*n], b, len);
		names[*n][len] = '\0';
		for (int i = 0; i < *n; i++)
			if (strcmp(names[i], names[*n]) == 0) {
				snprintf(msg, mlen, "kernel %s is named twice", names[i]);
				return -1;
			}
		(*n)++;
		if (!s[strcspn(s, ",")])
			return 0;
		s += strcspn(s, ",") + 1;
	}
}

int kernel_pass(int nk, int repeat, int pass, int *rep, int *kernel)
{
	if (nk < 1 || repeat < 1 || pass < 0 || pass >= nk * repeat)
		return -1;
	int r = pass / nk, j = pass % nk;
	*rep = r + 1;
	*kernel = r % 2 == 0 ? j : nk - 1 - j;
	return 0;
}

int kernel_pass_of(int nk, int repeat, int rep, int kernel)
{
	if (nk < 1 || rep < 1 || rep > repeat || kernel < 0 || kernel >= nk)
		return -1;
	int r = rep - 1;
	return r * nk + (r % 2 == 0 ? kernel : nk - 1 - kernel);
}

int kernel_order_at(const struct order_shape *s, int nk, int pos, int *rep, int *kernel,
		    int *slot)
{
	int r, k, sr;
	if (s->o == ORDER_SEQUENTIAL || s->per < 1 || pos < 0 ||
	    kernel_pass(nk, s->repeat, pos / s->per, &r, &k) < 0)
		return -1;
	/* the pass's cells: the order's positions of repetition r, which are consecutive */
	if (order_at(s, (r - 1) * s->per + pos % s->per, &sr, slot) < 0 || sr != r)
		return -1;
	*rep = r;
	*kernel = k;
	return 0;
}

int kernel_order_position(const struct order_shape *s, int nk, int rep, int kernel, int slot)
{
	int pass = kernel_pass_of(nk, s->repeat, rep, kernel);
	if (s->o == ORDER_SEQUENTIAL || pass < 0)
		return -1;
	int p = order_position(s, rep, slot);
	if (p < 0)
		return -1;
	return pass * s->per + p % s->per;
}

/* Parameters a switch does not pass on: the kernel set's own, and what a boot loader adds. */
static const char *const switch_drops[] = { "fsmatrix.kernel=", "BOOT_IMAGE=", "initrd=" };

int kernel_switch_cmdline(const char *cur, const char *name, char *out, size_t len)
{
	size_t used = 0;
	if (!len)
		return -1;
	out[0] = '\0';
	for (const char *s = cur; *s;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		const char *b = s;
		int quoted = 0;
		while (*s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n'))) {
			if (*s == '"')
				quoted = !quoted;
			s++;
		}
		size_t n = (size_t)(s - b);
		int drop = 0;
		for (size_t i = 0; i < sizeof switch_drops / sizeof switch_drops[0]; i++)
			drop |= strncmp(b, switch_drops[i], strlen(switch_drops[i])) == 0;
		if (drop)
			continue;
		if (used + n + 2 > len)
			return -1;
		if (used)
			out[used++] = ' ';
		memcpy(out + used, b, n);
		out[used += n] = '\0';
	}
	int w = snprintf(out + used, len - used, "%sfsmatrix.kernel=%s", used ? " " : "", name);
	return w < 0 || (size_t)w >= len - used ? -1 : 0;
}

int bzimage_version(const unsigned char *hdr, size_t len, char *out, size_t outlen)
{
	if (len < 0x210 || memcmp(hdr + 0x202, "HdrS", 4) != 0 || !outlen)
		return -1;
	size_t at = (size_t)(hdr[0x20E] | hdr[0x20F] << 8) + 0x200;
	for (size_t i = 0; at + i < len && i < outlen; i++) {
		out[i] = (char)hdr[at + i];
		if (!out[i])
			return i ? 0 : -1;
	}
	return -1;
}

int bzimage_is(const char *kernel_version, const char *release, const char *version)
{
	size_t r = strlen(release), v = strlen(version), n = strlen(kernel_version);
	return r && strncmp(kernel_version, release, r) == 0 && kernel_version[r] == ' ' &&
	       n >= r + v && strcmp(kernel_version + n - v, version) == 0;
}

int kernel_name_fits_release(const char *name, const char *release)
{
	size_t n = strlen(name);
	if (!n || strspn(name, "0123456789.") != n || name[0] == '.' || name[n - 1] == '.')
		return -1;
	return strncmp(release, name, n) == 0 && strchr(".-+", release[n]) && release[n] != '\0';
}
