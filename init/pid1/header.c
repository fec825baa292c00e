/* pid1/header.c: the run header (what ran, on what, with which tools and image) and the
 * trailer with counts. Field names follow docs/records.md. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "cell/device.h"
#include "core/model/conditions.h"
#include "core/model/kversion.h"
#include "core/model/outcome.h"
#include "lib/sha256.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void cpu_info(char *model, size_t len, int *count)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	*count = 0;
	model[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		if (strncmp(line, "processor", 9) == 0)
			(*count)++;
		else if (!model[0] && strncmp(line, "model name", 10) == 0)
			snprintf(model, len, "%.*s", (int)strcspn(colon + 2, "\n"), colon + 2);
	}
	if (f)
		fclose(f);
	if (!*count)
		*count = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* Each tool's version as it printed it when the image was built (recipes/tool-versions:
 * the same binaries, asked once instead of at every boot), then /init's own. */
static void tools_json(struct jw *w, int tell)
{
	FILE *f = fopen(TOOLS_PATH, "re");
	char line[300];
	jw_key(w, "tools");
	jw_obj(w);
	if (!f && tell)
		say("fsmatrix: unable to read the tools' versions from %s: %s", TOOLS_PATH, strerror(errno));
	while (f && fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		tab[1 + strcspn(tab + 1, "\n")] = '\0';
		if (tell)
			say("fsmatrix: %s: %s", line, tab + 1);
		jw_kstr(w, line, tab + 1);
	}
	if (f)
		fclose(f);
	jw_kstr(w, "init", FSM_VERSION);
	if (tell)
		say("fsmatrix: init: %s", FSM_VERSION);
	jw_end_obj(w);
}

static void disks_json(struct jw *w)
{
	jw_key(w, "disks");
	jw_arr(w);
	for (int i = 0; i < boot.ndisks; i++) {
		const struct disk *d = &boot.disks[i];
		jw_obj(w);
		jw_kstr(w, "name", d->name);
		jw_kint(w, "size", (long long)d->size);
		jw_kint(w, "logical_bs", d->logical_bs);
		jw_kint(w, "physical_bs", d->physical_bs);
		jw_kbool(w, "rotational", d->rotational);
		jw_kbool(w, "removable", d->removable);
		jw_kstr(w, "model", d->model);
		jw_kstr(w, "serial", d->serial);
		jw_kstr(w, "wwn", d->wwn);
		jw_kstr(w, "transport", d->transport);
		jw_kstr(w, "by_path", d->by_path);
		jw_key(w, "parts");
		jw_arr(w);
		for (int p = 0; p < d->nparts && p < DISK_PART_MAX; p++)
			jw_str(w, d->parts[p]);
		jw_end_arr(w);
		jw_kstr(w, "signature", d->signature);
		jw_kstr(w, "sig_where", d->sig_where);
		jw_kstr(w, "label", d->label);
		jw_kbool(w, "results", d->holds_results);
		jw_kbool(w, "boot", d->is_boot);
		jw_kstr(w, "verdict", verdict_name(boot.sel[i].verdict));
		jw_kstr(w, "reason", boot.sel[i].reason);
		jw_end_obj(w);
	}
	jw_end_arr(w);
}

/* A taken disk's firmware revision, as the kernel read it at probe: SCSI and ATA disks
 * (device/rev), NVMe controllers (device/firmware_rev); "" for virtio. */
static void firmware_of(const char *name, char *v, size_t len)
{
	static const char *const attrs[] = { "device/rev", "device/firmware_rev", NULL };
	char path[160];
	v[0] = '\0';
	for (int i = 0; attrs[i] && !v[0]; i++) {
		snprintf(path, sizeof path, "/sys/block/%s/%s", name, attrs[i]);
		if (file_first_line(path, v, len) < 0)
			v[0] = '\0';
	}
}

/* Each taken disk's own state, from the device (cell/device.c), read once at boot: for the
 * header's "devices" and the fingerprint's write cache. ds[i] is boot.disks[i]'s. */
static void devices_read(struct devstate *ds)
{
	char t[300];
	for (int i = 0; i < boot.ndisks; i++) {
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		device_read(boot.disks[i].name, &ds[i]);
		const struct devstate *d = &ds[i];
		say("fsmatrix: device %s (%s): write cache %s%s%s, kernel \"%s\"; health %s%s", boot.disks[i].name,
		    dev_kind_name(d->kind), d->wc_device < 0 ? "unknown" : dev_wc_name(d->wc_device),
		    d->wc_device < 0 ? ": " : "", d->wc_device < 0 ? d->wc_why : "", d->wc_sysfs,
		    d->health.read ? "read" : "unavailable: ", d->health.read ? "" : d->health.why);
		if (dev_cache_disagrees(boot.disks[i].name, d, t, sizeof t))
			say("fsmatrix: %s", t);
	}
}

static void devices_json(struct jw *w, const struct devstate *ds)
{
	jw_key(w, "devices");
	jw_arr(w);
	for (int i = 0; i < boot.ndisks; i++)
		if (boot.sel[i].verdict == VERDICT_TAKEN)
			devstate_json(w, boot.disks[i].name, &ds[i]);
	jw_end_arr(w);
}

void devices_end_event(void)
{
	static char buf[8192];
	struct jw w;
	if (boot.cmd.dry)
		return;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "devices");
	jw_kstr(&w, "phase", "end");
	jw_key(&w, "disks");
	jw_arr(&w);
	for (int i = 0; i < boot.ndisks; i++) {
		struct devstate d;
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		device_read(boot.disks[i].name, &d);
		jw_obj(&w);
		jw_kstr(&w, "name", boot.disks[i].name);
		jw_kstr(&w, "write_cache", dev_wc_name(d.wc_device));
		jw_kstr(&w, "sysfs", d.wc_sysfs[0] ? d.wc_sysfs : NULL);
		/* what rose after the last cell's reading shows in the report, not in a cell */
		jw_key(&w, "health");
		dev_health_json(&w, &d.health);
		jw_end_obj(&w);
	}
	jw_end_arr(&w);
	jw_end_obj(&w);
	emit(&w);
}

/* What decides a figure and does not change during the boot (docs/records.md, conditions):
 * written as the header's conditions.inputs, and hashed into the fingerprint every cell
 * record carries. */
static void inputs_json(struct jw *w, const struct utsname *u, const char *model, int ncpu,
			long long mem, const char *sha, const struct devstate *ds)
{
	static char cl[4096];
	cond_cmdline(boot.cmd.raw, cl, sizeof cl);
	jw_obj(w);
	jw_key(w, "kernel");
	jw_obj(w);
	jw_kstr(w, "release", u->release);
	jw_kstr(w, "cmdline", cl);
	jw_end_obj(w);
	tools_json(w, 0);
	jw_kstr(w, "manifest_sha256", sha);
	jw_key(w, "cpu");
	jw_obj(w);
	jw_kstr(w, "model", model);
	jw_kint(w, "count", ncpu);
	jw_end_obj(w);
	jw_kint(w, "mem_bytes", mem);
	conditions_effective_json(w);
	/* each taken disk's four values, listed in cond_disk_order's order, not the kernel's */
	static char fw[DISK_MAX][64], key[DISK_MAX][512];
	const char *keys[DISK_MAX], *wc[DISK_MAX];
	int at[DISK_MAX], order[DISK_MAX], n = 0;
	for (int i = 0; i < boot.ndisks && n < DISK_MAX; i++) {
		const struct disk *d = &boot.disks[i];
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		firmware_of(d->name, fw[n], sizeof fw[n]);
		if (ds[i].ident_read && ds[i].firmware[0])
			snprintf(fw[n], sizeof fw[n], "%s", ds[i].firmware);
		/* the device's own word when it gives one, else the kernel's belief */
		wc[n] = ds[i].wc_device >= 0 ? dev_wc_name(ds[i].wc_device) : ds[i].wc_sysfs;
		snprintf(key[n], sizeof key[n], "%s\t%s\t%s\t%s", d->serial, d->model, fw[n], wc[n]);
		keys[n] = key[n];
		at[n++] = i;
	}
	cond_disk_order(keys, n, order);
	jw_key(w, "disks");
	jw_arr(w);
	for (int k = 0; k < n; k++) {
		int j = order[k];
		const struct disk *d = &boot.disks[at[j]];
		jw_obj(w);
		jw_kstr(w, "serial", d->serial);
		jw_kstr(w, "model", d->model);
		jw_kstr(w, "firmware", fw[j]);
		jw_kstr(w, "write_cache", wc[j]);
		jw_end_obj(w);
	}
	jw_end_arr(w);
	jw_end_obj(w);
}

/* "conditions": the controls, the fingerprint, and the inputs it is the sha256 of. */
static void conditions_json(struct jw *w, const struct utsname *u, const char *model, int ncpu,
			    long long mem, const char *sha, const struct devstate *ds)
{
	static char buf[16 * 1024];
	struct jw in;
	char hex[65];
	jw_init(&in, buf, sizeof buf);
	inputs_json(&in, u, model, ncpu, mem, sha, ds);
	int ok = jw_done(&in) == 0;
	if (ok) {
		sha256_hex(buf, strlen(buf), hex);
		snprintf(boot.fingerprint, sizeof boot.fingerprint, "%s", hex);
		say("fsmatrix: conditions fingerprint %s", hex);
	}
	jw_key(w, "conditions");
	jw_obj(w);
	conditions_controls_json(w);
	jw_kstr(w, "fingerprint", ok ? hex : NULL);
	jw_key(w, "inputs");
	if (ok)
		jw_raw(w, buf, strlen(buf));
	else
		jw_null(w);
	jw_end_obj(w);
}

/* The Debian version a kernel names in its version string and the upstream stable release
 * it is built from (what out/kernels/NAME/set's upstream= says): null both for a kernel
 * that names none. */
static void kversion_json(struct jw *w, const char *version)
{
	char deb[64], up[64];
	int debian = kversion_debian(version, deb, sizeof deb, up, sizeof up) == 0;
	jw_kstr(w, "debian_version", debian ? deb : NULL);
	jw_kstr(w, "upstream", debian ? up : NULL);
}

void header_emit(void)
{
	static char buf[128 * 1024];
	struct utsname u;
	struct jw w;
	char model[128], sha[65];
	int ncpu;

	uname(&u);
	cpu_info(model, sizeof model, &ncpu);
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "header");
	jw_kstr(&w, "run", boot.run_id);
	jw_kint(&w, "time", boot.start_epoch);
	jw_key(&w, "kernel");
	jw_obj(&w);
	jw_kstr(&w, "release", u.release);
	jw_kstr(&w, "version", u.version);
	kversion_json(&w, u.version);
	jw_kstr(&w, "machine", u.machine);
	jw_kstr(&w, "cmdline", boot.cmd.raw);
	/* the kernel set booted (fsmatrix.kernel=): a run under several knows by it whether a
	 * switch arrived (core/boot/resume.h) */
	jw_kstr(&w, "set", boot.cmd.kernel[0] ? boot.cmd.kernel : NULL);
	/* Read after the boot's modules: unsigned ones taint 'E' (8192), a warning 'W' (512). */
	char taint[32];
	if (file_first_line("/proc/sys/kernel/tainted", taint, sizeof taint) == 0)
		jw_kint(&w, "tainted", atoll(taint));
	else {
		jw_key(&w, "tainted");
		jw_null(&w);
	}
	bootsec_json(&w);
	jw_end_obj(&w);
	jw_key(&w, "cpu");
	jw_obj(&w);
	jw_kstr(&w, "model", model);
	jw_kint(&w, "count", ncpu);
	jw_end_obj(&w);
	long long mem = mem_total_bytes();
	jw_key(&w, "mem_bytes");
	if (mem < 0)
		jw_null(&w);
	else
		jw_int(&w, mem);
	disks_json(&w);
	tools_json(&w, 1);
	int have_sha = sha256_file(MANIFEST_PATH, sha) == 0;
	say("fsmatrix: manifest sha256: %s", have_sha ? sha : "(no " MANIFEST_PATH ")");
	jw_kstr(&w, "manifest_sha256", have_sha ? sha : NULL);
	static struct devstate ds[DISK_MAX];
	long long t0 = boottime_ms();
	devices_read(ds);
	devices_json(&w, ds);
	say("fsmatrix: devices read in %lld ms", boottime_ms() - t0);
	conditions_json(&w, &u, model, ncpu, mem, have_sha ? sha : NULL, ds);
	plan_header_json(&w);
	plan_shard_json(&w);
	jw_kbool(&w, "dry", boot.cmd.dry);
	watchdog_json(&w);
	jw_kint(&w, "resumed", boot.resumed);
	jw_key(&w, "boot");
	jw_obj(&w);
	jw_kint(&w, "init_ms", boot.init_ms);
	jw_kint(&w, "probed_ms", boottime_ms());
	jw_kint(&w, "entropy_ms", boot.entropy_ms);
	jw_key(&w, "steps_ms");
	jw_obj(&w);
	for (int i = 0; i < boot.nsteps; i++)
		jw_kint(&w, boot.steps[i].name, boot.steps[i].ms);
	jw_end_obj(&w);
	jw_end_obj(&w);
	jw_end_obj(&w);
	emit(&w);
}

void trailer_emit(void)
{
	char buf[1024];
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "trailer");
	jw_kstr(&w, "run", boot.run_id);
	/* the run as one test case: a run that measured nothing fails it (core/model/outcome.h) */
	int ran = boot.counts[CELL_OK] + boot.counts[CELL_ERROR] + boot.counts[CELL_TIMEOUT];
	jw_kstr(&w, "case", RUN_CASE);
	jw_kstr(&w, "status", run_outcome_names[run_outcome_of(boot.cmd.dry, boot.ntaken, ran)]);
	jw_kint(&w, "cells", boot.cells);
	jw_key(&w, "counts");
	jw_obj(&w);
	for (size_t i = 0; i < sizeof boot.counts / sizeof boot.counts[0]; i++)
		jw_kint(&w, cell_status_names[i], boot.counts[i]);
	jw_end_obj(&w);
	if (boot.repeat_auto)
		jw_kint(&w, "not_needed", boot.not_needed);
	jw_kint(&w, "events", console_records("event"));
	jw_kint(&w, "disks_found", boot.ndisks);
	jw_kint(&w, "disks_taken", boot.ntaken);
	jw_kdouble(&w, "elapsed_s", (double)(boottime_ms() - boot.init_ms) / 1000.0, 3);
	jw_kint(&w, "ready_ms", boot.ready_ms);
	jw_end_obj(&w);
	emit(&w);
}
