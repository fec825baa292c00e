/* core/workload_kinds.c: the workload engines as plans, checks and reports see them, one row
 * each (workload_kinds.h). A new engine is a row here, with its estimate and description, and
 * its runner in engines/. */
#include "core/workload_kinds.h"

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
	snprintf(buf, len, "seqwrite %s in %s blocks, %s data%s", size, bs,
		 w->data == DATA_ZERO ? "zero" : "random", w->direct ? ", O_DIRECT" : "");
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

/* ------------------------------------------------------------------ the table */

const struct wl_kind wl_kinds[] = {
	[WL_SEQWRITE] = { "seqwrite", WL_SEQWRITE, "size bs direct data", "size",
			  seqwrite_metrics, seqwrite_estimate, seqwrite_describe },
	[WL_SMALLFILES] = { "smallfiles", WL_SMALLFILES, "size passes sync seed files", "size",
			    smallfiles_metrics, smallfiles_estimate, smallfiles_describe },
	[WL_TAR] = { "tar", WL_TAR, "sync file", "file", tar_metrics, tar_estimate, tar_describe },
	{ NULL, 0, NULL, NULL, NULL, NULL, NULL },
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

const struct metric *wl_kind_main(const struct wl_kind *k)
{
	for (const struct metric *m = k ? k->metrics : NULL; m && m->key; m++)
		if (m->report == 1)
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
