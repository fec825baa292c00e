/* report/shards.c: the shards of one run (fsmatrix.shard=K/N, one machine each) made one
 * run again. Shards are known by their headers' "shard" and "run_group" (the sha256 of the
 * plan's sha256, the scale and N, which every shard of a run shares): the runs of one group
 * become one run whose records are the shards' cell records in plan order, whose header
 * lists the shards given and their cells, and whose trailer adds up the shards' trailers
 * when every shard finished. A shard given twice, or one not given, is a problem of that
 * run; the report then counts the missing shard's cells as never run. */
#include "report/model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *shard_of(const struct rrun *r)
{
	json_t *s = json_object_get(r->header, "shard");
	return json_is_object(s) && json_is_string(json_object_get(r->header, "run_group")) ? s : NULL;
}

static const char *group_of(const struct rrun *r)
{
	return json_string_value(json_object_get(r->header, "run_group"));
}

static json_int_t geti(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

/* "shard 1/2 of plan sha256 967d16751b10 at scale 0.0500" */
static void describe(const struct rrun *r, char *out, size_t len)
{
	json_t *p = json_object_get(r->header, "plan");
	snprintf(out, len, "shard %lld/%lld of plan sha256 %.12s at scale %.4f",
		 (long long)geti(shard_of(r), "k"), (long long)geti(shard_of(r), "n"),
		 json_string_value(json_object_get(p, "sha256")) ?: "?",
		 json_number_value(json_object_get(p, "scale")));
}

/* A record with its index and where it came: sorted by index, equal ones keep their order. */
struct placed {
	json_t *rec;
	json_int_t index;
	size_t pos;
};

static int by_index(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void note(struct rrun *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct rrun *r, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!r->notes)
		r->notes = json_array();
	json_array_append_new(r->notes, json_string(buf));
}

/* The trailer of the whole run: every shard's counts added up, the longest elapsed time. */
static json_t *sum_trailers(struct rrun *const *m, size_t n)
{
	json_t *t = json_pack("{s:s, s:I, s:{}}", "type", "trailer", "cells", (json_int_t)0, "counts");
	double elapsed = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *c = json_object_get(m[i]->trailer, "counts"), *v;
		const char *k;
		json_object_set_new(t, "cells", json_integer(geti(t, "cells") + geti(m[i]->trailer, "cells")));
		json_object_foreach(c, k, v) {
			json_t *sum = json_object_get(t, "counts");
			json_object_set_new(sum, k, json_integer(geti(sum, k) + json_integer_value(v)));
		}
		double e = json_number_value(json_object_get(m[i]->trailer, "elapsed_s"));
		elapsed = e > elapsed ? e : elapsed;
	}
	json_object_set_new(t, "elapsed_s", json_real(elapsed));
	return t;
}

/* The runs m[0..n) (one group, in order of shard number, duplicates already left out) into
 * one run, in out. */
static void merge_into(struct rrun *out, struct rrun *const *m, size_t n, int nshards)
{
	size_t idlen = 1, srclen = 1;
	for (size_t i = 0; i < n; i++) {
		idlen += strlen(m[i]->id ? m[i]->id : "?") + 1;
		srclen += strlen(m[i]->source) + 3;
	}
	memset(out, 0, sizeof *out);
	out->id = calloc(1, idlen);
	out->source = calloc(1, srclen);
	out->records = json_array();
	out->ok_recs = json_object();
	out->charted = json_object();
	out->refs = json_array();
	out->warmups = json_array();
	out->stops = json_array();
	out->speeds = json_array();
	out->dev_ends = json_array();
	json_t *cells = json_array(), *given = json_array();
	int finished = 1;
	for (size_t i = 0; i < n; i++) {
		strcat(strcat(out->id, i ? "+" : ""), m[i]->id ? m[i]->id : "?");
		strcat(strcat(out->source, i ? " + " : ""), m[i]->source);
		json_array_extend(out->records, m[i]->records);
		/* the series are the merged run's now */
		out->series = realloc(out->series, (out->nseries + m[i]->nseries + 1) * sizeof *out->series);
		if (m[i]->nseries)
			memcpy(out->series + out->nseries, m[i]->series, m[i]->nseries * sizeof *out->series);
		out->nseries += m[i]->nseries;
		free(m[i]->series);
		m[i]->series = NULL;
		m[i]->nseries = 0;
		json_object_update(out->ok_recs, m[i]->ok_recs);
		json_object_update(out->charted, m[i]->charted);
		json_array_extend(out->refs, m[i]->refs);
		json_array_extend(out->warmups, m[i]->warmups);
		json_array_extend(out->stops, m[i]->stops);
		json_array_extend(out->speeds, m[i]->speeds);
		json_array_extend(out->dev_ends, m[i]->dev_ends);
		json_t *sh = shard_of(m[i]), *c;
		size_t k;
		json_array_append_new(given, json_integer(geti(sh, "k")));
		json_array_foreach(json_object_get(sh, "cells"), k, c)
			json_array_append(cells, c);
		out->from_console |= m[i]->from_console;
		out->rejected_crc += m[i]->rejected_crc;
		out->rejected_trunc += m[i]->rejected_trunc;
		out->rejected_json += m[i]->rejected_json;
		out->rejected_long += m[i]->rejected_long;
		out->rejected_figure += m[i]->rejected_figure;
		finished &= m[i]->trailer != NULL;
		if (!out->plan && m[i]->plan)
			out->plan = json_incref(m[i]->plan);
	}
	/* plan order, as one machine would have written them; equal indexes keep their order */
	size_t nr = json_array_size(out->records);
	struct placed *v = malloc((nr + 1) * sizeof *v);
	for (size_t i = 0; i < nr; i++) {
		json_t *rec = json_array_get(out->records, i);
		v[i] = (struct placed){ json_incref(rec), geti(rec, "index"), i };
	}
	qsort(v, nr, sizeof *v, by_index);
	json_array_clear(out->records);
	for (size_t i = 0; i < nr; i++)
		json_array_append_new(out->records, v[i].rec);
	free(v);
	out->header = json_deep_copy(m[0]->header);
	json_t *sh = json_pack("{s:I, s:o, s:O, s:o}", "n", (json_int_t)nshards, "given", given,
			       "per_rep", json_object_get(shard_of(m[0]), "per_rep"), "cells", cells);
	json_object_set_new(out->header, "shard", sh);
	if (finished && (int)n == nshards)
		out->trailer = sum_trailers(m, n);
}

static int in_shard(const struct rrun *r, const char *gid, int k)
{
	return shard_of(r) && strcmp(group_of(r), gid) == 0 && geti(shard_of(r), "k") == k;
}

/* Whether run r gives its shard better than run b: a run that finished before one that
 * stopped part way (a boot given another fsmatrix.shard= abandons an interrupted run, and
 * the shard is then run again whole), then the one with more cell records, then the newer
 * (run ids sort by time); the same run given twice keeps the first. */
static int better(const struct rrun *r, const struct rrun *b)
{
	if ((r->trailer != NULL) != (b->trailer != NULL))
		return r->trailer != NULL;
	size_t nr = json_array_size(r->records), nb = json_array_size(b->records);
	if (nr != nb)
		return nr > nb;
	return r->id && b->id && strcmp(r->id, b->id) > 0;
}

/* "run X from SRC: finished, 24 cell records" */
static json_t *run_text(const struct rrun *r)
{
	return json_sprintf("run %s from %s: %s, %zu cell record%s", r->id ? r->id : "?", r->source,
			    r->trailer ? "finished" : "stopped part way (no trailer)",
			    json_array_size(r->records), json_array_size(r->records) == 1 ? "" : "s");
}

/* The run of rs (from first on) that gives shard k of group gid, or NULL. When several do,
 * one line each goes to notes: the one used and why, each one left out and why. */
static struct rrun *pick_shard(struct runset *rs, size_t first, const char *gid, int k,
			       int nshards, json_t *notes)
{
	struct rrun *best = NULL;
	size_t count = 0;
	for (size_t i = first; i < rs->n; i++)
		if (in_shard(&rs->run[i], gid, k) && (count++, !best || better(&rs->run[i], best)))
			best = &rs->run[i];
	if (count < 2)
		return best;
	json_t *t = run_text(best);
	json_array_append_new(notes, json_sprintf("shard %d/%d given %zu times: used %s", k, nshards,
						  count, json_string_value(t)));
	json_decref(t);
	for (size_t i = first; i < rs->n; i++) {
		struct rrun *r = &rs->run[i];
		if (!in_shard(r, gid, k) || r == best)
			continue;
		t = run_text(r);
		json_array_append_new(notes, json_sprintf("shard %d/%d given %zu times: left out %s (%s)",
			k, nshards, count, json_string_value(t),
			r->id && best->id && !strcmp(r->id, best->id) ? "the same run again"
			: best->trailer && !r->trailer ? "the run used finished the shard"
			: best->trailer ? "the run used is newer: give a run's files alone to report it"
			: "the run used has more records"));
		json_decref(t);
	}
	return best;
}

/* One group: the runs of rs holding the run group of rs->run[first], from there on, become
 * one run in its place (the others are freed and taken out). */
static void merge_group(struct runset *rs, size_t first)
{
	const char *group = group_of(&rs->run[first]);
	int nshards = (int)geti(shard_of(&rs->run[first]), "n");
	struct rrun **m = calloc(rs->n, sizeof *m), merged;
	size_t n = 0;
	char *gid = strdup(group);
	json_t *dups = json_array();
	/* by shard number; of the runs of one shard, one is used (pick_shard) */
	for (int k = 1; k <= nshards; k++)
		if ((m[n] = pick_shard(rs, first, gid, k, nshards, dups)))
			n++;
	merge_into(&merged, m, n, nshards);
	size_t i;
	json_t *d;
	json_array_foreach(dups, i, d)
		note(&merged, "%s", json_string_value(d));
	json_decref(dups);
	for (int k = 1; k <= nshards; k++) {
		size_t j;
		for (j = 0; j < n && geti(shard_of(m[j]), "k") != k; j++)
			;
		if (j == n)
			note(&merged, "shard %d/%d missing: no source given holds it (run group %.12s); "
			     "its cells never ran here", k, nshards, gid);
	}
	/* free every run of the group, then put the merged one where the first was */
	size_t w = 0;
	for (size_t r = 0; r < rs->n; r++) {
		struct rrun *x = &rs->run[r];
		if (r >= first && shard_of(x) && strcmp(group_of(x), gid) == 0) {
			report_free_run(x);
			if (r == first)
				rs->run[w++] = merged;
			continue;
		}
		rs->run[w++] = *x;
	}
	rs->n = w;
	free(gid);
	free(m);
}

int report_merge_shards(struct runset *rs, int one_run)
{
	/* Sources of two different runs are refused before anything is merged. */
	for (size_t i = 0; one_run && i < rs->n; i++)
		for (size_t j = i + 1; shard_of(&rs->run[i]) && j < rs->n; j++) {
			if (!shard_of(&rs->run[j]) || !strcmp(group_of(&rs->run[i]), group_of(&rs->run[j])))
				continue;
			char a[200], b[200];
			describe(&rs->run[i], a, sizeof a);
			describe(&rs->run[j], b, sizeof b);
			fprintf(stderr, "fsmatrix: unable to merge the shards of %s and %s: not one run "
				"(%s; %s): give the shards of one run (same plan sha256, scale and N)\n",
				rs->run[i].source, rs->run[j].source, a, b);
			return -1;
		}
	for (size_t i = 0; i < rs->n; i++)
		if (shard_of(&rs->run[i]) && !json_object_get(shard_of(&rs->run[i]), "given"))
			merge_group(rs, i);
	return 0;
}
