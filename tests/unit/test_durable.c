/* test_durable: the durability workload's promises (core/workload/durable.c): the same operations for
 * the same seed, each kind in its turn; a record's slot checked as present, lost or torn;
 * the engine run on a temporary directory as a cell runs it, and its verifier
 * (engines/durability.c) catching a record torn, one overwritten by an older one, a file
 * cut short and a file gone; the device-mapper message packed as the kernel reads it. */
#include "check.h"
#include "core/parse/plan_parse.h"
#include "core/workload/durable.h"
#include "engines/durability.h"
#include "engines/engine.h"
#include "lib/dmioctl.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_model(void)
{
	struct dur_model a, b;
	struct dur_op op;
	uint64_t kinds[DUR_KINDS] = { 0 };
	CHECK_INT(dur_model_init(&a, 0, 7), 0);
	CHECK_INT(a.nbase, DUR_FILES_DEFAULT);
	CHECK_STR(a.f[3].name, "d3");
	for (int i = 0; i < 64; i++) {
		CHECK_INT(dur_next(&a, &op), 0);
		kinds[op.kind]++;
		CHECK_INT(op.seq, i + 1);
		CHECK_INT(op.dir_sync, op.kind == DUR_CREATE || op.kind == DUR_RENAME);
		CHECK(op.kind != DUR_RENAME || strncmp(op.tmp, "tmp", 3) == 0, "tmp %s", op.tmp);
		CHECK_INT(a.f[op.file].seq[op.slot], op.seq);
	}
	/* six of each eight write a base file (an overwrite of an empty one appends) */
	CHECK_INT(kinds[DUR_APPEND] + kinds[DUR_OVERWRITE], 48);
	CHECK_INT(kinds[DUR_CREATE], 8);
	CHECK_INT(kinds[DUR_RENAME], 8);
	CHECK(kinds[DUR_OVERWRITE] >= 14, "%llu overwrites", (unsigned long long)kinds[DUR_OVERWRITE]);
	CHECK_INT(a.nfiles, 4 + 8 + 4);  /* d0-d3, c4 ... c60, r0-r3 */
	/* the model after 64 from nothing is the same */
	CHECK_INT(dur_model_at(&b, 0, 7, 64), 0);
	CHECK_INT(b.nfiles, a.nfiles);
	CHECK_INT(dur_model_records(&b), dur_model_records(&a));
	int same = 1;
	for (size_t i = 0; i < a.nfiles; i++) {
		same &= strcmp(a.f[i].name, b.f[i].name) == 0 && a.f[i].nslots == b.f[i].nslots;
		for (uint32_t s = 0; same && s < a.f[i].nslots; s++)
			same &= a.f[i].seq[s] == b.f[i].seq[s];
	}
	CHECK(same, "the model rebuilt differs");
	dur_model_free(&a);
	dur_model_free(&b);
}

static void test_check(void)
{
	static unsigned char buf[DUR_SLOT], other[DUR_SLOT];
	uint64_t found;
	dur_record(7, 42, 3, 5, buf);
	CHECK_INT(dur_check(buf, DUR_SLOT, 42, 3, 5, &found), DUR_OK);
	CHECK_INT(found, 42);
	CHECK_INT(dur_check(buf, DUR_SLOT, 43, 3, 5, &found), DUR_LOST);   /* an older record */
	CHECK_INT(found, 42);
	CHECK_INT(dur_check(buf, DUR_SLOT, 42, 2, 5, &found), DUR_LOST);   /* another file's */
	CHECK_INT(dur_check(buf, DUR_SLOT, 42, 3, 6, &found), DUR_LOST);   /* another slot's */
	CHECK_INT(dur_check(buf, 20, 42, 3, 5, &found), DUR_LOST);         /* no header */
	CHECK_INT(dur_check(buf, 40, 42, 3, 5, &found), DUR_TORN);         /* cut short */
	memset(other, 0, sizeof other);
	CHECK_INT(dur_check(other, DUR_SLOT, 42, 3, 5, &found), DUR_LOST); /* zeros */
	CHECK_INT(found, 0);
	memcpy(other, buf, DUR_SLOT);
	other[DUR_HDR + 100] ^= 1;
	CHECK_INT(dur_check(other, DUR_SLOT, 42, 3, 5, &found), DUR_TORN);
	dur_record(8, 42, 3, 5, other);   /* another seed: other bytes */
	CHECK(memcmp(buf + DUR_HDR, other + DUR_HDR, 200) != 0, "the seed sets the payload");
}

static char tmp[64];

static void corrupt(const char *name, off_t at, int trunc_to)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", tmp, name);
	int fd = open(path, O_RDWR);
	unsigned char c = 0;
	CHECK(fd >= 0, "open %s", path);
	if (fd < 0)
		return;
	if (trunc_to >= 0)
		CHECK_INT(ftruncate(fd, trunc_to), 0);
	else if (pread(fd, &c, 1, at) == 1) {
		c ^= 0x55;
		CHECK_INT(pwrite(fd, &c, 1, at), 1);
	}
	close(fd);
}

static void test_engine_dir(void)
{
	const struct engine *e = engine_of(WL_DURABILITY);
	struct plan_workload w;
	struct dur_tally t;
	memset(&w, 0, sizeof w);
	plan_workload_defaults(&w);
	w.type = WL_DURABILITY;
	w.size = 64 * DUR_SLOT;
	struct engine_cell_env env = { .dir = tmp };
	void *res = calloc(1, e->res_size);
	int err = 0;
	char msg[WL_ERR_MAX] = "", head[160];
	e->cell(&w, &env, res, &err, msg);
	CHECK_INT(err, 0);
	CHECK_STR(msg, "");
	char j[4096];
	struct jw jw;
	jw_init(&jw, j, sizeof j);
	jw_obj(&jw);
	e->cell_json(&jw, res);
	jw_end_obj(&jw);
	CHECK(strncmp(j, "{\"ops\":64,\"bytes\":262144,\"files\":16,", 36) == 0, "fields: %s", j);
	CHECK(strstr(j, "\"marks\":0,") && strstr(j, "\"records_lost\":0,\"records_torn\":0"),
	      "fields: %s", j);
	e->headline(res, head, sizeof head);
	CHECK(strstr(head, " ops/s, p99 ") != NULL, "headline %s", head);
	free(res);

	CHECK_INT(dur_verify(tmp, 0, w.seed, 64, &t), 0);
	CHECK_INT(t.records, t.ok);
	uint64_t records = t.records;
	/* a prefix of the operations: later overwrites hold newer records than it promised */
	CHECK_INT(dur_verify(tmp, 0, w.seed, 20, &t), 0);
	CHECK(t.lost > 0 && t.torn == 0, "%llu lost at 20", (unsigned long long)t.lost);
	CHECK(strstr(t.first, " lost (it holds ") != NULL, "%s", t.first);
	/* a byte of d1's first payload flipped: torn */
	corrupt("d1", DUR_HDR + 7, -1);
	CHECK_INT(dur_verify(tmp, 0, w.seed, 64, &t), 0);
	CHECK_INT(t.torn, 1);
	CHECK_INT(t.lost, 0);
	CHECK(strncmp(t.first, "d1 slot 0: record ", 18) == 0 && strstr(t.first, " torn"), "%s",
	      t.first);
	/* d2 cut to one slot and a half, c4 gone */
	corrupt("d2", 0, DUR_SLOT + DUR_SLOT / 2);
	char path[128];
	snprintf(path, sizeof path, "%s/c4", tmp);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(dur_verify(tmp, 0, w.seed, 64, &t), 0);
	CHECK_INT(t.records, records);
	CHECK_INT(t.files_missing, 1);
	CHECK(t.lost >= 2 && t.torn >= 1, "lost %llu torn %llu", (unsigned long long)t.lost,
	      (unsigned long long)t.torn);
	CHECK_INT(t.ok + t.lost + t.torn, t.records);
	CHECK(dur_verify("/nonexistent-fsm", 0, w.seed, 4, &t) < 0, "no dir");
}

/* The ioctl's buffer: the header with its sizes and name, then sector 0 and the message. */
static void test_dm_message(void)
{
	_Alignas(8) unsigned char buf[1024];
	int n = dmi_pack_message(buf, sizeof buf, "fsm-lw", 0, "mark fsm.3");
	CHECK_INT(n, 312 + 8 + 16);
	struct dmi_header h;
	memcpy(&h, buf, sizeof h);
	CHECK_INT(h.version[0], 4);
	CHECK_INT(h.data_size, n);
	CHECK_INT(h.data_start, 312);
	CHECK_STR(h.name, "fsm-lw");
	CHECK_STR((char *)buf + 320, "mark fsm.3");
	char name[200];
	memset(name, 'x', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	CHECK_INT(dmi_pack_message(buf, sizeof buf, name, 0, "m"), -1);
	CHECK_INT(dmi_pack_message(buf, 320, "a", 0, "mark"), -1);
}

int main(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/fsm-durable-XXXXXX");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_model();
	test_check();
	test_engine_dir();
	test_dm_message();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "unable to remove %s\n", tmp);
	return check_done("test_durable");
}
