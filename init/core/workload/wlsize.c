/* core/workload/wlsize.c: sizes relative to RAM or to the filesystem's free space (wlsize.h). */
#include "core/workload/wlsize.h"
#include "core/workload/workload_kinds.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct base_row {
	const char *word;
	enum size_base base;
	double max;               /* the largest factor that makes sense */
	const char *why;
} bases[] = {
	{ "ram", SIZE_RAM, 1000, "more than 1000x ram" },
	{ "fs", SIZE_FS, 1, "more than the filesystem's free space (100% fs)" },
};

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int wlsize_parse(const char *text, struct size_rel *r, char *msg, size_t mlen)
{
	const char *s = skip_blanks(text);
	if (*s < '0' || *s > '9')
		return 0;
	char *end;
	double v = strtod(s, &end);
	s = skip_blanks(end);
	int pct = *s == '%';
	if (!pct && (*s | 0x20) != 'x')
		return 0;
	s = skip_blanks(s + 1);
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
		size_t n = strlen(bases[i].word);
		if (strncasecmp(s, bases[i].word, n) != 0 || *skip_blanks(s + n))
			continue;
		double f = pct ? v / 100 : v;
		if (!(f > 0) || !isfinite(f)) {
			snprintf(msg, mlen, "expected a share greater than 0, such as 2x ram or 10%% fs");
			return -1;
		}
		if (f > bases[i].max) {
			snprintf(msg, mlen, "expected at most %g%s %s: this is %s",
				 pct ? bases[i].max * 100 : bases[i].max, pct ? "%" : "x",
				 bases[i].word, bases[i].why);
			return -1;
		}
		*r = (struct size_rel){ bases[i].base, f, 1.0 };
		return 1;
	}
	return 0;
}

void wlsize_text(const struct size_rel *r, char *buf, size_t len)
{
	/* ram reads as a multiple ("2x ram"), fs as a share ("10% fs"), as plans write them */
	if (r->base == SIZE_RAM)
		snprintf(buf, len, "%gx ram", r->factor);
	else if (r->base == SIZE_FS)
		snprintf(buf, len, "%g%% fs", r->factor * 100);
	else if (len)
		buf[0] = '\0';
}

uint64_t wlsize_unit(const struct plan_workload *w)
{
	const struct wl_kind *wk = wl_kind_of(w->type);
	return wk && wl_kind_has(wk->keys, "bs") && w->bs ? w->bs : 4096;
}

uint64_t wlsize_round(const struct plan_workload *w, double bytes)
{
	uint64_t unit = wlsize_unit(w);
	uint64_t v = !(bytes > 0) ? 0 : bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
	v -= v % unit;
	return v < unit ? unit : v;
}

uint64_t wlsize_resolve(const struct plan_workload *w, uint64_t ram, uint64_t fs_free,
			uint64_t *basis)
{
	uint64_t b = w->size_rel.base == SIZE_RAM ? ram : w->size_rel.base == SIZE_FS ? fs_free : 0;
	if (basis)
		*basis = b;
	if (w->size_rel.base == SIZE_BYTES)
		return w->size;
	return wlsize_round(w, (double)b * w->size_rel.factor * w->size_rel.scale);
}
