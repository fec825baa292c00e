/* pid1/kernels.c: a run under several kernels (core/matrix/kernels.h). The kernel sets are inputs on
 * the results partition (fsmatrix/kernels/NAME/vmlinuz and initramfs.img: qemu/run
 * --kernels and make usb KERNELS= put them there). A switch loads the next one with
 * kexec_file_load, which under lockdown takes only a kernel signed by a key the machine
 * trusts (Debian's are), and restarts into it without the firmware: the disks and the
 * results partition are found again as they were, and the next kernel's /init resumes the
 * run's journal (core/boot/resume.h) and runs the cells that are its own. */
#include "pid1/pid1.h"
#include "core/matrix/kernels.h"
#include "core/model/plan.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#define KERNELS_DIR RESULTS_MNT "/fsmatrix/kernels"

static struct {
	const struct plan *p;
	int booted;                                  /* index in the plan's kernels, -1 */
	char given_up[PLAN_KERNELS_MAX][512];        /* "" while the kernel may run its cells */
} ks = { .booted = -1 };

/* 1 when the kernel running is set k's own vmlinuz: fsmatrix.kernel= is a name on a command
 * line, and a cell must not run under another kernel than the one its record names. */
static int running_is(const struct plan *p, int k, char *seen, size_t len)
{
	static unsigned char hdr[64 * 1024];
	char path[160];
	struct utsname u;
	snprintf(path, sizeof path, KERNELS_DIR "/%s/vmlinuz", p->kernels[k]);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, hdr, sizeof hdr);
	if (fd >= 0)
		close(fd);
	if (n < 0 || uname(&u) < 0 || bzimage_version(hdr, (size_t)n, seen, len) < 0) {
		snprintf(seen, len, "unreadable");
		return 0;
	}
	return bzimage_is(seen, u.release, u.version);
}

/* A plan that names no kernels, booted with fsmatrix.kernel=NAME (qemu/run --kernel NAME):
 * the name labels every record, so a version that is not the kernel running is dropped,
 * said on the console; a name that is no version ("mine") cannot be told and is kept. */
static void check_label(void)
{
	struct utsname u;
	if (!boot.cmd.kernel[0] || uname(&u) < 0 ||
	    kernel_name_fits_release(boot.cmd.kernel, u.release) != 0)
		return;
	say("fsmatrix: kernels: fsmatrix.kernel=%s, but the kernel running is %s: the name is "
	    "dropped (no record is labelled with a kernel it did not run under)", boot.cmd.kernel,
	    u.release);
	boot.cmd.kernel[0] = '\0';
}

void kernels_stage(const struct plan *p)
{
	char path[300], seen[256], why[400];
	ks.p = p;
	ks.booted = -1;
	if (!p->nkernels) {
		check_label();
		return;
	}
	for (int k = 0; k < p->nkernels; k++)
		if (strcmp(p->kernels[k], boot.cmd.kernel) == 0)
			ks.booted = k;
	if (boot.cmd.dry)
		return;   /* a dry run lists the cells and switches to nothing */
	if (!results_writable())
		fatal("kernels = %s, ...: a run under several kernels needs the results partition "
		      "writable (its journal carries the run from one kernel to the next; nothing "
		      "was written to any test disk)", p->kernels[0]);
	for (int k = 0; k < p->nkernels; k++)
		for (int f = 0; f < KERNEL_SET_FILES; f++) {
			snprintf(path, sizeof path, KERNELS_DIR "/%s/%s", p->kernels[k],
				 kernel_set_files[f]);
			if (access(path, R_OK) == 0)
				continue;
			kernel_set_unreadable(p->kernels[k], path, errno, why, sizeof why);
			fatal("%s (put the kernel sets on the results partition: qemu/run --kernels, "
			      "make usb KERNELS=; nothing was written to any test disk)", why);
		}
	if (ks.booted >= 0 && !running_is(p, ks.booted, seen, sizeof seen)) {
		/* the name is dropped everywhere (header, records, journal): this boot runs none of
		 * the set's cells and switches to the first cell's kernel */
		struct utsname u;
		if (uname(&u) < 0)
			snprintf(u.release, sizeof u.release, "unknown");
		seen[strcspn(seen, " ")] = '\0';
		say("fsmatrix: kernels: fsmatrix.kernel=%s, but the kernel running (%s) is not that "
		    "set's vmlinuz (%s): this boot runs no cell and switches first", boot.cmd.kernel,
		    u.release, seen);
		boot.cmd.kernel[0] = '\0';
		ks.booted = -1;
	}
	say("fsmatrix: kernels: %d sets on the results partition; booted %s%s", p->nkernels,
	    boot.cmd.kernel[0] ? boot.cmd.kernel : "(no set of the plan's)",
	    ks.booted < 0 ? ": the first cell switches" : "");
}

int kernels_booted(void)
{
	return ks.booted;
}

const char *kernels_given_up(int k)
{
	if (!ks.p || k < 0 || k >= ks.p->nkernels)
		return NULL;
	/* a kernel switched to that never started: the machine came back under the firmware's
	 * kernel each time; its cells become errors rather than a switch loop (the journal's
	 * count, known once resume has read it) */
	int misses = resume_kernel_misses(ks.p->kernels[k]);
	if (!ks.given_up[k][0] && misses > ks.p->retries)
		snprintf(ks.given_up[k], sizeof ks.given_up[k], "kernel %s did not start after %d "
			 "switches to it (the machine came back under %s each time)", ks.p->kernels[k],
			 misses, boot.cmd.kernel[0] ? boot.cmd.kernel : "another kernel");
	return ks.given_up[k][0] ? ks.given_up[k] : NULL;
}

/* kexec_file_load of set NAME with the command line of this boot for it. 0, or -1 with why. */
static int load(const char *name, char *why, size_t len)
{
	static char cl[sizeof boot.cmd.raw + 64];
	char path[2][160];
	int fd[2] = { -1, -1 }, rc = -1;
	if (kernel_switch_cmdline(boot.cmd.raw, name, cl, sizeof cl) < 0) {
		snprintf(why, len, "unable to switch to kernel %s: the command line does not fit", name);
		return -1;
	}
	for (int f = 0; f < 2; f++) {
		snprintf(path[f], sizeof path[f], KERNELS_DIR "/%s/%s", name, kernel_set_files[f]);
		if ((fd[f] = open(path[f], O_RDONLY | O_CLOEXEC)) < 0) {
			snprintf(why, len, "unable to switch to kernel %s: unable to open %s: %s", name,
				 path[f], strerror(errno));
			goto out;
		}
	}
	if (syscall(SYS_kexec_file_load, fd[0], fd[1], strlen(cl) + 1, cl, 0UL) < 0) {
		/* EKEYREJECTED/EPERM: lockdown and a kernel not signed by a trusted key;
		 * ENOSYS: a kernel built without CONFIG_KEXEC_FILE */
		snprintf(why, len, "unable to switch to kernel %s: kexec_file_load of %s: %s", name,
			 path[0], strerror(errno));
		goto out;
	}
	rc = 0;
out:
	for (int f = 0; f < 2; f++)
		if (fd[f] >= 0)
			close(fd[f]);
	return rc;
}

int kernels_switch(const struct plan *p, int k, int index, int measured)
{
	char why[sizeof ks.given_up[0]], buf[1024], what[160];
	const char *from = boot.cmd.kernel[0] ? boot.cmd.kernel : NULL;
	long long t0 = boottime_ms();
	if (load(p->kernels[k], why, sizeof why) < 0) {
		memcpy(ks.given_up[k], why, sizeof why);
		say("fsmatrix: %s: its cells are recorded as errors", why);
		return -1;
	}
	long long load_ms = boottime_ms() - t0;
	/* the boot's noise floor at its end, as a boot that powers off measures it */
	if (measured)
		reference_run(p, "end");
	struct jw w;
	jw_init(&w, buf, sizeof buf);
	event_begin(&w, "kernel-switch");
	jw_kstr(&w, "from", from);
	jw_kstr(&w, "to", p->kernels[k]);
	jw_kint(&w, "index", index + 1);
	jw_kint(&w, "boot", boot.resumed + 1);
	jw_kint(&w, "load_ms", load_ms);
	jw_end_obj(&w);
	emit(&w);
	snprintf(what, sizeof what, "switching to kernel %s for cell %d (kexec)", p->kernels[k],
		 index + 1);
	restart_into_loaded_kernel(what);
}
