/* pid1/drivers.h: what pid1/modules.c knows of the drivers, as one struct its functions
 * are handed: the module database and what became of each module, the loaders running, the
 * loads to report, the devices seen and watched. Private to pid1/modules.c. */
#ifndef FSM_PID1_DRIVERS_H
#define FSM_PID1_DRIVERS_H
#include "core/boot/kmod.h"
#include "pid1/pid1.h"

#include <sys/types.h>

#define LOADS_MAX 256
#define WATCH_MAX 256


/* A child loading a group of modules in the background; PID 1 reads its attempts from fd
 * (modules_reap) while it goes on watching the devices. */
struct loader {
	pid_t pid;
	int fd;
	int mods[LOADS_MAX], nmods;   /* its load order: done[] says MOD_LOADING until read */
};

struct load {
	char name[KMOD_NAME_MAX];
	struct load_time time;
	const char *status;       /* ok, already, no-device, error */
	int err;
};

/* Devices that a driver being loaded, or loaded, matched: once one of those drivers is in,
 * the device should get bound (one whose drivers all failed is not waited for). */
struct watched {
	char path[600];
	int hits[4], nhits;
};

/* per db module: 0 not tried, 1 in the kernel, 2 failed to load, 3 a loader is on it */
enum { MOD_UNTRIED, MOD_IN, MOD_FAILED, MOD_LOADING };

/* Everything this file knows of the drivers, in one place: the module database and what
 * became of each module, the loaders running, the loads to report, the devices seen and
 * watched. One boot has one, below; every function here reads and changes it. */
struct drivers {
	struct kmod_db db;
	int have_db;
	char moddir[256];
	char cpu_alias[2048];         /* /sys/devices/system/cpu/modalias: the CPU's features */
	unsigned char *done;          /* per db module: MOD_* */
	unsigned char *settled;       /* scratch: done[i] is MOD_IN or MOD_FAILED */
	struct loader loaders[MODULES_LOADERS_MAX];
	int nloaders;
	/* drivers asked for while a module they need was being loaded by a loader: a second
	 * loader would fail on its missing symbols; started by the next scan once that loader
	 * is read */
	int deferred[LOADS_MAX], ndeferred;
	struct load loads[LOADS_MAX];
	int nloads, nreported;
	char **seen;                  /* device directories whose modalias was read */
	int nseen, capseen;
	struct watched watch[WATCH_MAX];
	int nwatch;
};

#endif
