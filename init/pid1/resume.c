/* pid1/resume.c: whether this boot goes on with an earlier run, by the rules of resume.h.
 * Only the newest journal with a header on the results partition is considered (run ids
 * sort by time): a run interrupted and then followed by another run is not taken up again. A resumed boot
 * appends to the run's own files; a torn last line (the power went during a write) is cut
 * off first, so that the file stays one JSON record per line. */
#include "pid1/pid1.h"
#include "cell/device.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/boot/resume.h"
#include "lib/file.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What this boot knows of the run it resumes, read once from the journal and asked per cell by
 * pid1/matrix.c: one struct, handed to the functions below that read or change it. */
struct resume_state {
	struct resume_cell *cells;  /* the journal's cells, when this boot resumes */
	int ncells;
	struct journal journal;
	char dropped_id[32];        /* the id this boot made for itself, then gave up */
	size_t torn_bytes;
	/* The write caches this boot put back as the run's first boot found them, for the resume
	 * event. */
	struct wc_put_back {
		char name[32], serial[64], found[8], first[8], why[200];
		int ok;
	} put_back[RESUME_WC_MAX];
	int nput_back;
};
static struct resume_state resume;

/* The header's plan.scale exactly as plan_header_json writes it. */
static void scale_text(char *out, size_t len)
{
	struct jw w;
	jw_init(&w, out, len);
	jw_double(&w, boot.cmd.scale, 4);
	if (w.err)
		out[0] = '\0';
}

static int newer_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The journals' names, newest first (run ids sort by time). Returns how many, -1 on error. */
static int journals(char ***names)
{
	DIR *d = opendir(RESULTS_DIR);
	struct dirent *e;
	int n = 0, cap = 0;
	*names = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		if (l <= 6 || strcmp(e->d_name + l - 6, ".jsonl") != 0)
			continue;
		if (n == cap) {
			char **nn = realloc(*names, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *nn);
			if (!nn)
				break;
			*names = nn;
		}
		if (!((*names)[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	qsort(*names, (size_t)n, sizeof **names, newer_first);
	return n;
}

/* Cuts a torn last line off, and ends a complete last record whose newline was lost. */
static int repair(struct resume_state *rs, const char *path)
{
	if (rs->journal.torn) {
		struct stat st;
		if (stat(path, &st) == 0)
			rs->torn_bytes = (size_t)st.st_size - rs->journal.keep;
		if (truncate(path, (off_t)rs->journal.keep) < 0)
			return -1;
		say("fsmatrix: %s: cut off a torn last line (%zu bytes: the machine stopped while "
		    "writing it; the console had the whole record if it was one)", path, rs->torn_bytes);
	}
	if (rs->journal.need_newline) {
		int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 || write(fd, "\n", 1) != 1 || fsync(fd) < 0) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* The disks the run took before carry what its interrupted cell left (a filesystem, an md
 * superblock), which the selection refuses. Those that fsmatrix.disks= names and the run's
 * first boot took are taken again; nothing else changes verdict. */
static void retake_disks(struct resume_state *rs)
{
	for (int i = 0; i < boot.ndisks; i++) {
		const struct disk *d = &boot.disks[i];
		struct selection *s = &boot.sel[i];
		if (s->verdict != VERDICT_HAS_SIGNATURE ||
		    !journal_took(&rs->journal, d->serial, d->wwn, d->by_path))
			continue;
		s->verdict = VERDICT_TAKEN;
		snprintf(s->reason, sizeof s->reason, "taken again: run %.24s took it before and left %.40s "
			 "on it", rs->journal.run, d->signature);
		boot.ntaken++;
		say("fsmatrix: %s: %s", d->name, s->reason);
	}
}

/* A taken disk whose write cache is not what the run's first boot found gets it back before
 * this boot's header reads the disks: an interrupted cell (a power cut, a watchdog reset)
 * may have left it as the cell had set it, on a disk that keeps its setting over a reset.
 * The cells then find, and put back after them, the run's original. */
static void restore_write_caches(struct resume_state *rs)
{
	for (int i = 0; i < boot.ndisks && rs->nput_back < RESUME_WC_MAX; i++) {
		const struct disk *d = &boot.disks[i];
		const char *first = journal_first_write_cache(&rs->journal, d->serial);
		struct devstate ds;
		if (boot.sel[i].verdict != VERDICT_TAKEN || !first)
			continue;
		device_read(d->name, &ds);
		int want = strcmp(first, "on") == 0;
		if (ds.wc_device < 0 || ds.wc_device == want)
			continue;
		struct wc_put_back *b = &rs->put_back[rs->nput_back++];
		snprintf(b->name, sizeof b->name, "%s", d->name);
		snprintf(b->serial, sizeof b->serial, "%s", d->serial);
		snprintf(b->found, sizeof b->found, "%s", dev_wc_name(ds.wc_device));
		snprintf(b->first, sizeof b->first, "%s", first);
		b->ok = device_set_write_cache(d->name, want, b->why, sizeof b->why) == 0;
		if (b->ok)
			say("fsmatrix: resume: %s (serial %s): write cache %s, %s when the run began (an "
			    "interrupted cell left it so): put back %s", d->name, d->serial, b->found, first, first);
		else
			say("fsmatrix: resume: %s (serial %s): write cache %s, %s when the run began: unable "
			    "to put it back: %s", d->name, d->serial, b->found, first, b->why);
	}
}

void resume_stage(const struct plan *p)
{
	struct resume_state *rs = &resume;
	char path[300], why[512], scale[24];
	char **names = NULL;
	int n = 0;

	if (boot.cmd.dry || !results_writable() || (n = journals(&names)) <= 0)
		goto fresh;
	rs->ncells = matrix_count(p);
	rs->cells = calloc((size_t)(rs->ncells > 0 ? rs->ncells : 1), sizeof *rs->cells);
	if (!rs->cells)
		goto fresh;
	/* The newest journal with a header: a boot stopped before its header (a plan error)
	 * leaves one without, and must not hide the run before it. */
	for (int i = 0; i < n; i++) {
		size_t len = 0;
		snprintf(path, sizeof path, RESULTS_DIR "/%s", names[i]);
		char *text = file_read(path, 0, &len);
		if (!text)
			continue;
		journal_scan(text, len, &rs->journal, rs->cells, rs->ncells);
		free(text);
		if (rs->journal.run[0])
			break;
	}
	scale_text(scale, sizeof scale);
	char shard[24] = "";
	if (boot.cmd.shard_n)
		snprintf(shard, sizeof shard, "%d/%d", boot.cmd.shard_k, boot.cmd.shard_n);
	unsigned long long seed = 0;
	int resumable = journal_resumable(&rs->journal, boot.plan_sha256, scale, shard, why, sizeof why);
	if (resumable == -2)
		fatal("%s", why);   /* before any test disk is written, or the results attached */
	if (resumable < 0 ||
	    (p->order == ORDER_SHUFFLE &&
	     journal_seed(&rs->journal, boot.cmd.seed_given, boot.cmd.seed, &seed, why, sizeof why) < 0)) {
		if (rs->journal.run[0] && !rs->journal.trailer)
			say("fsmatrix: a new run: the last one is not resumed: %s", why);
		goto fresh;
	}
	if (repair(rs, path) < 0) {
		say("fsmatrix: unable to repair %s for appending: %s; a new run instead", path, strerror(errno));
		goto fresh;
	}
	/* this boot is the one after the journal's last kernel switch, if any */
	journal_arrive(&rs->journal, boot.cmd.kernel);
	snprintf(rs->dropped_id, sizeof rs->dropped_id, "%s", boot.run_id);
	snprintf(boot.run_id, sizeof boot.run_id, "%.*s", (int)sizeof rs->journal.run - 1,
		 rs->journal.run);
	boot.resumed = rs->journal.resumes + 1;
	plan_adopt_seed(seed);
	retake_disks(rs);
	restore_write_caches(rs);
	say("fsmatrix: resuming run %s (boot %d of it; this boot's own id %s is not used): its "
	    "journal has %d records%s", boot.run_id, boot.resumed + 1, rs->dropped_id, rs->journal.records,
	    rs->journal.bad ? ", and unreadable lines it ignores" : "");
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	results_attach();
	return;
fresh:
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(rs->cells);
	rs->cells = NULL;
	rs->ncells = 0;
	results_attach();
}

void resume_cell(int index, int retries, struct resume_step *s)
{
	struct resume_state *rs = &resume;
	resume_decide(rs->cells && index < rs->ncells ? &rs->cells[index] : NULL, retries, s);
}

int resume_stopped(int index)
{
	struct resume_state *rs = &resume;
	return rs->cells && index >= 0 && index < rs->ncells && rs->cells[index].stopped;
}

int resume_kernel_misses(const char *name)
{
	struct resume_state *rs = &resume;
	return rs->cells ? journal_kernel_misses(&rs->journal, name) : 0;
}

void resume_event(void)
{
	struct resume_state *rs = &resume;
	char buf[8192];
	struct jw w;
	int done = 0, begun = 0;
	if (!rs->cells)
		return;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "resume");
	jw_kint(&w, "boot", boot.resumed + 1);
	jw_kstr(&w, "boot_run_id", rs->dropped_id);
	jw_kint(&w, "torn_bytes", (long long)rs->torn_bytes);
	jw_kint(&w, "bad_lines", rs->journal.bad);
	jw_kstr(&w, "kernel", boot.cmd.kernel[0] ? boot.cmd.kernel : NULL);
	jw_key(&w, "interrupted");
	jw_arr(&w);
	for (int i = 0; i < rs->ncells; i++) {
		done += rs->cells[i].final >= 0;
		begun += rs->cells[i].starts > 0;
		if (rs->cells[i].final < 0 && rs->cells[i].starts > 0 && w.len < sizeof buf - 64)
			jw_int(&w, i + 1);
	}
	jw_end_arr(&w);
	jw_key(&w, "write_cache_put_back");
	jw_arr(&w);
	for (int i = 0; i < rs->nput_back; i++) {
		const struct wc_put_back *b = &rs->put_back[i];
		jw_obj(&w);
		jw_kstr(&w, "name", b->name);
		jw_kstr(&w, "serial", b->serial);
		jw_kstr(&w, "found", b->found);
		jw_kstr(&w, "first", b->first);
		jw_kbool(&w, "ok", b->ok);
		jw_kstr(&w, "error", b->ok ? NULL : b->why);
		jw_end_obj(&w);
	}
	jw_end_arr(&w);
	jw_kint(&w, "cells_done", done);
	jw_kint(&w, "cells_begun", begun);
	jw_end_obj(&w);
	emit(&w);
	say("fsmatrix: resume: %d of %d cells already have their record", done, rs->ncells);
}
