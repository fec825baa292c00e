/* pid1/disks.c: find the disks, then decide which ones fsmatrix may destroy (select.c
 * holds every rule). Each verdict is printed with its reason; the disks taken are printed
 * and recorded before anything destructive can run. */
#include "pid1/pid1.h"
#include "lib/bytes.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void disks_stage(void)
{
	char err[300];
	int n = disks_discover("/sys", "/dev", boot.disks, DISK_MAX, err, sizeof err);
	if (n < 0)
		fatal("unable to discover disks: %s", err);
	boot.ndisks = n;
	boot.results = -1;
	for (int i = 0; i < n; i++)
		if (boot.disks[i].holds_results && boot.results < 0)
			boot.results = i;
}

static void disk_json(struct jw *w, const struct disk *d)
{
	jw_obj(w);
	jw_kstr(w, "name", d->name);
	jw_kint(w, "size", (long long)d->size);
	jw_kstr(w, "model", d->model);
	jw_kstr(w, "serial", d->serial);
	jw_end_obj(w);
}

void disks_select(void)
{
	char err[300], sz[32];
	int n = boot.ndisks;

	int taken = select_disks(boot.disks, n, boot.cmd.disks, boot.cmd.wipe, boot.sel, err, sizeof err);
	if (taken < 0)
		fatal("%s", err); /* it names the parameter and the item */
	boot.ntaken = taken;

	say("fsmatrix: %d disk%s found", n, n == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		const struct disk *d = &boot.disks[i];
		bytes_human((double)d->size, sz, sizeof sz);
		say("fsmatrix:   %-8s %10s %-7s %-24s serial %-20s %-14s %s: %s", d->name, sz,
		    d->transport, d->model[0] ? d->model : "-", d->serial[0] ? d->serial : "-",
		    d->signature[0] ? d->signature : "blank", verdict_name(boot.sel[i].verdict),
		    boot.sel[i].reason);
	}
	char unmatched[256];
	if (boot.cmd.disks[0] && select_unmatched(boot.disks, n, boot.cmd.disks, unmatched, sizeof unmatched) > 0)
		say("fsmatrix: warning: fsmatrix.disks= names no disk for: %s", unmatched);
	if (!boot.cmd.disks[0]) {
		say("fsmatrix: no fsmatrix.disks= given: no disk is taken, nothing is written to any disk "
		    "but the results partition");
		return;
	}
	if (!taken) {
		say("fsmatrix: fsmatrix.disks=%s took no disk (reasons above): nothing destructive will run",
		    boot.cmd.disks);
		return;
	}
	say("fsmatrix: test disks (%s):", boot.cmd.dry ? "dry run: nothing will be written to them"
						       : "everything on them will be destroyed");
	for (int i = 0; i < n; i++) {
		const struct disk *d = &boot.disks[i];
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		bytes_human((double)d->size, sz, sizeof sz);
		say("fsmatrix:   %s  %s  serial %s  %s (%" PRIu64 " bytes)", d->name,
		    d->model[0] ? d->model : "-", d->serial[0] ? d->serial : "-", sz, d->size);
	}
}

/* The "selected" event: the disks that may be destroyed, recorded before the first
 * destructive step (there is none yet in a dry run, but the record is the same). */
void disks_event(void)
{
	static char buf[32 * 1024];
	struct jw w;
	int refused = 0;
	for (int i = 0; i < boot.ndisks; i++)
		refused += boot.sel[i].verdict != VERDICT_TAKEN && boot.sel[i].verdict != VERDICT_NOT_NAMED;
	if (refused) {
		/* Disks the parameters named but the rules kept: each with its reason. */
		jw_init(&w, buf, sizeof buf);
		event_begin(&w, "refused");
		jw_key(&w, "disks");
		jw_arr(&w);
		for (int i = 0; i < boot.ndisks; i++) {
			if (boot.sel[i].verdict == VERDICT_TAKEN || boot.sel[i].verdict == VERDICT_NOT_NAMED)
				continue;
			jw_obj(&w);
			jw_kstr(&w, "name", boot.disks[i].name);
			jw_kstr(&w, "verdict", verdict_name(boot.sel[i].verdict));
			jw_kstr(&w, "reason", boot.sel[i].reason);
			jw_end_obj(&w);
		}
		jw_end_arr(&w);
		jw_end_obj(&w);
		emit(&w);
	}
	if (!boot.ntaken)
		return;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "selected");
	jw_kbool(&w, "dry", boot.cmd.dry);
	jw_key(&w, "disks");
	jw_arr(&w);
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN)
			disk_json(&w, &boot.disks[i]);
	jw_end_arr(&w);
	jw_end_obj(&w);
	emit(&w);
}
