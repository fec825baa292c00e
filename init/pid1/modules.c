/* pid1/modules.c: loading kernel modules without modprobe. The image ships only the
 * modules it needs, with depmod's metadata for exactly that set (kmod.c reads it). Storage
 * drivers are loaded for the devices present, by matching each device's modalias against
 * modules.alias, again and again as loaded drivers create new devices (virtio_pci makes
 * virtio devices that want virtio_blk; a SCSI host finds disks that want sd_mod: loaded
 * only then, since qemu's IDE controller, present in every pc machine, has no disk). */
#include "pid1/pid1.h"
#include "core/boot/kmod.h"
#include "pid1/drivers.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* The boot's one: the public functions below hand it to the rest as d. */
static struct drivers drivers;

/* Buses where a matched device is expected to get a driver; elsewhere (cpu, acpi) a
 * module can match a device it never binds, e.g. crc32c_intel and a CPU. */
static const char *const watched_buses[] = { "pci", "virtio", "scsi", "usb", NULL };

/* Modules already in the kernel (none at a normal boot) are not loaded again. */
static void mark_loaded(struct drivers *d)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[512], name[KMOD_NAME_MAX];
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%63s", name) != 1)
			continue;
		int i = kmod_find(&d->db, name);
		if (i >= 0)
			d->done[i] = MOD_IN;
	}
	fclose(f);
}

static struct load *keep_load(struct drivers *d, const char *name, struct load_time time,
			      int rc, int err, int wrong_cpu, const char *path);

int modules_init(void)
{
	struct drivers *d = &drivers;
	struct utsname u;
	char err[400];
	uname(&u);
	struct modimage_load boot_loads[4];
	int nboot = 0;
	int mounted = modimage_mount(boot_loads, 4, &nboot, err, sizeof err);
	for (int k = 0; k < nboot; k++)
		keep_load(d, boot_loads[k].name, boot_loads[k].time, boot_loads[k].rc, boot_loads[k].err, 0,
			  boot_loads[k].name);
	if (mounted < 0)
		say("fsmatrix: %s: the image's modules cannot be read", err);
	snprintf(d->moddir, sizeof d->moddir, "/lib/modules/%s", u.release);
	kmod_db_init(&d->db);
	if (kmod_db_load(&d->db, d->moddir, err, sizeof err) < 0) {
		say("fsmatrix: no modules loaded: %s", err);
		return -1;
	}
	d->done = calloc((size_t)d->db.nmods + 1, 1);
	d->settled = calloc((size_t)d->db.nmods + 1, 1);
	if (!d->done || !d->settled)
		fatal("out of memory reading %s", d->moddir);
	d->have_db = 1;
	if (file_first_line("/sys/devices/system/cpu/modalias", d->cpu_alias, sizeof d->cpu_alias) < 0)
		d->cpu_alias[0] = '\0';
	mark_loaded(d);
	return 0;
}

/* What one attempt to load a module gave: made in PID 1, or in a child that sends it to
 * PID 1 through a pipe (load_parallel). */
struct attempt {
	int idx;                  /* the drivers.db module */
	int rc, err;
	struct load_time time;
	int wrong_cpu;            /* not tried: see kmod_wrong_cpu */
};

/* The parameters of the modules /init loads for its own use: brd makes the reference set's
 * one RAM disk (pid1/reference.c), large enough for its 16 MiB seqwrite on ext4 (the kernel's
 * default is 16 disks of 16 MiB). NULL: none. */
static const char *own_params(const char *name)
{
	static const struct { const char *name, *params; } table[] = {
		{ "brd", "rd_nr=1 rd_size=131072" },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(table[i].name, name) == 0)
			return table[i].params;
	return NULL;
}

/* Tries one module (its requirements are the caller's business). A module made only for
 * CPUs with a feature this one lacks (crc32c_intel without SSE4.2) is not tried: the kernel
 * would refuse it with ENODEV after the work of a load. No other side effect. */
static void attempt_load(struct drivers *d, int i, struct attempt *a)
{
	char path[600];
	memset(a, 0, sizeof *a);
	a->idx = i;
	if (kmod_wrong_cpu(&d->db, i, d->cpu_alias)) {
		a->time.at_ms = boottime_ms();
		a->wrong_cpu = 1;
		a->rc = -1;
		return;
	}
	snprintf(path, sizeof path, "%s/%s", d->moddir, d->db.mods[i].path);
	a->rc = module_load_file(path, own_params(d->db.mods[i].name), &a->time);
	a->err = a->rc < 0 ? errno : 0;
}

/* Keeps a load for the "modules" event and says what it did: path is what an error names. */
static struct load *keep_load(struct drivers *d, const char *name, struct load_time time,
			      int rc, int err, int wrong_cpu, const char *path)
{
	struct load *l = d->nloads < LOADS_MAX ? &d->loads[d->nloads++] : &d->loads[LOADS_MAX - 1];
	snprintf(l->name, sizeof l->name, "%s", name);
	l->time = time;
	l->err = err;
	if (wrong_cpu)
		l->status = "no-cpu-feature";
	else if (rc == 0) {
		l->status = "ok";
		say("fsmatrix: module %s loaded in %.1f ms", l->name, l->time.ms);
	} else if (l->err == EEXIST) {
		l->status = "already";
	} else if (l->err == ENODEV) {
		l->status = "no-device";
		say("fsmatrix: module %s: %s (harmless: no hardware for it)", l->name, strerror(l->err));
	} else {
		l->status = "error";
		say("fsmatrix: unable to load module %s: %s", path, strerror(l->err));
	}
	return l;
}

/* Keeps an attempt of the module database's and marks the module done; 0 when it is in. */
static int note_attempt(struct drivers *d, const struct attempt *a)
{
	char path[600];
	int i = a->idx;
	snprintf(path, sizeof path, "%s/%s", d->moddir, d->db.mods[i].path);
	struct load *l = keep_load(d, d->db.mods[i].name, a->time, a->rc, a->err, a->wrong_cpu, path);
	d->done[i] = a->rc == 0 || l->err == EEXIST ? MOD_IN : MOD_FAILED;
	return d->done[i] == MOD_IN ? 0 : -1;
}

static int load_one(struct drivers *d, int i)
{
	struct attempt a;
	attempt_load(d, i, &a);
	return note_attempt(d, &a);
}

/* Loads the modules want[] names (indexes) with everything they need, in order.
 * Returns how many failed. */
static int load_set(struct drivers *d, const int *want, int nwant)
{
	int order[LOADS_MAX], fails = 0;
	int n = kmod_order(&d->db, want, nwant, d->done, order, LOADS_MAX);
	if (n < 0) {
		say("fsmatrix: unable to order modules: more than %d needed", LOADS_MAX);
		return nwant;
	}
	for (int k = 0; k < n; k++)
		if (load_one(d, order[k]) < 0)
			fails++;
	return fails;
}

/* Does loading want (with what it needs) touch a module a loader is still on? */
static int needs_loading(struct drivers *d, int want)
{
	int order[LOADS_MAX];
	for (int i = 0; i < d->db.nmods; i++)
		d->settled[i] = d->done[i] == MOD_IN || d->done[i] == MOD_FAILED;
	int n = kmod_order(&d->db, &want, 1, d->settled, order, LOADS_MAX);
	for (int k = 0; k < n; k++)
		if (d->done[order[k]] == MOD_LOADING)
			return 1;
	return 0;
}

/* Starts a loader for order[n]; 0, or -1 if none could be forked. */
static int start_loader(struct drivers *d, const int *order, int n)
{
	int p[2];
	if (d->nloaders == MODULES_LOADERS_MAX || pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		for (int k = 0; k < n; k++) {
			struct attempt a;
			attempt_load(d, order[k], &a);
			if (write(p[1], &a, sizeof a) != (ssize_t)sizeof a)
				break;
		}
		_exit(0);
	}
	close(p[1]);
	struct loader *l = &d->loaders[d->nloaders++];
	l->pid = pid;
	l->fd = p[0];
	l->nmods = n;
	for (int k = 0; k < n; k++)
		d->done[l->mods[k] = order[k]] = MOD_LOADING;
	return 0;
}

/* Starts loading the drivers want[] names for devices just found, each group of drivers
 * with what it needs in a loader of its own, and returns without waiting: their probes
 * overlap each other and PID 1's watch (a controller's probe mostly waits: an ATA port reset
 * sleeps 150 ms, a SAS HBA discovers its expanders for seconds), and a driver for a device
 * that one of them creates starts as soon as it is seen, not after the slowest probe.
 * Drivers that share a module are one group (kmod_groups), so no module is loaded twice at
 * once: the kernel would make the second loader copy and lay out the whole module, wait for
 * the first, and fail with EEXIST. A driver that needs a module a running loader is still
 * on waits in deferred[] for it. Without fork, each group loads here, in order. */
static void start_loads(struct drivers *d, const int *want, int nwant)
{
	int go[LOADS_MAX], ngo = 0, group[LOADS_MAX];
	for (int k = 0; k < nwant; k++) {
		if (needs_loading(d, want[k])) {
			if (d->ndeferred < LOADS_MAX)
				d->deferred[d->ndeferred++] = want[k];
		} else if (ngo < LOADS_MAX) {
			go[ngo++] = want[k];
		}
	}
	int ngroups = kmod_groups(&d->db, go, ngo, d->done, group, LOADS_MAX);
	if (ngroups < 0) {
		load_set(d, go, ngo);
		return;
	}
	for (int g = 0; g < ngroups; g++) {
		int mine[LOADS_MAX], nmine = 0, order[LOADS_MAX];
		for (int k = 0; k < ngo; k++)
			if (group[k] == g)
				mine[nmine++] = go[k];
		int n = kmod_order(&d->db, mine, nmine, d->done, order, LOADS_MAX);
		if (n <= 0)
			continue;
		if (start_loader(d, order, n) < 0) {
			if (d->nloaders == MODULES_LOADERS_MAX) {   /* all busy: the next scan starts it */
				for (int k = 0; k < nmine && d->ndeferred < LOADS_MAX; k++)
					d->deferred[d->ndeferred++] = mine[k];
			} else {
				load_set(d, mine, nmine);
			}
		}
	}
}

/* Keeps the attempts the loaders have sent; with wait, until every loader has ended.
 * Returns how many attempts it kept. */
static int reap_loaders(struct drivers *d, int wait)
{
	int kept = 0;
	for (int i = 0; i < d->nloaders;) {
		struct loader *l = &d->loaders[i];
		struct attempt a;
		ssize_t r;
		while ((r = read(l->fd, &a, sizeof a)) == (ssize_t)sizeof a) {
			if (a.idx >= 0 && a.idx < d->db.nmods && d->done[a.idx] == MOD_LOADING) {
				note_attempt(d, &a);
				kept++;
			}
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait) {
				struct pollfd p = { l->fd, POLLIN, 0 };
				poll(&p, 1, 100);
			} else {
				i++;
			}
			continue;
		}
		/* the end of its pipe: whatever it did not try (it died) has failed */
		close(l->fd);
		waitpid(l->pid, NULL, 0);
		for (int k = 0; k < l->nmods; k++)
			if (d->done[l->mods[k]] == MOD_LOADING)
				d->done[l->mods[k]] = MOD_FAILED;
		*l = d->loaders[--d->nloaders];
	}
	return kept;
}

int modules_reap(void)
{
	struct drivers *d = &drivers;
	if (!d->have_db)
		return 0;
	int kept = reap_loaders(d, 0);
	if (d->ndeferred) {   /* what waited for a module may start now */
		int want[LOADS_MAX], n = d->ndeferred;
		memcpy(want, d->deferred, sizeof want[0] * (size_t)n);
		d->ndeferred = 0;
		start_loads(d, want, n);
	}
	return kept;
}

int modules_loading(void)
{
	struct drivers *d = &drivers;
	return d->nloaders + d->ndeferred;
}

int modules_loader_fds(int *fds, int max)
{
	struct drivers *d = &drivers;
	int n = 0;
	for (int i = 0; i < d->nloaders && n < max; i++)
		fds[n++] = d->loaders[i].fd;
	return n;
}

/* Appends to want[] the modules names (NULL-terminated) stand for, aliases resolved;
 * returns the new count. One not shipped is left out: the kernel may have it built in, or
 * the plan does not need it. */
static int want_named(struct drivers *d, const char *const *names, int *want, int nwant, int max)
{
	for (; names && *names; names++) {
		int hits[8], n = kmod_lookup(&d->db, *names, hits, 8);
		for (int k = 0; k < n && nwant < max; k++)
			want[nwant++] = hits[k];
	}
	return nwant;
}

int modules_load_named(const char *const *names)
{
	struct drivers *d = &drivers;
	int want[64];
	if (!d->have_db)
		return 0;
	int nwant = want_named(d, names, want, 0, 64);
	for (int k = 0; k < nwant; k++)
		if (needs_loading(d, want[k])) {
			reap_loaders(d, 1);   /* a driver's loader is on one of them: let it end */
			break;
		}
	return nwant ? load_set(d, want, nwant) : 0;
}

static int seen_before(struct drivers *d, const char *path)
{
	for (int i = 0; i < d->nseen; i++)
		if (strcmp(d->seen[i], path) == 0)
			return 1;
	return 0;
}

/* 1 if path was seen before; otherwise it is from now on (or cannot be kept: 1 too). */
static int was_seen(struct drivers *d, const char *path)
{
	if (seen_before(d, path))
		return 1;
	if (d->nseen == d->capseen) {
		int cap = d->capseen ? d->capseen * 2 : 256;
		char **ns = realloc(d->seen, sizeof *ns * (size_t)cap);
		if (!ns)
			return 1;
		d->seen = ns;
		d->capseen = cap;
	}
	if (!(d->seen[d->nseen] = strdup(path)))
		return 1;
	d->nseen++;
	return 0;
}

static int is_watched_bus(const char *bus)
{
	for (int i = 0; watched_buses[i]; i++)
		if (strcmp(watched_buses[i], bus) == 0)
			return 1;
	return 0;
}

/* A device not seen before: the drivers its modalias names go to want[] (and the device to
 * the watch list, on a bus where it should get bound). 1 if it was new. */
static int consider(struct drivers *d, const char *bus, const char *name, const char *alias,
		    int *want, int *nwant, int max)
{
	char path[600];
	snprintf(path, sizeof path, "/sys/bus/%s/devices/%s", bus, name);
	if (was_seen(d, path))
		return 0;
	if (!alias || !alias[0])
		return 1;
	int hits[4], n = kmod_match(&d->db, alias, hits, 4);
	for (int k = 0; k < n && *nwant < max; k++)
		want[(*nwant)++] = hits[k];
	if (n && is_watched_bus(bus) && d->nwatch < WATCH_MAX) {
		struct watched *w = &d->watch[d->nwatch++];
		snprintf(w->path, sizeof w->path, "%s", path);
		memcpy(w->hits, hits, sizeof hits);
		w->nhits = n;
	}
	return 1;
}

void modules_start_named(const char *const *names)
{
	struct drivers *d = &drivers;
	int want[LOADS_MAX];
	if (!d->have_db)
		return;
	int nwant = want_named(d, names, want, 0, LOADS_MAX);
	if (nwant)
		start_loads(d, want, nwant);
}

int modules_scan_hardware(void)
{
	struct drivers *d = &drivers;
	DIR *buses;
	struct dirent *b;
	int fresh = 0, want[LOADS_MAX], nwant = 0;

	if (!d->have_db || !(buses = opendir("/sys/bus")))
		return 0;
	/* what ended and what waited for it are modules_reap's, called before each pass */
	while ((b = readdir(buses))) {
		char dir[300];
		if (b->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof dir, "/sys/bus/%s/devices", b->d_name);
		DIR *devs = opendir(dir);
		struct dirent *de;
		if (!devs)
			continue;
		while ((de = readdir(devs))) {
			char path[600], alias[512];
			if (de->d_name[0] == '.')
				continue;
			/* A walk again (every RESCAN_MS while drivers load, in case a uevent was
			 * missed) reads only the devices it has not seen: under emulation reading
			 * each modalias again took 20-35 ms of the CPU the loads need. */
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			if (seen_before(d, path))
				continue;
			snprintf(path, sizeof path, "%s/%s/modalias", dir, de->d_name);
			if (file_first_line(path, alias, sizeof alias) < 0)
				alias[0] = '\0';
			fresh += consider(d, b->d_name, de->d_name, alias, want, &nwant, LOADS_MAX);
		}
		closedir(devs);
	}
	closedir(buses);
	if (nwant)
		start_loads(d, want, nwant);
	return fresh;
}

int modules_device_added(const char *bus, const char *name, const char *alias)
{
	struct drivers *d = &drivers;
	int want[4], nwant = 0;
	if (!d->have_db)
		return 0;
	int fresh = consider(d, bus, name, alias, want, &nwant, 4);
	if (nwant)
		start_loads(d, want, nwant);
	return fresh;
}

void what_add(char *what, size_t len, const char *name)
{
	size_t l = strlen(what);
	if (l + strlen(name) + 2 < len)
		snprintf(what + l, len - l, "%s%s", l ? " " : "", name);
}

int modules_pending(char *what, size_t len)
{
	struct drivers *d = &drivers;
	int n = 0;
	char path[700];
	what[0] = '\0';
	for (int i = 0; i < d->nloaders; i++) {
		n++;
		for (int k = 0; k < d->loaders[i].nmods; k++)
			if (d->done[d->loaders[i].mods[k]] == MOD_LOADING)
				what_add(what, len, d->db.mods[d->loaders[i].mods[k]].name);
	}
	for (int i = 0; i < d->ndeferred; i++) {
		n++;
		what_add(what, len, d->db.mods[d->deferred[i]].name);
	}
	/* A device is waited for once one of its drivers is in, until a driver binds it. */
	for (int i = 0; i < d->nwatch; i++) {
		int in = 0;
		for (int h = 0; h < d->watch[i].nhits; h++)
			in |= d->done[d->watch[i].hits[h]] == MOD_IN;
		if (!in)
			continue;   /* still loading (counted above), or all of them failed */
		size_t l = strnlen(d->watch[i].path, sizeof d->watch[i].path - 1);
		memcpy(path, d->watch[i].path, l);
		memcpy(path + l, "/driver", sizeof "/driver");
		if (access(path, F_OK) < 0) {
			n++;
			what_add(what, len, strrchr(d->watch[i].path, '/') + 1);
		}
	}
	return n;
}

int modules_unreported(void)
{
	struct drivers *d = &drivers;
	return d->nloads - d->nreported;
}

void modules_event(void)
{
	struct drivers *d = &drivers;
	static char buf[64 * 1024];
	struct jw w;
	double total = 0;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "modules");
	jw_kstr(&w, "dir", d->moddir);
	jw_key(&w, "modules");
	jw_arr(&w);
	for (int i = d->nreported; i < d->nloads; i++) {
		jw_obj(&w);
		jw_kstr(&w, "name", d->loads[i].name);
		jw_kint(&w, "at_ms", d->loads[i].time.at_ms);
		jw_kdouble(&w, "ms", d->loads[i].time.ms, 1);
		jw_kstr(&w, "status", d->loads[i].status);
		if (d->loads[i].err)
			jw_kstr(&w, "error", strerror(d->loads[i].err));
		jw_end_obj(&w);
		total += d->loads[i].time.ms;
	}
	jw_end_arr(&w);
	jw_kdouble(&w, "total_ms", total, 1);
	jw_end_obj(&w);
	emit(&w);
	d->nreported = d->nloads;
}
