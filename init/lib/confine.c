/* lib/confine.c: a program's own root, with one writable directory (confine.h). */
#include "lib/confine.h"
#include "lib/file.h"
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The new mount API, by number: musl 1.2.3 and glibc 2.36 wrap none of it. */
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
#define MOUNT_ATTR_NOEXEC 0x00000008
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
/* capset(2)'s ABI and the capability numbers (linux/capability.h, which musl-gcc does not
 * see). */
#define CAPS_VERSION_3 0x20080522
struct caps_header {
	uint32_t version;
	int pid;
};
struct caps_data {
	uint32_t effective, permitted, inheritable;
};
enum { CAP_CHOWN = 0, CAP_DAC_OVERRIDE = 1, CAP_FOWNER = 3, CAP_FSETID = 4, CAP_IPC_LOCK = 14,
       CAP_SYS_NICE = 23, CAP_SYS_RESOURCE = 24 };
struct confine_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* Where the new root is put together, in the child's own mount namespace only: the clones
 * below are taken before it is covered, so it may be any directory. */
#define STAGE "/tmp"

/* What the program keeps: enough to own, create and write its files in /cell and to set
 * its own priority and memory locks, as fio's options do. Not kept, among others:
 * CAP_MKNOD, CAP_SYS_ADMIN (mount), CAP_SYS_CHROOT, CAP_SYS_RAWIO, CAP_SYS_PTRACE,
 * CAP_SYS_MODULE, CAP_SYS_BOOT, and CAP_DAC_READ_SEARCH, whose open_by_handle_at reaches
 * any file of a filesystem one of its mounts is on. */
static const int kept_caps[] = { CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID,
				 CAP_IPC_LOCK, CAP_SYS_NICE, CAP_SYS_RESOURCE };

/* The character devices of the new /dev, made there (major 1: mem). */
static const struct { const char *name; unsigned minor; } devices[] = {
	{ "null", 3 }, { "zero", 5 }, { "urandom", 9 },
};

/* A folder a dynamically linked program's loader and libraries may be in. */
static const char *const lib_dirs[] = { "/usr", "/lib", "/lib64", NULL };

/* One mount of the new root: a copy of from's mount tree with attr, on to. */
struct part {
	const char *from, *to;
	unsigned attr;
	int dir, fd;
};

static int why_failed(char *why, size_t len, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(why, len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, ": %s", strerror(e));
	errno = e;
	return -1;
}

/* 1 when the ELF file at path names a program interpreter (a dynamic loader), 0 when it
 * is static, -1 when it cannot be read as ELF. */
static int elf_dynamic(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	Elf64_Ehdr eh;
	int dyn = -1;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_phentsize == sizeof(Elf64_Phdr)) {
		dyn = 0;
		for (unsigned i = 0; i < eh.e_phnum && !dyn; i++) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) !=
			    (ssize_t)sizeof ph) {
				dyn = -1;
				break;
			}
			dyn = ph.p_type == PT_INTERP;
		}
	}
	close(fd);
	return dyn;
}

/* Not root: a user namespace in which this user is root, so that the mounts below are
 * allowed (and stay inside it). */
static int enter_user_ns(char *why, size_t len)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	if (unshare(CLONE_NEWUSER) < 0)
		return why_failed(why, len, "unable to enter a user namespace");
	snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
	if (file_put_value("/proc/self/uid_map", map) < 0)
		return why_failed(why, len, "unable to map the user");
	if (file_put_value("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
		return why_failed(why, len, "unable to deny setgroups");
	snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
	if (file_put_value("/proc/self/gid_map", map) < 0)
		return why_failed(why, len, "unable to map the group");
	return 0;
}

/* A detached copy of the mount tree at path, with attr set on every mount of it. */
static int clone_tree(const char *path, unsigned attr)
{
	int fd = (int)syscall(SYS_open_tree, AT_FDCWD, path,
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (fd < 0)
		return -1;
	struct confine_mount_attr a = { .attr_set = attr };
	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof a) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The copy fd on a new mount point at path (relative to the stage): a directory or an
 * empty file, as the copy is. */
static int place(int fd, const char *path, int dir)
{
	if (dir ? mkdir(path, 0755) < 0 : mknod(path, S_IFREG | 0444, 0) < 0)
		return -1;
	return (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH);
}

static int drop_caps(char *why, size_t len)
{
	uint64_t keep = 0;
	for (size_t i = 0; i < sizeof kept_caps / sizeof kept_caps[0]; i++)
		keep |= 1ull << kept_caps[i];
	/* every capability the kernel knows, whatever the headers say: to the first EINVAL */
	for (int cap = 0; cap < 64; cap++) {
		if (keep & (1ull << cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			if (errno == EINVAL)
				break;
			return why_failed(why, len, "unable to drop capability %d", cap);
		}
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	/* only what it has: a container's root may lack some of the kept ones */
	struct caps_header h = { CAPS_VERSION_3, 0 };
	struct caps_data d[2];
	if (syscall(SYS_capget, &h, d) < 0)
		return why_failed(why, len, "unable to read the capabilities");
	keep &= d[0].permitted | (uint64_t)d[1].permitted << 32;
	for (int i = 0; i < 2; i++)
		d[i].effective = d[i].permitted = d[i].inheritable = (uint32_t)(keep >> (32 * i));
	if (syscall(SYS_capset, &h, d) < 0)
		return why_failed(why, len, "unable to set the capabilities");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return why_failed(why, len, "unable to forbid new privileges");
	return 0;
}

/* The new /dev: nodes made afresh where this process may, else the host's bound. Nothing
 * of devtmpfs is bound when the nodes can be made, so no mount of it is in reach. */
static int make_dev(char *why, size_t len)
{
	if (mkdir("dev", 0755) < 0)
		return why_failed(why, len, "unable to create the new /dev");
	for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
		char to[32], from[32];
		snprintf(to, sizeof to, "dev/%s", devices[i].name);
		if (mknod(to, S_IFCHR | 0666, makedev(1, devices[i].minor)) == 0)
			continue;
		snprintf(from, sizeof from, "/dev/%s", devices[i].name);
		int fd = clone_tree(from, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
		if (fd < 0 || place(fd, to, 0) < 0)
			return why_failed(why, len, "unable to provide %s", from);
		close(fd);
	}
	return 0;
}

int confine_enter(const struct confine *c, char *why, size_t len)
{
	int dyn = elf_dynamic(c->prog);
	if (dyn < 0)
		return why_failed(why, len, "unable to read %s as a program", c->prog);
	if (geteuid() != 0 && enter_user_ns(why, len) < 0)
		return -1;
	if (unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET) < 0)
		return why_failed(why, len, "unable to enter new namespaces");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return why_failed(why, len, "unable to make the mounts private");

	/* The copies first: the stage may cover the paths they come from. */
	const unsigned ro = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	struct part parts[3 + sizeof lib_dirs / sizeof lib_dirs[0]] = {
		{ c->work, &CONFINE_WORK[1], MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 1, -1 },
		{ c->prog, &CONFINE_PROG[1], ro, 0, -1 },
	};
	size_t n = 2;
	if (c->job)
		parts[n++] = (struct part){ c->job, &CONFINE_JOB[1], ro | MOUNT_ATTR_NOEXEC, 0, -1 };
	for (int i = 0; dyn && lib_dirs[i]; i++)
		if (access(lib_dirs[i], F_OK) == 0)
			parts[n++] = (struct part){ lib_dirs[i], lib_dirs[i] + 1, ro, 1, -1 };
	for (size_t i = 0; i < n; i++)
		if ((parts[i].fd = clone_tree(parts[i].from, parts[i].attr)) < 0)
			return why_failed(why, len, "unable to take a copy of the mount of %s", parts[i].from);

	if (mount("fsmatrix-confined", STAGE, "tmpfs", MS_NOSUID, "mode=0755,size=64k") < 0)
		return why_failed(why, len, "unable to mount a tmpfs on %s", STAGE);
	if (chdir(STAGE) < 0)
		return why_failed(why, len, "unable to enter %s", STAGE);
	for (size_t i = 0; i < n; i++) {
		if (place(parts[i].fd, parts[i].to, parts[i].dir) < 0)
			return why_failed(why, len, "unable to mount the copy of %s on /%s",
					  parts[i].from, parts[i].to);
		close(parts[i].fd);
	}
	if (make_dev(why, len) < 0)
		return -1;
	if (mount(NULL, ".", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID, NULL) < 0)
		return why_failed(why, len, "unable to make the new root read-only");
	/* No pivot_root: it refuses a root on the initramfs. The new root moves over the old
	 * one, which is then out of reach without CAP_SYS_CHROOT. */
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0 || chroot(".") < 0 ||
	    chdir(CONFINE_WORK) < 0)
		return why_failed(why, len, "unable to enter the new root");
	if (drop_caps(why, len) < 0)
		return -1;
	if (syscall(SYS_close_range, 3u, ~0u, 0u) < 0)
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
	return 0;
}

int confine_setup(const void *confine)
{
	char why[256];
	if (confine_enter(confine, why, sizeof why) == 0)
		return 0;
	dprintf(2, "fsmatrix: %s\n", why);
	return -1;
}

int confine_which(const char *name, char *out, size_t len)
{
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(name, X_OK);
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin:/sbin:/usr/sbin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		if (n && (size_t)snprintf(out, len, "%.*s/%s", (int)n, p, name) < len &&
		    access(out, X_OK) == 0)
			return 0;
		p += n;
		p += *p == ':';
	}
	errno = ENOENT;
	return -1;
}
