/* engines/durability.c: records written into a set of files by appends, overwrites, creates
 * and renames (core/workload/durable.h decides which, where and what), each operation synced as its
 * row says (fdatasync or fsync, and the directory after a create or a rename); after each
 * acknowledged sync, when the cell runs under dm-log-writes, the log is marked: fsmpre.N,
 * a flush of the logged device (the instrument's, core/workload/replay.h says why), fsm.N. The
 * figures are the operations' rate and latency; then the filesystem as left is verified
 * against the model (nothing may be missing without a crash). dur_verify is the check the
 * cell runs on each replayed crash point. */
#include "engines/durability.h"
#include "engines/engine.h"
#include "engines/workload.h"
#include "lib/dmioctl.h"
#include "lib/stats.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct dur_res {
	uint64_t ops, bytes, files, marks;
	uint64_t kinds[DUR_KINDS];
	double time_s, ops_per_s;
	struct latency lat;              /* of one operation and its syncs, microseconds */
	struct dur_tally after;          /* the filesystem as the run left it */
	struct wl_cpu cpu;
	int err;
	char errmsg[WL_ERR_MAX];
};
_Static_assert(sizeof(struct dur_res) <= ENGINE_RES_MAX, "a cell result fits");

/* The log's marks: the dm device's name, the control node and the device for the flush. */
struct marker {
	const char *dm;
	int control, dev;
};

static int mark(struct marker *mk, uint64_t n, struct dur_res *r)
{
	char msg[64];
	if (!mk->dm)
		return 0;
	snprintf(msg, sizeof msg, "mark fsmpre.%llu", (unsigned long long)n);
	if (dmi_message(mk->control, mk->dm, 0, msg) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "mark the log of %s", mk->dm);
	if (fsync(mk->dev) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "flush /dev/mapper/%s", mk->dm);
	snprintf(msg, sizeof msg, "mark fsm.%llu", (unsigned long long)n);
	if (dmi_message(mk->control, mk->dm, 0, msg) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "mark the log of %s", mk->dm);
	r->marks++;
	return 0;
}

static int sync_fd(int fd, enum dur_sync s)
{
	return s == DUR_FSYNC ? fsync(fd) : fdatasync(fd);
}

/* Writes the op's record into name (created when create is set), synced as the op says. */
static int write_slot(int dirfd, const char *name, int create, const struct dur_op *op,
		      const unsigned char *buf)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT | O_TRUNC : 0);
	int fd = openat(dirfd, name, flags, 0644);
	if (fd < 0)
		return -1;
	off_t at = (off_t)op->slot * DUR_SLOT;
	int rc = pwrite(fd, buf, DUR_SLOT, at) == DUR_SLOT && sync_fd(fd, op->sync) == 0 ? 0 : -1;
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int do_op(int dirfd, const char *dir, const struct dur_model *m, const struct dur_op *op,
		 unsigned char *buf, struct dur_res *r)
{
	const char *name = m->f[op->file].name;
	dur_record(m->seed, op->seq, (uint32_t)op->file, op->slot, buf);
	int create = op->kind == DUR_CREATE || op->kind == DUR_RENAME;
	const char *first = op->kind == DUR_RENAME ? op->tmp : name;
	if (write_slot(dirfd, first, create, op, buf) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "%s record %llu to %s/%s",
			       dur_kind_names[op->kind], (unsigned long long)op->seq, dir, first);
	if (op->kind == DUR_RENAME && renameat(dirfd, op->tmp, dirfd, name) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "rename %s/%s to %s", dir, op->tmp, name);
	if (op->dir_sync && fsync(dirfd) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "fsync the directory %s", dir);
	r->kinds[op->kind]++;
	r->bytes += DUR_SLOT;
	return 0;
}

/* The base files, empty, synced with their directory: what fsm.0 promises. */
static int setup(int dirfd, const char *dir, const struct dur_model *m, struct dur_res *r)
{
	for (unsigned i = 0; i < m->nbase; i++) {
		int fd = openat(dirfd, m->f[i].name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
				O_NOFOLLOW, 0644);
		if (fd < 0 || fsync(fd) < 0) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return wl_fail(&r->err, r->errmsg, e, "create %s/%s", dir, m->f[i].name);
		}
		close(fd);
	}
	if (fsync(dirfd) < 0)
		return wl_fail(&r->err, r->errmsg, errno, "fsync the directory %s", dir);
	return 0;
}

static int ops_loop(int dirfd, const char *dir, struct dur_model *m, uint64_t n, double *lat,
		    struct marker *mk, struct dur_res *r)
{
	static _Alignas(4096) unsigned char buf[DUR_SLOT];
	struct dur_op op;
	for (uint64_t i = 0; i < n; i++) {
		double t0 = mono_s();
		if (dur_next(m, &op) < 0)
			return wl_fail(&r->err, r->errmsg, ENOMEM, "hold the model of %llu records",
				       (unsigned long long)dur_model_records(m));
		if (do_op(dirfd, dir, m, &op, buf, r) < 0)
			return -1;
		lat[i] = (mono_s() - t0) * 1e6;
		r->ops++;
		if (mark(mk, op.seq, r) < 0)
			return -1;
	}
	return 0;
}

static int dur_run(const char *dir, const struct plan_workload *w, struct marker *mk,
		   struct dur_res *r)
{
	memset(r, 0, sizeof *r);
	uint64_t n = w->size / DUR_SLOT;
	if (n == 0 || n > DUR_OPS_MAX)
		return wl_fail(&r->err, r->errmsg, EINVAL, "write %llu bytes of records (4k to %uk)",
			       (unsigned long long)w->size, DUR_OPS_MAX * 4);
	struct dur_model m;
	double *lat = malloc(n * sizeof *lat);
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!lat || dur_model_init(&m, (unsigned)w->files, w->seed) < 0) {
		free(lat);
		if (dirfd >= 0)
			close(dirfd);
		return wl_fail(&r->err, r->errmsg, ENOMEM, "hold %llu latencies", (unsigned long long)n);
	}
	struct wl_cpu_snap cpu;
	if (dirfd < 0)
		wl_fail(&r->err, r->errmsg, errno, "open the directory %s", dir);
	else if (setup(dirfd, dir, &m, r) == 0 && mark(mk, 0, r) == 0) {
		wl_cpu_begin(&cpu);
		double t0 = mono_s();
		ops_loop(dirfd, dir, &m, n, lat, mk, r);
		r->time_s = mono_s() - t0;
		wl_cpu_end(&cpu, &r->cpu);
	}
	r->ops_per_s = r->time_s > 0 ? (double)r->ops / r->time_s : 0;
	stats_latency(lat, (size_t)r->ops, &r->lat);
	r->files = m.nfiles;
	if (!r->err && dur_verify(dir, (unsigned)w->files, w->seed, r->ops, &r->after) < 0)
		wl_fail(&r->err, r->errmsg, errno, "verify the records in %s", dir);
	dur_model_free(&m);
	free(lat);
	if (dirfd >= 0)
		close(dirfd);
	return r->err ? -1 : 0;
}

/* ------------------------------------------------------------------ the verifier */

static void first_problem(struct dur_tally *t, const char *name, uint32_t slot, uint64_t seq,
			  enum dur_verdict v, uint64_t found)
{
	if (t->first[0])
		return;
	if (found && found != seq)
		snprintf(t->first, sizeof t->first, "%s slot %u: record %llu lost (it holds %llu)",
			 name, slot, (unsigned long long)seq, (unsigned long long)found);
	else
		snprintf(t->first, sizeof t->first, "%s slot %u: record %llu %s", name, slot,
			 (unsigned long long)seq, dur_verdict_names[v]);
}

static void verify_file(int dirfd, const struct dur_file *f, uint32_t file,
			struct dur_tally *t)
{
	static unsigned char buf[DUR_SLOT];
	int fd = openat(dirfd, f->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	t->records += f->nslots;
	if (fd < 0) {
		t->files_missing++;
		t->lost += f->nslots;
		if (!t->first[0])
			snprintf(t->first, sizeof t->first, "%s missing (%s)", f->name, strerror(errno));
		return;
	}
	for (uint32_t s = 0; s < f->nslots; s++) {
		ssize_t n = pread(fd, buf, DUR_SLOT, (off_t)s * DUR_SLOT);
		uint64_t found;
		enum dur_verdict v = dur_check(buf, n > 0 ? (size_t)n : 0, f->seq[s], file, s, &found);
		t->ok += v == DUR_OK;
		t->lost += v == DUR_LOST;
		t->torn += v == DUR_TORN;
		if (v != DUR_OK)
			first_problem(t, f->name, s, f->seq[s], v, found);
	}
	close(fd);
}

int dur_verify(const char *dir, unsigned files, uint64_t seed, uint64_t ops,
	       struct dur_tally *t)
{
	struct dur_model m;
	memset(t, 0, sizeof *t);
	if (dur_model_at(&m, files, seed, ops) < 0) {
		errno = ENOMEM;
		return -1;
	}
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		int e = errno;
		dur_model_free(&m);
		errno = e;
		return -1;
	}
	for (size_t i = 0; i < m.nfiles; i++)
		verify_file(dirfd, &m.f[i], (uint32_t)i, t);
	close(dirfd);
	dur_model_free(&m);
	return 0;
}

/* ------------------------------------------------------------------ the engine's row */

static void fields(struct jw *w, const void *res)
{
	const struct dur_res *r = res;
	jw_kint(w, "ops", (long long)r->ops);
	jw_kint(w, "bytes", (long long)r->bytes);
	jw_kint(w, "files", (long long)r->files);
	for (int k = 0; k < DUR_KINDS; k++) {
		char key[32];
		snprintf(key, sizeof key, "%ss", dur_kind_names[k]);
		jw_kint(w, key, (long long)r->kinds[k]);
	}
	jw_kint(w, "marks", (long long)r->marks);
	jw_kdouble(w, "time_s", r->time_s, 6);
	jw_kdouble(w, "ops_per_s", r->ops_per_s, 1);
	engine_latency_json(w, "lat", &r->lat);
	jw_kint(w, "records", (long long)r->after.records);
	jw_kint(w, "records_lost", (long long)r->after.lost);
	jw_kint(w, "records_torn", (long long)r->after.torn);
	wl_tail_json(w, &r->cpu, r->err, r->errmsg);
}

static void cell(const struct plan_workload *w, const struct engine_cell_env *env, void *res,
		 int *err, char *msg)
{
	struct dur_res *r = res;
	struct marker mk = { env->log_dm, -1, -1 };
	char dev[160];
	if (mk.dm) {
		snprintf(dev, sizeof dev, "/dev/mapper/%s", mk.dm);
		mk.control = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
		mk.dev = open(dev, O_RDONLY | O_CLOEXEC);
		if (mk.control < 0 || mk.dev < 0)
			wl_fail(err, msg, errno, "open %s", mk.control < 0 ? DM_CONTROL : dev);
	}
	if (!*err && engine_drop(env->drop, err, msg) == 0 && dur_run(env->dir, w, &mk, r) < 0) {
		*err = r->err;
		memcpy(msg, r->errmsg, WL_ERR_MAX);
	}
	if (!*err && (r->after.lost || r->after.torn)) {
		*err = EIO;
		snprintf(msg, WL_ERR_MAX, "records missing with no crash: %s", r->after.first);
	}
	if (mk.control >= 0)
		close(mk.control);
	if (mk.dev >= 0)
		close(mk.dev);
}

static const struct wl_cpu *cpu(const void *res) { return &((const struct dur_res *)res)->cpu; }

static void headline(const void *res, char *buf, size_t len)
{
	const struct dur_res *r = res;
	snprintf(buf, len, "%.0f ops/s, p99 %.0f us, %llu marks", r->ops_per_s, r->lat.p99,
		 (unsigned long long)r->marks);
}

static int host(const struct engine_host *h, char *const *operands)
{
	const char *dir = operands[0];
	struct dur_res r;
	struct marker mk = { NULL, -1, -1 };
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fsmatrix: unable to create directory %s: %s\n", dir, strerror(errno));
		return 1;
	}
	engine_host_drop(h);
	int rc = dur_run(dir, &h->w, &mk, &r);
	engine_emit("durability", fields, &r);
	if (rc < 0)
		fprintf(stderr, "fsmatrix: %s (%s)\n", r.errmsg, wl_errno_name(r.err));
	fprintf(stderr, "durability %s: %llu operations in %.3f s: %.0f ops/s, latency p50 %.0f us, "
		"p99 %.0f us; %llu records, %llu lost, %llu torn%s%s\n", dir,
		(unsigned long long)r.ops, r.time_s, r.ops_per_s, r.lat.p50, r.lat.p99,
		(unsigned long long)r.after.records, (unsigned long long)r.after.lost,
		(unsigned long long)r.after.torn, r.after.first[0] ? ": " : "", r.after.first);
	return rc < 0 || r.after.lost || r.after.torn ? 1 : 0;
}

#define LAT(p) { "lat_" #p "_us", offsetof(struct dur_res, lat.p) }
static const struct engine_figure figures[] = {
	{ "ops_per_s", offsetof(struct dur_res, ops_per_s) }, LAT(p99), LAT(p50), LAT(max),
	LAT(mean), LAT(p90), LAT(p999), { NULL, 0 },
};

const struct engine engine_durability = {
	.name = "durability", .type = WL_DURABILITY,
	.res_size = sizeof(struct dur_res), .cell = cell, .cell_json = fields, .cpu = cpu,
	.figures = figures, .headline = headline,
	.host_size = 1ull << 20, .nargs = 1, .role = { ROLE_DIR }, .operands = "DIR",
	.options = "[--files 4] [--seed N] [--drop-caches]",
	.about = "durability writes 4k records into DIR by appends, overwrites, creates and renames, "
		 "each synced, then verifies every one; `durability-verify` checks DIR against what "
		 "the first --size of them promised.",
	.host = host,
};

/* `fsmatrix workload durability-verify DIR --size S`: DIR against the model after S / 4k
 * operations; exit 1 when a record is lost or torn. */
static int host_verify(const struct engine_host *h, char *const *operands)
{
	struct dur_tally t;
	uint64_t ops = h->w.size / DUR_SLOT;
	if (dur_verify(operands[0], (unsigned)h->w.files, h->w.seed, ops, &t) < 0) {
		fprintf(stderr, "fsmatrix: unable to verify %s: %s\n", operands[0], strerror(errno));
		return 1;
	}
	printf("durability-verify %s: %llu operations, %llu records: %llu whole, %llu lost, %llu "
	       "torn, %llu files missing%s%s\n", operands[0], (unsigned long long)ops,
	       (unsigned long long)t.records, (unsigned long long)t.ok, (unsigned long long)t.lost,
	       (unsigned long long)t.torn, (unsigned long long)t.files_missing,
	       t.first[0] ? "; first: " : "", t.first);
	return t.lost || t.torn || t.files_missing ? 1 : 0;
}

const struct engine engine_durability_verify = {
	.name = "durability-verify", .type = WL_DURABILITY,
	.host_size = 1ull << 20, .nargs = 1, .role = { ROLE_DIR }, .operands = "DIR",
	.options = "[--files 4] [--seed N]",
	.about = NULL,
	.host = host_verify,
};
