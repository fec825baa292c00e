/* report/table.c: lays a run's cells out as grids: one pivot per workload and metric
 * (rows and columns are the axes that vary), and one flat row per cell for spreadsheets. */
#include "report/grid.h"
#include "core/model/tunable.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The axes a plan varies, in the order a reader groups them when --by says nothing: the
 * array's, its kernel tunables (core/model/tunable.c names them; a record has those its array
 * sets), then the filesystem's, then the kernel set's (a run under several kernels: the
 * innermost, so that a cell's kernels stand side by side). */
static const char *const fixed_axes[] = { "array", "level", "devices", "missing", "chunk",
					  "fs", "mount", "kernel" };
#define NFIXED_ARRAY 5
#define NCANON (sizeof fixed_axes / sizeof fixed_axes[0] + TUN_COUNT)

static const char *canon_axis(size_t i)
{
	if (i < NFIXED_ARRAY)
		return fixed_axes[i];
	if (i < NFIXED_ARRAY + TUN_COUNT)
		return tun_rows[i - NFIXED_ARRAY].name;
	return fixed_axes[i - TUN_COUNT];
}

struct grid *grid_new(const char *title, size_t ncols)
{
	struct grid *g = calloc(1, sizeof *g);
	g->title = strdup(title ? title : "");
	g->ncols = ncols;
	grid_add_row(g);
	return g;
}

void grid_add_row(struct grid *g)
{
	g->cell = realloc(g->cell, (g->nrows + 1) * g->ncols * sizeof *g->cell);
	g->cls = realloc(g->cls, (g->nrows + 1) * g->ncols);
	if (g->tip)
		g->tip = realloc(g->tip, (g->nrows + 1) * g->ncols * sizeof *g->tip);
	for (size_t c = 0; c < g->ncols; c++) {
		g->cell[g->nrows * g->ncols + c] = strdup("");
		g->cls[g->nrows * g->ncols + c] = 0;
		if (g->tip)
			g->tip[g->nrows * g->ncols + c] = NULL;
	}
	g->nrows++;
}

void grid_tip(struct grid *g, size_t row, size_t col, const char *tip)
{
	if (!g->tip)
		g->tip = calloc(g->nrows * g->ncols, sizeof *g->tip);
	free(g->tip[row * g->ncols + col]);
	g->tip[row * g->ncols + col] = strdup(tip);
}

void grid_legend(struct grid *g, const char *line)
{
	for (size_t i = 0; i < g->nlegend; i++)
		if (g->legend[i] == line)
			return;
	if (g->nlegend < sizeof g->legend / sizeof g->legend[0])
		g->legend[g->nlegend++] = line;
}

void grid_set(struct grid *g, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = strdup("");
	va_end(ap);
	free(g->cell[row * g->ncols + col]);
	g->cell[row * g->ncols + col] = s;
}

void grid_free(struct grid *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nrows * g->ncols; i++) {
		free(g->cell[i]);
		if (g->tip)
			free(g->tip[i]);
	}
	free(g->tip);
	free(g->cell);
	free(g->cls);
	free(g->title);
	free(g->note);
	free(g);
}

size_t report_workloads(const struct rrun *r, const struct report_opts *o, const char **out,
			size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		if (!report_cell_selected(o, &r->cells[i]))
			continue;
		size_t j;
		for (j = 0; j < n; j++)
			if (strcmp(out[j], r->cells[i].workload) == 0)
				break;
		if (j == n && n < max)
			out[n++] = r->cells[i].workload;
	}
	return n;
}

/* Sorting: every axis ranks its values by first appearance, so --by groups cells while
 * keeping the plan's own order of values (defaults before noatime, as the plan lists them).
 * The ranks are worked out once per sort, a value's first appearance found through a hash of
 * the values seen, so that sorting stays n log n however many cells a run has. */
#define SORT_AXES (REPORT_MAX_AXES + NCANON)
struct ranked {
	struct rcell *c;
	long rank[SORT_AXES];
};

static int cmp_ranked(const void *a, const void *b, void *naxes)
{
	const struct ranked *x = a, *y = b;
	for (size_t i = 0; i < *(const size_t *)naxes; i++)
		if (x->rank[i] != y->rank[i])
			return (x->rank[i] > y->rank[i]) - (x->rank[i] < y->rank[i]);
	return (x->c->order > y->c->order) - (x->c->order < y->c->order);
}

static void sort_cells(struct rcell **cells, size_t n, const struct report_opts *o)
{
	const char *axes[SORT_AXES];
	size_t naxes = 0;
	char v[256];
	for (size_t i = 0; i < o->nby; i++)
		axes[naxes++] = o->by[i];
	for (size_t i = 0; i < NCANON; i++)
		axes[naxes++] = canon_axis(i);
	struct ranked *r = malloc((n ? n : 1) * sizeof *r);
	json_t **f = malloc((n ? n : 1) * sizeof *f);   /* each cell's entry in first */
	for (size_t i = 0; i < n; i++)
		r[i].c = cells[i];
	for (size_t a = 0; a < naxes; a++) {
		json_t *first = json_object();   /* value -> its earliest order */
		for (size_t i = 0; i < n; i++) {
			const char *t = report_cell_axis(cells[i], axes[a], v, sizeof v);
			if (!(f[i] = json_object_get(first, t)))
				json_object_set_new_nocheck(first, t, f[i] = json_integer(cells[i]->order));
			else if (json_integer_value(f[i]) > cells[i]->order)
				json_integer_set(f[i], cells[i]->order);
		}
		for (size_t i = 0; i < n; i++)
			r[i].rank[a] = (long)json_integer_value(f[i]);
		json_decref(first);
	}
	free(f);
	qsort_r(r, n, sizeof *r, cmp_ranked, &naxes);
	for (size_t i = 0; i < n; i++)
		cells[i] = r[i].c;
	free(r);
}

size_t report_cells_of(const struct rrun *r, const struct report_opts *o, const char *workload,
		       struct rcell **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncells && n < max; i++)
		if ((!workload || strcmp(r->cells[i].workload, workload) == 0) &&
		    report_cell_selected(o, &r->cells[i]))
			out[n++] = &r->cells[i];
	sort_cells(out, n, o);
	return n;
}

static int axis_varies(struct rcell **cells, size_t n, const char *axis)
{
	char v[256], w[256];
	const char *first = n ? report_cell_axis(cells[0], axis, v, sizeof v) : "";
	for (size_t i = 1; i < n; i++)
		if (strcmp(first, report_cell_axis(cells[i], axis, w, sizeof w)) != 0)
			return 1;
	return 0;
}

static int listed(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

size_t report_varying_axes(struct rcell **cells, size_t n, const struct report_opts *o,
			   const char **out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < o->nby && k < max; i++)
		if (axis_varies(cells, n, o->by[i]) && !listed(out, k, o->by[i]))
			out[k++] = o->by[i];
	for (size_t i = 0; i < NCANON && k < max; i++)
		if (axis_varies(cells, n, canon_axis(i)) && !listed(out, k, canon_axis(i)))
			out[k++] = canon_axis(i);
	return k;
}

const char report_legend_ignored[] =
	"*: measured without a mount option the kernel ignored (see Problems)";
const char report_legend_unstable[] =
	"~: not stable over its repeats (stable: 3 or more, RSD within 5% and range within 20% "
	"of the median; see Verdicts)";
const char report_legend_na[] =
	"n/a: the cell ran, but no repetition recorded a usable figure (see Problems); "
	"-: not in this run";

void report_cell_text(const struct rcell *c, size_t mi, char *out, size_t len)
{
	if (c->missing) {
		snprintf(out, len, "missing");
		return;
	}
	if (c->ok == 0 || mi >= c->nm || !c->has[mi]) {
		/* "-" is a cell the run does not have; this one ran and its figure is unusable */
		snprintf(out, len, "%s", c->ok == 0 ? c->status : mi < c->nm ? "n/a" : "-");
		return;
	}
	const struct summary *s = &c->st[mi];
	int d = c->m[mi]->decimals;
	int k = snprintf(out, len, "%.*f", d, s->median);
	if (s->n >= 2 && k > 0 && (size_t)k < len)
		k += snprintf(out + k, len - (size_t)k, " ±%.*f", d, s->stddev);
	if ((int)s->n < c->reps && k > 0 && (size_t)k < len)
		k += snprintf(out + k, len - (size_t)k, " (n=%zu of %d)", s->n, c->reps);
	if (!c->vd[mi].stable && k > 0 && (size_t)k < len)
		k += snprintf(out + k, len - (size_t)k, " ~");
	if (json_array_size(c->ignored) && k > 0 && (size_t)k < len)
		snprintf(out + k, len - (size_t)k, " *");
}

/* The marks report_cell_text put in a grid's entry: their legends, and for HTML a tooltip
 * and a class. */
void report_grid_marks(struct grid *g, size_t row, size_t col, const struct rcell *c, size_t mi)
{
	char why[512], tip[700];
	tip[0] = '\0';
	if (strcmp(g->cell[row * g->ncols + col], "n/a") == 0)
		grid_legend(g, report_legend_na);
	if (c && c->ok && mi < c->nm && c->has[mi] && !c->vd[mi].stable) {
		grid_legend(g, report_legend_unstable);
		g->cls[row * g->ncols + col] = 'u';
		snprintf(tip, sizeof tip, "not stable: %s", c->vd[mi].reason);
	}
	if (c && c->ok && report_ignored_text(c, why, sizeof why)) {
		grid_legend(g, report_legend_ignored);
		size_t k = strlen(tip);
		snprintf(tip + k, sizeof tip - k, "%s%s", k ? "; " : "", why);
		g->cls[row * g->ncols + col] = 'i';
	}
	if (tip[0])
		grid_tip(g, row, col, tip);
}

static char cell_class(const struct rcell *c)
{
	return c->missing ? 'm' : c->ok == 0 ? 'e' : 0;
}

/* Repeats among the cells: "3", or "1-3" when they differ. */
static void reps_text(struct rcell **cells, size_t n, char *out, size_t len)
{
	int lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (cells[i]->missing)
			continue;
		if (!lo || cells[i]->reps < lo)
			lo = cells[i]->reps;
		if (cells[i]->reps > hi)
			hi = cells[i]->reps;
	}
	if (lo == hi)
		snprintf(out, len, "%d", hi);
	else
		snprintf(out, len, "%d-%d", lo, hi);
}

/* The column axis's values, in the order cells are sorted by it; or the metric's label alone
 * when there is no column axis. Each a strdup the caller frees. */
static size_t pivot_columns(struct rcell **cells, size_t n, const char *col,
			    const struct metric *m, char **colv, size_t max)
{
	char w[256];
	size_t ncolv = 0;
	if (!col) {
		colv[ncolv++] = strdup(m->label);
		return ncolv;
	}
	struct rcell **tmp = malloc((n + 1) * sizeof *tmp);
	size_t nt = n;
	memcpy(tmp, cells, nt * sizeof *tmp);
	struct report_opts co = { .nby = 1, .by = { col } };
	sort_cells(tmp, nt, &co);
	for (size_t i = 0; i < nt && ncolv < max; i++) {
		const char *t = report_cell_axis(tmp[i], col, w, sizeof w);
		size_t j;
		for (j = 0; j < ncolv && strcmp(colv[j], t); j++)
			;
		if (j == ncolv)
			colv[ncolv++] = strdup(t);
	}
	free(tmp);
	return ncolv;
}

/* The grid's note: what the numbers are, the column axis, and the axes that do not vary. */
static void pivot_note(struct grid *g, struct rcell **cells, size_t n, const char *const *v,
		       size_t nv, const char *col)
{
	char buf[512], w[256], reps[32];
	reps_text(cells, n, reps, sizeof reps);
	int k = snprintf(buf, sizeof buf, "median%s over %s repeat%s", strcmp(reps, "1") ? " ±stddev" : "",
			 reps, strcmp(reps, "1") ? "s" : "");
	if (col)
		k += snprintf(buf + k, sizeof buf - (size_t)k, "; columns: %s", col);
	for (size_t i = 0; i < NCANON && n; i++) {
		if (listed(v, nv, canon_axis(i)))
			continue;
		axis_text(cells[0]->axes, canon_axis(i), w, sizeof w);
		/* "missing 0" (no failed member) would only puzzle a reader */
		if (*w && (size_t)k < sizeof buf && !(strcmp(canon_axis(i), "missing") == 0 && strcmp(w, "0") == 0))
			k += snprintf(buf + k, sizeof buf - (size_t)k, "; %s %s", canon_axis(i), w);
	}
	g->note = strdup(buf);
}

/* The row-axis values of a cell, joined by \x1f, as a key for its row. */
static void row_key(const char *const *values, size_t nvalues, char *key, size_t len)
{
	size_t kl = 0;
	key[0] = '\0';
	for (size_t a = 0; a < nvalues; a++) {
		kl += (size_t)snprintf(key + kl, len - kl, "%s\x1f", values[a]);
		if (kl >= len)
			kl = len - 1;
	}
}

/* The row of the cell's row-axis values: found in rows (key -> row), or added with "-" in
 * every column (not in this run). */
static size_t pivot_row(struct grid *g, json_t *rows, const struct rcell *cell,
			const char *const *v, size_t nrowax, size_t ncolv)
{
	char w[REPORT_MAX_AXES + NCANON][256], key[1024];
	const char *vals[REPORT_MAX_AXES + NCANON];
	size_t c0 = nrowax ? nrowax : 1;
	for (size_t a = 0; a < nrowax; a++)
		vals[a] = report_cell_axis(cell, v[a], w[a], sizeof w[a]);
	row_key(vals, nrowax, key, sizeof key);
	json_t *have = json_object_get(rows, key);
	if (have)
		return (size_t)json_integer_value(have);
	grid_add_row(g);
	size_t row = g->nrows - 1;
	json_object_set_new_nocheck(rows, key, json_integer((json_int_t)row));
	for (size_t a = 0; a < nrowax; a++)
		grid_set(g, row, a, "%s", vals[a]);
	for (size_t j = 0; j < ncolv; j++)
		grid_set(g, row, c0 + j, "-");   /* not in this run */
	if (!nrowax) {
		/* one cell only: name it by its id without the workload */
		const char *sl = strrchr(cell->id, '/');
		grid_set(g, row, 0, "%.*s", sl ? (int)(sl - cell->id) : (int)strlen(cell->id), cell->id);
	}
	return row;
}

struct grid *report_pivot(struct rcell **cells, size_t n, const struct report_opts *o,
			  const struct metric *m, const char *workload)
{
	const char *v[REPORT_MAX_AXES + NCANON];
	size_t nv = report_varying_axes(cells, n, o, v, sizeof v / sizeof v[0]);
	const char *col = nv >= 2 ? v[nv - 1] : NULL;
	size_t nrowax = col ? nv - 1 : nv;
	char buf[512], w[256];
	char *colv[256];
	size_t ncolv = pivot_columns(cells, n, col, m, colv, 256);

	snprintf(buf, sizeof buf, "%s: %s%s%s, %s is better", workload, m->label,
		 strcmp(m->label, m->unit) && *m->unit ? " in " : "",
		 strcmp(m->label, m->unit) ? m->unit : "", m->higher_better ? "higher" : "lower");
	struct grid *g = grid_new(buf, (nrowax ? nrowax : 1) + ncolv);
	pivot_note(g, cells, n, v, nv, col);

	for (size_t i = 0; i < nrowax; i++)
		grid_set(g, 0, i, "%s", v[i]);
	if (!nrowax)
		grid_set(g, 0, 0, "cell");
	size_t c0 = nrowax ? nrowax : 1;
	for (size_t j = 0; j < ncolv; j++)
		grid_set(g, 0, c0 + j, "%s", colv[j]);

	/* rows: one per distinct tuple of row-axis values, in sorted order */
	json_t *rows = json_object();
	for (size_t i = 0; i < n; i++) {
		size_t row = pivot_row(g, rows, cells[i], v, nrowax, ncolv);
		size_t col_i = 0;
		if (col) {
			const char *t = report_cell_axis(cells[i], col, w, sizeof w);
			for (col_i = 0; col_i < ncolv && strcmp(colv[col_i], t); col_i++)
				;
		}
		size_t mi;
		for (mi = 0; mi < cells[i]->nm && strcmp(cells[i]->m[mi]->key, m->key); mi++)
			;
		report_cell_text(cells[i], mi, buf, sizeof buf);
		grid_set(g, row, c0 + col_i, "%s", buf);
		g->cls[row * g->ncols + c0 + col_i] = cell_class(cells[i]);
		report_grid_marks(g, row, c0 + col_i, cells[i], mi);
	}
	json_decref(rows);
	for (size_t j = 0; j < ncolv; j++)
		free(colv[j]);
	return g;
}

/* Every axis of a cell record (docs/records.md, "axes"): what --by, --where and --group-by may name,
 * and the CSV's first columns, followed by median/min/max/stddev of every metric. */
const char *const report_axes[] = { "array", "level", "devices", "missing", "chunk", "fs",
				    "fstype", "mount", "workload", "wtype" };
#define NFLAT (sizeof report_axes / sizeof report_axes[0])
const size_t report_naxes = NFLAT;

int report_axis_known(const char *axis)
{
	for (size_t i = 0; i < NFLAT; i++)
		if (strcmp(axis, report_axes[i]) == 0)
			return 1;
	/* a tunable's name is an axis of the cells that set it, the kernel set of the cells
	 * that name one (fsmatrix.kernel=, kernels = in the plan) */
	return tun_find(axis) >= 0 || strcmp(axis, "kernel") == 0;
}

static void num(char *out, size_t len, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(out, len, "%s", "");
	else
		snprintf(out, len, "%.6g", v);
}

/* Every metric any cell of the runs has, in the order first seen. */
static size_t flat_metrics(const struct runset *rs, const struct metric **ms, size_t max)
{
	size_t nms = 0;
	for (size_t r = 0; r < rs->n; r++)
		for (size_t c = 0; c < rs->run[r].ncells; c++)
			for (size_t m = 0; m < rs->run[r].cells[c].nm; m++) {
				const struct metric *x = rs->run[r].cells[c].m[m];
				size_t j;
				for (j = 0; j < nms && strcmp(ms[j]->key, x->key); j++)
					;
				if (j == nms && nms < max)
					ms[nms++] = x;
			}
	return nms;
}

static const char *const stat_names[] = { "median", "min", "max", "stddev" };

/* The kernel tunables any cell of the runs sets, a bit per core/model/tunable.h row: each is a
 * column of the flat table after the fixed axes, so that a run without any keeps its columns. */
static unsigned flat_tunables(const struct runset *rs)
{
	unsigned set = 0;
	for (size_t r = 0; r < rs->n; r++)
		for (size_t i = 0; i < rs->run[r].ncells; i++)
			for (int t = 0; t < TUN_COUNT; t++)
				if (json_object_get(rs->run[r].cells[i].axes, tun_rows[t].name))
					set |= 1u << t;
	return set;
}

static void flat_axis(struct grid *g, size_t row, size_t col, const struct rcell *c,
		      const char *axis)
{
	char w[512];
	json_t *v = json_object_get(c->axes, axis);
	if (json_is_integer(v))   /* raw numbers, so a spreadsheet can sum them */
		grid_set(g, row, col, "%lld", (long long)json_integer_value(v));
	else {
		axis_text(c->axes, axis, w, sizeof w);
		grid_set(g, row, col, "%s", w);
	}
}

/* One row of the flat table: the cell's axes, status and the four figures of each metric. */
/* A run's cells name their kernel set (fsmatrix.kernel=, kernels =): the CSV gets a column. */
static int flat_kernel(const struct runset *rs)
{
	for (size_t r = 0; r < rs->n; r++)
		for (size_t c = 0; c < rs->run[r].ncells; c++)
			if (json_object_get(rs->run[r].cells[c].axes, "kernel"))
				return 1;
	return 0;
}

static void flat_row(struct grid *g, const struct rrun *run, const struct rcell *c,
		     unsigned tunables, int kernel, const struct metric *const *ms, size_t nms)
{
	char w[512];
	grid_add_row(g);
	size_t row = g->nrows - 1, col = 0;
	grid_set(g, row, col++, "%s", run->id);
	grid_set(g, row, col++, "%s", c->id);
	for (size_t a = 0; a < NFLAT; a++)
		flat_axis(g, row, col++, c, report_axes[a]);
	for (int t = 0; t < TUN_COUNT; t++)
		if (tunables & (1u << t))
			flat_axis(g, row, col++, c, tun_rows[t].name);
	if (kernel)
		flat_axis(g, row, col++, c, "kernel");
	grid_set(g, row, col++, "%s", c->status);
	grid_set(g, row, col++, "%d", c->reps);
	grid_set(g, row, col++, "%d", c->ok);
	json_t *bad = json_array_get(c->bad, 0);
	grid_set(g, row, col++, "%s", bad ? json_string_value(json_object_get(bad, "error")) ?: "" : "");
	grid_set(g, row, col++, "%s", json_string_value(json_object_get(c->first, "mount_effective")) ?: "");
	for (size_t m = 0; m < nms; m++) {
		size_t mi;
		for (mi = 0; mi < c->nm && strcmp(c->m[mi]->key, ms[m]->key); mi++)
			;
		if (mi == c->nm || !c->has[mi]) {
			col += 4;
			continue;
		}
		const struct summary *s = &c->st[mi];
		double vals[4] = { s->median, s->min, s->max, s->stddev };
		for (size_t k = 0; k < 4; k++) {
			num(w, sizeof w, vals[k]);
			grid_set(g, row, col++, "%s", w);
		}
	}
}

struct grid *report_flat(const struct runset *rs, const struct report_opts *o)
{
	const struct metric *ms[64];
	size_t nms = flat_metrics(rs, ms, 64);
	unsigned tunables = flat_tunables(rs);
	int kernel = flat_kernel(rs);
	size_t fixed = 2 + NFLAT + 5 + (size_t)kernel;
	for (int t = 0; t < TUN_COUNT; t++)
		fixed += (tunables >> t) & 1u;
	struct grid *g = grid_new("cells", fixed + 4 * nms);
	size_t col = 0;
	grid_set(g, 0, col++, "run");
	grid_set(g, 0, col++, "cell");
	for (size_t i = 0; i < NFLAT; i++)
		grid_set(g, 0, col++, "%s", report_axes[i]);
	for (int t = 0; t < TUN_COUNT; t++)
		if (tunables & (1u << t))
			grid_set(g, 0, col++, "%s", tun_rows[t].name);
	if (kernel)
		grid_set(g, 0, col++, "kernel");
	grid_set(g, 0, col++, "status");
	grid_set(g, 0, col++, "reps");
	grid_set(g, 0, col++, "ok");
	grid_set(g, 0, col++, "error");
	grid_set(g, 0, col++, "mount_effective");
	for (size_t m = 0; m < nms; m++)
		for (size_t s = 0; s < 4; s++)
			grid_set(g, 0, col++, "%s_%s", ms[m]->key, stat_names[s]);

	for (size_t r = 0; r < rs->n; r++) {
		struct rcell **cells = malloc((rs->run[r].ncells + 1) * sizeof *cells);
		size_t n = report_cells_of(&rs->run[r], o, NULL, cells, rs->run[r].ncells);
		for (size_t i = 0; i < n; i++)
			flat_row(g, &rs->run[r], cells[i], tunables, kernel, ms, nms);
		free(cells);
	}
	return g;
}
