/* pid1/entropy.c: wait, visibly, for the kernel's random pool before anything is measured.
 * mkfs.xfs and mke2fs draw UUIDs through getrandom(), which blocks until the pool is ready.
 * Under TCG without RDRAND or a virtio-rng device that takes a while, and whichever cell ran
 * first would pay for it inside its mkfs time. Waiting here moves that cost out of every cell
 * and into the header (boot.entropy_ms), where it can be seen. The wait is a blocking
 * getrandom(): since 5.18 the kernel generates entropy itself (CPU jitter) for a caller that
 * blocks, in about a second, while a non-blocking poll can go on failing for a minute. */
#include "pid1/pid1.h"

#include <errno.h>
#include <sys/random.h>

enum { ENTROPY_MAX_MS = 60000 };

void entropy_wait(void)
{
	long long start = boottime_ms();
	unsigned char byte;
	ssize_t got;

	deadline_arm(ENTROPY_MAX_MS);
	while ((got = getrandom(&byte, 1, 0)) < 0 && errno == EINTR && !deadline_passed())
		;
	deadline_disarm();
	boot.entropy_ms = boottime_ms() - start;
	if (got < 0)
		say("fsmatrix: the random pool is still not ready after %lld ms; going on",
		    boot.entropy_ms);
	else if (boot.entropy_ms >= 100)
		say("fsmatrix: waited %lld ms for the kernel's random pool (mkfs needs it for UUIDs)",
		    boot.entropy_ms);
}
