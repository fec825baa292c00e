/* core/figures/limit.c: the disks' speed from block times, and a cell's limit from the level's
 * table (limit.h). */
#include "core/figures/limit.h"
#include "core/model/level.h"
#include "core/model/plan.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int speed_from_blocks(const double *t, int n, double bs, struct speed_fig *f)
{
	f->mbps = f->rsd_pct = NAN;
	f->bytes = n * bs;
	f->secs = n > 0 ? t[n - 1] : 0;
	if (n < 2 || !(t[n - 1] > 0))
		return -1;
	/* the blocks done before the warm-up's end are left out, and the span starts at the
	 * last of them; a measurement too short for that keeps them all */
	int skip = 0;
	while (skip < n - 1 && t[skip] < SPEED_WARM_FRACTION * t[n - 1])
		skip++;
	if (n - skip < 2)
		skip = 0;
	double start = skip ? t[skip - 1] : 0, span = t[n - 1] - start;
	if (!(span > 0))
		return -1;
	f->mbps = (double)(n - skip) * bs / span / 1e6;
	/* the windows' own rates, from the bytes done by each window's end: linear between two
	 * blocks' completions, so that a block ending just past an edge does not move a whole
	 * block's worth from one window to the next */
	if (n - skip < 2 * SPEED_WINDOWS)
		return 0;
	double w[SPEED_WINDOWS], prev = 0;
	int i = skip;
	for (int k = 0; k < SPEED_WINDOWS; k++) {
		double edge = start + span * (k + 1) / SPEED_WINDOWS, done;
		while (i < n - 1 && t[i] < edge)
			i++;
		double t0 = i > skip ? t[i - 1] : start, b0 = (double)(i - skip) * bs;
		done = t[i] > t0 ? b0 + bs * (edge - t0) / (t[i] - t0) : b0 + bs;
		w[k] = done - prev;
		prev = done;
	}
	double mean = 0, var = 0;
	for (int k = 0; k < SPEED_WINDOWS; k++)
		mean += w[k] / SPEED_WINDOWS;
	for (int k = 0; k < SPEED_WINDOWS; k++)
		var += (w[k] - mean) * (w[k] - mean) / (SPEED_WINDOWS - 1);
	f->rsd_pct = mean > 0 ? 100 * sqrt(var) / mean : NAN;
	return 0;
}

double limit_streams(int level, int devices, const char *layout, enum limit_dir dir)
{
	const struct md_level *l = level_find(level);
	if (!level_spans(level) || l->copies == LEVEL_COPIES_ALL)
		return 1;   /* one stream: a mirror serves a sequential read from one member too */
	if (l->lvm && !l->striped)
		return 1;   /* lvm's linear volume: one disk after the other */
	if (l->profile && l->copies > 1)   /* btrfs: every copy of a chunk on its own disk */
		return (double)devices / l->copies;
	if (l->copies > 1) {
		/* every copy is written; a read stripes over the near groups (far and offset
		 * layouts read from all members, as raid0) */
		int copies = layout && layout[0] && atoi(layout + 1) > 0 ? atoi(layout + 1) : l->copies;
		if (dir == LIMIT_WRITE)
			return (double)devices / copies;
		return (double)devices / level_near_copies(level, layout);
	}
	return devices - l->parity;
}

static const char *dir_name(enum limit_dir d)
{
	return d == LIMIT_READ ? "read" : "write";
}

int limit_of(int level, int devices, int missing, const char *layout, const double *member_mbps,
	     const char *const *names, int n, double aggregate_mbps, enum limit_dir dir,
	     struct limit *out)
{
	out->mbps = NAN;
	if (dir == LIMIT_NONE) {
		snprintf(out->rule, sizeof out->rule, "not a streaming workload: no limit");
		return -1;
	}
	if (n <= 0) {
		snprintf(out->rule, sizeof out->rule, "no member disk");
		return -1;
	}
	int slow = 0;
	for (int i = 0; i < n; i++) {
		if (!(member_mbps[i] > 0)) {
			snprintf(out->rule, sizeof out->rule, "no limit measured: %s's %s speed is "
				 "unknown (disk_speed off, or its measurement failed)", names[i],
				 dir_name(dir));
			return -1;
		}
		if (member_mbps[i] < member_mbps[slow])
			slow = i;
	}
	const struct md_level *l = level_find(level);
	double streams = limit_streams(level, devices, layout, dir);
	double by_member = streams * member_mbps[slow];
	/* what the members moved at once, shared as the array shares it: a parity or mirror
	 * write moves more member bytes than data bytes */
	double by_all = isnan(aggregate_mbps) ? NAN : aggregate_mbps * streams / n;
	char shape[64];
	if (level_spans(level))
		snprintf(shape, sizeof shape, "%s of %d, %d missing", l->name, devices, missing);
	else
		snprintf(shape, sizeof shape, "one disk");
	if (!isnan(by_all) && by_all < by_member) {
		out->mbps = by_all;
		snprintf(out->rule, sizeof out->rule, "%s: %g stream%s x what the %d member%s moved "
			 "at once (%.1f MB/s %s), less than %g x the slowest alone", shape, streams,
			 streams == 1 ? "" : "s", n, n == 1 ? "" : "s", aggregate_mbps, dir_name(dir),
			 streams);
	} else {
		out->mbps = by_member;
		snprintf(out->rule, sizeof out->rule, "%s: %g stream%s x the slowest member %s (%.1f "
			 "MB/s %s)", shape, streams, streams == 1 ? "" : "s", names[slow],
			 member_mbps[slow], dir_name(dir));
	}
	return 0;
}

enum limit_dir limit_dir_of(int wl_type, const char *fio_rw, const char **metric)
{
	*metric = NULL;
	if (wl_type == WL_SEQWRITE || wl_type == WL_SEQREAD) {
		*metric = "mbps";
		return wl_type == WL_SEQWRITE ? LIMIT_WRITE : LIMIT_READ;
	}
	if (wl_type != WL_FIO || !fio_rw)
		return LIMIT_NONE;
	if (strcmp(fio_rw, "write") == 0) {
		*metric = "write_mbps";
		return LIMIT_WRITE;
	}
	if (strcmp(fio_rw, "read") == 0) {
		*metric = "read_mbps";
		return LIMIT_READ;
	}
	return LIMIT_NONE;
}

int speeds_find(const struct disk_speeds *s, const char *name)
{
	for (int i = 0; s && i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return i;
	return -1;
}

double speeds_together(const struct disk_speeds *s, const char *const *names, int n,
		       enum limit_dir dir)
{
	if (!s || n != s->n || dir == LIMIT_NONE)
		return NAN;
	double sum = 0;
	for (int i = 0; i < n; i++) {
		int k = speeds_find(s, names[i]);
		if (k < 0)
			return NAN;
		sum += dir == LIMIT_READ ? s->together_read[k].mbps : s->together_write[k].mbps;
	}
	return sum;
}
