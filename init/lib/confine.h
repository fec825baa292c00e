/* lib/confine.h: a program run where it can reach one directory and nothing else.
 *
 * What a plan hands to a tool (a fio job) is not screened by a list of names, which can
 * always be spelled around: the tool runs in a root of its own. confine_enter, called in the
 * child between fork and exec, gives it
 *   - its own mount, IPC, UTS and network namespaces, every mount private;
 *   - a new root, a read-only tmpfs holding only
 *       /cell        the directory it may write (nodev, nosuid), also its working directory
 *       /prog        the program, read-only
 *       /job         the file it reads, read-only (when given)
 *       /dev/null, /dev/zero, /dev/urandom
 *     and, for a dynamically linked program (the host's own fio), /usr and the library
 *     folders read-only: no block device, no /proc, no /sys, no results partition;
 *   - no capability to make device nodes, mount, chroot, do raw I/O, trace, load modules or
 *     reboot (bounding, inheritable, permitted and effective sets), no new privileges, and
 *     no descriptor but 0, 1 and 2.
 * As root it uses the namespaces directly; as another user it first enters a user namespace
 * of its own. Needs Linux 5.12 (open_tree, move_mount, mount_setattr). */
#ifndef FSM_CONFINE_H
#define FSM_CONFINE_H
#include <stddef.h>

#define CONFINE_PROG "/prog"
#define CONFINE_JOB "/job"
#define CONFINE_WORK "/cell"

struct confine {
	const char *work;     /* the directory the program may write */
	const char *prog;     /* the program's file (a path, not a name to search) */
	const char *job;      /* a file it reads, or NULL */
};

/* In a forked child, before exec: enters the confinement. Returns 0, or -1 with why
 * ("unable to mount a tmpfs: Operation not permitted"): the caller must then not exec. */
int confine_enter(const struct confine *c, char *why, size_t len);

/* For run_opts.setup: confine_enter on a struct confine, printing why on stderr. */
int confine_setup(const void *confine);

/* The program's file for a name searched in PATH, into out. Returns 0, or -1 (ENOENT). */
int confine_which(const char *name, char *out, size_t len);

#endif
