/* host_check.c: `fsmatrix check PLAN [--disks N] [--scale X]`: the plan expanded into cells,
 * each with the exact commands /init will run (derived stripe geometry included), its mount
 * flags and data, a rough time estimate and any warnings; or the plan's errors, one
 * "FILE:LINE: message" each, and exit status 1. */
#include "host.h"
#include "cellcmd.h"
#include "matrix.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD_DEV "/dev/md0"

static void usage(void)
{
	fprintf(stderr, "usage: fsmatrix check PLAN [--disks N] [--scale X]\n"
		"  --disks N   test disks available (default: as many as the plan needs)\n"
		"  --scale X   multiply workload sizes, as fsmatrix.scale=X does\n");
}

static void print_argv(const char *label, const struct argv *a)
{
	char line[4096];
	argv_join(a, line, sizeof line);
	printf("  %-9s %s\n", label, line);
}

static void fmt_secs(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static void describe_workload(const struct plan_workload *w, char *buf, size_t len)
{
	char size[32], bs[32];
	plan_fmt_size(w->size, size, sizeof size);
	plan_fmt_size(w->bs, bs, sizeof bs);
	switch (w->type) {
	case WL_SEQWRITE:
		snprintf(buf, len, "seqwrite %s in %s blocks, %s data%s", size, bs,
			 w->data == DATA_ZERO ? "zero" : "random", w->direct ? ", O_DIRECT" : "");
		break;
	case WL_SMALLFILES:
		snprintf(buf, len, "smallfiles %s%s, %d pass%s, seed %llu, sync %s", size,
			 w->files ? " (file count set)" : "", w->passes, w->passes == 1 ? "" : "es",
			 (unsigned long long)w->seed, w->sync == SYNC_TIMED ? "timed" : "none");
		break;
	case WL_TAR:
		snprintf(buf, len, "tar %s, sync %s", w->file,
			 w->sync == SYNC_TIMED ? "timed" : "none");
		break;
	}
}

static int print_cell(const struct plan *p, const struct cell *c, const char *const *disks,
		      int ndisks, const struct estimate_model *m, double *total, int *nwarn)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	struct argv a;
	struct geometry g;
	struct warnings w = { 0 };
	char err[256], text[512], flags[128], data[PLAN_STR_MAX];
	unsigned long mflags;

	printf("\ncell %d/%d  %s  rep %d\n", c->index + 1, matrix_count(p), c->id, c->rep);
	if (cell_mdadm_argv(p, c, MD_DEV, disks, ndisks, &a, err, sizeof err) < 0) {
		printf("  error     %s\n", err);
		return -1;
	}
	if (a.n)
		print_argv("mdadm", &a);
	else
		printf("  %-9s none: %s used directly\n", "array", disks[0]);
	const char *dev = cell_target(p, c, MD_DEV, disks);
	if (cell_mkfs_argv(p, c, dev, &a, &g, &w, err, sizeof err) < 0) {
		printf("  error     %s\n", err);
		return -1;
	}
	if (g.valid) {
		char chunk[32];
		plan_fmt_size(g.chunk, chunk, sizeof chunk);
		if (f->type == FS_XFS)
			snprintf(text, sizeof text, "su=%s sw=%d", chunk, g.data_disks);
		else
			snprintf(text, sizeof text, "stride=%u stripe_width=%u (%u-byte blocks)",
				 g.stride, g.stripe_width, g.block_size);
		printf("  %-9s %s, %d devices (%d missing), %d data disks, chunk %s: %s\n",
		       "geometry", plan_level_name(ar->level), ar->devices, ar->missing,
		       g.data_disks, chunk, text);
	} else {
		printf("  %-9s %s: none derived%s\n", "geometry", plan_level_name(ar->level),
		       ar->level == LEVEL_NONE || ar->level == 1 ? " (no striping)"
		       : " (no chunk in the plan: mkfs reads md's own from the kernel)");
	}
	print_argv("mkfs", &a);
	if (cell_tune_argv(p, c, dev, &a, err, sizeof err) < 0) {
		printf("  error     %s\n", err);
		return -1;
	}
	if (a.n)
		print_argv("tune", &a);
	if (mount_opts_split(f->mount[c->mount], &mflags, data, sizeof data) < 0) {
		printf("  error     mount options too long\n");
		return -1;
	}
	mount_flags_names(mflags, flags, sizeof flags);
	printf("  %-9s mount(\"%s\", mnt, \"%s\", %s, \"%s\")\n", "mount", dev,
	       plan_fs_name(f->type), flags[0] ? flags : "0", data);
	describe_workload(&p->workloads[c->workload], text, sizeof text);
	printf("  %-9s %s\n", "workload", text);
	double rs, t = cell_estimate(p, c, m, &rs);
	char ts[32], rss[32];
	fmt_secs(t, ts, sizeof ts);
	fmt_secs(rs, rss, sizeof rss);
	printf("  %-9s ~%s%s%s\n", "estimate", ts, rs > 0 ? ", of which resync " : "",
	       rs > 0 ? rss : "");
	for (int i = 0; i < w.n; i++)
		printf("  %-9s %s\n", "warning", w.msg[i]);
	*total += t;
	*nwarn += w.n;
	return 0;
}

int host_cmd_check(int argc, char **argv)
{
	static struct plan p;
	const char *path = NULL;
	int ndisks = -1;
	double scale = 1.0;

	for (int i = 1; i < argc; i++) {
		char *end;
		if (strcmp(argv[i], "--disks") == 0 && i + 1 < argc) {
			long n = strtol(argv[++i], &end, 10);
			if (*end || n < 1 || n > 26) {
				fprintf(stderr, "fsmatrix: check: --disks %s: expected 1 to 26\n",
					argv[i]);
				return 2;
			}
			ndisks = (int)n;
		} else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
			scale = strtod(argv[++i], &end);
			if (*end || !(scale > 0 && scale <= 1000)) {
				fprintf(stderr, "fsmatrix: check: --scale %s: expected a number greater "
					"than 0 and at most 1000\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
			return 0;
		} else if (argv[i][0] == '-' || path) {
			usage();
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		usage();
		return 2;
	}

	int rc = plan_load(path, &p);
	if (rc == 0 && ndisks > 0)
		rc = plan_check_disks(&p, ndisks);
	if (rc < 0) {
		int shown = p.nerrors < PLAN_ERRORS_MAX ? p.nerrors : PLAN_ERRORS_MAX;
		for (int i = 0; i < shown; i++)
			fprintf(stderr, "%s\n", p.errors[i]);
		if (p.nerrors > shown)
			fprintf(stderr, "%s: %d more errors not shown\n", path, p.nerrors - shown);
		return 1;
	}
	if (scale != 1.0)
		plan_scale(&p, scale);

	/* The guest picks its test disks at boot; for display, name them as virtio disks. */
	int need = 1;
	for (int i = 0; i < p.narrays; i++)
		if (plan_array_disks(&p.arrays[i]) > need)
			need = plan_array_disks(&p.arrays[i]);
	if (ndisks < 0)
		ndisks = need;
	static char names[26][16];
	const char *disks[26];
	for (int i = 0; i < ndisks; i++) {
		snprintf(names[i], sizeof names[i], "/dev/vd%c", 'b' + i);
		disks[i] = names[i];
	}

	char timeout[32] = "none";
	if (p.timeout_s)
		fmt_secs(p.timeout_s, timeout, sizeof timeout);
	printf("plan %s (%s): %d cells (%d per repetition x %d)\n", p.name, path,
	       matrix_count(&p), matrix_per_rep(&p), p.repeat);
	printf("resync %s, drop_caches %s, timeout %s per cell, retries %d, scale %g\n",
	       plan_resync_name(p.resync), p.drop_caches ? "yes" : "no", timeout, p.retries,
	       p.scale);
	printf("test disks assumed:");
	for (int i = 0; i < ndisks; i++)
		printf(" %s", disks[i]);
	printf("\n");

	struct estimate_model m;
	estimate_model_default(&m);
	double total = 0;
	int nwarn = 0, bad = 0;
	struct cell c;
	for (int i = 0; matrix_cell(&p, i, &c) == 0; i++)
		if (print_cell(&p, &c, disks, ndisks, &m, &total, &nwarn) < 0)
			bad++;
	char ts[32];
	fmt_secs(total, ts, sizeof ts);
	printf("\n%d cells, %d warnings, %d errors; estimated ~%s plus boot\n", matrix_count(&p),
	       nwarn, bad, ts);
	printf("(a rough model: md create %.1fs, mkfs %.1fs, %g MB/s streaming and %g MB/s small "
	       "files, md resync of a %g MiB member at %g MB/s, as measured under qemu TCG)\n",
	       m.create_s, m.mkfs_s, m.write_mbps, m.smallfiles_mbps,
	       m.disk_bytes / 1048576, m.resync_mbps);
	return bad ? 1 : 0;
}
