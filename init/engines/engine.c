/* engines/engine.c: the table of workload engines (engine.h) and what their rows share. */
#include "engines/engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each defined in its own file. */
extern const struct engine engine_seqwrite, engine_smallfiles, engine_gen_tree, engine_tar;

const struct engine *const engines[] = {
	&engine_seqwrite,
	&engine_smallfiles,
	&engine_gen_tree,
	&engine_tar,
	NULL,
};

const struct engine *engine_named(const char *name)
{
	for (size_t i = 0; engines[i]; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine *engine_of(enum wl_type type)
{
	for (size_t i = 0; engines[i]; i++)
		if (engines[i]->type == type && engines[i]->cell)
			return engines[i];
	return NULL;
}

double engine_figure(const struct engine *e, const void *res, const char *key)
{
	for (const struct engine_figure *f = e->figures; f && f->key; f++)
		if (strcmp(f->key, key) == 0)
			return *(const double *)((const char *)res + f->off);
	return NAN;
}

int engine_drop(int drop, int *err, char *msg)
{
	if (drop && wl_drop_caches() < 0)
		return wl_fail(err, msg, errno, "drop caches");
	return 0;
}

void engine_host_drop(const struct engine_host *h)
{
	if (h->drop && wl_drop_caches() < 0)
		fprintf(stderr, "fsmatrix: unable to drop caches: %s (measuring with warm caches)\n",
			strerror(errno));
}

int engine_emit(const char *name, void (*fields)(struct jw *, const void *), const void *res)
{
	static char buf[4096];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "workload");
	jw_kstr(&w, "workload", name);
	fields(&w, res);
	jw_end_obj(&w);
	if (jw_done(&w) < 0) {
		fprintf(stderr, "fsmatrix: workload: record too long\n");
		return -1;
	}
	printf("%s\n", buf);
	fflush(stdout);
	return 0;
}
