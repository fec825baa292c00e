/* cli/site_summary.c: the site's index.html: a row per cell and headline metric with a
 * sparkline over its runs, the last value, the change since its last change point, its
 * share of the limit, and a mark when the newest run is outside the spread of the runs
 * before it since that change point. Sorting and filtering are a small inline script that
 * keeps its state in the address (#fs=ext4&sort=7), so that a link shows the same view; the
 * table is whole and readable without it. Marks are text and shapes, not colour alone. */
#include "cli/site.h"
#include "report/model.h"
#include "report/grid.h"
#include "report/timeseries.h"
#include "report/sections.h"
#include "report/compare.h"
#include "report/svg.h"

#include <math.h>
#include <string.h>

#define SPARK_W 120
#define SPARK_H 24

static const char script[] =
	"(function(){var t=document.getElementById('summary'),rows=[].slice.call(t.tBodies[0].rows),"
	"keys=['array','layer','fs','workload'],sel={},cur={col:-1,desc:false};"
	"document.getElementById('filters').hidden=false;"
	"keys.forEach(function(k){var s=document.getElementById('f-'+k),seen={};"
	"rows.forEach(function(r){seen[r.dataset[k]]=1;});Object.keys(seen).sort().forEach(function(v){"
	"var o=document.createElement('option');o.value=v;o.textContent=v===''?'(none)':v;s.appendChild(o);});"
	"s.onchange=save;sel[k]=s;});"
	"function state(){var h=location.hash.slice(1),st={};if(h.indexOf('=')<0)return st;"
	"h.split('&').forEach(function(p){var i=p.indexOf('=');if(i>0)st[decodeURIComponent(p.slice(0,i))]="
	"decodeURIComponent(p.slice(i+1));});return st;}"
	"function sortBy(c,d){cur={col:c,desc:d};var b=t.tBodies[0];rows.slice().sort(function(x,y){"
	"var a=x.cells[c].getAttribute('data-v'),z=y.cells[c].getAttribute('data-v');"
	"if(a===null){a=x.cells[c].textContent;z=y.cells[c].textContent;}"
	"var na=parseFloat(a),nz=parseFloat(z),r=!isNaN(na)&&!isNaN(nz)?na-nz:isNaN(na)!==isNaN(nz)?"
	"(isNaN(na)?1:-1):a.localeCompare(z);return d?-r:r;}).forEach(function(r){b.appendChild(r);});}"
	"function apply(){var st=state(),n=0;keys.forEach(function(k){sel[k].value=k in st?st[k]:'*';"
	"if(sel[k].selectedIndex<0)sel[k].value='*';});"
	"rows.forEach(function(r){var ok=keys.every(function(k){return sel[k].value==='*'||"
	"r.dataset[k]===sel[k].value;});r.hidden=!ok;n+=ok?1:0;});"
	"if(st.sort)sortBy(+st.sort,st.desc==='1');"
	"document.getElementById('shown').textContent=n+' of '+rows.length+' rows shown';}"
	"function save(){var p=[];keys.forEach(function(k){if(sel[k].value!=='*')"
	"p.push(k+'='+encodeURIComponent(sel[k].value));});if(cur.col>=0)p.push('sort='+cur.col,"
	"'desc='+(cur.desc?1:0));location.hash=p.join('&');apply();}"
	"[].forEach.call(t.tHead.rows[0].cells,function(th,i){th.className+=' sort';th.title="
	"'sort by this column';th.onclick=function(){sortBy(i,cur.col===i&&!cur.desc);save();};});"
	"window.addEventListener('hashchange',apply);apply();})();";

static void attr(FILE *f, const char *name, const char *v)
{
	fprintf(f, " %s=\"", name);
	html_escape(f, v);
	fputs("\"", f);
}

/* The series as a line over its points, each change point a red triangle (a shape, with its
 * change as its title), the newest point a dot. */
static void sparkline(FILE *f, const struct hseries *s)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < s->n; i++)
		lo = fmin(lo, s->pt[i].mean), hi = fmax(hi, s->pt[i].mean);
	if (!(hi > lo))
		lo -= 1, hi += 1;
	double dx = s->n > 1 ? (SPARK_W - 4.0) / (double)(s->n - 1) : 0;
#define SX(i) (2 + (double)(i) * dx)
#define SY(v) (SPARK_H - 3 - ((v) - lo) / (hi - lo) * (SPARK_H - 8))
	fprintf(f, "<svg class=\"spark\" width=\"%d\" height=\"%d\" role=\"img\" "
		"xmlns=\"http://www.w3.org/2000/svg\"><title>%zu points%s</title>", SPARK_W, SPARK_H,
		s->n, s->ngroups > 1 ? "; dashed: other conditions" : "");
	/* a line per conditions group: runs of other conditions are never one series */
	for (int g = 0; g < s->ngroups; g++) {
		fprintf(f, "<polyline class=\"line%s\" points=\"", g ? " other" : "");
		for (size_t i = 0, k = 0; i < s->n; i++)
			if (s->pt[i].group == g)
				fprintf(f, "%s%.1f,%.1f", k++ ? " " : "", SX(i), SY(s->pt[i].mean));
		fputs("\"/>", f);
	}
	for (size_t j = 0; j < s->ncp; j++) {
		double x = SX(s->cp[j].index), y = SY(s->pt[s->cp[j].index].mean);
		fprintf(f, "<path class=\"cp\" d=\"M%.1f %.1fl-3.5 6h7z\"><title>change point: %+.1f%%"
			"</title></path>", x, y - 3, 100 * s->cp[j].rel_change);
	}
	fprintf(f, "<circle class=\"last\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/></svg>",
		SX(s->n - 1), SY(s->pt[s->n - 1].mean));
#undef SX
#undef SY
}

/* The glance's cells: last value, change since the last change point, share of the limit,
 * the newest against the spread. */
static void glance(FILE *f, const struct site_row *r)
{
	const struct hseries *s = &r->s;
	const struct trend *t = &r->t;
	char v[32];
	site_num(t->last, v, sizeof v);
	fprintf(f, "<td class=\"num\" data-v=\"%.17g\">%s ", t->last, v);
	html_escape(f, s->unit);
	fputs("</td>", f);
	if (t->has_change) {
		const struct cp_point *c = &s->cp[s->pt[t->change_at].change - 1];
		int worse = trend_worse(c, s->higher_better);
		fprintf(f, "<td class=\"num wrap %s\" data-v=\"%.6f\">%s %+.1f%% since ", worse ? "worse" :
			"better", 100 * t->since, worse ? "&#9660; worse" : "&#9650; better", 100 * t->since);
		html_escape(f, s->pt[t->change_at].run);
		fputs("</td>", f);
	} else
		fputs("<td data-v=\"\">no change point</td>", f);
	if (r->limit > 0 && strcmp(s->unit, "MB/s") == 0)
		fprintf(f, "<td class=\"num\" data-v=\"%.4f\">%.0f%% of %s MB/s</td>", t->last / r->limit,
			100 * t->last / r->limit, (site_num(r->limit, v, sizeof v), v));
	else
		fputs("<td data-v=\"\">-</td>", f);
	if (t->nspread < TREND_MIN_SPREAD)
		fprintf(f, "<td data-v=\"0\">too few runs (%zu)</td>", t->nspread);
	else {
		char lo[32], hi[32];
		site_num(t->lo, lo, sizeof lo);
		site_num(t->hi, hi, sizeof hi);
		const char *word = t->outside > 0 ? "&#9650; above the spread" :
				   t->outside < 0 ? "&#9660; below the spread" : "within";
		fprintf(f, "<td class=\"%swrap\" data-v=\"%d\">%s (%s to %s over %zu runs)</td>",
			t->outside ? "mark " : "", t->outside ? 1 : 0, word, lo, hi, t->nspread);
	}
}

static void row(FILE *f, const struct site_row *r)
{
	const struct cell_parts *p = &r->parts;
	fprintf(f, "<tr id=\"%s\"", r->name);
	attr(f, "data-array", p->array);
	attr(f, "data-layer", p->layer);
	attr(f, "data-fs", p->fs);
	attr(f, "data-workload", p->workload);
	fprintf(f, "><td><a href=\"series/%s.html\">", r->name);
	html_escape(f, r->s.cell);
	fputs("</a></td><td>", f);
	html_escape(f, r->s.metric);
	fputs("</td>", f);
	if (r->nvalues == 0) {
		fputs("<td colspan=\"5\">no values: no run holds a figure of this metric</td>"
		      "<td class=\"num\">0</td></tr>\n", f);
		return;
	}
	fputs("<td>", f);
	sparkline(f, &r->s);
	fputs("</td>", f);
	glance(f, r);
	fprintf(f, "<td class=\"num\">%zu</td></tr>\n", r->s.n);
}

int site_summary(struct site *s)
{
	char *buf;
	size_t len, fresh = 0;
	FILE *f = site_page(&buf, &len);
	if (!f)
		return site_done(s, "index.html", f, &buf, &len);
	for (size_t i = 0; i < s->ncp; i++)
		fresh += s->cp[i].state == TRIAGE_NEW && trend_worse(&s->cp[i].row->s.cp[s->cp[i].k],
								     s->cp[i].row->s.higher_better);
	site_head(f, "fsmatrix: summary", "");
	char date[32];
	history_date(s->newest, date, sizeof date);
	fputs("<h1>Summary</h1>\n<p class=\"note\">", f);
	fprintf(f, "%zu series (cell and metric) over %zu runs of ", s->nrow, s->nrun);
	html_escape(f, s->o->db_name);
	fprintf(f, ", the newest %s UTC; <a href=\"regressions.html\">%zu new regression%s</a>. "
		"Sparklines: each run's mean by %s, &#9650; in red a change point (Apache Otava's "
		"rule, window %zu, p %g), the dot the newest. <em>since</em>: the newest against the "
		"mean before its last change point; <em>newest</em>: the newest run against the "
		"lowest and highest of the runs before it since that change point (at least %d).</p>\n",
		date, fresh, fresh == 1 ? "" : "s", s->o->by_kernel ? "kernel version" : "date",
		s->o->o.window, s->o->o.max_p, TREND_MIN_SPREAD);
	fputs("<div class=\"filters\" id=\"filters\" hidden>", f);
	static const char *const keys[] = { "array", "layer", "fs", "workload" };
	for (size_t i = 0; i < 4; i++)
		fprintf(f, "<label>%s <select id=\"f-%s\"><option value=\"*\">all</option></select>"
			"</label>", keys[i], keys[i]);
	fputs(" <span id=\"shown\"></span></div>\n<table id=\"summary\">\n<thead><tr><th>cell</th>"
	      "<th>metric</th><th>over runs</th><th>last</th><th>since last change</th><th>of limit</th>"
	      "<th>newest</th><th>runs</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < s->nrow; i++)
		row(f, &s->row[i]);
	fprintf(f, "</tbody>\n</table>\n<script>%s</script>\n", script);
	site_tail(f);
	return site_done(s, "index.html", f, &buf, &len);
}
