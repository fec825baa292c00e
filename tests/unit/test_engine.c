/* test_engine.c: the table of workload engines (engines/engine.c): every row complete, one
 * engine for each plan type, every metric of a type's row a figure its engine has, and each
 * engine run as a cell on a temporary directory, as PID 1 runs it. */
#include "check.h"
#include "engines/engine.h"
#include "core/parse/plan_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/resource.h>

static char tmp[64];

static void test_rows(void)
{
	size_t n = 0, cells = 0;
	for (size_t i = 0; engines[i]; i++, n++) {
		const struct engine *e = engines[i];
		CHECK(e->name && e->host && e->operands, "%s: name, host, operands", e->name);
		CHECK(e->nargs >= 1 && e->nargs <= 2, "%s: %d operands", e->name, e->nargs);
		CHECK(engine_named(e->name) == e, "engine_named(%s)", e->name);
		CHECK(wl_kind_of(e->type) != NULL, "%s: a type with a row in core", e->name);
		if (!e->cell)
			continue;
		cells++;
		CHECK(e->res_size > 0 && e->res_size <= ENGINE_RES_MAX, "%s: result of %zu bytes",
		      e->name, e->res_size);
		CHECK(e->cell_json && e->cpu && e->figures && e->headline, "%s: cell ops", e->name);
		CHECK(engine_of(e->type) == e, "%s: the engine of its type", e->name);
		CHECK_STR(wl_kind_of(e->type)->name, e->name);
		/* every metric the type's row names is a figure of a zeroed result */
		unsigned char *res = calloc(1, e->res_size);
		for (const struct metric *m = wl_kind_of(e->type)->metrics; m->key; m++)
			CHECK(engine_figure(e, res, m->key) == 0, "%s: figure %s", e->name, m->key);
		CHECK(isnan(engine_figure(e, res, "no_such_s")), "%s: an unknown figure is NaN",
		      e->name);
		free(res);
	}
	CHECK_INT(n, 9);
	/* one engine runs each plan type */
	size_t kinds = 0;
	for (const struct wl_kind *k = wl_kinds; k->name; k++, kinds++)
		CHECK(engine_of(k->type) != NULL, "an engine for %s", k->name);
	CHECK_INT(cells, kinds);
	CHECK(engine_named("fio") && engine_named("fio")->type == WL_FIO, "fio");
	CHECK(engine_named("") == NULL, "no empty name");
	const struct engine *g = engine_named("gen-tree");
	CHECK(g && !g->cell && g->type == WL_SMALLFILES, "gen-tree: host only, smallfiles keys");
	CHECK_INT(engine_named("seqwrite")->host_size, 1ull << 30);
	CHECK_INT(engine_named("tar")->role[0], ROLE_READ);
}

/* Runs e as a cell on tmp; returns the record's "result" object text. */
static const char *cell(const struct engine *e, const struct plan_workload *w,
			const struct engine_cell_env *env, int *err, char *msg, char *headline)
{
	static _Alignas(max_align_t) unsigned char res[ENGINE_RES_MAX];
	static char buf[64 << 10];
	struct jw jw;
	memset(res, 0, sizeof res);
	*err = 0;
	msg[0] = '\0';
	e->cell(w, env, res, err, msg);
	jw_init(&jw, buf, sizeof buf);
	jw_obj(&jw);
	e->cell_json(&jw, res);
	jw_end_obj(&jw);
	CHECK_INT(jw_done(&jw), 0);
	e->headline(res, headline, 400);
	return buf;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_cells(void)
{
	static const char *const dirs[] = { "/no/such/dir", "", NULL };
	struct engine_cell_env env = { .dir = tmp, .archive_dirs = dirs };
	struct plan_workload w;
	char msg[WL_ERR_MAX], head[400];
	int err;

	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_SEQWRITE;
	w.size = 2 << 20;
	const char *j = cell(engine_of(WL_SEQWRITE), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	CHECK(starts(j, "{\"bytes\":2097152,\"bs\":1048576,\"direct\":false,\"fallocate\":false,"
		     "\"data\":\"random\",\"seed\":20240601,\"write_s\":"), "seqwrite fields: %s", j);
	/* fallocate = yes: the blocks reserved before the timed writes, and how long that took */
	w.fallocate = 1;
	j = cell(engine_of(WL_SEQWRITE), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	CHECK(strstr(j, "\"fallocate\":true,\"fallocate_s\":") != NULL, "seqwrite fallocate: %s", j);
	w.fallocate = 0;
	CHECK(strstr(head, " MB/s before the flush)") != NULL, "seqwrite headline: %s", head);

	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_SMALLFILES;
	w.size = 1 << 20;
	w.passes = 2;
	j = cell(engine_of(WL_SMALLFILES), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	CHECK(starts(j, "{\"files\":"), "smallfiles fields: %s", j);
	CHECK(strstr(j, "\"passes\":[{\"files\":") != NULL, "smallfiles passes: %s", j);
	CHECK(strstr(head, " MB/s, ") && strstr(head, " files/s"), "smallfiles headline: %s", head);
	w.passes = 1;
	j = cell(engine_of(WL_SMALLFILES), &w, &env, &err, msg, head);
	CHECK_INT(err, EEXIST);   /* pass1 is there from the first run */
	CHECK(starts(msg, "pass 1: unable to "), "smallfiles error: %s", msg);
	CHECK(strstr(j, "\"passes\"") == NULL, "one pass, no passes array: %s", j);

	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_TAR;
	strcpy(w.file, "no-such.tar");
	j = cell(engine_of(WL_TAR), &w, &env, &err, msg, head);
	CHECK_INT(err, ENOENT);
	CHECK_STR(msg, "unable to find the archive no-such.tar (looked in /no/such/dir and /): "
		  "No such file or directory");
	CHECK(starts(j, "{\"archive\":\"no-such.tar\",\"bytes\":0,"), "tar fields: %s", j);
	CHECK_STR(head, "0.0 MB/s");

	/* seqread drops the caches between its write and its read: only root may */
	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_SEQREAD;
	w.size = 2 << 20;
	j = cell(engine_of(WL_SEQREAD), &w, &env, &err, msg, head);
	if (geteuid() == 0) {
		CHECK_INT(err, 0);
		CHECK(starts(j, "{\"bytes\":2097152,\"bs\":1048576,\"direct\":false,"
			     "\"data\":\"random\",\"seed\":20240601,\"read_s\":"), "seqread fields: %s", j);
	} else {
		CHECK_INT(err, EACCES);
	}
	CHECK(strstr(head, " MB/s read (written at ") != NULL, "seqread headline: %s", head);

	/* fsync: 16 appends of 4k, with and without a background writer */
	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_FSYNC;
	w.size = 64 << 10;
	w.bs = 4096;
	j = cell(engine_of(WL_FSYNC), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	CHECK(starts(j, "{\"appends\":16,\"bytes\":65536,\"bs\":4096,\"time_s\":"),
	      "fsync fields: %s", j);
	CHECK(strstr(j, "\"background\":0,\"background_bytes\":0,") != NULL, "no writer: %s", j);
	CHECK(strstr(j, "\"lat_p99_us\":null") == NULL, "latencies measured: %s", j);
	CHECK(starts(head, "p99 ") && strstr(head, " fsyncs/s"), "fsync headline: %s", head);
	/* each append is the stream's bytes at its offset: no two 4 KiB alike */
	static unsigned char appended[16][4096];
	char path[128];
	snprintf(path, sizeof path, "%s/fsync.dat", tmp);
	FILE *f = fopen(path, "rb");
	CHECK(f && fread(appended, 4096, 16, f) == 16, "read back %s", path);
	if (f)
		fclose(f);
	int alike = 0;
	for (int a = 0; a < 16; a++)
		for (int b = a + 1; b < 16; b++)
			alike += memcmp(appended[a], appended[b], 4096) == 0;
	CHECK_INT(alike, 0);
	w.background = 4 << 20;
	j = cell(engine_of(WL_FSYNC), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	/* it wrote its head start, and was still writing when the appends ended */
	CHECK(strstr(j, "\"background\":4194304,\"background_bytes\":") != NULL, "a writer: %s", j);
	/* a writer that stops (here at a 2 MiB file size limit) makes the cell an error: the
	 * appends would otherwise be measured alone under a label that says otherwise */
	struct rlimit old, two = { 2 << 20, 2 << 20 };
	getrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_IGN);
	two.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &two);
	cell(engine_of(WL_FSYNC), &w, &env, &err, msg, head);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_INT(err, EFBIG);
	CHECK(starts(msg, "unable to keep the background writer streaming through "), "%s", msg);
	w.size = 1000;
	cell(engine_of(WL_FSYNC), &w, &env, &err, msg, head);
	CHECK_INT(err, EINVAL);

	/* fio, the host's (make deps installs it): a tiny read job, then one fio refuses */
	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_FIO;
	strcpy(w.name, "t");
	strcpy(w.rw, "read");
	w.bs = 4096;
	w.size = 256 << 10;
	j = cell(engine_of(WL_FIO), &w, &env, &err, msg, head);
	CHECK_INT(err, 0);
	CHECK(starts(j, "{\"read_mbps\":"), "fio fields: %s", j);
	CHECK(strstr(j, "\"command\":\"fio --output-format=json --name=t --rw=read --bs=4096 "
		     "--size=262144\"") != NULL, "fio command: %s", j);
	CHECK(strstr(j, "\"jobs\":[{\"name\":\"t\",\"error\":0,") != NULL, "fio job: %s", j);
	CHECK(strstr(j, "\"read\":{\"io_bytes\":262144,\"total_ios\":64,") != NULL,
	      "fio read: %s", j);
	/* fio's own words, and no errno made up for them (it was EIO) */
	strcpy(w.rw, "bogus");
	j = cell(engine_of(WL_FIO), &w, &env, &err, msg, head);
	CHECK(err != 0 && err != EIO, "fio's failure has no errno of ours: %d", err);
	CHECK_STR(msg, "fio exited 1: fio: failed parsing rw=bogus");
	CHECK(strstr(j, "\"error\":\"fio exited 1: fio: failed parsing rw=bogus\",\"errno\":null}") !=
	      NULL, "fio's error and a null errno: %s", j);
	strcpy(w.rw, "read");
	strcpy(w.options, "--filename=/dev/null");
	cell(engine_of(WL_FIO), &w, &env, &err, msg, head);
	CHECK_INT(err, EINVAL);
	CHECK(starts(msg, "refusing fio options: "), "refused: %s", msg);
	memset(&w, 0, sizeof w);   /* the parser hands engines zeroed sections */
	plan_workload_defaults(&w);
	w.type = WL_FIO;
	strcpy(w.job, "no-such.fio");
	cell(engine_of(WL_FIO), &w, &env, &err, msg, head);
	CHECK_INT(err, ENOENT);
	CHECK_STR(msg, "unable to find the fio job no-such.fio (looked in /no/such/dir and /): "
		  "No such file or directory");
}

int main(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/test_engine.XXXXXX");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_rows();
	test_cells();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "unable to remove %s\n", tmp);
	return check_done("test_engine");
}
