/* pid1/settle.c: wait until the block devices the probed hardware will give are all there.
 * Polls instead of sleeping a fixed time: each pass starts loading drivers for devices that
 * appeared since the last one; the wait ends when no driver is still loading, every matched
 * device has its driver, no NVMe or USB storage host is still scanning, USB has had
 * USB_ENUM_MS to find its devices, and no device was added nor /sys/block changed for
 * QUIET_MS. fsmatrix.settle= bounds the whole wait. */
#include "pid1/pid1.h"
#include "core/disk/disk.h"
#include "core/figures/sample.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define QUIET_MS 100
#define POLL_MS 10
/* Walking /sys/bus for new devices costs PID 1 milliseconds of CPU that loading drivers
 * need (one CPU under emulation): the kernel's uevents name each device added, with its
 * modalias, and the walk is done at the start, when uevents were lost, and this often in
 * case. While drivers load, PID 1 sleeps until a uevent or a load's end, at most this long. */
#define RESCAN_MS 500
#define LOADING_WAIT_MS 100
/* While drivers load, the disks already there are probed as soon as a CPU is free: a probe
 * that waits on hardware (an ATA port reset sleeps 150 ms, and every module load meanwhile
 * waits for it in async_synchronize_full) leaves the CPU to PID 1, and a machine with more
 * CPUs than loads running has one to spare. Free is no more tasks runnable than CPUs
 * (/proc/loadavg), looked at every IDLE_POLL_MS once no block device came or went for
 * BLOCK_QUIET_MS (a disk's partitions follow it at once). A wrong guess costs little: the
 * probe's work is done sooner or later anyway. */
#define IDLE_POLL_MS 10
#define BLOCK_QUIET_MS 20
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

/* <linux/netlink.h>'s part we use: musl-gcc has no kernel headers (as modimage.c's loop). */
#define NETLINK_KOBJECT_UEVENT 15
struct sockaddr_nl {
	sa_family_t nl_family;
	unsigned short nl_pad;
	uint32_t nl_pid, nl_groups;
};

/* The kernel's uevents (a device added, a module loaded) wake the wait; -1 if this kernel
 * has no netlink, and the wait then walks /sys/bus at every poll. */
static int uevents_open(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int size = 1 << 20;   /* a controller with hundreds of disks says a lot at once */
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Reads the queued uevents ("add@DEVPATH", then KEY=value strings, each NUL-terminated) and
 * hands each device added to modules_device_added. Returns how many devices were new; *lost
 * is set when the kernel dropped some (ENOBUFS): only a walk finds them; *block when a block
 * device came or went. */
static int uevents_read(int fd, int *lost, int *block)
{
	char buf[8192];
	int fresh = 0;
	for (;;) {
		ssize_t r = recv(fd, buf, sizeof buf - 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ENOBUFS)
			*lost = 1;
		if (r < 0)
			return fresh;
		buf[r] = '\0';
		const char *action = "", *devpath = NULL, *bus = NULL, *alias = NULL;
		for (char *p = buf; p < buf + r; p += strlen(p) + 1) {
			if (strncmp(p, "ACTION=", 7) == 0)
				action = p + 7;
			else if (strncmp(p, "DEVPATH=", 8) == 0)
				devpath = p + 8;
			else if (strncmp(p, "SUBSYSTEM=", 10) == 0)
				bus = p + 10;
			else if (strncmp(p, "MODALIAS=", 9) == 0)
				alias = p + 9;
		}
		if (bus && strcmp(bus, "block") == 0)
			*block = 1;
		/* every device added, with a MODALIAS or not: one the walk found later would look
		 * new then, and restart the quiet time. A module's own object (SUBSYSTEM=module) is
		 * not a device: a module loaded late (vfat after fat, which waits for an ATA port
		 * reset like every load) must not restart it. */
		if (strcmp(action, "add") == 0 && devpath && bus && strcmp(bus, "module") != 0 &&
		    strrchr(devpath, '/'))
			fresh += modules_device_added(bus, strrchr(devpath, '/') + 1, alias ? alias : "");
	}
}

/* Sleeps until a uevent or a load's progress, at most ms. 1 if a uevent came. */
static int wait_for_news(int events, int ms)
{
	struct pollfd p[1 + MODULES_LOADERS_MAX];
	int fds[MODULES_LOADERS_MAX], n = modules_loader_fds(fds, MODULES_LOADERS_MAX);
	p[0] = (struct pollfd){ events, POLLIN, 0 };
	for (int i = 0; i < n; i++)
		p[1 + i] = (struct pollfd){ fds[i], POLLIN, 0 };
	return poll(p, (nfds_t)(1 + n), ms) > 0 && (p[0].revents & POLLIN);
}

/* Controllers whose driver is bound but whose disks come later, on their own schedule: how
 * many, their names added to what. */
static int controllers_pending(char *what, size_t len)
{
	int n = 0;
	char path[700], buf[64];
	/* NVMe controllers probe asynchronously: namespaces come after the state is live. */
	DIR *d = opendir("/sys/class/nvme");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/class/nvme/%s/state", e->d_name);
		if (file_first_line(path, buf, sizeof buf) == 0 && strcmp(buf, "live") != 0 &&
		    strcmp(buf, "dead") != 0) {
			n++;
			what_add(what, len, e->d_name);
		}
	}
	if (d)
		closedir(d);
	/* usb-storage scans its SCSI host only after delay_use (1 s by default). */
	d = opendir("/sys/class/scsi_host");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/class/scsi_host/%s/proc_name", e->d_name);
		if (file_first_line(path, buf, sizeof buf) < 0 || (strcmp(buf, "usb-storage") && strcmp(buf, "uas")))
			continue;
		snprintf(path, sizeof path, "/sys/class/scsi_host/%s/device", e->d_name);
		DIR *h = opendir(path);
		struct dirent *t;
		int targets = 0;
		while (h && (t = readdir(h)))
			if (strncmp(t->d_name, "target", 6) == 0)
				targets++;
		if (h)
			closedir(h);
		if (!targets) {
			n++;
			what_add(what, len, e->d_name);
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* A CPU free for the caller: no more tasks runnable (the caller included) than CPUs. Asked
 * every IDLE_POLL_MS while drivers load, so /proc/loadavg stays open and the CPUs are counted
 * once: under emulation opening the file and counting the CPUs at each call took 0.4-1 ms. */
static int cpu_free(const struct settle *st)
{
	char line[128];
	ssize_t n = st->loadavg < 0 ? -1 : pread(st->loadavg, line, sizeof line - 1, 0);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	int running = sample_parse_loadavg_running(line);
	return running >= 0 && running <= (st->cpus > 1 ? st->cpus : 1);
}

/* Disks not probed since they changed, no block device news for BLOCK_QUIET_MS, a CPU
 * free: probe them now. */
static int probe_now(const struct settle *st)
{
	return st->block_dirty && boottime_ms() - st->block_changed >= BLOCK_QUIET_MS && cpu_free(st);
}

/* The modules no hardware asks for (the results partition's, the watchdog's core) are not
 * needed before the disks settle: loaded while the drivers' loads keep the CPU busy they
 * would only slow the longest chain of drivers (under qemu, the PIIX IDE's scsi_mod, libata,
 * ata_piix), so they wait for a CPU to be free, as the disk probe does. */
static void start_also(struct settle *st)
{
	modules_start_named(st->also);
	st->also = NULL;
}

/* The quiet time runs from the last change as it happened, not from when the drivers'
 * loads ended: a device added while xfs or an ATA port reset was still loading has been
 * there for as long. */
static void read_news(struct settle *st)
{
	int block = 0;
	if (uevents_read(st->events, &st->walk, &block))
		st->changed = boottime_ms();
	if (block) {   /* a disk or partition came, went or changed: probe again */
		block_names(st->prev, sizeof st->prev);
		st->block_dirty = 1;
		st->block_changed = boottime_ms();
	}
}

void settle_start(struct settle *st, int settle_ms, const char *const *also)
{
	memset(st, 0, sizeof *st);
	st->settle_ms = settle_ms;
	st->also = also;
	st->start = st->changed = boottime_ms();
	st->usb_since = st->walked = -1;
	st->events = uevents_open();
	st->loadavg = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	st->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	st->walk = 1;
}

/* The disks are to be probed (again): 1, and they count as probed from now on. */
static int probe_due(struct settle *st)
{
	st->block_dirty = 0;
	return 1;
}

int settle_wait(struct settle *st, int quiet)
{
	static char cur[sizeof st->prev];
	char what[512];
	const struct timespec tick = { 0, POLL_MS * 1000000L };

	for (;;) {
		modules_reap();
		if (st->walk || st->events < 0 || boottime_ms() - st->walked >= RESCAN_MS) {
			if (modules_scan_hardware())
				st->changed = boottime_ms();
			st->walked = boottime_ms();
			st->walk = 0;
		}
		/* While drivers load nothing can settle: only their news is read, each sysfs check
		 * below would take CPU from them at every uevent; the disks already there are
		 * probed when a CPU is free. */
		if (st->events >= 0 && modules_loading() && boottime_ms() - st->start < st->settle_ms) {
			if (st->also && cpu_free(st))
				start_also(st);
			if (probe_now(st))
				return probe_due(st);
			if (wait_for_news(st->events, st->block_dirty || st->also ? IDLE_POLL_MS : LOADING_WAIT_MS))
				read_news(st);
			continue;
		}
		if (st->also) {   /* no CPU was free while drivers loaded: now */
			start_also(st);
			continue;
		}
		/* A driver's load adds its devices before it ends (an ATA port's disks appear
		 * inside ata_piix's), and under emulation PID 1 may see the load end before it
		 * read their news: read it now, or the quiet time below passes over them and
		 * their own drivers (sd_mod) never load. */
		if (st->events >= 0) {
			read_news(st);
			if (modules_loading())
				continue;
		}
		int pending = modules_pending(what, sizeof what);   /* empties what first */
		pending += controllers_pending(what, sizeof what);
		long long now = boottime_ms();
		block_names(cur, sizeof cur);
		if (st->usb_since < 0 && usb_root_hubs() > 0)
			st->usb_since = now;
		if (strcmp(cur, st->prev) != 0) {   /* a change no uevent told of */
			st->changed = now;
			st->block_dirty = 1;
			memcpy(st->prev, cur, sizeof st->prev);
		}
		/* the quiet time overlaps the probe */
		if (quiet && st->block_dirty)
			return probe_due(st);
		if (st->usb_since >= 0 && now - st->usb_since < USB_ENUM_MS && !pending) {
			pending = 1;
			snprintf(what, sizeof what, "USB devices");
		}
		if (!pending && (!quiet || now - st->changed >= QUIET_MS)) {
			if (quiet && !st->timed_out)
				say("fsmatrix: block devices settled in %lld ms: %s", now - st->start,
				    cur[0] ? cur : "(none)");
			return 0;
		}
		if (st->timed_out)
			return 0;
		if (now - st->start >= st->settle_ms) {
			say("fsmatrix: block devices did not settle within %d ms (fsmatrix.settle=)%s%s; "
			    "going on with: %s", st->settle_ms, pending ? ", still waiting for: " : "",
			    pending ? what : "", cur[0] ? cur : "(none)");
			st->timed_out = 1;
			return 0;
		}
		if (st->events < 0)
			nanosleep(&tick, NULL);
		else if (wait_for_news(st->events, POLL_MS))
			read_news(st);
	}
}

void settle_end(struct settle *st)
{
	if (st->events >= 0)
		close(st->events);
	if (st->loadavg >= 0)
		close(st->loadavg);
	st->events = st->loadavg = -1;
}
