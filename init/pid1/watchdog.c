/* pid1/watchdog.c: the watchdog for hangs PID 1 cannot end itself. A tool or a workload
 * stuck in the kernel (D state) ignores SIGKILL, and PID 1 waiting on it, or stuck in the
 * kernel itself, stops petting: the watchdog then reboots the machine, and the next boot
 * resumes the run (pid1/resume.c). /dev/watchdog is a hardware watchdog when the kernel has
 * a driver for one, else the BMC's through IPMI, else softdog, which reboots on expiry by
 * default (soft_panic=0).
 * Its timeout covers the longest step PID 1 waits on without petting (a cell step is
 * bounded by the cell's timeout, a teardown command by TEARDOWN_MS), plus a margin. */
#include "pid1/pid1.h"
#include "cell/cell.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* linux/watchdog.h, which musl's headers do not reach. */
struct wd_info {
	uint32_t options;
	uint32_t firmware_version;
	uint8_t identity[32];
};
#define WDIOC_GETSUPPORT _IOR('W', 0, struct wd_info)
#define WDIOC_KEEPALIVE _IOR('W', 5, int)
#define WDIOC_SETTIMEOUT _IOWR('W', 6, int)
#define WDIOC_GETTIMEOUT _IOR('W', 7, int)

#define WATCHDOG_DEV "/dev/watchdog"
#define MARGIN_S 60          /* the kill grace periods, a slow reap, a busy emulated CPU */

static int fd = -1;
static int timeout_s;
static char identity[40];
static char why_none[160];

/* When no driver loaded for the hardware gave /dev/watchdog: the watchdogs that have no
 * device of their own to be matched by, in order, each when its condition holds. The BMC's
 * watchdog needs ipmi_si, which the hardware scan loads only for a BMC that is there. */
static const struct { const char *module, *only_if; } fallbacks[] = {
	{ "ipmi_watchdog", "/sys/module/ipmi_si" },
	{ "softdog", NULL },
};

/* A dry run runs no cell, and fsmatrix.watchdog=0 turns it off: then nothing is armed,
 * whatever the plan and the disks (watchdog_start says why in the header). */
int watchdog_ruled_out(const struct cmdline *c)
{
	return c->dry || c->watchdog_s == 0;
}

void watchdog_start(const struct plan *p)
{
	int want = boot.cmd.watchdog_s;
	if (want == CMDLINE_WATCHDOG_AUTO) {
		int longest = (int)p->timeout_s > TEARDOWN_MS / 1000 ? (int)p->timeout_s : TEARDOWN_MS / 1000;
		want = p->timeout_s ? longest + MARGIN_S : 0;
		if (want > 65535)
			want = 65535;
	}
	if (boot.cmd.dry || !boot.ntaken) {
		snprintf(why_none, sizeof why_none, "no cell runs");
		return;
	}
	if (want == 0) {
		snprintf(why_none, sizeof why_none, "%s", boot.cmd.watchdog_s == 0 ?
			 "off (fsmatrix.watchdog=0)" : "off: the plan has no cell timeout (timeout = 0)");
		say("fsmatrix: watchdog %s", why_none);
		return;
	}
	for (size_t i = 0; i < sizeof fallbacks / sizeof fallbacks[0]; i++) {
		const char *names[] = { fallbacks[i].module, NULL };
		if (access(WATCHDOG_DEV, F_OK) == 0)
			break;
		if (!fallbacks[i].only_if || access(fallbacks[i].only_if, F_OK) == 0)
			modules_load_named(names);
	}
	fd = open(WATCHDOG_DEV, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why_none, sizeof why_none, "unable to open " WATCHDOG_DEV ": %s", strerror(errno));
		say("fsmatrix: no watchdog: %s; a kernel-level hang will stop the run until someone "
		    "resets the machine", why_none);
		return;
	}
	struct wd_info info;
	memset(&info, 0, sizeof info);
	if (ioctl(fd, WDIOC_GETSUPPORT, &info) == 0)
		snprintf(identity, sizeof identity, "%.32s", (const char *)info.identity);
	int t = want;
	if (ioctl(fd, WDIOC_SETTIMEOUT, &t) < 0) {
		/* a hardware watchdog with a shorter range: still petted between steps */
		int e = errno;
		if (ioctl(fd, WDIOC_GETTIMEOUT, &t) < 0)
			t = -1;
		say("fsmatrix: watchdog: unable to set a timeout of %d s: %s; it stays at %d s", want,
		    strerror(e), t);
	}
	timeout_s = t;
	watchdog_pet();
	say("fsmatrix: watchdog " WATCHDOG_DEV " (%s) armed: %d s without a sign of life from "
	    "/init reboots the machine, and the run resumes", identity[0] ? identity : "unnamed",
	    timeout_s);
}

void watchdog_pet(void)
{
	console_hold();
	if (fd >= 0)
		ioctl(fd, WDIOC_KEEPALIVE, 0);
}

/* Called in the cell's watcher process, which shares the device with PID 1: the next expiry
 * is at most reboot_s away, and PID 1 no longer pets. */
int watchdog_hung(int reboot_s)
{
	console_hold_set();
	if (fd < 0)
		return -1;
	int t = reboot_s < timeout_s ? reboot_s : timeout_s;
	if (ioctl(fd, WDIOC_SETTIMEOUT, &t) < 0 && ioctl(fd, WDIOC_GETTIMEOUT, &t) < 0)
		t = timeout_s;
	ioctl(fd, WDIOC_KEEPALIVE, 0);
	return t;
}

void watchdog_stop(void)
{
	if (fd < 0)
		return;
	/* The magic close: without the 'V' the watchdog keeps counting and reboots a machine
	 * that is powering off slowly or sits at a shell. */
	if (write(fd, "V", 1) != 1)
		say("fsmatrix: watchdog: unable to disarm it: %s", strerror(errno));
	close(fd);
	fd = -1;
	say("fsmatrix: watchdog disarmed");
}

void watchdog_json(struct jw *w)
{
	jw_key(w, "watchdog");
	jw_obj(w);
	jw_kstr(w, "device", fd >= 0 ? WATCHDOG_DEV : NULL);
	jw_kstr(w, "identity", fd >= 0 && identity[0] ? identity : NULL);
	jw_key(w, "timeout_s");
	if (fd >= 0)
		jw_int(w, timeout_s);
	else
		jw_null(w);
	jw_kstr(w, "none", fd >= 0 ? NULL : why_none);
	jw_end_obj(w);
}
