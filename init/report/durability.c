/* report/durability.c: with durability = log-writes, each cell's speed and what a power cut
 * would have cost it, side by side: its main figure (the median of its ok repeats), then
 * under each model the crash points at which acknowledged records were lost, of those
 * checked, and the records lost and torn, then what fsck found and what the log held. From
 * the cell's first ok record's "durability" object (cell/durability.c writes it). */
#include "report/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static long long num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* "lost at 8 of 8 points (59 records lost, 0 torn)" or "nothing lost at 8 points". */
static void model_text(const json_t *m, char *buf, size_t len)
{
	long long pts = num(m, "points"), lost = num(m, "points_lost");
	long long un = num(m, "unmountable");
	if (!lost)
		snprintf(buf, len, "nothing lost at %lld points", pts);
	else
		snprintf(buf, len, "lost at %lld of %lld points (%lld records lost, %lld torn, %lld "
			 "files missing%s%.0lld%s)", lost, pts, num(m, "records_lost"),
			 num(m, "records_torn"), num(m, "files_missing"), un ? ", " : "", un,
			 un ? " unmountable" : "");
}

static void figure_text(const struct rcell *c, char *buf, size_t len)
{
	snprintf(buf, len, "no figure");
	for (size_t i = 0; i < c->nm; i++)
		if (c->has[i] && c->verdict_metric && strcmp(c->m[i]->key, c->verdict_metric) == 0)
			snprintf(buf, len, "%.*f %s", c->m[i]->decimals, c->st[i].median, c->m[i]->unit);
}

void report_durability_lines(const struct rrun *r, const struct report_opts *o,
			     void (*line)(void *ctx, const char *s), void *ctx)
{
	(void)o;
	char t[1024], fig[64], pm[256], om[256];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		const json_t *d = c->first_ok ? json_object_get(c->first_ok, "durability") : NULL;
		if (!json_is_object(d))
			continue;
		const char *verdict = json_string_value(json_object_get(d, "verdict"));
		figure_text(c, fig, sizeof fig);
		model_text(json_object_get(d, "pessimistic"), pm, sizeof pm);
		model_text(json_object_get(d, "optimistic"), om, sizeof om);
		const json_t *p = json_object_get(d, "pessimistic");
		snprintf(t, sizeof t, "  %s: %s; durability %s: if the disks' cache is volatile "
			 "(pessimistic) %s; with no cache (optimistic) %s; fsck errors %lld; the log: "
			 "%lld flushes, %lld FUA writes; checked in %.1f s", c->id, fig,
			 verdict ? verdict : "?", pm, om, num(p, "fsck_errors") +
			 num(json_object_get(d, "optimistic"), "fsck_errors"), num(d, "flushes"),
			 num(d, "fuas"), json_number_value(json_object_get(d, "check_s")));
		line(ctx, t);
	}
}
