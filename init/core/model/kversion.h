/* core/model/kversion.h: the versions a Debian kernel names in its own version string (uname -v),
 * for the run header (pid1/header.c: kernel.debian_version, kernel.upstream) and KCIDB's
 * checkouts (cli/kcidb.c). recipes/linux/setinfo reads the same for out/kernels/NAME/set.
 * Pure: no I/O. */
#ifndef FSM_KVERSION_H
#define FSM_KVERSION_H
#include <stddef.h>

/* From a kernel's version string (uname -v: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.170-3
 * (2026-05-01)"): the Debian package version ("6.1.170-3", "6.12.117-1~deb12u1") and the
 * upstream release it is built from ("6.1.170", "6.12.117"). Returns 0, or -1 (both "") when
 * the string names no Debian version. */
int kversion_debian(const char *uname_v, char *deb, size_t dlen, char *up, size_t ulen);

/* The git names of an upstream release in the stable tree: its tag ("6.1.170": "v6.1.170";
 * a Debian "~rc" "6.13~rc3": "v6.13-rc3") and its stable branch ("linux-6.1.y"). Returns 0,
 * or -1 (both "") when up is not MAJOR.MINOR[.PATCH][~rcN]. */
int kversion_git(const char *up, char *tag, size_t tlen, char *branch, size_t blen);

#endif
