/* test_confine.c: the confinement fio runs in (lib/confine.c) holds against a shell that
 * tries every way out a hostile job has tried: writing a block device that was not handed
 * over (by path, by `..`, by a node it makes, by a devtmpfs or proc it mounts), writing
 * outside its directory, leaving its root. The host's /bin/sh is dynamic, so /usr is in
 * reach too, with mknod, mount, dd and chroot: the confinement must hold without relying on
 * programs being absent. A loop device stands for the disk; its bytes are compared before
 * and after. Needs root and a free loop device, else says so and checks nothing. */
#include "check.h"
#include "lib/confine.h"
#include "lib/run.h"
#include "lib/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Each attempt prints "NAME yes" when it worked, "NAME no" when it did not. */
static const char script[] =
	"try() { n=$1; shift; if \"$@\" >/dev/null 2>&1; then echo \"$n yes\"; "
	"else echo \"$n no\"; fi; }\n"
	"try write-device sh -c 'echo x > \"$LOOP\"'\n"
	"try write-device-dotdot dd if=/dev/zero of=/cell/../..\"$LOOP\" bs=512 count=1 conv=notrunc\n"
	"try mknod-block mknod /cell/blk b 7 \"$MINOR\"\n"
	"try mount-devtmpfs mount -t devtmpfs none /cell\n"
	"try mount-proc mount -t proc proc /cell\n"
	"try mount-tmpfs mount -t tmpfs none /cell\n"
	"try write-root touch /escape\n"
	"try write-usr touch /usr/escape\n"
	"try chroot chroot /cell /prog -c true\n"
	"try see-proc test -e /proc/1\n"
	"try see-sys test -e /sys/block\n"
	"try see-dev-disk sh -c 'ls /dev | grep -qv -e ^null$ -e ^zero$ -e ^urandom$'\n"
	"try write-cell sh -c 'echo inside > /cell/inside'\n"
	"try cwd-is-cell test \"$(pwd)\" = /cell\n";

static const struct {
	const char *name;
	int may;          /* 1: this one must work; 0: it must fail */
} attempts[] = {
	{ "write-device", 0 }, { "write-device-dotdot", 0 }, { "mknod-block", 0 },
	{ "mount-devtmpfs", 0 }, { "mount-proc", 0 }, { "mount-tmpfs", 0 },
	{ "write-root", 0 }, { "write-usr", 0 }, { "chroot", 0 }, { "see-proc", 0 },
	{ "see-sys", 0 }, { "see-dev-disk", 0 }, { "write-cell", 1 }, { "cwd-is-cell", 1 },
};

static int file_sha(const char *path, char hex[65])
{
	size_t len;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	struct sha256 s;
	sha256_init(&s);
	char buf[65536];
	while ((len = fread(buf, 1, sizeof buf, f)) > 0)
		sha256_update(&s, buf, len);
	fclose(f);
	unsigned char d[32];
	sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/test_confine.XXXXXX", work[64], img[64], loop[64] = "", cmd[256];
	if (geteuid() != 0) {
		printf("test_confine: not root, nothing checked\n");
		return 0;
	}
	if (!mkdtemp(dir))
		return perror("mkdtemp"), 1;
	snprintf(work, sizeof work, "%s/work", dir);
	snprintf(img, sizeof img, "%s/disk.img", dir);
	mkdir(work, 0755);
	snprintf(cmd, sizeof cmd, "head -c 4194304 /dev/urandom > %s", img);
	FILE *lf = NULL;
	if (system(cmd) == 0) {
		snprintf(cmd, sizeof cmd, "losetup -f --show %s", img);
		lf = popen(cmd, "r");
	}
	if (!lf || !fgets(loop, sizeof loop, lf) || pclose(lf) != 0 || !loop[0]) {
		printf("test_confine: no loop device, nothing checked\n");
		return 0;
	}
	loop[strcspn(loop, "\n")] = '\0';
	char before[65], after[65];
	CHECK(file_sha(loop, before) == 0, "read %s", loop);

	char minor_s[16];
	struct stat st;
	snprintf(minor_s, sizeof minor_s, "%u", stat(loop, &st) == 0 ? minor(st.st_rdev) : 0);
	setenv("LOOP", loop, 1);
	setenv("MINOR", minor_s, 1);
	setenv("PATH", "/usr/sbin:/usr/bin", 1);
	struct confine c = { .work = work, .prog = "/bin/sh" };
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct run_opts ro = { .timeout_ms = 60000, .setup = confine_setup, .setup_arg = &c,
			       .path = CONFINE_PROG };
	struct run_result rr;
	CHECK(run_argv(argv, &ro, &rr) == 0, "run the shell");
	CHECK_INT(rr.status, 0);
	if (rr.status)
		fprintf(stderr, "%s", rr.err);
	for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
		char want[64];
		snprintf(want, sizeof want, "%s %s\n", attempts[i].name, attempts[i].may ? "yes" : "no");
		CHECK(rr.out && strstr(rr.out, want), "%s: got\n%s", want, rr.out ? rr.out : "");
	}
	run_free(&rr);

	CHECK(file_sha(loop, after) == 0, "read %s again", loop);
	CHECK_STR(after, before);
	snprintf(cmd, sizeof cmd, "%s/inside", work);
	CHECK(access(cmd, F_OK) == 0, "the shell's file is in the real directory");
	snprintf(cmd, sizeof cmd, "losetup -d %s; rm -rf %s", loop, dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_confine: unable to clean up %s\n", dir);
	return check_done("test_confine");
}
