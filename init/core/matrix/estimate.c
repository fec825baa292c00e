/* core/matrix/estimate.c: the time model of a cell and of a run (estimate.h). What mkfs writes is
 * derived as mke2fs and mkfs.xfs size their metadata, since on disks of terabytes that, with
 * md's resync, is most of a cell. */
#include "core/matrix/estimate.h"
#include "core/model/level.h"
#include "core/matrix/reuse.h"
#include "core/workload/workload_kinds.h"
#include "core/workload/replay.h"
#include "core/workload/wlsize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024)
#define GIB (1024.0 * MIB)
#define TIB (1024.0 * GIB)

/* Members' worth of data: what the filesystem gets, and how many members a stream of
 * writes keeps busy with new data. */
static int capacity_disks(const struct plan_array *a)
{
	const struct md_level *l = level_find(a->level);
	if (!level_spans(a->level) || l->copies == LEVEL_COPIES_ALL)
		return 1;
	int copies = l->copies;
	/* raid10's n2, f3, o2: the digit is the copies, whatever the layout */
	if (copies > 1 && a->layout[0] && a->layout[1] >= '1' && a->layout[1] <= '9')
		copies = a->layout[1] - '0';
	int d = copies > 1 ? a->devices / copies : a->devices - l->parity;
	return d > 0 ? d : 1;
}

/* The value of mkfs option -X in the plan's words ("-i 65536" or "-i65536"), or -1. */
static double mkfs_opt(const char *words, char flag)
{
	for (const char *s = words; *s; ) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (s[0] == '-' && s[1] == flag) {
			const char *v = s + 2;
			while (*v == ' ' || *v == '\t')
				v++;
			char *end;
			double d = strtod(v, &end);
			return end > v ? d : -1;
		}
		s += strcspn(s, " \t");
	}
	return -1;
}

/* mke2fs's usage types by the filesystem's size, with the inode ratio of each in its
 * built-in mke2fs.conf (the image has no other): floppy, small, default, big, huge. */
static const struct { double below, ratio; } ext_ratios[] = {
	{ 3 * MIB, 8192 },
	{ 512 * MIB, 4096 },
	{ 4 * TIB, 16384 },
	{ 16 * TIB, 32768 },
	{ INFINITY, 65536 },
};

/* ext2fs_default_journal_size(): the journal's blocks by the filesystem's blocks. */
static const struct { double below, blocks; } ext_journals[] = {
	{ 2048, 0 }, { 32768, 1024 }, { 256 * 1024, 4096 }, { 512 * 1024, 8192 },
	{ 4096 * 1024, 16384 }, { 8192 * 1024, 32768 }, { 16384 * 1024, 65536 },
	{ 32768 * 1024, 131072 }, { INFINITY, 262144 },
};

/* What mkfs writes on a filesystem of fs bytes (*bytes), and the free space it leaves
 * (*fs_free, as statvfs's f_bavail counts it). ext: the inode tables (fs / inode ratio x
 * inode size, lazy init off) and, for ext3 and ext4, the journal (-J size=, else by the
 * filesystem's blocks as mke2fs sizes it), less the blocks reserved
 * for root (-m, 5%); xfs: its log, fs / 2048 from 16 GiB up to 2 GiB, 10 MiB below. */
static void mkfs_model(const struct plan_fs *f, double fs, double *bytes, double *fs_free)
{
	if (f->type == FS_BTRFS) {   /* a few trees and superblocks: the chunks come later */
		*bytes = 16 * MIB;
		*fs_free = fs > *bytes ? fs - *bytes : 0;
		return;
	}
	if (f->type == FS_XFS) {
		double log = fs < 16 * GIB ? 10 * MIB : fmin(fs / 2048, 2 * GIB);
		*bytes = log;
		*fs_free = fs > log ? fs - log : 0;
		return;
	}
	double ratio = mkfs_opt(f->mkfs, 'i'), isize = mkfs_opt(f->mkfs, 'I');
	double block = mkfs_opt(f->mkfs, 'b'), reserved = mkfs_opt(f->mkfs, 'm');
	size_t i = 0;
	while (fs >= ext_ratios[i].below)
		i++;
	if (ratio <= 0)
		ratio = ext_ratios[i].ratio;
	if (isize <= 0)
		isize = 256;
	if (block <= 0)
		block = fs < 512 * MIB ? 1024 : 4096;   /* the small types' block size */
	if (reserved < 0)
		reserved = 5;
	if (reserved > 50)   /* mke2fs refuses more (the cell fails at mkfs): free is never < 0 */
		reserved = 50;
	double journal = 0;
	if (f->type != FS_EXT2 && !strstr(f->mkfs, "^has_journal")) {
		size_t j = 0;
		while (fs / block >= ext_journals[j].below)
			j++;
		journal = ext_journals[j].blocks * block;
		const char *js = strstr(f->mkfs, "-J size=");
		if (js)   /* the plan's own journal, in MiB as mke2fs takes it */
			journal = strtod(js + 8, NULL) * MIB;
	}
	*bytes = fs / ratio * isize + journal;
	double left = fs - *bytes;
	*fs_free = left > 0 ? left * (1 - reserved / 100) : 0;
}

/* What the cell's device-mapper layers add, stated simply: a thin pool that zeroes new
 * blocks writes each block mkfs and the workload provision twice at worst (an upper bound:
 * a write covering a whole block skips it); a cache warms up by writing what the workload
 * writes, up to the cache disk's size, to the one cache disk first. */
static double layers_s(const struct plan *p, const struct cell *c, const struct estimate_model *m,
		       const struct cell_est *e, double rate)
{
	const struct plan_array *a = &p->arrays[c->array];
	double s = 0, one = m->disk_mbps > 0 ? m->disk_mbps : m->write_mbps;
	if (c->stack < 0)
		return 0;
	for (int i = 0; i < a->stacks[c->stack].n; i++) {
		const struct plan_layer *l = &p->layers[a->stacks[c->stack].layer[i]];
		if (l->type == LAYER_THIN && l->zero)
			s += (e->mkfs_bytes + (double)e->size) / MIB / rate;
		else if (l->type == LAYER_CACHE || l->type == LAYER_WRITECACHE ||
			 l->type == LAYER_BCACHE)
			s += fmin((double)e->size, m->disk_bytes) / MIB / one;
	}
	return s;
}

void cell_estimate_parts(const struct plan *p, const struct cell *c,
			 const struct estimate_model *m, enum plan_reuse reuse, struct cell_est *e)
{
	const struct plan_array *a = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	const struct plan_workload *w = &p->workloads[c->workload];
	int data = capacity_disks(a);
	/* a stream through the array goes at its data members' rate */
	double rate = m->disk_mbps > 0 ? data * m->disk_mbps : m->write_mbps;

	memset(e, 0, sizeof *e);
	e->fs_bytes = data * m->disk_bytes;
	mkfs_model(f, e->fs_bytes, &e->mkfs_bytes, &e->fs_free);
	if ((level_find(a->level)->md || level_find(a->level)->lvm) && reuse == REUSE_NONE) {
		e->create_s = m->create_s;
		/* every member is read or written once, in parallel, at most at md's limit (lvm's
		 * raid LVs are md's personalities too) */
		double rs = m->disk_mbps > 0 ? fmin(m->disk_mbps, m->sync_max_mbps) : m->resync_mbps;
		if (p->resync == RESYNC_WAIT && level_resyncs(a->level, a->devices, a->missing))
			e->resync_s = m->disk_bytes / MIB / rs;
	}
	if (reuse != REUSE_FS) {
		e->mkfs_s = m->mkfs_s + e->mkfs_bytes / MIB / rate;
		if (f->tune[0] && f->type != FS_XFS)
			e->mkfs_s += m->tune_s;
	}
	e->other_s = m->mount_s + m->teardown_s;

	struct estimate_model wm = *m;
	struct plan_workload wl = *w;
	wm.write_mbps = rate;
	wl.size = e->size = wlsize_resolve(w, (uint64_t)m->mem_bytes, (uint64_t)e->fs_free, NULL);
	const struct wl_kind *wk = wl_kind_of(w->type);
	if (wk)
		e->workload_s = wk->estimate(&wl, &wm);
	e->layers_s = layers_s(p, c, m, e, rate);
	e->other_s += e->layers_s;
	if (p->durability == PLAN_DURABILITY_LOG_WRITES)
		e->durability_s = replay_check_s(replay_points_for(&wl, p->crash_points));
	e->other_s += e->durability_s;
	e->total_s = e->create_s + e->resync_s + e->mkfs_s + e->workload_s + e->other_s;
}

double cell_estimate(const struct plan *p, const struct cell *c,
		     const struct estimate_model *m, double *resync_s)
{
	struct cell_est e;
	cell_estimate_parts(p, c, m, REUSE_NONE, &e);
	if (resync_s)
		*resync_s = e.resync_s;
	return e.total_s;
}

void run_estimate(const struct plan *p, const struct estimate_model *m, struct run_est *r)
{
	struct cell prev, c;
	memset(r, 0, sizeof *r);
	r->longest_resync_cell = r->longest_cell = -1;
	for (int i = 0; matrix_cell(p, i, &c) == 0; i++) {
		struct cell_est e, own;
		enum plan_reuse ru = reuse_from(p, i ? &prev : NULL, &c);
		cell_estimate_parts(p, &c, m, ru, &e);
		cell_estimate_parts(p, &c, m, REUSE_NONE, &own);
		r->total_s += e.total_s;
		r->total_noreuse_s += own.total_s;
		r->create_s += e.create_s;
		r->resync_s += e.resync_s;
		r->mkfs_s += e.mkfs_s;
		r->workload_s += e.workload_s;
		r->other_s += e.other_s;
		r->arrays += e.create_s > 0;
		r->filesystems += ru != REUSE_FS;
		if (e.resync_s > r->longest_resync_s) {
			r->longest_resync_s = e.resync_s;
			r->longest_resync_cell = i;
		}
		if (e.total_s - e.resync_s > r->longest_cell_s) {
			r->longest_cell_s = e.total_s - e.resync_s;
			r->longest_cell = i;
		}
		prev = c;
	}
}

void run_estimate_cells(const struct plan *p, const struct estimate_model *m,
			int (*take)(int index), double *est)
{
	struct cell prev, c;
	int have_prev = 0;
	for (int i = 0; matrix_cell(p, i, &c) == 0; i++) {
		struct cell_est e;
		est[i] = 0;
		if (take && !take(i))
			continue;
		cell_estimate_parts(p, &c, m, reuse_from(p, have_prev ? &prev : NULL, &c), &e);
		est[i] = e.total_s;
		prev = c;
		have_prev = 1;
	}
}

double eta_seconds(double elapsed_s, double est_done_s, double est_left_s)
{
	if (!(est_done_s > 0) || !(elapsed_s >= 0))
		return -1;
	return est_left_s * (elapsed_s / est_done_s);
}

uint64_t est_workload_size(const struct plan *p, const struct cell *c,
			   const struct estimate_model *m)
{
	struct cell_est e;
	cell_estimate_parts(p, c, m, REUSE_NONE, &e);
	return e.size;
}
