/* core/matrix/kernels.h: kernels as an axis of a run. A plan's `kernels = 6.1, 6.12` names the
 * kernel sets (out/kernels/NAME/ of `make kernels`) every cell runs under. The run is then
 * repeat x nkernels passes of the plan's matrix: each repetition runs once under each
 * kernel, the kernels' order reversed every other repetition (A B, B A, A B, ...), so that a
 * drift over the run (a disk warming, a host growing busy) weighs on each kernel alike, and
 * two repetitions meet under the same kernel: a switch only inside a repetition.
 * Within a pass the cells go in the order's own order for that repetition, which is why
 * kernels need a repetition-major order (interleave or shuffle). Pure. */
#ifndef FSM_KERNELS_H
#define FSM_KERNELS_H
#include <stddef.h>
#include "core/matrix/order.h"

/* A list of kernel names into names[], *n of them. Returns 0, or -1 with msg saying what
 * was expected: names of [A-Za-z0-9._-], each once, at most PLAN_KERNELS_MAX. */
int kernels_parse(const char *val, char names[][PLAN_KERNEL_NAME_MAX], int *n, char *msg,
		  size_t mlen);

/* A kernel set's name: 1 to PLAN_KERNEL_NAME_MAX - 1 of [A-Za-z0-9._-]. */
int kernel_name_ok(const char *s);

/* What a kernel set holds, as `make kernels` builds it: NAME/vmlinuz and
 * NAME/initramfs.img, on the results partition under fsmatrix/kernels/. */
#define KERNEL_SET_FILES 2
extern const char *const kernel_set_files[KERNEL_SET_FILES];

/* "kernels = NAME: unable to read PATH: STRERROR(err)": a set's file not found, as the boot
 * refuses the plan for it and `fsmatrix check` warns of it. */
void kernel_set_unreadable(const char *name, const char *path, int err, char *buf,
			   size_t len);

/* Pass 0..repeat*nk-1 -> its repetition (1-based) and kernel (0..nk-1). -1 out of range. */
int kernel_pass(int nk, int repeat, int pass, int *rep, int *kernel);

/* The inverse: the pass of (repetition, kernel). -1 out of range. */
int kernel_pass_of(int nk, int repeat, int rep, int kernel);

/* A run of s->per cells x s->repeat x nk: position pos -> its repetition, kernel and slot.
 * Returns 0, or -1 out of range or with an order that is not repetition-major. */
int kernel_order_at(const struct order_shape *s, int nk, int pos, int *rep, int *kernel,
		    int *slot);

/* (repetition, kernel, slot) -> its position, the inverse of kernel_order_at. -1 out of
 * range. */
int kernel_order_position(const struct order_shape *s, int nk, int rep, int kernel, int slot);

/* The command line a kernel switch hands the next kernel: this boot's (cur) without its
 * fsmatrix.kernel= and the boot loader's own BOOT_IMAGE= and initrd= (the kexec loads the
 * initramfs itself), then fsmatrix.kernel=name. A value in double quotes keeps its spaces.
 * Returns 0, or -1 when it does not fit len bytes. */
int kernel_switch_cmdline(const char *cur, const char *name, char *out, size_t len);

/* The kernel_version string of a bzImage's setup header (the x86 boot protocol: "HdrS" at
 * 0x202, the string's offset less 0x200 at 0x20E), "RELEASE (BUILDER) VERSION" as uname
 * gives the release and version of that kernel running. hdr: the file's first len bytes.
 * Returns 0, or -1 when it is no bzImage or the string is not within len or out. */
int bzimage_version(const unsigned char *hdr, size_t len, char *out, size_t outlen);

/* 1 when a bzImage's kernel_version string names the kernel running: its first word is
 * release and it ends with version (uname's). */
int bzimage_is(const char *kernel_version, const char *release, const char *version);
/* Whether a set's name that is a version ("6.1", "6.12") names the kernel release running
 * ("6.1.0-57-amd64", "6.12.57+deb12-amd64"): the release starts with it and a '.', '-' or
 * '+' follows ("6.1" is not "6.12.57"). 1 it does, 0 it does not, -1 the name is no version
 * ("mine"): it cannot be told from the release. */
int kernel_name_fits_release(const char *name, const char *release);

#endif
