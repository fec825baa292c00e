/* cell/tunables.c: the kernel tunables a cell's array sets (core/model/tunable.h): each written at
 * every place it applies to (md0 and each member for the block queue, md0 for md, the vm
 * sysctls), read back, and what the kernel refused or changed flagged, as mount options are;
 * after the cell, what each place had before is written back, so that the next cell (and a
 * member's next array) starts from the machine as found. */
#include "cell/ctx.h"
#include "cell/device.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The cell whose members' devices hold a write cache it set and has not put back yet: what
 * cell_put_back_devices restores if PID 1 stops in the middle of it (the only way there is
 * the stop hook, which has no cell to hand). */
static struct cell_ctx *devices_owed;

static int read_value(int id, const char *place, long long *v)
{
	char path[160], text[256];
	if (tun_rows[id].where == TUN_DEVICE) {
		struct devstate d;
		device_read(place, &d);
		*v = d.wc_device;
		return d.wc_device >= 0;
	}
	tun_path(id, place, path, sizeof path);
	return file_first_line(path, text, sizeof text) == 0 && tun_read(id, text, v) == 0;
}

/* The text the kernel's file takes: the scheduler's name, or the number. */
static int write_value(int id, const char *place, long long v)
{
	char path[160], text[64];
	tun_path(id, place, path, sizeof path);
	tun_format(id, v, text, sizeof text);
	return file_put_value(path, text) < 0 ? (errno ? errno : EIO) : 0;
}

/* A device row: the device itself is asked, and one that refuses is no silent run but an
 * error cell with its own words (sense data, NVMe status, or why it cannot be asked). keep
 * changes nothing and records what the device has. */
static void apply_device(struct cell_ctx *x, struct tun_done *d, long long asked)
{
	char why[300];
	/* keep, or already as asked: nothing is sent (a device whose mode is fixed is refused
	 * only a change), and nothing is owed */
	if (asked == TUN_WC_KEEP || (d->found_ok && d->found == asked)) {
		d->effective = d->found;
		d->read_ok = d->found_ok;
		d->outcome = TUN_APPLIED;
		d->restore_id = -1;   /* nothing to put back */
		return;
	}
	long long t0 = boottime_ms();
	const char *argv[] = { "write_cache", d->place, asked ? "on" : "off", NULL };
	int rc = device_set_write_cache(d->place, (int)asked, why, sizeof why);
	struct step *s = syscall_step(x, argv, t0, rc < 0 ? EIO : 0);
	devices_owed = x;
	d->read_ok = read_value(d->id, d->place, &d->effective);
	if (rc < 0) {
		snprintf(s->err, sizeof s->err, "%s", why);
		d->err = EIO;
		d->outcome = TUN_REFUSED;
		cell_fail(x, CELL_ERROR, "write_cache = %s on %s: %s", asked ? "on" : "off", d->place,
			  why);
		return;
	}
	d->outcome = tun_judge(asked, 0, d->read_ok, d->effective);
}

static void apply_one(struct cell_ctx *x, int id, const char *place)
{
	if (x->ntun >= TUN_DONE_MAX)
		return;
	struct tun_done *d = &x->tun[x->ntun++];
	memset(d, 0, sizeof *d);
	d->id = id;
	snprintf(d->place, sizeof d->place, "%s", place);
	d->found_ok = read_value(id, place, &d->found);
	d->restore_id = tun_restore_id(id, d->found);
	d->restore_v = d->found;
	if (d->found_ok && d->restore_id != id &&
	    !read_value(d->restore_id, place, &d->restore_v))
		d->found_ok = 0;   /* nothing known to put back */
	if (tun_rows[id].where == TUN_DEVICE) {
		apply_device(x, d, x->c->tun[id]);
		return;
	}
	d->err = write_value(id, place, x->c->tun[id]);
	d->read_ok = read_value(id, place, &d->effective);
	d->outcome = tun_judge(x->c->tun[id], d->err, d->read_ok, d->effective);
}

/* One warning per tunable, naming every place that did not take it and what it shows. */
static void flag_row(struct cell_ctx *x, int id, int first)
{
	char asked[48], places[200] = "";
	size_t used = 0;
	int bad = 0;
	tun_format(id, x->c->tun[id], asked, sizeof asked);
	for (int i = first; i < x->ntun; i++) {
		const struct tun_done *d = &x->tun[i];
		if (d->id != id || d->outcome == TUN_APPLIED)
			continue;
		char now[48] = "unreadable", name[80];
		if (d->read_ok)
			tun_format(id, d->effective, now, sizeof now);
		used += (size_t)snprintf(places + used, used < sizeof places ? sizeof places - used : 0,
					 "%s%s (%s%s%s: %s)", bad++ ? ", " : "", d->place,
					 tun_outcome_name(d->outcome), d->err ? " " : "",
					 d->err ? strerror(d->err) : "", now);
		if (tun_rows[id].where == TUN_VM)
			snprintf(name, sizeof name, "%s", tun_rows[id].name);
		else
			snprintf(name, sizeof name, "%s@%s", tun_rows[id].name, d->place);
		size_t n = strlen(x->tun_ignored);
		snprintf(x->tun_ignored + n, sizeof x->tun_ignored - n, "%s%s", n ? "," : "", name);
	}
	if (!bad)
		return;
	warn_add(&x->warn, "tunable %s = %s not in effect on %s", tun_rows[id].name, asked, places);
	x->env->ops->say("  warning   tunable %s = %s not in effect on %s: this cell measures "
			 "without it there", tun_rows[id].name, asked, places);
}

/* md keeps the whole stripe cache it is given: a value the RAM cannot hold is not written
 * (core/model/tunable.h), and the cell is an error that says why. 1 when refused. */
static int stripe_cache_refused(struct cell_ctx *x)
{
	char why[256];
	if (tun_stripe_cache_check(x->c->tun[TUN_STRIPE_CACHE_SIZE],
				   x->p->arrays[x->c->array].devices, (double)mem_total_bytes(), why,
				   sizeof why) == 0)
		return 0;
	cell_fail(x, CELL_ERROR, "refusing %s: md keeps all of it, and the kernel would run out "
		  "of memory", why);
	return 1;
}

void cell_apply_tunables(struct cell_ctx *x, enum tun_when when)
{
	/* The table's order: a scheduler before nr_requests, which a change of scheduler
	 * resets. */
	for (int id = 0; id < TUN_COUNT; id++) {
		if (!(x->c->tun_given & (1u << id)) || tun_rows[id].when != when)
			continue;
		if (id == TUN_STRIPE_CACHE_SIZE && stripe_cache_refused(x))
			return;
		const char *places[PLAN_DEVICES_MAX + 1];
		int n = tun_places(id, x->target_name, x->md ? x->name_v : NULL, x->md ? x->n : 0,
				   places, PLAN_DEVICES_MAX + 1);
		int first = x->ntun;
		x->env->ops->pet();
		for (int i = 0; i < n && x->status == CELL_OK; i++)
			apply_one(x, id, places[i]);
		flag_row(x, id, first);
	}
}

/* A device's write cache back as found, through the device. 0, or an errno with why. */
static int put_back_device(const struct tun_done *d, char *why, size_t len)
{
	return device_set_write_cache(d->place, (int)d->restore_v, why, len) < 0 ? EIO : 0;
}

void cell_restore_tunables(struct cell_ctx *x)
{
	for (int i = x->ntun - 1; i >= 0; i--) {
		const struct tun_done *d = &x->tun[i];
		if (!d->found_ok || d->restore_id < 0)
			continue;   /* nothing known to put back, or nothing changed */
		if (tun_rows[d->id].where == TUN_DEVICE) {
			char why[300];
			/* as found already (a device that refused): nothing to do */
			if (d->read_ok && d->effective == d->restore_v)
				continue;
			if (put_back_device(d, why, sizeof why))
				warn_add(&x->warn, "teardown: unable to put write_cache back to %s on %s: %s",
					 d->restore_v ? "on" : "off", d->place, why);
			continue;
		}
		if (d->err)
			continue;
		int e = write_value(d->restore_id, d->place, d->restore_v);
		if (e) {
			char v[48];
			tun_format(d->restore_id, d->restore_v, v, sizeof v);
			warn_add(&x->warn, "teardown: unable to put %s back to %s on %s: %s",
				 tun_rows[d->restore_id].name, v, d->place, strerror(e));
		}
	}
	if (devices_owed == x)
		devices_owed = NULL;
}

void cell_put_back_devices(void)
{
	struct cell_ctx *x = devices_owed;
	char why[300];
	devices_owed = NULL;
	for (int i = x ? x->ntun - 1 : -1; i >= 0; i--) {
		const struct tun_done *d = &x->tun[i];
		if (tun_rows[d->id].where != TUN_DEVICE || !d->found_ok || d->restore_id < 0 ||
		    (d->read_ok && d->effective == d->restore_v))
			continue;
		int e = put_back_device(d, why, sizeof why);
		x->env->ops->say("fsmatrix: stopping in cell %d: %s's write cache %s %s%s%s",
				 x->c->index + 1, d->place, e ? "not put back to" : "put back to",
				 d->restore_v ? "on" : "off", e ? ": " : "", e ? why : "");
	}
}

static void value_json(struct jw *w, int id, int ok, long long v)
{
	if (ok)
		tun_json(w, id, v);
	else
		jw_null(w);
}

/* { NAME: { PLACE: value } } of what was found (before) or is in effect (after writing). */
static void places_json(struct jw *w, const struct cell_ctx *x, const char *key, int effective)
{
	jw_key(w, key);
	jw_obj(w);
	for (int i = 0; i < x->ntun;) {
		int id = x->tun[i].id;
		jw_key(w, tun_rows[id].name);
		jw_obj(w);
		for (; i < x->ntun && x->tun[i].id == id; i++) {
			const struct tun_done *d = &x->tun[i];
			jw_key(w, d->place);
			value_json(w, id, effective ? d->read_ok : d->found_ok,
				   effective ? d->effective : d->found);
		}
		jw_end_obj(w);
	}
	jw_end_obj(w);
}

void cell_tunables_json(struct jw *w, const struct cell_ctx *x)
{
	jw_key(w, "tunables");
	jw_obj(w);
	jw_key(w, "asked");
	jw_obj(w);
	tun_json_given(w, x->c->tun_given, x->c->tun);
	jw_end_obj(w);
	places_json(w, x, "found", 0);
	places_json(w, x, "effective", 1);
	jw_end_obj(w);
	jw_klist(w, "tunables_ignored", x->tun_ignored);
}
