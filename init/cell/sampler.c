/* cell/sampler.c: reads the counters of a cell's time series (cell/sampler.h) with pread on
 * files opened once per cell, hands the text to the pure parsers (core/figures/sample.c) and the
 * rows to the series (core/figures/series.c), and accounts its own CPU time, so that each record
 * says what watching cost. */
#include "cell/sampler.h"
#include "cell/env.h"
#include "core/figures/bottleneck.h"
#include "lib/clock.h"
#include "lib/file.h"
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The file's text from its start into buf; "" when it cannot be read. */
static const char *text_of(int fd, char *buf, size_t len)
{
	ssize_t n = fd >= 0 ? pread(fd, buf, len - 1, 0) : -1;
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void take(struct sampler *s, struct sample *x)
{
	static char buf[16384];   /* /proc/vmstat is the longest, ~4 KiB */
	double c0 = cpu_now();
	memset(x, 0, sizeof *x);
	x->t = mono_s();
	sample_parse_meminfo(text_of(s->fd[SF_MEMINFO], buf, sizeof buf), x);
	sample_parse_vmstat(text_of(s->fd[SF_VMSTAT], buf, sizeof buf), x);
	sample_parse_cpu(text_of(s->fd[SF_STAT], buf, sizeof buf), &x->cpu);
	x->ndisks = s->ndisks;
	for (int d = 0; d < s->ndisks; d++)
		sample_parse_diskstat(text_of(s->fd[SF_FIXED + d], buf, sizeof buf), &x->disk[d]);
	x->sync_frac = -1;
	if (s->fd[SF_SYNC_DONE] >= 0) {
		x->sync_frac = sample_parse_sync_completed(text_of(s->fd[SF_SYNC_DONE], buf, sizeof buf));
		unsigned long long kbps = 0;
		if (sscanf(text_of(s->fd[SF_SYNC_SPEED], buf, sizeof buf), "%llu", &kbps) == 1)
			x->sync_kbps = (double)kbps;
	}
	s->samples++;
	s->cpu_s += cpu_now() - c0;
}

/* utime + stime of a process, in seconds; NaN when it cannot be read. */
static double proc_cpu_s(int pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if (pid <= 0 || file_first_line(path, buf, sizeof buf) < 0)
		return NAN;
	const char *p = strrchr(buf, ')');   /* the name may hold spaces */
	unsigned long long ut, st;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return NAN;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* md's own kernel thread of the array (md0_raid5, md0_raid10, ...): its pid, or 0. */
static int md_thread_pid(const char *md, char *name, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[64], comm[32], want[24];
	int found = 0;
	snprintf(want, sizeof want, "%s_raid", md);
	while (d && (e = readdir(d)) && !found) {
		int pid = atoi(e->d_name);
		snprintf(path, sizeof path, "/proc/%d/comm", pid);
		if (pid > 0 && file_first_line(path, comm, sizeof comm) == 0 &&
		    strncmp(comm, want, strlen(want)) == 0) {
			snprintf(name, len, "%s", comm);
			found = pid;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int open_ro(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

void sampler_start(struct sampler *s, int period_ms, const char *target, char *const *members,
		   int n, int md)
{
	static const char *const fixed[SF_FIXED] = {
		[SF_MEMINFO] = "/proc/meminfo", [SF_VMSTAT] = "/proc/vmstat", [SF_STAT] = "/proc/stat",
	};
	char path[96];
	s->period_ms = period_ms;
	s->samples = 0;
	s->cpu_s = 0;
	if (!period_ms)
		return;
	for (int i = 0; i < SF_FIXED; i++)
		s->fd[i] = fixed[i] ? open_ro(fixed[i]) : -1;
	if (md) {
		snprintf(path, sizeof path, "/sys/block/%s/md/sync_completed", target);
		s->fd[SF_SYNC_DONE] = open_ro(path);
		snprintf(path, sizeof path, "/sys/block/%s/md/sync_speed", target);
		s->fd[SF_SYNC_SPEED] = open_ro(path);
	}
	s->ndisks = 0;
	for (int d = 0; d <= n && d < SAMPLE_DISKS_MAX; d++) {
		snprintf(path, sizeof path, "/sys/block/%s/stat", d ? members[d - 1] : target);
		s->fd[SF_FIXED + s->ndisks++] = open_ro(path);
	}
	s->page = sysconf(_SC_PAGESIZE);
	take(s, &s->prev);
	s->first = s->prev;
	s->dirty_limited_s = 0;
	s->md_thread[0] = '\0';
	s->md_pid = md ? md_thread_pid(target, s->md_thread, sizeof s->md_thread) : 0;
	s->md_cpu0 = proc_cpu_s(s->md_pid);
	series_setup(&s->ser, target, members, n, md, &s->prev);
	s->started = s->prev.t;
	s->next_ms = mono_ms() + period_ms;
}

int sampler_wait_ms(const struct sampler *s, int want_ms)
{
	if (!s || !s->period_ms)
		return want_ms;
	long long left = s->next_ms - mono_ms();
	int until = left < 0 ? 0 : (int)left;
	return want_ms < 0 || until < want_ms ? until : want_ms;
}

static void step(struct sampler *s)
{
	take(s, &s->cur);
	/* writers are throttled once Dirty + Writeback pass the threshold (balance_dirty_pages
	 * weighs them against nr_dirty_threshold): at 95% of it they are counted as held */
	if (s->cur.nr_dirty_threshold &&
	    (double)(s->cur.nr_dirty + s->cur.nr_writeback) >= 0.95 * (double)s->cur.nr_dirty_threshold)
		s->dirty_limited_s += s->cur.t - s->prev.t;
	series_add(&s->ser, &s->prev, &s->cur, s->page);
	s->prev = s->cur;
}

void sampler_tick(struct sampler *s)
{
	if (!s || !s->period_ms || mono_ms() < s->next_ms)
		return;
	step(s);
	/* a fixed grid: a late sample does not push the later ones back */
	while (s->next_ms <= mono_ms())
		s->next_ms += s->period_ms;
}

void sampler_stop(struct sampler *s)
{
	if (!s || !s->period_ms)
		return;
	step(s);
	s->md_cpu1 = proc_cpu_s(s->md_pid);
	series_finish(&s->ser);
	s->wall_s = s->prev.t - s->started;
	for (int i = 0; i < SF_FIXED + s->ndisks; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
}

static double busy_ticks(const struct cpustat *c)
{
	return (double)(c->user + c->nice + c->system + c->irq + c->softirq);
}

int sampler_bottleneck_input(const struct sampler *s, const char *target, char *const *names,
			     int n, struct bn_input *in)
{
	memset(in, 0, sizeof *in);
	in->md_thread_pct = in->harness_pct = in->machine_pct = in->dirty_limited_pct = NAN;
	in->efficiency = NAN;
	const struct sample *a = &s->first, *b = &s->prev;
	double secs = b->t - a->t;
	if (!s->period_ms || !(secs > 0))
		return -1;
	in->secs = secs;
	/* the members, or the one disk (the target is then the member) */
	int first = names && n > 0 ? 1 : 0, last = names && n > 0 ? n : 0;
	for (int d = first; d <= last && d < b->ndisks && in->nmembers < BN_MEMBERS_MAX; d++) {
		struct bn_member *m = &in->m[in->nmembers++];
		const struct diskstat *x = &a->disk[d], *y = &b->disk[d];
		snprintf(m->name, sizeof m->name, "%s", d ? names[d - 1] : target);
		m->util_pct = fmin(100, (double)(y->io_ticks_ms - x->io_ticks_ms) / (secs * 10));
		m->read_mb = (double)(y->rd_sectors - x->rd_sectors) * 512 / 1e6;
		m->write_mb = (double)(y->wr_sectors - x->wr_sectors) * 512 / 1e6;
		m->write_ios = (double)(y->wr_ios - x->wr_ios);
	}
	if (s->md_pid) {
		snprintf(in->md_thread, sizeof in->md_thread, "%s", s->md_thread);
		in->md_thread_pct = 100 * (s->md_cpu1 - s->md_cpu0) / secs;
	}
	double all = busy_ticks(&b->cpu) - busy_ticks(&a->cpu) +
		     (double)(b->cpu.idle - a->cpu.idle + b->cpu.iowait - a->cpu.iowait +
			      b->cpu.steal - a->cpu.steal);
	if (all > 0)
		in->machine_pct = 100 * (busy_ticks(&b->cpu) - busy_ticks(&a->cpu)) / all;
	in->dirty_limited_pct = 100 * s->dirty_limited_s / secs;
	return 0;
}

/* "cost": what the sampler took of PID 1's CPU, per sample and as a share of the span. */
static void cost_json(struct jw *w, const struct sampler *s)
{
	jw_key(w, "cost");
	jw_obj(w);
	jw_kint(w, "samples", s->samples);
	jw_kdouble(w, "cpu_ms", s->cpu_s * 1e3, 3);
	jw_kdouble(w, "us_per_sample", s->samples ? s->cpu_s * 1e6 / (double)s->samples : 0, 1);
	jw_kdouble(w, "share_pct", s->wall_s > 0 ? 100 * s->cpu_s / s->wall_s : 0, 4);
	jw_end_obj(w);
}

void sampler_emit(const struct sampler *s, const struct run_env *env, const char *cell, int rep,
		  int index, int attempt, const char *target, char *const *members, int n)
{
	static char buf[192 * 1024];
	struct jw w;
	if (!s->period_ms)
		return;
	jw_init(&w, buf, sizeof buf);
	record_begin(&w, "series");
	jw_kstr(&w, "run", env->run_id);
	jw_kstr(&w, "cell", cell);
	jw_kint(&w, "rep", rep);
	jw_kint(&w, "index", index);
	jw_kint(&w, "attempt", attempt);
	jw_kstr(&w, "target", target);
	jw_key(&w, "members");
	jw_arr(&w);
	for (int i = 0; i < n; i++)
		jw_str(&w, members[i]);
	jw_end_arr(&w);
	jw_kint(&w, "period_ms", s->period_ms);
	jw_kint(&w, "step", s->ser.step);
	jw_kint(&w, "intervals", s->ser.intervals);
	jw_kdouble(&w, "span_s", s->wall_s, 3);
	cost_json(&w, s);
	series_json(&w, &s->ser);
	jw_end_obj(&w);
	env->ops->emit(&w);
}
