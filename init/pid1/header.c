/* pid1/header.c: the run header (what ran, on what, with which tools and image) and the
 * trailer with counts. Field names follow docs/records.md. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include "core/conditions.h"
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

static long long mem_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long long kib = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %lld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib * 1024;
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

/* What decides a figure and does not change during the boot (docs/records.md, conditions):
 * written as the header's conditions.inputs, and hashed into the fingerprint every cell
 * record carries. */
static void inputs_json(struct jw *w, const struct utsname *u, const char *model, int ncpu,
			long long mem, const char *sha)
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
	jw_key(w, "disks");
	jw_arr(w);
	for (int i = 0; i < boot.ndisks; i++) {
		const struct disk *d = &boot.disks[i];
		char fw[64], wc[32], path[160];
		if (boot.sel[i].verdict != VERDICT_TAKEN)
			continue;
		firmware_of(d->name, fw, sizeof fw);
		snprintf(path, sizeof path, "/sys/block/%s/queue/write_cache", d->name);
		if (file_first_line(path, wc, sizeof wc) < 0)
			wc[0] = '\0';
		jw_obj(w);
		jw_kstr(w, "serial", d->serial);
		jw_kstr(w, "model", d->model);
		jw_kstr(w, "firmware", fw);
		jw_kstr(w, "write_cache", wc);
		jw_end_obj(w);
	}
	jw_end_arr(w);
	jw_end_obj(w);
}

/* "conditions": the controls, the fingerprint, and the inputs it is the sha256 of. */
static void conditions_json(struct jw *w, const struct utsname *u, const char *model, int ncpu,
			    long long mem, const char *sha)
{
	static char buf[16 * 1024];
	struct jw in;
	char hex[65];
	jw_init(&in, buf, sizeof buf);
	inputs_json(&in, u, model, ncpu, mem, sha);
	int ok = jw_done(&in) == 0;
	if (ok) {
		sha256_hex(buf, strlen(buf), hex);
		conditions_set_fingerprint(hex);
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
	jw_kstr(&w, "machine", u.machine);
	jw_kstr(&w, "cmdline", boot.cmd.raw);
	/* Read after the boot's modules: unsigned ones taint 'E' (8192), a warning 'W' (512). */
	char taint[32];
	if (file_first_line("/proc/sys/kernel/tainted", taint, sizeof taint) == 0)
		jw_kint(&w, "tainted", atoll(taint));
	else {
		jw_key(&w, "tainted");
		jw_null(&w);
	}
	jw_end_obj(&w);
	jw_key(&w, "cpu");
	jw_obj(&w);
	jw_kstr(&w, "model", model);
	jw_kint(&w, "count", ncpu);
	jw_end_obj(&w);
	long long mem = mem_bytes();
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
	conditions_json(&w, &u, model, ncpu, mem, have_sha ? sha : NULL);
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
