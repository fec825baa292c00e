/* engines/engine.c: the table of workload engines (engine.h) and what their rows share. */
#include "engines/engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Each defined in its own file. */
extern const struct engine engine_seqwrite, engine_smallfiles, engine_gen_tree, engine_tar,
	engine_seqread, engine_fsync, engine_fio, engine_durability, engine_durability_verify;

const struct engine *const engines[] = {
	&engine_seqwrite,
	&engine_smallfiles,
	&engine_gen_tree,
	&engine_tar,
	&engine_seqread,
	&engine_fsync,
	&engine_fio,
	&engine_durability,
	&engine_durability_verify,
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
	static char buf[32 << 10];   /* fio's: a job file's text and up to 16 jobs */
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

/* A user's file (tar archive, fio job): as given when absolute, else from the first of
 * dirs that has it. */
int engine_find_file(const char *file, const char *const *dirs, char *out, size_t len)
{
	if (file[0] == '/') {
		snprintf(out, len, "%s", file);
		return access(out, R_OK);
	}
	for (size_t i = 0; dirs[i]; i++) {
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], file) >= len)
			continue;
		if (access(out, R_OK) == 0)
			return 0;
	}
	snprintf(out, len, "%s", file);
	return -1;
}

/* "/results/fsmatrix, /plans and /": where engine_find_file looked. */
void engine_dirs_text(const char *const *dirs, char *buf, size_t len)
{
	size_t n = 0, count = 0;
	while (dirs[count])
		count++;
	buf[0] = '\0';
	for (size_t i = 0; i < count && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i == 0 ? "" : i + 1 == count ? " and " : ", ",
				      dirs[i][0] ? dirs[i] : "/");
}

void engine_latency_json(struct jw *w, const char *prefix, const struct latency *l)
{
	char key[48];
	for (size_t i = 0; i < LATENCY_FIELDS; i++) {
		snprintf(key, sizeof key, "%s_%s_us", prefix, latency_fields[i].name);
		jw_kdouble(w, key, *(const double *)((const char *)l + latency_fields[i].off), 1);
	}
}
