/* pid1/settle.c: wait until the block devices the probed hardware will give are all there.
 * Polls instead of sleeping a fixed time: each pass loads drivers for devices that
 * appeared since the last one; the wait ends when every matched device has its driver,
 * no NVMe or USB storage host is still scanning, USB has had USB_ENUM_MS to find its
 * devices, and /sys/block has not changed for QUIET_MS. fsmatrix.settle= bounds the whole
 * wait. */
#include "pid1/pid1.h"
#include "core/disk.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define QUIET_MS 100
#define POLL_MS 10
/* A USB controller finds its devices well after its driver binds (port debounce, reset,
 * descriptors: hundreds of ms a port, more behind hubs), and nothing in sysfs says it is
 * still looking. Without this wait a stick booted on bare hardware settles with only the
 * controller bound, and its FSMRESULTS partition is never seen. Only machines with a USB
 * controller pay it. */
#define USB_ENUM_MS 2000

static int usb_root_hubs(void)
{
	DIR *d = opendir("/sys/bus/usb/devices");
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strncmp(e->d_name, "usb", 3) == 0;
	if (d)
		closedir(d);
	return n;
}

static void block_names(char *buf, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	size_t l = 0;
	buf[0] = '\0';
	while (d && (e = readdir(d))) {
		if (disk_name_skipped(e->d_name))
			continue; /* the module image's loop devices, say */
		int n = snprintf(buf + l, len - l, "%s ", e->d_name);
		if (n < 0 || (size_t)n >= len - l)
			break;
		l += (size_t)n;
	}
	if (d)
		closedir(d);
	if (l)
		buf[l - 1] = '\0';
}

void settle_block_devices(int settle_ms, const char *const *also)
{
	static char prev[8192], cur[8192];
	char what[512];
	long long start = boottime_ms(), changed = start, usb_since = -1;
	const struct timespec tick = { 0, POLL_MS * 1000000L };

	prev[0] = '\0';
	for (;;) {
		int fresh = modules_scan_hardware(also);
		also = NULL;
		int pending = modules_pending(what, sizeof what);
		long long now = boottime_ms();
		block_names(cur, sizeof cur);
		if (usb_since < 0 && usb_root_hubs() > 0)
			usb_since = now;
		if (fresh || strcmp(cur, prev) != 0) {
			changed = now;
			memcpy(prev, cur, sizeof prev);
		}
		if (usb_since >= 0 && now - usb_since < USB_ENUM_MS && !pending) {
			pending = 1;
			snprintf(what, sizeof what, "USB devices");
		}
		if (!pending && now - changed >= QUIET_MS) {
			say("fsmatrix: block devices settled in %lld ms: %s", now - start,
			    cur[0] ? cur : "(none)");
			return;
		}
		if (now - start >= settle_ms) {
			say("fsmatrix: block devices did not settle within %d ms (fsmatrix.settle=)%s%s; "
			    "going on with: %s", settle_ms, pending ? ", still waiting for: " : "",
			    pending ? what : "", cur[0] ? cur : "(none)");
			return;
		}
		nanosleep(&tick, NULL);
	}
}
