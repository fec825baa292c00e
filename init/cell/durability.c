/* cell/durability.c: durability = log-writes around one cell. Before mkfs: the log disk
 * taken (the taken disk at log_disk's position, never a member), its first 4 KiB zeroed (no
 * super block of a cell before), and the kernel's log-writes target made over the top of
 * the stack as fsm-8-lw, which mkfs and mount then get. After the workload and the unmount:
 * the target's status read (a log that overflowed says logging_disabled), the target removed
 * (the kernel logs the writes it still held and updates the log's super block), and the
 * replays run (cell/replay.c). The verdict: ok, lost (acknowledged records lost or torn,
 * or a point that does not mount, under either model), inconclusive (the log overflowed),
 * error (the check itself failed). */
#include "cell/ctx.h"
#include "core/workload/replay.h"
#include "lib/clock.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The log disk: the taken disk at log_disk's position, present and not a member. */
static int take_log_disk(struct cell_ctx *x)
{
	const char *d = cell_extra_disk(x, x->p->log_disk);
	if (!d) {
		cell_fail(x, CELL_ERROR, "durability: no disk %d among the taken disks for the log",
			  x->p->log_disk);
		return -1;
	}
	snprintf(x->log_dev, sizeof x->log_dev, "/dev/%s", d);
	return 0;
}

int cell_log_start(struct cell_ctx *x)
{
	char table[256];
	if (x->p->durability != PLAN_DURABILITY_LOG_WRITES)
		return 0;
	if (take_log_disk(x) < 0 || cell_zero_head(x, x->log_dev, 4096, 1) < 0)
		return -1;
	snprintf(x->log_base, sizeof x->log_base, "%s", x->target);
	replay_lw_table(file_dev_sectors(x->target), x->target, x->log_dev, table, sizeof table);
	const char *argv[] = { "dmsetup", "--noudevrules", "--noudevsync", "create", REPLAY_LW_DM,
			       "--table", table, NULL };
	x->layers_made = 1;   /* teardown removes every fsm-* device */
	if (step_must(x, argv, NULL) != 0)
		return -1;
	x->log_made = 1;
	x->dur.logged = 1;
	snprintf(x->lw_top, sizeof x->lw_top, "/dev/mapper/%s", REPLAY_LW_DM);
	x->target = x->lw_top;
	return 0;
}

/* The target's status line, then the target removed: its last writes reach the log. */
static int log_stop(struct cell_ctx *x)
{
	const char *st[] = { "dmsetup", "status", REPLAY_LW_DM, NULL };
	const char *rm[] = { "dmsetup", "--noudevrules", "--noudevsync", "remove", REPLAY_LW_DM,
			     NULL };
	struct run_result r = { 0 };
	if (step_run(x, st, 1, &r) == 0 && r.out) {
		snprintf(x->dur.status, sizeof x->dur.status, "%s", r.out);
		x->dur.status[strcspn(x->dur.status, "\n")] = '\0';
	}
	run_free(&r);
	if (step_run(x, rm, 1, NULL) != 0) {
		snprintf(x->dur.error, sizeof x->dur.error, "unable to remove %s", REPLAY_LW_DM);
		return -1;
	}
	x->log_made = 0;
	return 0;
}

static const char *verdict_of(const struct cell_durability *d)
{
	if (strstr(d->status, "logging_disabled"))
		return "inconclusive";
	if (d->error[0] || !d->checked)
		return "error";
	for (int m = 0; m < REPLAY_MODELS; m++)
		if (d->m[m].lost_points || d->m[m].unmountable)
			return "lost";
	return "ok";
}

void cell_durability(struct cell_ctx *x)
{
	long long t0 = boottime_ms();
	if (log_stop(x) == 0 && !strstr(x->dur.status, "logging_disabled") &&
	    x->status == CELL_OK)
		cell_replay(x);
	else if (x->status != CELL_OK && !x->dur.error[0])
		snprintf(x->dur.error, sizeof x->dur.error, "not checked: the cell did not end ok");
	x->dur.check_s = (double)(boottime_ms() - t0) / 1000.0;
	snprintf(x->dur.verdict, sizeof x->dur.verdict, "%s", verdict_of(&x->dur));
}

static void model_json(struct jw *w, const struct dur_model_tally *t)
{
	jw_obj(w);
	jw_kint(w, "points", t->points);
	jw_kint(w, "points_lost", t->lost_points);
	jw_kint(w, "records_lost", (long long)t->lost);
	jw_kint(w, "records_torn", (long long)t->torn);
	jw_kint(w, "files_missing", (long long)t->files_missing);
	jw_kint(w, "unmountable", t->unmountable);
	jw_kint(w, "fsck_runs", t->fsck_runs);
	jw_kint(w, "fsck_errors", t->fsck_errors);
	jw_kstr(w, "first_loss", t->first[0] ? t->first : NULL);
	jw_end_obj(w);
}

/* "durability": {"verdict", "log_disk", "status", the log's counts, per model, check_s}. */
void cell_durability_json(struct jw *w, const struct cell_ctx *x)
{
	const struct cell_durability *d = &x->dur;
	if (!d->logged)
		return;
	jw_key(w, "durability");
	jw_obj(w);
	jw_kstr(w, "verdict", d->verdict[0] ? d->verdict : "error");
	jw_kstr(w, "log_disk", x->log_dev);
	jw_kstr(w, "log_status", d->status[0] ? d->status : NULL);
	jw_kstr(w, "error", d->error[0] ? d->error : NULL);
	jw_kint(w, "log_entries", (long long)d->entries);
	jw_kint(w, "log_bytes", (long long)d->log_bytes);
	jw_kint(w, "writes", (long long)d->writes);
	jw_kint(w, "flushes", (long long)d->flushes);
	jw_kint(w, "fuas", (long long)d->fuas);
	jw_kint(w, "instrument_flushes", (long long)d->instrument_flushes);
	jw_kint(w, "ambiguous", (long long)d->ambiguous);
	jw_kint(w, "crash_points", (long long)d->candidates);
	for (int m = 0; m < REPLAY_MODELS; m++) {
		jw_key(w, replay_model_names[m]);
		model_json(w, &d->m[m]);
	}
	jw_kdouble(w, "check_s", d->check_s, 3);
	jw_end_obj(w);
}
