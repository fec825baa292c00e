/* core/cellshow.c: the lines `fsmatrix check` prints for a cell, and /init shows in a dry run. */
#include "core/cellshow.h"
#include "core/level.h"
#include "core/matrix.h"
#include "core/workload_kinds.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void linef(show_line_fn out, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void linef(show_line_fn out, void *ctx, const char *fmt, ...)
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
	linef(out, ctx, "  %-9s %s", label, line);
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

void cell_workload_text(const struct plan_workload *w, char *buf, size_t len)
{
	const struct wl_kind *wk = wl_kind_of(w->type);
	if (wk)
		wk->describe(w, buf, len);
	else if (len)
		buf[0] = '\0';
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

int cell_show(const struct plan *p, const struct cell *c, const char *const *disks, int ndisks,
	      const struct estimate_model *m, double *total, int *nwarn, show_line_fn out,
	      void *ctx)
{
	const struct plan_array *ar = &p->arrays[c->array];
	const struct plan_fs *f = &p->fs[c->fs];
	struct argv a;
	struct geometry g;
	struct warnings w = { 0 };
	char err[256], text[512], flags[128], data[PLAN_STR_MAX];
	unsigned long mflags;

	out(ctx, "");
	linef(out, ctx, "cell %d/%d  %s  rep %d", c->index + 1, matrix_count(p), c->id, c->rep);
	if (cell_skip_reason(ar->name, plan_array_disks(ar), ndisks, 0, "", err, sizeof err) < 0) {
		linef(out, ctx, "  %-9s %s", "skipped", err);
		return 1;
	}
	if (cell_mdadm_argv(p, c, "/dev/md0", disks, ndisks, &a, err, sizeof err) < 0) {
		linef(out, ctx, "  error     %s", err);
		return -1;
	}
	if (a.n)
		show_argv(out, ctx, "mdadm", &a);
	else
		linef(out, ctx, "  %-9s none: %s used directly", "array", disks[0]);
	const char *dev = cell_target(p, c, "/dev/md0", disks);
	if (cell_mkfs_argv(p, c, dev, &a, &g, &w, err, sizeof err) < 0) {
		linef(out, ctx, "  error     %s", err);
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
		linef(out, ctx, "  %-9s %s, %d devices (%d missing), %d data disks, chunk %s: %s",
		      "geometry", level_name(ar->level), ar->devices, ar->missing,
		      g.data_disks, chunk, text);
	} else {
		linef(out, ctx, "  %-9s %s: none derived%s", "geometry", level_name(ar->level),
		      !level_find(ar->level)->striped ? " (no striping)"
		      : " (no chunk in the plan: mkfs reads md's own from the kernel)");
	}
	show_argv(out, ctx, "mkfs", &a);
	if (cell_tune_argv(p, c, dev, &a, err, sizeof err) < 0) {
		linef(out, ctx, "  error     %s", err);
		return -1;
	}
	if (a.n)
		show_argv(out, ctx, "tune", &a);
	if (mount_opts_split(f->mount[c->mount], &mflags, data, sizeof data) < 0) {
		linef(out, ctx, "  error     mount options too long");
		return -1;
	}
	mount_flags_names(mflags, flags, sizeof flags);
	linef(out, ctx, "  %-9s mount(\"%s\", mnt, \"%s\", %s, \"%s\")", "mount", dev,
	      plan_fs_name(f->type), flags[0] ? flags : "0", data);
	if (c->tun_given) {
		tunables_text(c, level_find(ar->level)->md, text, sizeof text);
		linef(out, ctx, "  %-9s %s", "tunables", text);
	}
	cell_workload_text(&p->workloads[c->workload], text, sizeof text);
	linef(out, ctx, "  %-9s %s", "workload", text);
	double rs, t = cell_estimate(p, c, m, &rs);
	char ts[32], rss[32];
	show_secs(t, ts, sizeof ts);
	show_secs(rs, rss, sizeof rss);
	linef(out, ctx, "  %-9s ~%s%s%s", "estimate", ts, rs > 0 ? ", of which resync " : "",
	      rs > 0 ? rss : "");
	for (int i = 0; i < w.n; i++)
		linef(out, ctx, "  %-9s %s", "warning", w.msg[i]);
	*total += t;
	*nwarn += w.n;
	return 0;
}

int plan_time_warning(const struct plan *p, const struct estimate_model *m, char *buf,
		      size_t len)
{
	double total = 0, rs;
	struct cell c;
	for (int i = 0; matrix_cell(p, i, &c) == 0; i++)
		total += cell_estimate(p, &c, m, &rs);
	if (total <= PLAN_WARN_HOURS * 3600.0)
		return 0;
	char t[32];
	show_secs(total, t, sizeof t);
	snprintf(buf, len, "%s:%d: warning: the run is estimated at ~%s, over %d hours (%d cells; "
		 "lower repeat, sizes or axes, or split the plan)", p->file, p->lines, t,
		 PLAN_WARN_HOURS, matrix_count(p));
	return 1;
}
