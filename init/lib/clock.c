/* lib/clock.c: see lib/clock.h. */
#include "lib/clock.h"
#include <time.h>

static struct timespec now(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return t;
}

static long long ms_of(struct timespec t)
{
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

long long mono_ms(void)
{
	return ms_of(now(CLOCK_MONOTONIC));
}

double mono_s(void)
{
	struct timespec t = now(CLOCK_MONOTONIC);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

long long boottime_ms(void)
{
	return ms_of(now(CLOCK_BOOTTIME));
}
