/* report/lean.c: record lines parsed into what the report reads of them (report/lean.h). */
#include "report/lean.h"
#include "lib/jscan.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The members of an ok cell record a report reads (the model, the Conditions, the CSV's
 * mount_effective); a record that is not ok is kept whole. */
static const char *const cell_read[] = { "type", "cell", "rep", "reps", "index", "total",
					 "attempt", "axes", "status", "error", "warnings",
					 "mount_effective", "mount_ignored", "result",
					 "fingerprint", "devices", "tunables", "tunables_ignored",
					 "figure", "case", "bitmap", "discarded", "reused",
					 "reused_from", "limit", "efficiency", "bottleneck",
					 "size", "run", "durability" };

static int cell_reads(const char *key, size_t n)
{
	for (size_t i = 0; i < sizeof cell_read / sizeof cell_read[0]; i++)
		if (strncmp(cell_read[i], key, n) == 0 && cell_read[i][n] == '\0')
			return 1;
	return 0;
}

/* The argv of a cell's mkfs step (the first whose argv[0] starts with "mkfs"), from its steps
 * as JSON text: the options the filesystem was made with, which the cell's definition holds
 * (report/definition.c); the rest of the steps is dropped. NULL when there is none. */
static json_t *mkfs_of_text(const char *s, size_t n)
{
	static const char key[] = "\"argv\":[\"mkfs";
	const char *p = memmem(s, n, key, sizeof key - 1), *e = s + n;
	if (!p)
		return NULL;
	int quoted = 0;
	for (const char *a = p + 7, *c = a; c < e; c++) {
		if (quoted && *c == '\\')
			c++;
		else if (*c == '"')
			quoted = !quoted;
		else if (!quoted && *c == ']')
			return json_loadb(a, (size_t)(c - a + 1), 0, NULL);
	}
	return NULL;
}

/* m, or the equal argv the record before kept (a reference more, m released): the cells of
 * a run make their filesystems with a few argvs, held once each, not once per record. */
static json_t *shared(json_t *m)
{
	static json_t *last;
	if (m && last && json_equal(m, last)) {
		json_decref(m);
		return json_incref(last);
	}
	if (m) {
		json_decref(last);
		last = json_incref(m);
	}
	return m;
}

/* The same of steps parsed whole. */
static json_t *mkfs_of(json_t *steps)
{
	size_t i;
	json_t *st;
	json_array_foreach(steps, i, st) {
		json_t *argv = json_object_get(st, "argv");
		const char *a0 = json_string_value(json_array_get(argv, 0));
		if (a0 && strncmp(a0, "mkfs", 4) == 0)
			return json_incref(argv);
	}
	return NULL;
}

/* The same on a record parsed whole. */
static void strip_cell(json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status")), *key;
	json_t *v;
	void *tmp;
	if (!json_is_object(rec) || strcmp(json_string_value(json_object_get(rec, "type")) ?: "", "cell") ||
	    !st || strcmp(st, "ok") != 0)
		return;
	json_t *mkfs = mkfs_of(json_object_get(rec, "steps"));
	json_object_foreach_safe(rec, tmp, key, v)
		if (!cell_reads(key, strlen(key)))
			json_object_del(rec, key);
	if (mkfs)
		json_object_set_new(rec, REPORT_MKFS_KEY, shared(mkfs));
}

struct member {
	const char *k, *v;   /* the key without its quotes, the value */
	size_t kl, vl;
};
#define LEAN_MEMBERS 64

/* Whether text holds no \\u escape and no byte beyond ASCII: the things lib/jscan.c does not
 * judge as jansson does. A word at a time, as this reads every byte of a large run. */
static int plain(const char *s, size_t n)
{
	const char *p = s, *e = s + n;
	for (; e - p >= 8; p += 8) {
		uint64_t w;
		memcpy(&w, p, sizeof w);
		if (w & 0x8080808080808080ull)
			return 0;
	}
	for (; p < e; p++)
		if ((unsigned char)*p >= 0x80)
			return 0;
	for (p = s; (p = memchr(p, '\\', (size_t)(e - p))) && p + 1 < e; p += 2)
		if (p[1] == 'u')
			return 0;
	return 1;
}

/* The members of the object js, checked whole as JSON; -1 when it is not one, has more than
 * max members, or holds what only jansson judges (a \u escape, a byte beyond ASCII). */
static int members_of(const char *js, size_t jl, struct member *m, int max)
{
	size_t pos = 0;
	int n = 0, rc;
	if (!plain(js, jl))
		return -1;
	while (n < max && (rc = json_next_member(js, jl, &pos, &m[n].k, &m[n].kl, &m[n].v, &m[n].vl)) == 1)
		n++;
	if (n == max || rc != 0)
		return -1;
	while (pos < jl && strchr(" \t\r\n", js[pos]))
		pos++;
	return pos == jl ? n : -1;
}

static int is_key(const struct member *m, const char *key)
{
	return m->kl == strlen(key) && memcmp(m->k, key, m->kl) == 0;
}

/* Whether the last member named key (jansson keeps the last of a repeated key) is the
 * string s. */
static int member_is(const struct member *m, int n, const char *key, const char *s)
{
	for (int i = n - 1; i >= 0; i--)
		if (is_key(&m[i], key))
			return m[i].vl == strlen(s) + 2 && m[i].v[0] == '"' &&
			       memcmp(m[i].v + 1, s, m[i].vl - 2) == 0;
	return 0;
}

/* The members that keep(key) accepts, as one object. */
static json_t *join(const struct member *m, int n, int (*keep)(const char *, size_t), size_t jl)
{
	char *out = malloc(jl + 3);
	size_t k = 0;
	if (!out)
		return NULL;
	out[k++] = '{';
	for (int i = 0; i < n; i++) {
		if (!keep(m[i].k, m[i].kl))
			continue;
		if (k > 1)
			out[k++] = ',';
		size_t w = (size_t)(m[i].v + m[i].vl - (m[i].k - 1));
		memcpy(out + k, m[i].k - 1, w);
		k += w;
	}
	out[k++] = '}';
	json_t *rec = json_loadb(out, k, 0, NULL);
	free(out);
	return rec;
}

/* The members of a series record report/series.c reads, but its rows. */
static int series_reads(const char *key, size_t n)
{
	static const char *const read[] = { "type", "cell", "rep", "attempt", "columns",
					    "members", "target" };
	for (size_t i = 0; i < sizeof read / sizeof read[0]; i++)
		if (strncmp(read[i], key, n) == 0 && read[i][n] == '\0')
			return 1;
	return 0;
}

/* One number of a row (valid JSON: the line was checked whole), as jansson reads it: an
 * integer as a long long (one past that is no JSON to it), else strtod; a value that is not
 * finite is left to jansson. A decimal of at most 15 digits and no exponent is the quotient
 * of two exact doubles, so the division gives strtod's correctly rounded value, cheaper. */
static int row_number(const char *s, size_t n, double *out)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15 };
	unsigned long long mant = 0;
	int digits = 0, frac = -1, simple = 1, neg = s[0] == '-';
	for (const char *p = s + neg; p < s + n; p++) {
		if (*p == '.')
			frac = 0;
		else if (*p >= '0' && *p <= '9')
			mant = mant * 10 + (unsigned)(*p - '0'), digits++, frac += frac >= 0;
		else
			simple = 0;
	}
	if (simple && digits <= 15) {
		if (frac < 0)   /* an integer: -0 is 0 */
			*out = neg && mant ? -(double)mant : (double)mant;
		else
			*out = (neg ? -1.0 : 1.0) * ((double)mant / p10[frac]);
		return 0;
	}
	char buf[64];
	if (n >= sizeof buf || (simple && frac < 0 && digits > 18))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	return isfinite(*out) ? 0 : -1;
}

/* A value of a row, from t up to the ',' or ']' that ends it (*end); -1 when it is neither
 * a number nor null. */
static int row_value(const char *t, const char *e, const char **end, double *x)
{
	const char *p = t;
	while (p < e && *p != ',' && *p != ']')
		p++;
	*end = p;
	if (p >= e || p == t)
		return -1;
	if (p - t == 4 && memcmp(t, "null", 4) == 0) {
		*x = NAN;
		return 0;
	}
	if (*t != '-' && (*t < '0' || *t > '9'))
		return -1;   /* a string, a list, an object, a boolean */
	return row_number(t, (size_t)(p - t), x);
}

/* rows written compactly, [[number or null, ...], ...], every row as long as the first and
 * none empty, into r; -1 for anything else, which the whole record's checks then judge. */
static int parse_rows(const char *s, size_t n, struct series_rows *r)
{
	const char *e = s + n, *p = s + 1;
	r->nr = r->nc = 0;
	if (n < 2 || s[0] != '[' || e[-1] != ']')
		return -1;
	if (n == 2)
		return 0;
	for (;;) {
		size_t k = 0;
		if (*p++ != '[' || (p < e && *p == ']'))
			return -1;
		for (;;) {
			size_t at = r->nr * r->nc + k;
			if (at + 1 > r->cap) {
				size_t cap = r->cap ? 2 * r->cap : 4096;
				double *nv = realloc(r->v, cap * sizeof *nv);
				if (!nv)
					return -1;
				r->v = nv;
				r->cap = cap;
			}
			if (row_value(p, e, &p, &r->v[at]) < 0)
				return -1;
			k++;
			if (*p++ == ']')
				break;
		}
		if (r->nr == 0)
			r->nc = k;
		else if (k != r->nc)
			return -1;
		r->nr++;
		if (p >= e)
			return -1;
		if (*p == ']')
			return p == e - 1 ? 0 : -1;
		if (*p++ != ',')
			return -1;
	}
}

json_t *report_parse_record(const char *js, size_t jl, struct series_rows *rows, int *has_rows)
{
	struct member m[LEAN_MEMBERS];
	int n = members_of(js, jl, m, LEAN_MEMBERS);
	*has_rows = 0;
	if (n > 0 && member_is(m, n, "type", "cell") && member_is(m, n, "status", "ok")) {
		json_t *rec = join(m, n, cell_reads, jl), *mkfs = NULL;
		for (int i = n - 1; rec && i >= 0 && !mkfs; i--)
			if (is_key(&m[i], "steps"))
				mkfs = mkfs_of_text(m[i].v, m[i].vl);
		if (mkfs)
			json_object_set_new(rec, REPORT_MKFS_KEY, shared(mkfs));
		return rec;
	}
	if (n > 0 && member_is(m, n, "type", "series")) {
		int ri = -1;
		for (int i = 0; i < n; i++)
			if (is_key(&m[i], "rows"))
				ri = i;
		if (ri >= 0 && parse_rows(m[ri].v, m[ri].vl, rows) == 0) {
			*has_rows = 1;
			return join(m, n, series_reads, jl);
		}
	}
	json_t *rec = json_loadb(js, jl, 0, NULL);
	strip_cell(rec);
	return rec;
}
