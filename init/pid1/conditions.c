/* pid1/conditions.c: the machine's controls (core/model/conditions.h), each found, applied unless
 * asked to keep it (or on a dry run), and read back before the first cell; the header
 * records them under `conditions`. The C-state request is a PM QoS file descriptor PID 1
 * holds for the whole run: closing it would drop the request. */
#include "pid1/pid1.h"
#include "core/model/conditions.h"
#include "core/model/plan.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#define CPUFREQ "/sys/devices/system/cpu/cpufreq"
#define NO_TURBO "/sys/devices/system/cpu/intel_pstate/no_turbo"
#define BOOST CPUFREQ "/boost"
#define QOS "/dev/cpu_dma_latency"
#define THP "/sys/kernel/mm/transparent_hugepage/enabled"
#define NMI "/proc/sys/kernel/nmi_watchdog"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"

static struct cond_state states[COND_COUNT];
static int qos_fd = -1;

/* ------------------------------------------------------------------ one reader and writer
 * per control: get fills v ("" and why when the machine has no such control), set writes
 * the asked value (-1 with errno). */

/* Every cpufreq policy's file name (scaling_governor), in policy order. */
static int policies(char (*paths)[96], int max)
{
	DIR *d = opendir(CPUFREQ);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)) && n < max)
		if (strncmp(e->d_name, "policy", 6) == 0)
			snprintf(paths[n++], sizeof paths[0], CPUFREQ "/%.32s/scaling_governor", e->d_name);
	if (d)
		closedir(d);
	return n;
}

static int governor_get(char *v, size_t len, char *why, size_t wlen)
{
	char paths[64][96], one[COND_VALUE_MAX];
	int n = policies(paths, 64);
	v[0] = '\0';
	if (!n) {
		snprintf(why, wlen, "no cpufreq policy (%s has none): the CPU's frequency is the "
			 "firmware's or the hypervisor's", CPUFREQ);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (file_first_line(paths[i], one, sizeof one) < 0)
			snprintf(one, sizeof one, "?");
		if (!v[0])
			snprintf(v, len, "%s", one);
		else if (strcmp(v, one) != 0)
			snprintf(v, len, "mixed");
	}
	return 0;
}

static int governor_set(const char *asked)
{
	char paths[64][96];
	int n = policies(paths, 64);
	for (int i = 0; i < n; i++)
		if (file_put_value(paths[i], asked) < 0)
			return -1;
	return 0;
}

static int turbo_get(char *v, size_t len, char *why, size_t wlen)
{
	char x[8];
	if (file_first_line(NO_TURBO, x, sizeof x) == 0)
		snprintf(v, len, "%s", strcmp(x, "1") == 0 ? "off" : "on");
	else if (file_first_line(BOOST, x, sizeof x) == 0)
		snprintf(v, len, "%s", strcmp(x, "1") == 0 ? "on" : "off");
	else {
		snprintf(why, wlen, "neither intel_pstate's no_turbo nor cpufreq's boost");
		return -1;
	}
	return 0;
}

static int turbo_set(const char *asked)
{
	int on = strcmp(asked, "on") == 0;
	if (access(NO_TURBO, F_OK) == 0)
		return file_put_value(NO_TURBO, on ? "0" : "1");
	return file_put_value(BOOST, on ? "1" : "0");
}

/* The PM QoS latency now in force: what a read of the device gives (an s32, microseconds). */
static int cstates_get(char *v, size_t len, char *why, size_t wlen)
{
	int32_t us;
	int fd = qos_fd >= 0 ? qos_fd : open(QOS, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, &us, sizeof us, 0) != (ssize_t)sizeof us) {
		snprintf(why, wlen, "no PM QoS device (%s): %s", QOS, strerror(errno));
		if (fd >= 0 && fd != qos_fd)
			close(fd);
		return -1;
	}
	if (fd != qos_fd)
		close(fd);
	snprintf(v, len, "%ld", (long)us);
	return 0;
}

static int cstates_set(const char *asked)
{
	int32_t us = (int32_t)strtol(asked, NULL, 10);
	if (qos_fd < 0 && (qos_fd = open(QOS, O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	return write(qos_fd, &us, sizeof us) == (ssize_t)sizeof us ? 0 : -1;
}

/* "always [madvise] never": the bracketed word */
static int thp_get(char *v, size_t len, char *why, size_t wlen)
{
	char line[128];
	if (file_first_line(THP, line, sizeof line) < 0) {
		snprintf(why, wlen, "no transparent huge pages (%s)", THP);
		return -1;
	}
	char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
	snprintf(v, len, "%.*s", a && b ? (int)(b - a - 1) : 0, a ? a + 1 : "");
	return 0;
}

static int thp_set(const char *asked) { return file_put_value(THP, asked); }

/* Active swap areas: /proc/swaps after its heading. */
static int swap_get(char *v, size_t len, char *why, size_t wlen)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	int n = -1;
	if (!f) {
		snprintf(why, wlen, "no /proc/swaps: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f))
		n++;
	fclose(f);
	if (n <= 0)
		snprintf(v, len, "none");
	else
		snprintf(v, len, "%d area%s", n, n == 1 ? "" : "s");
	return 0;
}

static int swap_set(const char *asked)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], path[400];
	int rc = 0, first = 1;
	(void)asked;
	while (f && fgets(line, sizeof line, f)) {
		if (first--)
			continue;
		if (sscanf(line, "%399s", path) == 1 && swapoff(path) < 0)
			rc = -1;
	}
	if (f)
		fclose(f);
	return rc;
}

static int file_get(const char *path, char *v, size_t len, char *why, size_t wlen)
{
	if (file_first_line(path, v, len) == 0)
		return 0;
	snprintf(why, wlen, "no %s: %s", path, strerror(errno));
	return -1;
}

static int nmi_get(char *v, size_t len, char *why, size_t wlen)
{
	return file_get(NMI, v, len, why, wlen);
}
static int nmi_set(const char *asked) { return file_put_value(NMI, asked); }
static int clocksource_get(char *v, size_t len, char *why, size_t wlen)
{
	return file_get(CLOCKSOURCE, v, len, why, wlen);
}
static int clocksource_set(const char *asked) { return file_put_value(CLOCKSOURCE, asked); }

static const struct control_io {
	int (*get)(char *v, size_t len, char *why, size_t wlen);
	int (*set)(const char *asked);
} io[COND_COUNT] = {
	[COND_GOVERNOR] = { governor_get, governor_set },
	[COND_TURBO] = { turbo_get, turbo_set },
	[COND_CSTATES] = { cstates_get, cstates_set },
	[COND_THP] = { thp_get, thp_set },
	[COND_SWAP] = { swap_get, swap_set },
	[COND_NMI_WATCHDOG] = { nmi_get, nmi_set },
	[COND_CLOCKSOURCE] = { clocksource_get, clocksource_set },
};

/* ------------------------------------------------------------------ the boot's conditions */

void conditions_apply(const struct plan *p)
{
	for (int i = 0; i < COND_COUNT; i++) {
		struct cond_state *s = &states[i];
		snprintf(s->asked, sizeof s->asked, "%s",
			 cond_asked(i, boot.cmd.controls[i], p ? p->controls[i] : ""));
		if (io[i].get(s->found, sizeof s->found, s->why, sizeof s->why) < 0) {
			s->status = COND_UNAVAILABLE;
			continue;
		}
		if (strcmp(s->asked, "keep") == 0 || boot.cmd.dry) {
			snprintf(s->effective, sizeof s->effective, "%s", s->found);
			s->status = COND_KEPT;
			if (boot.cmd.dry && strcmp(s->asked, "keep") != 0)
				snprintf(s->why, sizeof s->why, "a dry run changes nothing");
			continue;
		}
		int rc = io[i].set(s->asked);
		int e = errno;
		io[i].get(s->effective, sizeof s->effective, s->why, sizeof s->why);
		if (rc == 0 && strcmp(s->effective, s->asked) == 0) {
			s->status = COND_APPLIED;
			continue;
		}
		s->status = COND_REFUSED;
		if (rc < 0)
			snprintf(s->why, sizeof s->why, "unable to set %.40s: %.100s", s->asked, strerror(e));
		else
			snprintf(s->why, sizeof s->why, "set %.40s, reads back %.40s", s->asked, s->effective);
	}
	for (int i = 0; i < COND_COUNT; i++) {
		const struct cond_state *s = &states[i];
		say("fsmatrix: %-12s %-11s asked %s, found %s%s%s%s%s", cond_rows[i].name,
		    cond_status_name(s->status), s->asked, s->found[0] ? s->found : "-",
		    s->status == COND_APPLIED || s->status == COND_REFUSED ? ", now " : "",
		    s->status == COND_APPLIED || s->status == COND_REFUSED ? s->effective : "",
		    s->why[0] ? ": " : "", s->why);
	}
}

void conditions_controls_json(struct jw *w)
{
	jw_key(w, "controls");
	jw_obj(w);
	for (int i = 0; i < COND_COUNT; i++) {
		const struct cond_state *s = &states[i];
		jw_key(w, cond_rows[i].name);
		jw_obj(w);
		jw_kstr(w, "asked", s->asked);
		jw_kstr(w, "found", s->found[0] ? s->found : NULL);
		jw_kstr(w, "effective", s->status == COND_UNAVAILABLE ? NULL : s->effective);
		jw_kstr(w, "status", cond_status_name(s->status));
		if (s->why[0])
			jw_kstr(w, "why", s->why);
		jw_end_obj(w);
	}
	jw_end_obj(w);
}

void conditions_effective_json(struct jw *w)
{
	jw_key(w, "controls");
	jw_obj(w);
	for (int i = 0; i < COND_COUNT; i++)
		jw_kstr(w, cond_rows[i].name,
			states[i].status == COND_UNAVAILABLE ? NULL : states[i].effective);
	jw_end_obj(w);
}

