/* core/figures/sample.c: the parsers of the counters a series samples (core/figures/sample.h). Pure. */
#include "core/figures/sample.h"
#include <stdlib.h>
#include <string.h>

/* The number after "key" at the start of a line of text (key includes its separator, as
 * "Dirty:" or "nr_dirtied "). Returns 0, or -1 when no line starts with it. */
static int line_value(const char *text, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, kl) != 0)
			continue;
		char *end;
		const char *v = p + kl;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v < '0' || *v > '9')
			return -1;
		*out = strtoull(v, &end, 10);
		return 0;
	}
	return -1;
}

int sample_parse_meminfo(const char *text, struct sample *s)
{
	int a = line_value(text, "Dirty:", &s->dirty_kb);
	int b = line_value(text, "Writeback:", &s->writeback_kb);
	return a < 0 || b < 0 ? -1 : 0;
}

int sample_parse_vmstat(const char *text, struct sample *s)
{
	int a = line_value(text, "nr_dirtied ", &s->nr_dirtied);
	int b = line_value(text, "nr_written ", &s->nr_written);
	/* read when there, not required: older fixtures and kernels without them still parse */
	line_value(text, "nr_dirty ", &s->nr_dirty);
	line_value(text, "nr_writeback ", &s->nr_writeback);
	line_value(text, "nr_dirty_threshold ", &s->nr_dirty_threshold);
	return a < 0 || b < 0 ? -1 : 0;
}

/* Up to max whitespace-separated numbers from p; returns how many were read. */
static int numbers(const char *p, uint64_t *v, int max)
{
	int n = 0;
	while (n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		char *end;
		v[n++] = strtoull(p, &end, 10);
		p = end;
	}
	return n;
}

int sample_parse_cpu(const char *text, struct cpustat *c)
{
	uint64_t v[8] = { 0 };
	/* the aggregate line is "cpu" and blanks; "cpu0" and on are the single CPUs */
	if (strncmp(text, "cpu ", 4) != 0 || numbers(text + 4, v, 8) < 5)
		return -1;
	*c = (struct cpustat){ v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
	return 0;
}

int sample_parse_diskstat(const char *text, struct diskstat *d)
{
	uint64_t v[11];
	if (numbers(text, v, 11) < 10)
		return -1;
	d->rd_sectors = v[2];
	d->wr_ios = v[4];
	d->wr_sectors = v[6];
	d->io_ticks_ms = v[9];
	return 0;
}

double sample_parse_sync_completed(const char *text)
{
	uint64_t v[1], w[1];
	if (numbers(text, v, 1) != 1)
		return -1;
	const char *slash = strchr(text, '/');
	if (!slash || numbers(slash + 1, w, 1) != 1 || w[0] == 0)
		return -1;
	return (double)v[0] / (double)w[0];
}

int sample_parse_loadavg_running(const char *text)
{
	const char *slash = strchr(text, '/'), *p = slash;
	if (!slash)
		return -1;
	while (p > text && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == slash || (p > text && p[-1] != ' '))
		return -1;
	return atoi(p);
}
