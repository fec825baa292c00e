/* pid1_entropy.c: wait, visibly, for the kernel's random pool before anything is measured.
 * mkfs.xfs and mke2fs draw UUIDs through getrandom(), which blocks until the pool is ready.
 * Under TCG without RDRAND or a virtio-rng device that takes seconds, and whichever cell ran
 * first would pay for it inside its mkfs time. Waiting here moves that cost out of every cell
 * and into the header (boot.entropy_ms), where it can be seen. */
#include "pid1.h"

#include <errno.h>
#include <sys/random.h>
#include <time.h>

enum { ENTROPY_POLL_MS = 20, ENTROPY_MAX_MS = 60000 };

void entropy_wait(void)
{
	long long start = boottime_ms();
	unsigned char byte;
	const struct timespec poll = { 0, ENTROPY_POLL_MS * 1000000L };

	while (getrandom(&byte, 1, GRND_NONBLOCK) < 0 && errno == EAGAIN) {
		if (boottime_ms() - start > ENTROPY_MAX_MS) {
			say("fsmatrix: the random pool is still not ready after %d s; going on",
			    ENTROPY_MAX_MS / 1000);
			break;
		}
		nanosleep(&poll, NULL);
	}
	boot.entropy_ms = boottime_ms() - start;
	if (boot.entropy_ms >= 100)
		say("fsmatrix: waited %lld ms for the kernel's random pool (mkfs needs it for UUIDs)",
		    boot.entropy_ms);
}
