/* test_bottleneck: each rule of core/figures/bottleneck.h on figures of the shape a cell records,
 * and the order they are tried in. */
#include "check.h"
#include "core/figures/bottleneck.h"
#include <math.h>

static struct bn_input base(int n, double util)
{
	struct bn_input in = { .secs = 10, .write_only = 1, .parity = 0, .chunk_bytes = 65536,
			       .nmembers = n, .md_thread_pct = NAN, .harness_pct = 20,
			       .machine_pct = 40, .dirty_limited_pct = 0, .efficiency = NAN };
	for (int i = 0; i < n; i++) {
		snprintf(in.m[i].name, sizeof in.m[i].name, "vd%c", 'b' + i);
		in.m[i].util_pct = util;
		in.m[i].write_mb = 80;
		in.m[i].write_ios = 80;   /* 1 MB requests */
	}
	return in;
}

int main(void)
{
	struct bottleneck b;
	struct bn_input in = base(4, 97);
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");
	CHECK_STR(b.evidence, "vdb busy 97% of the time; others: vdc 97%, vdd 97%, vde 97%");

	/* one slow member: the busiest is named */
	in = base(4, 50);
	in.m[3].util_pct = 99;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");
	CHECK_STR(b.evidence, "vde busy 99% of the time; others: vdb 50%, vdc 50%, vdd 50%");

	/* a throttled member: at the limit while the guest saw it busy 72% of the time */
	in = base(4, 72);
	in.efficiency = 0.97;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");
	CHECK_STR(b.evidence, "at 97% of what the members gave alone; vdb busy 72% of the time; others: vdc 72%, vdd 72%, vde 72%");
	in.efficiency = 0.5;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "none clear");
	/* far beyond the limit (a disk throttled to 8 MB/s at boot, unthrottled mid-run: 372.6
	 * MB/s against 7.2): the limit no longer holds, and the disks are not named for it, busy
	 * or not; a little over (qemu's throttle runs a short cell ahead) is still the disks */
	in = base(4, 97);
	in.efficiency = 51.5;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "stale-limit");
	CHECK_STR(b.evidence, "at 5150% of what the members gave alone when measured: they are faster now than then (a cache, a throttle lifted), so that limit no longer holds");
	in.efficiency = 1.49;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");
	in.efficiency = 1.5;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "stale-limit");

	/* partial stripes on parity: reads while only writing, before the busy members */
	in = base(4, 95);
	in.parity = 1;
	for (int i = 0; i < 4; i++)
		in.m[i].read_mb = 33;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "read-modify-write");
	CHECK_STR(b.evidence, "members read 41% of what they wrote (132.0 of 320.0 MB) during a write-only workload: partial-stripe writes");
	/* the same reads without parity (a workload that reads too, or raid0) are not rmw */
	in.parity = 0;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");
	in.parity = 1;
	in.write_only = 0;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "disks");

	in = base(3, 40);
	snprintf(in.md_thread, sizeof in.md_thread, "md0_raid5");
	in.md_thread_pct = 96;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "md-thread");
	CHECK_STR(b.evidence, "md0_raid5 at 96% of a CPU (group_thread_cnt 0: one thread does md's work)");

	in = base(2, 30);
	in.harness_pct = 99;
	in.machine_pct = 100;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "harness");
	in.harness_pct = 30;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "cpu");
	CHECK_STR(b.evidence, "the CPUs busy 100% of the time (the workload 30% of a CPU, the kernel the rest)");

	in = base(2, 30);
	for (int i = 0; i < 2; i++)
		in.m[i].write_ios = 80 * 1e6 / 4096;   /* 4 KiB requests */
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "small-requests");
	CHECK_STR(b.evidence, "members' writes averaged 4.0 KiB against a 64 KiB chunk");

	in = base(1, 30);
	in.chunk_bytes = 0;
	in.dirty_limited_pct = 80;
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "dirty-limit");

	in = base(2, 30);
	bottleneck_judge(&in, &b);
	CHECK_STR(b.kind, "none clear");
	CHECK_STR(b.evidence, "busiest member vdb 30%, workload 20% of a CPU, CPUs 40% busy, members read 0% of what they wrote");

	/* nothing counted: none clear, no division by zero */
	struct bn_input empty = { .md_thread_pct = NAN, .harness_pct = NAN, .machine_pct = NAN,
				  .dirty_limited_pct = NAN, .efficiency = NAN };
	bottleneck_judge(&empty, &b);
	CHECK_STR(b.kind, "none clear");
	return check_done("test_bottleneck");
}
