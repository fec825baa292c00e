/* cell/dmcache.c: a cache layer's own counters (dm-cache's `dmsetup status`), read after the
 * workload, so the record says how much of a cached figure went through the cache. */
#include "cell/ctx.h"
#include <stdio.h>
#include <string.h>

void cell_read_dmcache(struct cell_ctx *x)
{
	for (int i = 0; i < x->lp.n && x->layers_made; i++) {
		const char *name = x->lp.dev[i].name;
		size_t n = strlen(name);
		if (x->lp.dev[i].bcache || n < 6 || strcmp(name + n - 6, "-cache") != 0)
			continue;
		const char *argv[] = { "dmsetup", "status", name, NULL };
		struct run_result r;
		if (step_run(x, argv, 1, &r) < 0)
			return;
		char line[512];
		run_first_line(&r, line, sizeof line);
		run_free(&r);
		x->dmcache_read = layer_cache_status_parse(line, &x->dmcache) == 0;
	}
}

void cell_dmcache_json(struct jw *w, const struct cell_ctx *x)
{
	const struct layer_cache_stats *s = &x->dmcache;
	if (!x->dmcache_read)
		return;
	jw_key(w, "dm_cache");
	jw_obj(w);
	jw_kint(w, "read_hits", s->read_hits);
	jw_kint(w, "read_misses", s->read_misses);
	jw_kint(w, "write_hits", s->write_hits);
	jw_kint(w, "write_misses", s->write_misses);
	jw_kint(w, "demotions", s->demotions);
	jw_kint(w, "promotions", s->promotions);
	jw_kint(w, "dirty_blocks", s->dirty);
	jw_kint(w, "used_blocks", s->used_blocks);
	jw_kint(w, "total_blocks", s->total_blocks);
	jw_end_obj(w);
}
