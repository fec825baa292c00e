/* core/command/planwarn.c: what `check` and a dry run warn of in a plan as a whole, against
 * the machine it is estimated for: a run over the hours, a stream the page cache swallows,
 * ext's limits, an xfs too small for mkfs.xfs, workloads or a log that will not fit their
 * disks, a stripe cache too small. Pure; the lines go to the caller's out. Declared in
 * core/command/cellshow.h beside the cell's own lines. */
#include "core/command/cellshow.h"
#include "core/command/btrfscmd.h"
#include "core/command/lvmcmd.h"
#include "core/workload/wlsize.h"
#include "core/model/level.h"
#include "core/matrix/matrix.h"
#include "core/parse/plan_parse.h"
#include "core/workload/replay.h"
#include "core/workload/workload_kinds.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <stdio.h>
#include <string.h>

int plan_time_warning(const struct plan *p, const struct estimate_model *m, char *buf,
		      size_t len)
{
	struct run_est r;
	run_estimate(p, m, &r);
	if (r.total_s <= PLAN_WARN_HOURS * 3600.0)
		return 0;
	char t[32];
	show_secs(r.total_s, t, sizeof t);
	snprintf(buf, len, "%s:%d: warning: the run is estimated at ~%s, over %d hours (%d cells; "
		 "lower repeat, sizes or axes, or split the plan)", p->file, p->lines, t,
		 PLAN_WARN_HOURS, matrix_count(p));
	return 1;
}

/* The line a [global] key was given on, else the plan's last. */
static int global_line(const struct plan *p, const char *key)
{
	int line = plan_global_line(p, key);
	return line ? line : p->lines;
}

/* A buffered stream shorter than RAM can reach the disks as one flush at its end. */
static int page_cache_warnings(const struct plan *p, const struct estimate_model *m,
			       show_line_fn out, void *ctx)
{
	int n = 0;
	char size[32], mem[32];
	for (int i = 0; i < p->nworkloads; i++) {
		const struct plan_workload *w = &p->workloads[i];
		struct cell c;
		if ((w->type != WL_SEQWRITE && w->type != WL_SEQREAD) || w->direct)
			continue;
		for (int k = 0; matrix_cell(p, k, &c) == 0; k++)
			if (c.workload == i)
				break;
		uint64_t b = c.workload == i ? est_workload_size(p, &c, m) : w->size;
		if ((double)b >= m->mem_bytes)
			continue;
		plan_fmt_size(b, size, sizeof size);
		show_bytes(m->mem_bytes, mem, sizeof mem);
		show_linef(out, ctx, "%s:%d: warning: [workload %s] %s of %s is smaller than the %s of RAM: "
		      "it will mostly measure the page cache (size = 2x ram keeps it ahead, or direct "
		      "= yes)", p->file, w->line, w->name, plan_wl_name(w->type), size, mem);
		n++;
	}
	return n;
}

/* ext2 and ext3 count blocks in 32 bits (the 64bit feature is ext4's): mke2fs refuses an
 * array past 16 TiB at 4 KiB blocks, which twelve disks of terabytes are. */
static int ext_limit_warnings(const struct plan *p, const struct estimate_model *m,
			      show_line_fn out, void *ctx)
{
	int n = 0;
	char fs[32];
	for (int i = 0; i < p->nfs; i++) {
		struct cell c;
		struct cell_est e;
		if (p->fs[i].type != FS_EXT2 && p->fs[i].type != FS_EXT3)
			continue;
		for (int k = 0; matrix_cell(p, k, &c) == 0; k++) {
			cell_estimate_parts(p, &c, m, REUSE_NONE, &e);
			if (c.fs != i || e.fs_bytes / 4096 <= 4294967295.0)
				continue;
			show_bytes(e.fs_bytes, fs, sizeof fs);
			show_linef(out, ctx, "%s:%d: warning: [fs %s] %s cannot span the %s of array %s (at most "
			      "16t with 4k blocks, no 64bit feature): its cells will end as errors", p->file,
			      p->fs[i].line, p->fs[i].name, plan_fs_name(p->fs[i].type), fs,
			      p->arrays[c.array].name);
			n++;
			break;
		}
	}
	return n;
}

/* mkfs.xfs since xfsprogs 5.19 (the image's is 6.1) refuses a data device under 300 MiB
 * ("Filesystem must be larger than 300MB", mkfs/xfs_mkfs.c: a 64 MiB log in four AGs). */
#define XFS_MIN_BYTES (300.0 * 1024 * 1024)

/* An xfs on an array smaller than that: its cells end as errors at mkfs. One warning per
 * filesystem, naming the first array it does not fit. */
static int xfs_size_warnings(const struct plan *p, const struct estimate_model *m,
			     show_line_fn out, void *ctx)
{
	int n = 0;
	char fs[32], disk[32];
	for (int i = 0; i < p->nfs; i++) {
		struct cell c;
		struct cell_est e;
		if (p->fs[i].type != FS_XFS)
			continue;
		for (int k = 0; matrix_cell(p, k, &c) == 0; k++) {
			cell_estimate_parts(p, &c, m, REUSE_NONE, &e);
			if (c.fs != i || e.fs_bytes >= XFS_MIN_BYTES)
				continue;
			show_bytes(e.fs_bytes, fs, sizeof fs);
			show_bytes(m->disk_bytes, disk, sizeof disk);
			show_linef(out, ctx, "%s:%d: warning: [fs %s] xfs on the ~%s of [array %s] (disks of %s): "
			      "mkfs.xfs refuses a filesystem under 300 MiB, its cells will end as errors",
			      p->file, p->fs[i].line, p->fs[i].name, fs, p->arrays[c.array].name, disk);
			n++;
			break;
		}
	}
	return n;
}

/* What a workload puts on the filesystem at its largest, or 0 when unknown before it runs
 * (a tar's unpacked tree, a fio job file). fio's --size is each job's file. */
static double wl_footprint(const struct plan_workload *w, double size)
{
	switch (w->type) {
	case WL_SEQWRITE:
	case WL_SEQREAD:
	case WL_SMALLFILES:
		return size;
	case WL_FSYNC:
		return size + (double)w->background;
	case WL_DURABILITY:
		return size;
	case WL_FIO:
		if (w->job[0])
			return 0;
		return size * (w->numjobs > 1 && !strstr(w->options, "--filename") ? w->numjobs : 1);
	default:
		return 0;
	}
}

/* A workload larger than the free space of its filesystem ends as ENOSPC: one warning per
 * workload, naming the first array and filesystem it does not fit. */
static int disk_fit_warnings(const struct plan *p, const struct estimate_model *m,
			     show_line_fn out, void *ctx)
{
	int n = 0, warned[PLAN_SECTIONS_MAX] = { 0 };
	char size[32], left[32], disk[32];
	struct cell c;
	for (int k = 0; matrix_cell(p, k, &c) == 0 && n < p->nworkloads; k++) {
		const struct plan_workload *w = &p->workloads[c.workload];
		struct cell_est e;
		if (warned[c.workload])
			continue;
		cell_estimate_parts(p, &c, m, REUSE_NONE, &e);
		double need = wl_footprint(w, (double)e.size);
		if (need <= e.fs_free)
			continue;
		warned[c.workload] = 1;
		int data = (int)(e.fs_bytes / m->disk_bytes + 0.5);
		show_bytes(need, size, sizeof size);
		show_bytes(e.fs_free, left, sizeof left);
		show_bytes(m->disk_bytes, disk, sizeof disk);
		show_linef(out, ctx, "%s:%d: warning: [workload %s] %s of %s does not fit in the ~%s free on "
		      "[array %s] with [fs %s] (%d data disk%s of %s): its cells will end as errors (No "
		      "space left on device)", p->file, w->line, w->name, plan_wl_name(w->type), size,
		      left, p->arrays[c.array].name, p->fs[c.fs].name, data, data == 1 ? "" : "s",
		      disk);
		n++;
	}
	return n;
}

/* durability = log-writes: the log takes what mkfs writes, then the workload's bytes about
 * three times (the data, the journal's copy of what it journals, the metadata written in
 * place), and a sector per write. A log that overflows makes the cells' durability
 * inconclusive: one warning, for the largest cell. */
static int log_fit_warning(const struct plan *p, const struct estimate_model *m,
			   show_line_fn out, void *ctx)
{
	double most = 0;
	struct cell c;
	int at = -1;
	char need[32], disk[32];
	for (int k = 0; p->durability && matrix_cell(p, k, &c) == 0; k++) {
		struct cell_est e;
		cell_estimate_parts(p, &c, m, REUSE_NONE, &e);
		double w = 3 * wl_footprint(&p->workloads[c.workload], (double)e.size);
		double bytes = (double)lw_bytes_for((uint64_t)(w / 4096), (uint64_t)(e.mkfs_bytes + w),
						    512);
		if (bytes > most)
			most = bytes, at = c.workload;
	}
	if (at < 0 || most <= m->disk_bytes)
		return 0;
	show_bytes(most, need, sizeof need);
	show_bytes(m->disk_bytes, disk, sizeof disk);
	show_linef(out, ctx, "%s:%d: warning: [workload %s] may write ~%s to the log (what mkfs writes, "
	      "then its bytes three times: data, journal, metadata), more than the %s of log_disk "
	      "= %d: a log that overflows makes a cell's durability inconclusive", p->file,
	      global_line(p, "log_disk"), p->workloads[at].name, need, disk, p->log_disk);
	return 1;
}

/* md's stripe cache is memory the kernel cannot take back (core/model/tunable.h): a value past
 * the share of RAM the boot allows is refused there, cell by cell. */
static int stripe_cache_warnings(const struct plan *p, const struct estimate_model *m,
				 show_line_fn out, void *ctx)
{
	int n = 0, id = TUN_STRIPE_CACHE_SIZE;
	char why[256];
	for (int i = 0; i < p->narrays; i++) {
		const struct plan_array *a = &p->arrays[i];
		for (int k = 0; a->tun_line[id] > 0 && k < a->ntun[id]; k++) {
			if (tun_stripe_cache_check(a->tun[id][k], a->devices, m->mem_bytes, why,
						   sizeof why) == 0)
				continue;
			show_linef(out, ctx, "%s:%d: warning: [array %s] %s: the boot refuses its cells (error "
			      "records)", p->file, a->tun_line[id], a->name, why);
			n++;
		}
	}
	return n;
}

int plan_estimate_warnings(const struct plan *p, const struct estimate_model *m,
			   unsigned known, show_line_fn out, void *ctx)
{
	struct run_est r;
	char t[32], lim[32], buf[PLAN_ERROR_LEN + 128];
	int n = 0;
	run_estimate(p, m, &r);
	if (plan_time_warning(p, m, buf, sizeof buf)) {
		out(ctx, buf);
		n++;
	}
	if (p->resync_timeout_s && r.longest_resync_s > p->resync_timeout_s) {
		show_secs(r.longest_resync_s, t, sizeof t);
		show_secs(p->resync_timeout_s, lim, sizeof lim);
		show_linef(out, ctx, "%s:%d: warning: an array's resync is estimated at ~%s (cell %d), over "
		      "resync_timeout = %s: the cell would end as a timeout (raise it, or resync = "
		      "assume-clean)", p->file, global_line(p, "resync_timeout"), t,
		      r.longest_resync_cell + 1, lim);
		n++;
	}
	if (p->timeout_s && r.longest_cell_s > p->timeout_s) {
		show_secs(r.longest_cell_s, t, sizeof t);
		show_secs(p->timeout_s, lim, sizeof lim);
		show_linef(out, ctx, "%s:%d: warning: cell %d is estimated at ~%s besides any resync, over "
		      "timeout = %s", p->file, global_line(p, "timeout"), r.longest_cell + 1, t, lim);
		n++;
	}
	/* a scaled plan is a quick look at the harness: its streams are short by design */
	if ((known & EST_KNOWN_MEM) && p->scale == 1)
		n += page_cache_warnings(p, m, out, ctx);
	if (known & EST_KNOWN_MEM)
		n += stripe_cache_warnings(p, m, out, ctx);
	if (known & EST_KNOWN_DISK)
		n += disk_fit_warnings(p, m, out, ctx) + xfs_size_warnings(p, m, out, ctx) +
		     log_fit_warning(p, m, out, ctx);
	return n + ext_limit_warnings(p, m, out, ctx);
}
