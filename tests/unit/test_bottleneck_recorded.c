/* test_bottleneck_recorded: the rules of core/figures/bottleneck.h on what real boots counted. The
 * first fixture holds the cell records of boot/51-phantom (disks of known speed: a raid5 of 4 with
 * one member at half speed, the same with a stripe_width that is not the array's, a raid0 of
 * 4 at 8 MB/s each, and at 1000 MB/s, too fast for the emulated CPU), each with the figures
 * PID 1's rules looked at ("bottleneck": {"inputs": ...}). Judged again on the host, each
 * gives what PID 1 recorded, and what the throttles make true. */
#include "check.h"
#include "core/figures/bottleneck.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

static const char *const fixtures[] = {
	"tests/fixtures/bottleneck/phantom.jsonl",
	/* tests/fixtures/bottleneck/make-kinds: cases made to be held back by something other
	 * than the disks, each record's "boot" the kind it was made for */
	"tests/fixtures/bottleneck/kinds.jsonl",
};

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void input_of(json_t *in, struct bn_input *out)
{
	memset(out, 0, sizeof *out);
	out->secs = num(in, "secs");
	out->write_only = json_is_true(json_object_get(in, "write_only"));
	out->parity = json_is_true(json_object_get(in, "parity"));
	out->chunk_bytes = num(in, "chunk_bytes");
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(in, "members"), i, m) {
		if (out->nmembers == BN_MEMBERS_MAX)
			break;
		struct bn_member *b = &out->m[out->nmembers++];
		snprintf(b->name, sizeof b->name, "%s", json_string_value(json_object_get(m, "name")));
		b->util_pct = num(m, "util_pct");
		b->read_mb = num(m, "read_mb");
		b->write_mb = num(m, "write_mb");
		b->write_ios = num(m, "write_ios");
	}
	const char *t = json_string_value(json_object_get(in, "md_thread"));
	snprintf(out->md_thread, sizeof out->md_thread, "%s", t ? t : "");
	out->md_thread_pct = num(in, "md_thread_pct");
	out->harness_pct = num(in, "harness_pct");
	out->machine_pct = num(in, "machine_pct");
	out->dirty_limited_pct = num(in, "dirty_limited_pct");
	out->efficiency = num(in, "efficiency");
}

/* What each boot's throttles make true: the kind, and a piece of its evidence. */
static const struct truth {
	const char *boot, *cell, *kind, *evidence;
} truths[] = {
	{ "r5", "r5-c64k/right/defaults/full", "disks", "busy" },
	{ "r5", "r5-c64k/wrong/defaults/full", "read-modify-write", "of what they wrote" },
	{ "r0", "r0-c64k/ext4/defaults/stream", "disks", "of what the members gave alone" },
	{ "fast", "r0-c64k/ext4/defaults/stream", NULL, NULL },   /* anything but disks */
	/* make-kinds, under TCG: the writer's own CPU, 4 KiB requests on 512 KiB chunks, and a
	 * buffered stream made for the dirty limit that the emulated CPU held first; md's
	 * thread, given a CPU of its own, stayed near half of it (the emulated disks' I/O held
	 * the raid6), so the run names nothing */
	{ "harness", "disk/ext4/defaults/small", "harness", "the workload itself used" },
	{ "small-requests", "r0-c512k/ext4/defaults/rand", "small-requests", "against a 512 KiB chunk" },
	{ "dirty-limit", "disk/ext4/defaults/stream", "cpu", "the CPUs busy" },
	{ "md-thread", "r6-c64k/ext4/defaults/full", "none clear", "md0_raid6" },
};

/* Judges every record of one fixture again; counts the truths it holds in seen. */
static void judge_fixture(const char *path, int *seen)
{
	json_error_t err;
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "unable to open %s", path);
	if (!f)
		return;
	static char line[1 << 20];
	while (fgets(line, sizeof line, f)) {
		json_t *rec = json_loads(line, 0, &err);
		CHECK(rec != NULL, "%s: %s", path, err.text);
		if (!rec)
			continue;
		json_t *bn = json_object_get(rec, "bottleneck");
		const char *boot = json_string_value(json_object_get(rec, "boot"));
		const char *cell = json_string_value(json_object_get(rec, "cell"));
		struct bn_input in;
		struct bottleneck b;
		input_of(json_object_get(bn, "inputs"), &in);
		CHECK(in.nmembers > 0, "%s %s: no members in its inputs", boot, cell);
		bottleneck_judge(&in, &b);
		/* the host judges the recorded figures as PID 1 did */
		const char *kind = json_string_value(json_object_get(bn, "kind"));
		const char *evidence = json_string_value(json_object_get(bn, "evidence"));
		CHECK_STR(b.kind, kind ? kind : "(none)");
		CHECK_STR(b.evidence, evidence ? evidence : "(none)");
		for (size_t i = 0; i < sizeof truths / sizeof truths[0]; i++) {
			const struct truth *t = &truths[i];
			if (strcmp(t->boot, boot) || strcmp(t->cell, cell))
				continue;
			seen[i]++;
			if (t->kind) {
				CHECK_STR(b.kind, t->kind);
				CHECK(strstr(b.evidence, t->evidence) != NULL, "%s %s: %s", boot, cell, b.evidence);
			} else {
				CHECK(strcmp(b.kind, "disks") != 0, "%s %s: disks named at a speed the CPU cannot drive", boot, cell);
			}
		}
		json_decref(rec);
	}
	fclose(f);
}

int main(void)
{
	int seen[sizeof truths / sizeof truths[0]] = { 0 };
	for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
		judge_fixture(fixtures[i], seen);
	for (size_t i = 0; i < sizeof truths / sizeof truths[0]; i++)
		CHECK(seen[i] == 1, "%s %s: %d records in the fixtures", truths[i].boot, truths[i].cell, seen[i]);
	return check_done("test_bottleneck_recorded");
}
