/* core/command/geometry.c: stripe geometry from the array, merged into mkfs options. */
#include "core/command/geometry.h"
#include "core/model/level.h"
#include "core/model/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void warn_add(struct warnings *w, const char *fmt, ...)
{
	if (w->n >= GEOM_WARN_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->msg[w->n++], GEOM_WARN_LEN, fmt, ap);
	va_end(ap);
}

int geom_data_disks(int level, int devices, const char *layout)
{
	const struct md_level *l = level_find(level);
	/* One disk's worth: a raw disk, raid1's copies of the same data on every member, or lvm's
	 * linear volume, one disk after the other. */
	if (!level_spans(level) || l->copies == LEVEL_COPIES_ALL || (l->lvm && !l->striped))
		return 1;
	/* btrfs puts each chunk's copies on any of the disks: the disks over the copies */
	if (l->profile && l->copies > 1)
		return devices / l->copies > 0 ? devices / l->copies : 1;
	/* Copies across members (raid10): md's own rule for its optimal I/O size
	 * (raid10_nr_stripes): the members over the near copies when that divides evenly, else
	 * every member, whatever the far or offset copies. */
	if (l->copies > 1) {
		int near = level_near_copies(level, layout);
		return devices % near ? devices : devices / near;
	}
	int n = devices - l->parity;
	return n > 0 ? n : 1;
}

void geom_derive(int level, int devices, const char *layout, uint64_t chunk,
		 unsigned block_size, struct geometry *g)
{
	memset(g, 0, sizeof *g);
	g->data_disks = geom_data_disks(level, devices, layout);
	g->chunk = chunk;
	g->block_size = block_size ? block_size : 4096;
	if (!level_find(level)->striped || !chunk)
		return;
	g->valid = 1;
	g->stride = (unsigned)(chunk / g->block_size);
	if (!g->stride)   /* a chunk smaller than a block: one block per disk is the best fit */
		g->stride = 1;
	g->stripe_width = g->stride * (unsigned)g->data_disks;
}

/* One comma-separated option list, as key[=value] items. */
struct opts {
	int n;
	char key[24][48];
	char val[24][80];
};

static void opts_parse(const char *s, struct opts *o)
{
	o->n = 0;
	while (*s && o->n < 24) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		const char *eq = memchr(s, '=', n);
		size_t kn = eq ? (size_t)(eq - s) : n;
		if (n) {
			snprintf(o->key[o->n], sizeof o->key[0], "%.*s", (int)kn, s);
			snprintf(o->val[o->n], sizeof o->val[0], "%.*s",
				 eq ? (int)(n - kn - 1) : 0, eq ? eq + 1 : "");
			o->n++;
		}
		s += n + (comma ? 1 : 0);
	}
}

/* The value of the first key among names (an alias list), or NULL. */
static const char *opts_get(const struct opts *o, const char *const *names)
{
	for (int i = 0; i < o->n; i++)
		for (const char *const *k = names; *k; k++)
			if (strcmp(o->key[i], *k) == 0)
				return o->val[i];
	return NULL;
}

static int append(char *out, size_t len, size_t *used, const char *item)
{
	int n = snprintf(out + *used, len - *used, "%s%s", *used ? "," : "", item);
	if (n < 0 || (size_t)n >= len - *used)
		return -1;
	*used += (size_t)n;
	return 0;
}

/* The plan's own items, verbatim, empty ones dropped. */
static int copy_plan(const char *plan, char *out, size_t len, size_t *used)
{
	char item[160];

	*used = 0;
	out[0] = '\0';
	while (*plan) {
		const char *comma = strchr(plan, ',');
		size_t n = comma ? (size_t)(comma - plan) : strlen(plan);
		if (n) {
			snprintf(item, sizeof item, "%.*s", (int)n, plan);
			if (append(out, len, used, item) < 0)
				return -1;
		}
		plan += n + (comma ? 1 : 0);
	}
	return 0;
}

static const char *const k_stride[] = { "stride", NULL };
static const char *const k_width[] = { "stripe_width", "stripe-width", NULL };
static const char *const k_itable[] = { "lazy_itable_init", NULL };
static const char *const k_journal[] = { "lazy_journal_init", NULL };

int geom_ext_extended(const struct geometry *g, int ext4, const char *plan_e, char *out,
		      size_t len, struct warnings *w)
{
	struct opts o;
	size_t used;
	char item[64], chunk[32];

	opts_parse(plan_e, &o);
	if (copy_plan(plan_e, out, len, &used) < 0)
		return -1;
	if (g->valid) {
		const char *ps = opts_get(&o, k_stride), *pw = opts_get(&o, k_width);
		unsigned stride = g->stride;
		plan_fmt_size(g->chunk, chunk, sizeof chunk);
		if (ps) {
			unsigned long v = strtoul(ps, NULL, 0);
			if (v != g->stride)
				warn_add(w, "plan gives stride=%s but a %s chunk with %u-byte blocks "
					 "gives stride=%u", ps, chunk, g->block_size, g->stride);
			/* The plan's stride wins, so a width we add is counted in it. */
			if (v)
				stride = (unsigned)v;
		} else {
			snprintf(item, sizeof item, "stride=%u", g->stride);
			if (append(out, len, &used, item) < 0)
				return -1;
		}
		unsigned width = stride * (unsigned)g->data_disks;
		if (pw) {
			unsigned long v = strtoul(pw, NULL, 0);
			if (v != g->stripe_width)
				warn_add(w, "plan gives stripe_width=%s but stride %u over %d data "
					 "disks gives stripe_width=%u", pw, g->stride, g->data_disks,
					 g->stripe_width);
		} else {
			snprintf(item, sizeof item, "stripe_width=%u", width);
			if (append(out, len, &used, item) < 0)
				return -1;
		}
	}
	/* Without these, ext4 zeroes inode tables and journal in a kernel thread after mount,
	 * competing with the workload being measured. */
	if (ext4 && !opts_get(&o, k_itable) && append(out, len, &used, "lazy_itable_init=0") < 0)
		return -1;
	if (ext4 && !opts_get(&o, k_journal) &&
	    append(out, len, &used, "lazy_journal_init=0") < 0)
		return -1;
	return 0;
}

static const char *const k_su[] = { "su", NULL };
static const char *const k_sw[] = { "sw", NULL };
static const char *const k_sunit[] = { "sunit", NULL };
static const char *const k_swidth[] = { "swidth", NULL };

int geom_xfs_data(const struct geometry *g, const char *plan_d, char *out, size_t len,
		  struct warnings *w)
{
	struct opts o;
	size_t used;
	char item[64], chunk[32];

	opts_parse(plan_d, &o);
	if (copy_plan(plan_d, out, len, &used) < 0)
		return -1;
	if (!g->valid)
		return 0;
	plan_fmt_size(g->chunk, chunk, sizeof chunk);
	const char *su = opts_get(&o, k_su), *sw = opts_get(&o, k_sw);
	const char *sunit = opts_get(&o, k_sunit), *swidth = opts_get(&o, k_swidth);
	if (!su && !sw && !sunit && !swidth) {
		snprintf(item, sizeof item, "su=%s,sw=%d", chunk, g->data_disks);
		return append(out, len, &used, item);
	}
	/* The plan wins; say where it differs. sunit and swidth count 512-byte sectors. */
	uint64_t v;
	if (su && (plan_parse_size(su, &v) < 0 || v != g->chunk))
		warn_add(w, "plan gives su=%s but the array's chunk is %s", su, chunk);
	if (sw && strtoul(sw, NULL, 0) != (unsigned long)g->data_disks)
		warn_add(w, "plan gives sw=%s but the array has %d data disks", sw, g->data_disks);
	if (sunit && strtoull(sunit, NULL, 0) != g->chunk / 512)
		warn_add(w, "plan gives sunit=%s but a %s chunk is sunit=%llu", sunit, chunk,
			 (unsigned long long)(g->chunk / 512));
	if (swidth && strtoull(swidth, NULL, 0) != g->chunk / 512 * (uint64_t)g->data_disks)
		warn_add(w, "plan gives swidth=%s but a %s chunk over %d data disks is swidth=%llu",
			 swidth, chunk, g->data_disks,
			 (unsigned long long)(g->chunk / 512 * (uint64_t)g->data_disks));
	return 0;
}
