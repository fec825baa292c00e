/* report/devices.c: what a disk's health did while no cell was measuring. Each cell warns
 * of what rose between its own two readings (cell/cell.c); a counter that rose between one
 * cell's last reading and the next cell's first (during a teardown, the disk-speed or
 * reference measurement, a reboot), or after the last cell, belongs to no cell. The report
 * walks each disk's readings in the order they were taken, the boot's first (the header),
 * every cell's before and after, the boot's last (the devices end event), and lists what
 * rose in each gap under Problems, by core/disk/devstate.c's rule. */
#include "report/model.h"
#include "core/disk/devstate.h"

#include <stdio.h>
#include <string.h>

/* A health object as the records write it (core/disk/devstate.c's dev_health_json) back into the
 * struct the rule reads. 0, or -1 when there is no reading at all (older records). */
static int health_of(json_t *o, struct dev_health *h)
{
	if (!json_is_object(o))
		return -1;
	dev_health_init(h);
	json_t *why = json_object_get(o, "unavailable");
	if (why) {
		h->read = 0;
		snprintf(h->why, sizeof h->why, "%s", json_is_string(why) ? json_string_value(why) : "");
		return 0;
	}
	h->read = 1;
	json_t *t = json_object_get(o, "temperature_c"), *tw = json_object_get(o, "temperature_warn_c");
	if (json_is_integer(t))
		h->temp_c = (int)json_integer_value(t);
	if (json_is_integer(tw))
		h->temp_warn_c = (int)json_integer_value(tw);
	for (int i = 0; i < DC_COUNT; i++) {
		json_t *c = json_object_get(o, dev_counters[i].name);
		if (json_is_integer(c))
			h->counter[i] = json_integer_value(c);
	}
	return 0;
}

/* The reading a disk's chain ends at so far: its health and where it was taken. */
struct last_reading {
	char name[64];
	json_t *health;
	char where[48];   /* "cell 3", "the boot's first reading" */
};

#define MAX_DISKS 64

static struct last_reading *reading_of(struct last_reading *last, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(last[i].name, name) == 0)
			return &last[i];
	if (*n == MAX_DISKS)
		return NULL;
	struct last_reading *l = &last[(*n)++];
	memset(l, 0, sizeof *l);
	snprintf(l->name, sizeof l->name, "%s", name);
	return l;
}

/* Compares the chain's last reading of a disk with the next one, says what rose between,
 * and moves the chain on. Returns the lines said. */
static int step(struct last_reading *l, json_t *next, const char *next_where, report_line_fn line,
		void *ctx)
{
	struct dev_health before, after;
	int said = 0;
	if (l->health && health_of(l->health, &before) == 0 && health_of(next, &after) == 0) {
		char when[128], out[8][200];
		snprintf(when, sizeof when, "between %s and %s", l->where, next_where);
		/* a disk that stays hot is said to be once, where it crossed, not again at every
		 * gap (each cell still says it was measured hot) */
		int k = dev_health_changes(l->name, when, DEV_HOT_CROSSED, &before, &after, out, 8);
		for (int i = 0; i < k; i++)
			report_line(line, ctx, "  %s, while no cell was measuring", out[i]);
		said = k;
	}
	if (json_is_object(next))
		l->health = next;
	return said;
}

/* The devices end event of run id, the last one, or NULL. */
static json_t *end_event(const struct rrun *r, const char *run)
{
	json_t *found = NULL, *ev;
	size_t i;
	json_array_foreach(r->dev_ends, i, ev)
		if (strcmp(report_str(ev, "run"), run) == 0)
			found = ev;
	return found;
}

static json_t *header_of(const struct rrun *r, const char *run)
{
	json_t *h;
	size_t i;
	json_array_foreach(r->headers, i, h)
		if (strcmp(report_str(h, "run"), run) == 0)
			return h;
	return r->header && strcmp(report_str(r->header, "run"), run) == 0 ? r->header : NULL;
}

/* One run's chain (merged shards are several runs, each on its own machine). */
static int run_gaps(const struct rrun *r, size_t from, size_t to, report_line_fn line, void *ctx)
{
	struct last_reading last[MAX_DISKS];
	int n = 0, said = 0;
	const char *run = report_str(json_array_get(r->records, from), "run");
	json_t *d, *hdr = header_of(r, run);
	size_t i, j;
	json_array_foreach(json_object_get(hdr, "devices"), j, d) {
		struct last_reading *l = reading_of(last, &n, report_str(d, "name"));
		if (l) {
			l->health = json_object_get(d, "health");
			snprintf(l->where, sizeof l->where, "the boot's first reading");
		}
	}
	for (i = from; i < to; i++) {
		json_t *rec = json_array_get(r->records, i);
		char here[48];
		snprintf(here, sizeof here, "cell %lld", (long long)json_integer_value(json_object_get(rec, "index")));
		json_array_foreach(json_object_get(rec, "devices"), j, d) {
			struct last_reading *l = reading_of(last, &n, report_str(d, "name"));
			if (!l)
				continue;
			said += step(l, json_object_get(d, "before"), here, line, ctx);
			if (json_is_object(json_object_get(d, "after")))
				l->health = json_object_get(d, "after");
			snprintf(l->where, sizeof l->where, "%s", here);
		}
	}
	json_array_foreach(json_object_get(end_event(r, run), "disks"), j, d) {
		struct last_reading *l = reading_of(last, &n, report_str(d, "name"));
		if (l)
			said += step(l, json_object_get(d, "health"), "the boot's last reading", line, ctx);
	}
	return said;
}

int report_device_gap_lines(const struct rrun *r, report_line_fn line, void *ctx)
{
	size_t n = json_array_size(r->records), from = 0;
	int said = 0;
	for (size_t i = 1; i <= n; i++)
		if (i == n || strcmp(report_str(json_array_get(r->records, i), "run"),
				     report_str(json_array_get(r->records, from), "run")) != 0) {
			said += run_gaps(r, from, i, line, ctx);
			from = i;
		}
	return said;
}
