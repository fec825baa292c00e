/* cell/hang_evidence.c: what a hung cell leaves behind, read before the reboot loses it:
 * the blocked tasks' kernel stacks (sysrq w through /proc/sysrq-trigger, which works for root
 * whatever the keyboard's sysrq mask, and /proc/PID/stack of each task in D state), md's
 * state (/proc/mdstat; each array's array_state, sync_action, stripe_cache_active and
 * degraded), each disk's requests in flight, Dirty and Writeback, and the kernel's log since
 * the cell began. Bounded: each stack and the log cut at a line's end with a note
 * (core/figures/hang.c), fewer tasks and a shorter log when the whole does not fit HANG_JSON_MAX, so
 * that the record stays within the journal's line. */
#include "cell/ctx.h"
#include "core/figures/hang.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TASKS_MAX 24
#define STACK_MAX 4096
#define LOG_MAX (48 * 1024)
#define MDSTAT_MAX 4096
#define TOP_FRAMES 6

struct task {
	int pid, ppid, kernel;
	char comm[64], top[512], stack[STACK_MAX];
};

struct evidence {
	struct task tasks[TASKS_MAX];
	int ntasks, more;               /* tasks past TASKS_MAX, not kept */
	char mdstat[MDSTAT_MAX];
	char log[LOG_MAX];
	long long dirty_kb, writeback_kb;
};

/* A procfs or sysfs file's text, whole up to len - 1 bytes. */
static void read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t r;
	while (fd >= 0 && n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
}

static void find_tasks(struct evidence *e)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[64], line[512];
	int me = getpid();
	while (d && (de = readdir(d))) {
		int pid = atoi(de->d_name), ppid, kt;
		char comm[64];
		if (pid <= 0 || pid == me)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		if (file_first_line(path, line, sizeof line) < 0 ||
		    hang_stat_parse(line, comm, sizeof comm, &ppid, &kt) != 'D')
			continue;
		if (e->ntasks == TASKS_MAX) {
			e->more++;
			continue;
		}
		struct task *t = &e->tasks[e->ntasks++];
		t->pid = pid;
		t->ppid = ppid;
		t->kernel = kt;
		snprintf(t->comm, sizeof t->comm, "%s", comm);
		snprintf(path, sizeof path, "/proc/%d/stack", pid);
		read_text(path, t->stack, sizeof t->stack);
		hang_top_frames(t->stack, TOP_FRAMES, t->top, sizeof t->top);
	}
	if (d)
		closedir(d);
}

static long long meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static void kv_file(struct jw *w, const char *key, const char *path)
{
	char v[256];
	jw_kstr(w, key, file_first_line(path, v, sizeof v) == 0 ? v : NULL);
}

/* "md": each array's state; "inflight": each of the cell's disks' "reads writes". */
static void md_and_inflight(struct jw *w, const struct cell_ctx *x)
{
	static const char *const md_attrs[] = { "array_state", "sync_action", "stripe_cache_active",
						"degraded", NULL };
	char path[300];
	struct dirent *de;
	jw_key(w, "md");
	jw_obj(w);
	DIR *d = opendir("/sys/block");
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "md", 2) != 0)
			continue;
		jw_key(w, de->d_name);
		jw_obj(w);
		for (int i = 0; md_attrs[i]; i++) {
			snprintf(path, sizeof path, "/sys/block/%s/md/%s", de->d_name, md_attrs[i]);
			kv_file(w, md_attrs[i], path);
		}
		jw_end_obj(w);
	}
	jw_end_obj(w);
	jw_key(w, "inflight");
	jw_obj(w);
	if (d)
		rewinddir(d);
	while (d && (de = readdir(d))) {
		int ours = strncmp(de->d_name, "md", 2) == 0 || strncmp(de->d_name, "dm-", 3) == 0;
		for (int i = 0; i <= x->n && i < PLAN_DEVICES_MAX && !ours; i++)
			ours = x->names[i][0] && strcmp(x->names[i], de->d_name) == 0;
		if (!ours)
			continue;
		snprintf(path, sizeof path, "/sys/block/%s/inflight", de->d_name);
		kv_file(w, de->d_name, path);
	}
	if (d)
		closedir(d);
	jw_end_obj(w);
}

static int evidence_json(char *buf, size_t len, const struct evidence *e, const struct cell_ctx *x,
			 long long since_ms, int bound_s, int reboot_s, int ntasks)
{
	struct jw w;
	jw_init(&w, buf, len);
	jw_obj(&w);
	jw_kdouble(&w, "since_s", (double)since_ms / 1000, 1);
	jw_kdouble(&w, "declared_s", (double)mono_ms() / 1000, 1);
	jw_kdouble(&w, "cell_start_s", (double)x->start_mono_ms / 1000, 1);
	jw_kint(&w, "bound_s", bound_s);
	jw_kint(&w, "reboot_s", reboot_s);
	jw_key(&w, "tasks");
	jw_arr(&w);
	for (int i = 0; i < ntasks; i++) {
		const struct task *t = &e->tasks[i];
		jw_obj(&w);
		jw_kint(&w, "pid", t->pid);
		jw_kint(&w, "ppid", t->ppid);
		jw_kstr(&w, "comm", t->comm);
		jw_kbool(&w, "kernel_thread", t->kernel);
		jw_kstr(&w, "top", t->top);
		jw_kstr(&w, "stack", t->stack);
		jw_end_obj(&w);
	}
	jw_end_arr(&w);
	jw_kint(&w, "tasks_not_kept", e->more + e->ntasks - ntasks);
	jw_kstr(&w, "mdstat", e->mdstat);
	md_and_inflight(&w, x);
	jw_kint(&w, "dirty_kb", e->dirty_kb);
	jw_kint(&w, "writeback_kb", e->writeback_kb);
	jw_kstr(&w, "kernel_log", e->log);
	jw_end_obj(&w);
	return jw_done(&w);
}

/* The kernel's log since the cell began (sysrq w's report included), one text. */
static void kernel_log(struct cell_ctx *x, char *out, size_t len)
{
	static struct kmsg_line lines[1024];
	size_t used = 0;
	int n = kmsg_collect(x->kmsg_cell, lines, 1024);
	out[0] = '\0';
	for (int i = 0; i < n && used + 2 < len; i++) {
		int k = snprintf(out + used, len - used, "%s\n", lines[i].text);
		used += k > 0 ? (size_t)k : 0;
	}
	if (used >= len)
		out[len - 1] = '\0';
}

/* The reason: the stuck tasks of the cell first, with their top frames. */
static void reason(struct cell_ctx *x, const struct evidence *e, long long since_ms, int bound_s)
{
	size_t n = (size_t)snprintf(x->error, sizeof x->error, "hung: %d task(s) in D state and no I/O "
				    "completed for %lld s (bound %d s)", e->ntasks + e->more,
				    (mono_ms() - since_ms) / 1000, bound_s);
	for (int k = 0; k < 2; k++)   /* the cell's own tasks, then the kernel's */
		for (int i = 0; i < e->ntasks && n < sizeof x->error; i++)
			if (e->tasks[i].kernel == k && e->tasks[i].top[0])
				n += (size_t)snprintf(x->error + n, sizeof x->error - n, "; %s: %.160s",
						      e->tasks[i].comm, e->tasks[i].top);
}

void hang_evidence(struct cell_ctx *x, long long since_ms, int bound_s, int reboot_s)
{
	static struct evidence e;
	static char meminfo[8192];
	const struct cell_ops *ops = x->env->ops;
	memset(&e, 0, sizeof e);
	/* the blocked tasks' stacks into the kernel's log, then read with the rest of it */
	if (file_put_value("/proc/sysrq-trigger", "w") < 0)
		ops->say("fsmatrix: unable to write /proc/sysrq-trigger: the log lacks the blocked tasks");
	find_tasks(&e);
	read_text("/proc/mdstat", e.mdstat, sizeof e.mdstat);
	read_text("/proc/meminfo", meminfo, sizeof meminfo);
	e.dirty_kb = meminfo_kb(meminfo, "\nDirty:");
	e.writeback_kb = meminfo_kb(meminfo, "\nWriteback:");
	kernel_log(x, e.log, sizeof e.log);
	for (int i = 0; i < e.ntasks; i++)
		hang_clip(e.tasks[i].stack, 1536);
	hang_clip(e.mdstat, 2048);
	/* fewer tasks and a shorter log until the whole fits */
	int ntasks = e.ntasks;
	size_t log_max = 24 * 1024;
	hang_clip(e.log, log_max);
	while (evidence_json(x->hang, sizeof x->hang, &e, x, since_ms, bound_s, reboot_s, ntasks) < 0) {
		if (log_max > 2048)
			hang_clip(e.log, log_max /= 2);
		else if (ntasks > 1)
			ntasks /= 2;
		else {
			x->hang[0] = '\0';
			break;
		}
	}
	reason(x, &e, since_ms, bound_s);
	for (int i = 0; i < e.ntasks; i++)
		ops->say("  stuck     %s (pid %d, %s): %s", e.tasks[i].comm, e.tasks[i].pid,
			 e.tasks[i].kernel ? "kernel thread" : e.tasks[i].pid == 1 ? "PID 1" :
			 e.tasks[i].ppid == 1 ? "a child of PID 1" : "the cell's", e.tasks[i].top[0] ?
			 e.tasks[i].top : "(no stack)");
	ops->say("  md        %s", e.mdstat[0] ? "see the record's hang.mdstat" : "no /proc/mdstat");
	ops->say("  memory    Dirty %lld kB, Writeback %lld kB", e.dirty_kb, e.writeback_kb);
}
