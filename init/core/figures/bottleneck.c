/* core/figures/bottleneck.c: the rules of bottleneck.h, one function each, in a table in the order
 * they are tried. */
#include "core/figures/bottleneck.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef int (*bn_rule)(const struct bn_input *in, char *ev, size_t len);

static int busiest(const struct bn_input *in)
{
	int b = 0;
	for (int i = 1; i < in->nmembers; i++)
		if (in->m[i].util_pct > in->m[b].util_pct)
			b = i;
	return b;
}

static double total(const struct bn_input *in, int write)
{
	double t = 0;
	for (int i = 0; i < in->nmembers; i++)
		t += write ? in->m[i].write_mb : in->m[i].read_mb;
	return t;
}

static int rule_rmw(const struct bn_input *in, char *ev, size_t len)
{
	double w = total(in, 1), r = total(in, 0);
	if (!in->write_only || !in->parity || !(w > 0) || 100 * r / w < BN_RMW_PCT)
		return 0;
	snprintf(ev, len, "members read %.0f%% of what they wrote (%.1f of %.1f MB) during a "
		 "write-only workload: partial-stripe writes", 100 * r / w, r, w);
	return 1;
}

static int rule_stale(const struct bn_input *in, char *ev, size_t len)
{
	if (!(in->efficiency >= BN_BEYOND_LIMIT))
		return 0;
	snprintf(ev, len, "at %.0f%% of what the members gave alone when measured: they are faster "
		 "now than then (a cache, a throttle lifted), so that limit no longer holds",
		 100 * in->efficiency);
	return 1;
}

static int rule_disks(const struct bn_input *in, char *ev, size_t len)
{
	if (!in->nmembers)
		return 0;
	int b = busiest(in);
	int at_limit = in->efficiency >= BN_AT_LIMIT;
	if (!(in->m[b].util_pct >= BN_BUSY_PCT) && !at_limit)
		return 0;
	size_t n = 0;
	if (at_limit)
		n = (size_t)snprintf(ev, len, "at %.0f%% of what the members gave alone; ",
				     100 * in->efficiency);
	n += (size_t)snprintf(ev + n, len - n, "%s busy %.0f%% of the time", in->m[b].name,
			      in->m[b].util_pct);
	for (int i = 0; i < in->nmembers && n < len; i++)
		if (i != b)
			n += (size_t)snprintf(ev + n, len - n, "%s %s %.0f%%", i == (b == 0) ? "; others:" : ",",
					      in->m[i].name, in->m[i].util_pct);
	return 1;
}

static int rule_md_thread(const struct bn_input *in, char *ev, size_t len)
{
	if (!in->md_thread[0] || !(in->md_thread_pct >= BN_BUSY_PCT))
		return 0;
	snprintf(ev, len, "%s at %.0f%% of a CPU (group_thread_cnt 0: one thread does md's "
		 "work)", in->md_thread, in->md_thread_pct);
	return 1;
}

static int rule_harness(const struct bn_input *in, char *ev, size_t len)
{
	if (!(in->harness_pct >= BN_BUSY_PCT))
		return 0;
	snprintf(ev, len, "the workload itself used %.0f%% of a CPU", in->harness_pct);
	return 1;
}

static int rule_cpu(const struct bn_input *in, char *ev, size_t len)
{
	if (!(in->machine_pct >= BN_BUSY_PCT))
		return 0;
	snprintf(ev, len, "the CPUs busy %.0f%% of the time (the workload %.0f%% of a CPU, "
		 "the kernel the rest)", in->machine_pct, in->harness_pct);
	return 1;
}

static int rule_small(const struct bn_input *in, char *ev, size_t len)
{
	double ios = 0, w = total(in, 1);
	for (int i = 0; i < in->nmembers; i++)
		ios += in->m[i].write_ios;
	if (!(in->chunk_bytes > 0) || !(ios > 0))
		return 0;
	double mean = w * 1e6 / ios;
	if (mean >= BN_SMALL_FRACTION * in->chunk_bytes || mean >= BN_SMALL_BYTES)
		return 0;
	snprintf(ev, len, "members' writes averaged %.1f KiB against a %.0f KiB chunk",
		 mean / 1024, in->chunk_bytes / 1024);
	return 1;
}

static int rule_dirty(const struct bn_input *in, char *ev, size_t len)
{
	if (!(in->dirty_limited_pct >= BN_DIRTY_PCT))
		return 0;
	snprintf(ev, len, "Dirty + Writeback at the writers' limit %.0f%% of the time",
		 in->dirty_limited_pct);
	return 1;
}

static const struct {
	const char *kind;
	bn_rule rule;
} rules[] = {
	{ "read-modify-write", rule_rmw },
	{ "stale-limit", rule_stale },
	{ "disks", rule_disks },
	{ "md-thread", rule_md_thread },
	{ "harness", rule_harness },
	{ "cpu", rule_cpu },
	{ "small-requests", rule_small },
	{ "dirty-limit", rule_dirty },
};

/* What was looked at, when no rule held. */
static void looked_at(const struct bn_input *in, char *ev, size_t len)
{
	int b = in->nmembers ? busiest(in) : -1;
	size_t n = (size_t)snprintf(ev, len, "busiest member %s %.0f%%", b >= 0 ? in->m[b].name : "-",
				    b >= 0 ? in->m[b].util_pct : NAN);
	if (in->md_thread[0] && n < len)
		n += (size_t)snprintf(ev + n, len - n, ", %s %.0f%% of a CPU", in->md_thread,
				      in->md_thread_pct);
	if (n < len)
		n += (size_t)snprintf(ev + n, len - n, ", workload %.0f%% of a CPU, CPUs %.0f%% busy",
				      in->harness_pct, in->machine_pct);
	double w = total(in, 1);
	if (in->write_only && w > 0 && n < len)
		snprintf(ev + n, len - n, ", members read %.0f%% of what they wrote",
			 100 * total(in, 0) / w);
}

void bottleneck_judge(const struct bn_input *in, struct bottleneck *out)
{
	out->evidence[0] = '\0';
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (rules[i].rule(in, out->evidence, sizeof out->evidence)) {
			out->kind = rules[i].kind;
			return;
		}
	out->kind = "none clear";
	looked_at(in, out->evidence, sizeof out->evidence);
}
