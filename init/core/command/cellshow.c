/* core/command/cellshow.c: the lines `fsmatrix check` prints for a cell, and /init shows in a dry run. */
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

void show_linef(show_line_fn out, void *ctx, const char *fmt, ...)
{
	char line[4096 + 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	out(ctx, line);
}

static void show_argv(show_line_fn out, void *ctx, const char *label, const struct argv *a)
{
	char line[4096];
	argv_join(a, line, sizeof line);
	show_linef(out, ctx, "  %-9s %s", label, line);
}

void show_secs(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

void show_bytes(double bytes, char *buf, size_t len)
{
	static const char units[] = "kmgt";
	double v = bytes;
	int u = -1;
	while (u < 3 && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%.0f", bytes);
	else if (v == (double)(long long)v)
		snprintf(buf, len, "%lld%c", (long long)v, units[u]);
	else
		snprintf(buf, len, "%.3g%c", v, units[u]);
}

void cell_workload_text(const struct plan_workload *w, char *buf, size_t len)
{
	const struct wl_kind *wk = wl_kind_of(w->type);
	if (wk)
		wk->describe(w, buf, len);
	else if (len)
		buf[0] = '\0';
	size_t n = strlen(buf);
	if (w->size_rel.base != SIZE_BYTES && n < len) {
		char f[48];
		wlsize_text(&w->size_rel, f, sizeof f);
		if (w->size_rel.scale != 1)
			snprintf(buf + n, len - n, "; size %s, x scale %g", f, w->size_rel.scale);
		else
			snprintf(buf + n, len - n, "; size %s", f);
	}
}

/* "md0 and each member: scheduler=bfq read_ahead_kb=512; md0: stripe_cache_size=4096; vm, put
 * back after the cell: dirty_ratio=10": what the cell writes once the filesystem is mounted,
 * grouped by where it goes. */
static void tunables_text(const struct cell *c, int md, char *buf, size_t len)
{
	static const char *const where[] = { [TUN_QUEUE] = "md0 and each member", [TUN_MD] = "md0",
					     [TUN_VM] = "vm, put back after the cell",
					     [TUN_DEVICE] = "each member's device, before mkfs, put back after the cell" };
	size_t used = 0;
	buf[0] = '\0';
	for (int place = TUN_QUEUE; place <= TUN_DEVICE; place++) {
		const char *sep = used ? "; " : "";
		for (int t = 0; t < TUN_COUNT; t++) {
			if (!(c->tun_given & (1u << t)) || (int)tun_rows[t].where != place)
				continue;
			char v[48];
			if (tun_rows[t].kind == TUN_SIZE)   /* as the plan spells it: 256m */
				plan_fmt_size((uint64_t)c->tun[t], v, sizeof v);
			else
				tun_format(t, c->tun[t], v, sizeof v);
			const char *label = place == TUN_QUEUE && !md ? "the disk"
					    : place == TUN_DEVICE && !md ? "the disk's device, before mkfs, put back after the cell"
					    : where[place];
			int n = sep ? snprintf(buf + used, len - used, "%s%s: %s=%s", sep, label,
					       tun_rows[t].name, v)
				    : snprintf(buf + used, len - used, " %s=%s", tun_rows[t].name, v);
			used += n > 0 ? (size_t)n : 0;
			if (used >= len) {
				buf[len - 1] = '\0';
				return;
			}
			sep = NULL;
		}
	}
}

/* "~6h08m: resync 6h06m, mkfs 1m26s, workload 11s": the parts worth a second. */
static void estimate_text(const struct cell_est *e, enum plan_reuse reuse, char *buf,
			  size_t len)
{
	static const char *const took[] = {
		[REUSE_ARRAY] = ", takes over the array before it (no create, no resync)",
		[REUSE_FS] = ", takes over the array and filesystem before it (no create, resync "
			     "or mkfs)",
	};
	const struct { const char *name; double s; } parts[] = {
		{ "resync", e->resync_s }, { "mkfs", e->mkfs_s },
		{ "workload", e->workload_s }, { "layers", e->layers_s },
		{ "durability", e->durability_s },
	};
	char t[32];
	show_secs(e->total_s, t, sizeof t);
	size_t n = (size_t)snprintf(buf, len, "~%s", t);
	const char *sep = ": ";
	for (size_t i = 0; i < sizeof parts / sizeof parts[0] && n < len; i++) {
		if (parts[i].s < 0.5)   /* what would read "0s" */
			continue;
		show_secs(parts[i].s, t, sizeof t);
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s", sep, parts[i].name, t);
		sep = ", ";
	}
	if (reuse != REUSE_NONE && n < len)
		snprintf(buf + n, len - n, "%s", took[reuse]);
}

/* The geometry line: what mkfs was handed for the array's stripe, or why nothing. */
static void show_geometry(const struct plan_array *ar, const struct plan_fs *f,
			  const struct geometry *g, show_line_fn out, void *ctx)
{
	char chunk[32], text[128];
	if (!g->valid) {
		show_linef(out, ctx, "  %-9s %s: none derived%s", "geometry", level_name(ar->level),
		      !level_find(ar->level)->striped ? " (no striping)"
		      : " (no chunk in the plan: mkfs reads md's own from the kernel)");
		return;
	}
	plan_fmt_size(g->chunk, chunk, sizeof chunk);
	if (f->type == FS_XFS)
		snprintf(text, sizeof text, "su=%s sw=%d", chunk, g->data_disks);
	else
		snprintf(text, sizeof text, "stride=%u stripe_width=%u (%u-byte blocks)",
			 g->stride, g->stripe_width, g->block_size);
	show_linef(out, ctx, "  %-9s %s, %d devices (%d missing), %d data disks, chunk %s: %s",
	      "geometry", level_name(ar->level), ar->devices, ar->missing, g->data_disks, chunk,
	      text);
}

/* A bcache layer: make-bcache, the registration, and what is written to sysfs then. */
static void show_bcache(const struct plan_layer *l, const struct layer_dev *d, show_line_fn out,
			void *ctx)
{
	show_linef(out, ctx, "  %-9s the first 1m of %s zeroed (no old signature)", "bcache", d->backing);
	show_linef(out, ctx, "  %-9s %s", "bcache", d->table);
	show_linef(out, ctx, "  %-9s %s and %s written to /sys/fs/bcache/register", "bcache", d->cache,
	      d->backing);
	show_linef(out, ctx, "  %-9s cache_mode=%s sequential_cutoff=%llu congested_read_threshold_us=%d "
	      "congested_write_threshold_us=%d (written, read back)", "bcache",
	      layer_mode_name(l->mode), (unsigned long long)l->sequential_cutoff,
	      l->congested_read_us, l->congested_write_us);
}

/* The dm devices of the cell's layer stack, each as the dmsetup command PID 1 runs (a crypt
 * key shown as what it will be), and the device mkfs then gets, into top. Returns 0 or -1. */
static int show_layers(const struct plan *p, const struct cell *c, const char *base,
		       const char *const *disks, int ndisks, char *top, size_t tlen,
		       show_line_fn out, void *ctx)
{
	const struct plan_array *ar = &p->arrays[c->array];
	snprintf(top, tlen, "%s", base);
	if (c->stack < 0 || !ar->stacks[c->stack].n)
		return 0;
	const struct layer_stack *s = &ar->stacks[c->stack];
	const char *cache = NULL;
	for (int i = 0; i < s->n; i++) {
		const struct plan_layer *l = &p->layers[s->layer[i]];
		if (layer_kinds[l->type].cache_disk && l->cache <= ndisks)
			cache = disks[l->cache - 1];
	}
	static struct layer_plan lp;
	char err[256] = "", key[64], line[LAYER_TABLE_MAX + 64];
	if (layer_plan_build(p->layers, s, base, 0, cache, 0, &lp, err, sizeof err) < 0) {
		show_linef(out, ctx, "  error     %s", err);
		return -1;
	}
	for (int i = 0; i < lp.n; i++) {
		const struct layer_dev *d = &lp.dev[i];
		if (d->bcache) {
			show_bcache(&p->layers[s->layer[d->layer]], d, out, ctx);
			continue;
		}
		if (d->zero_dev[0])
			show_linef(out, ctx, "  %-9s the first 4k of %s zeroed (a fresh superblock)",
			      "dmsetup", d->zero_dev);
		snprintf(key, sizeof key, "<%d-bit key, new each cell>",
			 layer_key_bits(&p->layers[s->layer[d->layer]]));
		layer_table_keyed(d->table, key, line, sizeof line);
		show_linef(out, ctx, "  %-9s dmsetup create %s --table \"%s\"", "dmsetup", d->name, line);
		if (d->message[0])
			show_linef(out, ctx, "  %-9s dmsetup message %s 0 \"%s\"", "dmsetup", d->name,
			      d->message);
	}
	snprintf(top, tlen, "%s", lp.top);
	return 0;
}

/* durability = log-writes: the log-writes device over dev (which it then names). */
static void show_log(const struct plan *p, const char *const *disks, int ndisks, char *dev,
		     size_t len, show_line_fn out, void *ctx)
{
	char table[256], logdev[64];
	if (p->durability != PLAN_DURABILITY_LOG_WRITES)
		return;
	if (p->log_disk <= ndisks)
		snprintf(logdev, sizeof logdev, "%s", disks[p->log_disk - 1]);
	else
		snprintf(logdev, sizeof logdev, "<disk %d>", p->log_disk);
	replay_lw_table(0, dev, logdev, table, sizeof table);
	show_linef(out, ctx, "  %-9s dmsetup create %s --table \"%s\"", "log", REPLAY_LW_DM, table);
	snprintf(dev, len, "/dev/mapper/%s", REPLAY_LW_DM);
}

/* pvcreate, vgcreate and lvcreate as the cell runs them, the LV checked against what disks
 * of the model's size hold. Returns 0 or -1. */
static int show_lvm(const struct plan *p, const struct cell *c, const char *const *disks,
		    int ndisks, const struct estimate_model *m, show_line_fn out, void *ctx)
{
	struct argv a[LVM_STEPS];
	char err[400];
	if (lvm_create_argv(p, c, disks, ndisks, (uint64_t)m->disk_bytes, a, err, sizeof err) < 0) {
		show_linef(out, ctx, "  error     %s", err);
		return -1;
	}
	for (int i = 0; i < LVM_STEPS; i++)
		show_argv(out, ctx, "lvm", &a[i]);
	return 0;
}

int cell_show(const struct plan *p, const struct cell *c, const char *const *disks, int ndisks,
	      const struct estimate_model *m, double *total, int *nwarn, show_line_fn out,
	      void *ctx)
{
	return cell_show_in_run(p, c, REUSE_NONE, disks, ndisks, m, total, nwarn, out, ctx);
}

/* The geometry, mkfs and tune lines: mkfs.btrfs over the disks of a btrfs level. */
static int show_mkfs(const struct plan *p, const struct cell *c, enum plan_reuse reuse,
		     const char *dev, const char *const *disks, struct warnings *w,
		     show_line_fn out, void *ctx)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	struct argv a;
	struct geometry g;
	char err[256];
	if ((btrfs_cell_spans(p, c)
	     ? cell_btrfs_mkfs_argv(p, c, disks, ar->devices, &a, err, sizeof err)
	     : cell_mkfs_argv(p, c, dev, &a, &g, w, err, sizeof err)) < 0) {
		show_linef(out, ctx, "  error     %s", err);
		return -1;
	}
	if (f->type == FS_BTRFS)
		show_linef(out, ctx, "  %-9s none: btrfs takes no stripe geometry from md", "geometry");
	else
		show_geometry(ar, f, &g, out, ctx);
	if (reuse == REUSE_FS) {
		show_linef(out, ctx, "  %-9s none: the filesystem of the cell before is taken over (its "
		      "files removed, fstrim, sync)", "mkfs");
		return 0;
	}
	show_argv(out, ctx, "mkfs", &a);
	if (cell_tune_argv(p, c, dev, &a, err, sizeof err) < 0) {
		show_linef(out, ctx, "  error     %s", err);
		return -1;
	}
	if (a.n)
		show_argv(out, ctx, "tune", &a);
	return 0;
}

int cell_show_in_run(const struct plan *p, const struct cell *c, enum plan_reuse reuse,
		     const char *const *disks, int ndisks, const struct estimate_model *m,
		     double *total, int *nwarn, show_line_fn out, void *ctx)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	struct argv a;
	struct warnings w = { 0 };
	char err[256], text[512], flags[128], data[PLAN_STR_MAX];
	unsigned long mflags;

	out(ctx, "");
	show_linef(out, ctx, "cell %d/%d  %s  rep %d", c->index + 1, matrix_count(p), c->id, c->rep);
	if (cell_skip_reason(ar->name, plan_array_disks(ar), ndisks, 0, "", err, sizeof err) < 0 ||
	    btrfs_cell_skip(p, c, err, sizeof err) < 0) {
		show_linef(out, ctx, "  %-9s %s", "skipped", err);
		return 1;
	}
	if (cell_mdadm_argv(p, c, "/dev/md0", disks, ndisks, &a, err, sizeof err) < 0) {
		show_linef(out, ctx, "  error     %s", err);
		return -1;
	}
	if (a.n && reuse != REUSE_NONE)
		show_linef(out, ctx, "  %-9s none: the array of the cell before is taken over (no create, "
		      "no resync)", "mdadm");
	else if (a.n)
		show_argv(out, ctx, "mdadm", &a);
	else if (btrfs_cell_spans(p, c))
		show_linef(out, ctx, "  %-9s none: btrfs's own %s over the disks, no md", "array",
		      level_find(ar->level)->profile);
	else if (level_find(ar->level)->lvm) {
		if (show_lvm(p, c, disks, ndisks, m, out, ctx) < 0)
			return -1;
	} else
		show_linef(out, ctx, "  %-9s none: %s used directly", "array", disks[0]);
	char dev[64];
	if (show_layers(p, c, cell_target(p, c, "/dev/md0", disks), disks, ndisks, dev, sizeof dev,
			out, ctx) < 0)
		return -1;
	show_log(p, disks, ndisks, dev, sizeof dev, out, ctx);
	if (show_mkfs(p, c, reuse, dev, disks, &w, out, ctx) < 0)
		return -1;
	if (mount_opts_split(f->mount[c->mount], &mflags, data, sizeof data) < 0 ||
	    (btrfs_cell_spans(p, c) && btrfs_mount_data(ar, disks, data, sizeof data) < 0)) {
		show_linef(out, ctx, "  error     mount options too long");
		return -1;
	}
	if (btrfs_cell_spans(p, c) && ar->missing)
		show_linef(out, ctx, "  %-9s after mkfs: the last %d of the disks wiped and forgotten "
		      "(btrfs device scan --forget), mounted degraded", "missing", ar->missing);
	mount_flags_names(mflags, flags, sizeof flags);
	show_linef(out, ctx, "  %-9s mount(\"%s\", mnt, \"%s\", %s, \"%s\")", "mount", dev,
	      plan_fs_name(f->type), flags[0] ? flags : "0", data);
	if (c->tun_given) {
		tunables_text(c, level_find(ar->level)->md, text, sizeof text);
		show_linef(out, ctx, "  %-9s %s", "tunables", text);
	}
	struct cell_est e;
	cell_estimate_parts(p, c, m, reuse, &e);
	struct plan_workload wl = p->workloads[c->workload];
	wl.size = e.size;
	cell_workload_text(&wl, text, sizeof text);
	show_linef(out, ctx, "  %-9s %s", "workload", text);
	if (p->durability == PLAN_DURABILITY_LOG_WRITES)
		show_linef(out, ctx, "  %-9s up to %u crash points, each replayed from the log onto a dm-thin "
		      "snapshot under the pessimistic and the optimistic model, mounted, verified, "
		      "unmounted and checked read-only by fsck", "replay",
		      replay_points_for(&wl, p->crash_points));
	estimate_text(&e, reuse, text, sizeof text);
	show_linef(out, ctx, "  %-9s %s", "estimate", text);
	for (int i = 0; i < w.n; i++)
		show_linef(out, ctx, "  %-9s %s", "warning", w.msg[i]);
	*total += e.total_s;
	*nwarn += w.n;
	return 0;
}
