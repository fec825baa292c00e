/* core/workload/workload_kinds.c: the workload engines as plans, checks and reports see them, one row
 * each (workload_kinds.h). A new engine is a row here, with its estimate and description, and
 * its runner in engines/. */
#include "core/workload/workload_kinds.h"
#include "core/workload/fio_cmd.h"
#include "core/workload/estimate_model.h"
#include "lib/argv.h"
#include "lib/confine.h"

#include <stdio.h>
#include <string.h>

static const double MB = 1024.0 * 1024;

/* ------------------------------------------------------------------ seqwrite */

static const struct metric seqwrite_metrics[] = {
	/* key            label           unit    higher dec report */
	{ "mbps",         "MB/s",         "MB/s", 1, 1, 1 },
	{ "mbps_noflush", "MB/s no flush", "MB/s", 1, 1, 0 },
	{ "write_s",      "write",        "s",    0, 2, 0 },
	{ "flush_s",      "flush",        "s",    0, 2, 0 },
	{ "total_s",      "total",        "s",    0, 2, 2 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double seqwrite_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	return (double)w->size / MB / m->write_mbps;
}

static void seqwrite_describe(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32], bs[32];
	plan_fmt_size(w->size, size, sizeof size);
	plan_fmt_size(w->bs, bs, sizeof bs);
	snprintf(buf, len, "seqwrite %s in %s blocks, %s data%s%s", size, bs,
		 w->data == DATA_ZERO ? "zero" : "random", w->direct ? ", O_DIRECT" : "",
		 w->fallocate ? ", blocks reserved first (fallocate)" : "");
}

/* ------------------------------------------------------------------ smallfiles */

static const struct metric smallfiles_metrics[] = {
	{ "mbps",         "MB/s",         "MB/s", 1, 1, 3 },
	{ "files_per_s",  "files/s",      "files/s", 1, 0, 4 },
	{ "time_s",       "time",         "s",    0, 2, 1 },
	{ "sync_s",       "sync",         "s",    0, 2, 2 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double smallfiles_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	return w->passes * ((double)w->size / MB / m->smallfiles_mbps + m->mount_s);
}

static void smallfiles_describe(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32];
	plan_fmt_size(w->size, size, sizeof size);
	snprintf(buf, len, "smallfiles %s%s, %d pass%s, seed %llu, sync %s", size,
		 w->files ? " (file count set)" : "", w->passes, w->passes == 1 ? "" : "es",
		 (unsigned long long)w->seed, w->sync == SYNC_TIMED ? "timed" : "none");
}

/* ------------------------------------------------------------------ tar */

static const struct metric tar_metrics[] = {
	{ "mbps",         "MB/s",         "MB/s", 1, 1, 3 },
	{ "time_s",       "time",         "s",    0, 2, 1 },
	{ "sync_s",       "sync",         "s",    0, 2, 2 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double tar_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	(void)w;
	return m->tar_s;
}

static void tar_describe(const struct plan_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, "tar %s, sync %s", w->file, w->sync == SYNC_TIMED ? "timed" : "none");
}

/* ------------------------------------------------------------------ seqread */

static const struct metric seqread_metrics[] = {
	{ "mbps",         "MB/s",         "MB/s", 1, 1, 1 },
	{ "read_s",       "read",         "s",    0, 2, 2 },
	{ "write_mbps",   "write MB/s",   "MB/s", 1, 1, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double seqread_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	/* written first at the write rate, then read back at about twice that */
	return (double)w->size / MB / m->write_mbps * 1.5;
}

static void seqread_describe(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32], bs[32];
	plan_fmt_size(w->size, size, sizeof size);
	plan_fmt_size(w->bs, bs, sizeof bs);
	snprintf(buf, len, "seqread %s in %s blocks, written first (%s data), read back after "
		 "dropping caches%s", size, bs, w->data == DATA_ZERO ? "zero" : "random",
		 w->direct ? ", O_DIRECT" : "");
}

/* ------------------------------------------------------------------ fsync */

static const struct metric fsync_metrics[] = {
	{ "lat_p99_us",   "p99",          "us",   0, 0, 1 },
	{ "lat_p50_us",   "p50",          "us",   0, 0, 2 },
	{ "lat_max_us",   "max",          "us",   0, 0, 3 },
	{ "iops",         "fsyncs/s",     "IOPS", 1, 0, 4 },
	{ "lat_mean_us",  "mean",         "us",   0, 0, 0 },
	{ "lat_p90_us",   "p90",          "us",   0, 0, 0 },
	{ "lat_p999_us",  "p99.9",        "us",   0, 0, 0 },
	{ "background_mbps", "background MB/s", "MB/s", 1, 1, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double fsync_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	/* one fsync costs about a journal commit: a few ms on a disk that is not busy */
	return (double)(w->size / (w->bs ? w->bs : 1)) * 0.005 + (w->background ? 1 : 0) +
	       (double)w->size / MB / m->write_mbps;
}

static void fsync_describe(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32], bs[32], bg[32];
	plan_fmt_size(w->size, size, sizeof size);
	plan_fmt_size(w->bs, bs, sizeof bs);
	plan_fmt_size(w->background, bg, sizeof bg);
	snprintf(buf, len, "fsync %s appends each followed by fsync, %s in all, %s%s", bs, size,
		 w->background ? "while a background writer streams through " : "no background writer",
		 w->background ? bg : "");
}

/* ------------------------------------------------------------------ fio */

/* fio's own figures: per direction, summed over jobs (bandwidth, IOPS), and the slowest
 * job's completion latency. */
#define FIO_DIR_METRICS(d, c1, c2, c3) \
	{ d "_mbps",         d " MB/s",   "MB/s", 1, 1, c1 }, \
	{ d "_iops",         d " IOPS",   "IOPS", 1, 0, c2 }, \
	{ d "_clat_p99_us",  d " p99",    "us",   0, 0, c3 }, \
	{ d "_clat_mean_us", d " mean",   "us",   0, 0, 0 }, \
	{ d "_clat_p50_us",  d " p50",    "us",   0, 0, 0 }, \
	{ d "_clat_p90_us",  d " p90",    "us",   0, 0, 0 }, \
	{ d "_clat_p999_us", d " p99.9",  "us",   0, 0, 0 }, \
	{ d "_clat_max_us",  d " max",    "us",   0, 0, 0 }

static const struct metric fio_metrics[] = {
	FIO_DIR_METRICS("read", 1, 2, 3),
	FIO_DIR_METRICS("write", 4, 5, 6),
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double fio_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	if (w->job[0])
		return m->tar_s;   /* a job file: unknown until it runs */
	if (w->time_based && w->runtime_s)
		return w->runtime_s;
	double s = (double)w->size / MB / m->write_mbps * (w->numjobs > 1 ? w->numjobs : 1);
	return w->runtime_s && w->runtime_s < s ? w->runtime_s : s;
}

static void fio_describe(const struct plan_workload *w, char *buf, size_t len)
{
	struct argv a;
	fio_argv(w, w->job, &a);
	int n = snprintf(buf, len, "fio, confined to the cell's mount: ");
	if (n >= 0 && (size_t)n < len)
		argv_join(&a, buf + n, len - (size_t)n);
	n = (int)strlen(buf);
	if (w->job[0] && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%s: %s)", CONFINE_JOB, w->job);
}

/* A job file brings every option; inline keys describe one job and need rw and size. */
static int fio_check(const struct plan_workload *w,
		     int (*given)(const struct plan_workload *w, const char *key), char *kbuf,
		     size_t klen, char *msg, size_t mlen)
{
	static const char *const inline_keys[] = { "rw", "bs", "size", "iodepth", "numjobs",
		"ioengine", "direct", "fsync", "runtime", "time_based", "options", NULL };
	for (int i = 0; w->job[0] && inline_keys[i]; i++)
		if (given(w, inline_keys[i])) {
			snprintf(kbuf, klen, "%s", inline_keys[i]);
			snprintf(msg, mlen, "\"%s\" cannot go with job = %s: the job file gives "
				 "every option", inline_keys[i], w->job);
			return -1;
		}
	if (w->job[0])
		return 0;
	if (!w->rw[0] || !w->size) {
		snprintf(kbuf, klen, "%s", "");
		snprintf(msg, mlen, "fio needs job = FILE, or rw and size (and the other fio keys "
			 "as wanted)");
		return -1;
	}
	const char *key;
	int rc = fio_keys_unsafe(w, &key, msg, mlen);
	snprintf(kbuf, klen, "%s", key);
	return rc;
}

/* ------------------------------------------------------------------ durability */

static const struct metric durability_metrics[] = {
	{ "ops_per_s",    "ops/s",        "op/s", 1, 0, 1 },
	{ "lat_p99_us",   "p99",          "us",   0, 0, 2 },
	{ "lat_p50_us",   "p50",          "us",   0, 0, 3 },
	{ "lat_max_us",   "max",          "us",   0, 0, 0 },
	{ "lat_mean_us",  "mean",         "us",   0, 0, 0 },
	{ "lat_p90_us",   "p90",          "us",   0, 0, 0 },
	{ "lat_p999_us",  "p99.9",        "us",   0, 0, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

static double durability_estimate(const struct plan_workload *w, const struct estimate_model *m)
{
	/* each 4 KiB record is a sync of its own, two with a create or a rename */
	return (double)(w->size / 4096) * 0.008 + (double)w->size / MB / m->write_mbps;
}

static void durability_describe(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32];
	plan_fmt_size(w->size, size, sizeof size);
	snprintf(buf, len, "durability %s of 4k records by appends, overwrites, creates and "
		 "renames into %ld files and more, each synced, seed %llu", size,
		 w->files ? w->files : 4, (unsigned long long)w->seed);
}

static int durability_check(const struct plan_workload *w,
			    int (*given)(const struct plan_workload *w, const char *key),
			    char *kbuf, size_t klen, char *msg, size_t mlen)
{
	(void)given;
	snprintf(kbuf, klen, "%s", w->files > 64 ? "files" : "size");
	if (w->files > 64) {
		snprintf(msg, mlen, "durability takes at most 64 files");
		return -1;
	}
	if (w->size < 4096 || w->size / 4096 > 1000000) {
		snprintf(msg, mlen, "durability writes 4k to 4000000k of records");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ the table */

const struct wl_kind wl_kinds[] = {
	[WL_SEQWRITE] = { "seqwrite", WL_SEQWRITE, "size bs direct fallocate data seed", "size",
			  seqwrite_metrics, seqwrite_estimate, seqwrite_describe, NULL,
			  "bytes bs direct fallocate data" },
	[WL_SMALLFILES] = { "smallfiles", WL_SMALLFILES, "size passes sync seed files", "size",
			    smallfiles_metrics, smallfiles_estimate, smallfiles_describe, NULL,
			    "bytes files dirs" },
	[WL_TAR] = { "tar", WL_TAR, "sync file", "file", tar_metrics, tar_estimate, tar_describe,
		     NULL, "bytes files" },
	[WL_SEQREAD] = { "seqread", WL_SEQREAD, "size bs direct data seed", "size", seqread_metrics,
			 seqread_estimate, seqread_describe, NULL, "bytes bs direct data" },
	[WL_FSYNC] = { "fsync", WL_FSYNC, "size bs background", "size bs", fsync_metrics,
		       fsync_estimate, fsync_describe, NULL, "bytes bs background" },
	[WL_FIO] = { "fio", WL_FIO, "job rw bs size iodepth numjobs ioengine direct fsync runtime "
		     "time_based options", "", fio_metrics, fio_estimate, fio_describe,
		     fio_check, "command job" },
	[WL_DURABILITY] = { "durability", WL_DURABILITY, "size files seed", "size",
			    durability_metrics, durability_estimate, durability_describe,
			    durability_check, "bytes files" },
	{ NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

const struct wl_kind *wl_kind_of(int type)
{
	for (const struct wl_kind *k = wl_kinds; k->name; k++)
		if ((int)k->type == type)
			return k;
	return NULL;
}

const struct wl_kind *wl_kind_named(const char *name)
{
	for (const struct wl_kind *k = wl_kinds; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

int wl_kind_has(const char *list, const char *key)
{
	size_t n = strlen(key);
	for (const char *s = list; *s;) {
		size_t w = strcspn(s, " ");
		if (w == n && strncmp(s, key, n) == 0)
			return 1;
		s += w;
		s += strspn(s, " ");
	}
	return 0;
}

const struct metric *wl_kind_column(const struct wl_kind *k, int col)
{
	for (const struct metric *m = k ? k->metrics : NULL; m && m->key; m++)
		if (m->report == col)
			return m;
	return NULL;
}

void wl_kind_names(char *buf, size_t len)
{
	size_t n = 0, count = 0;
	while (wl_kinds[count].name)
		count++;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < count && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i == 0 ? "" : i + 1 == count ? " or " : ", ", wl_kinds[i].name);
}

const char *plan_wl_name(enum wl_type t)
{
	const struct wl_kind *wk = wl_kind_of(t);
	return wk ? wk->name : "unknown";
}
