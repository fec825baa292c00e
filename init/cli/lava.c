/* cli/lava.c: `fsmatrix lava PLAN --shards N`: one LAVA job per shard of a plan
 * (fsmatrix.shard=K/N), for a lab that runs its machines through LAVA. Each job deploys the
 * kernel and initramfs (and for qemu its own blank test disks), boots, and watches the
 * console with a test monitor that makes every cell record a LAVA test case, its main figure
 * ("figure" in the record) the measurement. The console is the only way results come back
 * under LAVA (it deletes the disk images it deployed), so nothing else is asked of the job.
 * The job format is lava-dispatcher's (lava_common/schemas); the x86 device type boots iPXE
 * and takes kernel arguments through the context's extra_kernel_args. */
#include "cli/cli.h"
#include "core/command/cellcmd.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/matrix/shard.h"
#include "lib/cpio.h"
#include "lib/file.h"
#include "lib/qcow2.h"
#include "lib/sha256.h"
#include "core/parse/plan_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the names make image gives the kernel and its initramfs in out/ (and make pxe in its tree) */
#define KERNEL_NAME "vmlinuz"
#define INITRAMFS_NAME "initramfs.img"

const char host_lava_usage[] =
	"usage: fsmatrix lava PLAN --shards N [--device-type qemu|x86] [--url BASE] [--from DIR]\n"
	"                     [--scale X] [--select SPEC] [--disks N] [--disk-size SIZE]\n"
	"                     [--disk-url URL] [--timeout MIN] [-o DIR]\n"
	"  one LAVA job YAML per shard, DIR/PLAN-shard-K-of-N.yaml (DIR default out/lava), and\n"
	"  what the jobs deploy besides the kernel: DIR/PLAN-initramfs.img (the image's initramfs\n"
	"  with the plan appended as /job/PLAN.ini, which the job runs and names by its sha256)\n"
	"  and for qemu DIR/fsmtest.qcow2 (a blank test disk)\n"
	"  --device-type  qemu (default): the job's own blank test disks, serials fsmtest0...;\n"
	"                 x86: bare metal booted over iPXE, kernel and initramfs over TFTP\n"
	"  --url BASE     where the lab serves vmlinuz and the files written in DIR (default:\n"
	"                 each file where it is, file://)\n"
	"  --from DIR     the image: DIR/vmlinuz and DIR/initramfs.img (default: BASE's folder\n"
	"                 for a file:// BASE, else out)\n"
	"  --scale X      fsmatrix.scale=X\n"
	"  --select SPEC  fsmatrix.disks=SPEC: the disks the run may destroy (required for x86;\n"
	"                 qemu: serial:fsmtest*, the job's own images)\n"
	"  --disks N      qemu: test disks per job (default: as many as the plan needs)\n"
	"  --disk-size SIZE  qemu: the blank disk's size (default 1g)\n"
	"  --disk-url URL qemu: a blank qcow2 image of your own for each test disk, instead\n"
	"  --timeout MIN  the test's timeout (default: twice the shard's estimate, plus 5)\n"
	"  -o DIR         where the jobs go; a symbolic link at a file's name is refused\n";

/* Where the jobs' files are: the image's, and those written beside the jobs. */
struct lava_files {
	char local[PATH_MAX];          /* the image's folder, as given or found */
	char base[PATH_MAX + 16];      /* URL of the image's folder */
	char jobs[PATH_MAX + 16];      /* URL of DIR */
	char kernel_sha[65], ramdisk_sha[65], disk_sha[65];
	char ramdisk[PATH_MAX];        /* "default-initramfs.img" */
	char plan_path[PATH_MAX];      /* "/job/default.ini": where /init finds the plan */
};

struct lava_args {
	const char *plan, *type, *url, *select, *disk_url, *dir, *from;
	int shards, disks, timeout_min;
	double scale;
	uint64_t disk_size;
};

#define DISK_NAME "fsmtest.qcow2"
/* Where the job's segment puts the plan in the initramfs, and /init reads it (an absolute
 * fsmatrix.plan= is a path) */
#define JOB_DIR "job"
/* The test's timeout: the shard's estimate times this, plus the minutes below for the boot
 * and what the estimate leaves out (module loads, settling, entropy). The estimate errs
 * long (about 1.7 times the cells' measured time at scale 1 under TCG, 2.7 at scale 0.05),
 * so twice it leaves room for a slower machine without holding a hung one long. */
#define TIMEOUT_MARGIN 2.0
#define TIMEOUT_BOOT_MIN 5

/* A value in single quotes, YAML's literal form: only a quote is doubled. */
static void yq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Words of the kernel command line: no space, quote or backslash inside. */
static int cmdline_safe(const char *s)
{
	return s && *s && !strpbrk(s, " \t\n\"'\\");
}

static int lava_parse_args(int argc, char **argv, struct lava_args *a)
{
	*a = (struct lava_args){ .type = "qemu", .dir = "out/lava", .disks = -1, .scale = 1.0,
				 .disk_size = 1ULL << 30 };
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = "";
		if (o[0] != '-') {
			if (a->plan)
				return host_usage_error("lava", "unexpected argument \"%s\"", o);
			a->plan = o;
			continue;
		}
		if (!v)
			return host_usage_error("lava", "unknown or incomplete option \"%s\"", o);
		i++;
		if (strcmp(o, "--shards") == 0) {
			long n = strtol(v, &end, 10);
			a->shards = *end || n < 1 || n > SHARD_MAX ? -1 : (int)n;
		} else if (strcmp(o, "--device-type") == 0) {
			a->type = v;
		} else if (strcmp(o, "--url") == 0) {
			a->url = v;
		} else if (strcmp(o, "--scale") == 0) {
			a->scale = strtod(v, &end);
			if (!(a->scale > 0 && a->scale <= 1000))
				end = "x";
		} else if (strcmp(o, "--select") == 0) {
			a->select = v;
		} else if (strcmp(o, "--disks") == 0) {
			long n = strtol(v, &end, 10);
			a->disks = n < 1 || n > 26 ? (end = "x", 0) : (int)n;
		} else if (strcmp(o, "--disk-url") == 0) {
			a->disk_url = v;
		} else if (strcmp(o, "--disk-size") == 0) {
			if (plan_parse_size(v, &a->disk_size) < 0 || !qcow2_blank_len(a->disk_size) ||
			    a->disk_size < (1ULL << 20))
				end = "x";
		} else if (strcmp(o, "--from") == 0) {
			a->from = v;
		} else if (strcmp(o, "--timeout") == 0) {
			long n = strtol(v, &end, 10);
			a->timeout_min = n < 1 || n > 100000 ? (end = "x", 0) : (int)n;
		} else if (strcmp(o, "-o") == 0) {
			a->dir = v;
		} else {
			return host_usage_error("lava", "unknown option \"%s\"", o);
		}
		if (*end)
			return host_usage_error("lava", "%s %s: not a valid value", o, v);
	}
	if (!a->plan)
		return host_usage_error("lava", "no PLAN given");
	if (a->shards == 0)
		return host_usage_error("lava", "--shards N is required (1 for one job of every cell)");
	if (a->shards < 0)
		return host_usage_error("lava", "--shards: expected 1 to %d", SHARD_MAX);
	if (strcmp(a->type, "qemu") && strcmp(a->type, "x86"))
		return host_usage_error("lava", "--device-type %s: expected qemu or x86", a->type);
	if (!strcmp(a->type, "x86") && !a->select)
		return host_usage_error("lava", "--device-type x86 needs --select SPEC: the disks "
					"the run may destroy on that machine, e.g. serial:WD-*");
	if (!a->select)
		a->select = "serial:fsmtest*";
	if (!cmdline_safe(a->select))
		return host_usage_error("lava", "--select %s: no spaces, quotes or backslashes",
					a->select);
	return 0;
}

/* "fsmatrix.disks=... fsmatrix.plan=/job/NAME.ini fsmatrix.plan_sha256=... fsmatrix.scale=...
 * fsmatrix.shard=K/N"; one job of every cell is a run, not a shard of one. */
static void kernel_args(const struct lava_args *a, const struct lava_files *lf, const char *sha,
			int k, char *out, size_t len)
{
	int n = snprintf(out, len, "fsmatrix.disks=%s fsmatrix.plan=%s fsmatrix.plan_sha256=%s",
			 a->select, lf->plan_path, sha);
	if (a->scale != 1.0)
		n += snprintf(out + n, len - (size_t)n, " fsmatrix.scale=%g", a->scale);
	if (a->shards > 1)
		snprintf(out + n, len - (size_t)n, " fsmatrix.shard=%d/%d", k, a->shards);
}

/* A file the job deploys: its URL (base/name) and its sha256, which LAVA checks after the
 * download. */
static void url_entry(FILE *f, const char *indent, const char *base, const char *name,
		      const char *sha)
{
	char url[2 * PATH_MAX + 64];
	snprintf(url, sizeof url, "%s/%s", base, name);
	fprintf(f, "%surl: ", indent);
	yq(f, url);
	fprintf(f, "\n%ssha256sum: %s\n", indent, sha);
}

static void deploy_qemu(FILE *f, const struct lava_args *a, const struct lava_files *lf,
			const char *kargs, int ndisks)
{
	char arg[1200];
	fprintf(f, "- deploy:\n    to: tmpfs\n    timeout: {minutes: 10}\n    images:\n");
	fprintf(f, "      kernel:\n        image_arg: ");
	snprintf(arg, sizeof arg, "-kernel {kernel} -append \"console=ttyS0 panic=-1 loglevel=4 %s\"",
		 kargs);
	yq(f, arg);
	fprintf(f, "\n");
	url_entry(f, "        ", lf->base, KERNEL_NAME, lf->kernel_sha);
	fprintf(f, "      initrd:\n        image_arg: '-initrd {initrd}'\n");
	url_entry(f, "        ", lf->jobs, lf->ramdisk, lf->ramdisk_sha);
	for (int i = 0; i < ndisks; i++) {
		fprintf(f, "      disk%d:\n        image_arg: ", i);
		snprintf(arg, sizeof arg, "-drive format=qcow2,file={disk%d},if=none,id=d%d "
			 "-device virtio-blk-pci,drive=d%d,serial=fsmtest%d", i, i, i, i);
		yq(f, arg);
		fprintf(f, "\n");
		if (a->disk_url) {   /* the lab's own image: its sha256 is not known here */
			fprintf(f, "        url: ");
			yq(f, a->disk_url);
			fprintf(f, "\n");
		} else {
			url_entry(f, "        ", lf->jobs, DISK_NAME, lf->disk_sha);
		}
	}
	fprintf(f, "- boot:\n    method: qemu\n    media: tmpfs\n    timeout: {minutes: 5}\n");
}

static void deploy_x86(FILE *f, const struct lava_files *lf)
{
	fprintf(f, "- deploy:\n    to: tftp\n    timeout: {minutes: 10}\n    kernel:\n");
	url_entry(f, "      ", lf->base, KERNEL_NAME, lf->kernel_sha);
	/* LAVA leaves the initramfs as it is: no overlay, no modules of its own */
	fprintf(f, "    ramdisk:\n");
	url_entry(f, "      ", lf->jobs, lf->ramdisk, lf->ramdisk_sha);
	fprintf(f, "      install_modules: false\n      install_overlay: false\n");
	fprintf(f, "- boot:\n    method: ipxe\n    commands: ramdisk\n    timeout: {minutes: 10}\n");
}

/* A test case of every record that names one ("case", core/model/outcome.h): each cell
 * repetition, its status (fixupdict) and its main figure; and the run as a whole, from the
 * trailer (ran, or dry, no-disk, no-cell: a run that measured nothing fails) or a fatal
 * event. The patterns see the raw console; [^\n] keeps a match on one record line. */
static void test_action(FILE *f, int minutes)
{
	fprintf(f, "- test:\n    timeout: {minutes: %d}\n    monitors:\n    - name: fsmatrix\n",
		minutes);
	/* the first line /init prints, and the last line of every run, dry or failed */
	fprintf(f, "      start: 'fsmatrix: /init'\n      end: 'fsmatrix: powering off'\n");
	fprintf(f, "      pattern: ");
	/* What follows "status" is required, whichever record it is (a cell's figure, the
	 * trailer's cells, a fatal event's error): pexpect matches as the console arrives, and
	 * an optional figure would let a match end before the figure came. */
	yq(f, "FSMREC [0-9a-f]{8} \\{\"v\":1,\"type\":\"(?:cell|trailer|event)\",[^\\n]*?\"case\":"
	   "\"(?P<test_case_id>[^\"]+)\",[^\\n]*?\"status\":\"(?P<result>[a-z-]+)\",(?:\"figure\":"
	   "(?:null|\\{\"metric\":\"[a-z0-9_]+\",\"value\":(?:(?P<measurement>-?[0-9][-+.0-9eE]*)"
	   "|null),\"unit\":\"(?P<units>[^\"]*)\"\\})|\"cells\":|\"error\":)");
	fprintf(f, "\n      fixupdict: {ok: pass, error: fail, timeout: fail, interrupted: fail, "
		"skipped: skip, ran: pass, dry: fail, no-disk: fail, no-cell: fail, fatal: fail}\n");
}

/* Opens path for writing, refusing what is not a regular file or a new name: a symbolic link
 * at the name (planted where the jobs go) is not followed, nor is a FIFO or a device written. */
static FILE *open_output(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;
	if (fd < 0 && errno == ELOOP) {
		fprintf(stderr, "fsmatrix: lava: refusing to write %s: it is a symbolic link\n", path);
		return NULL;
	}
	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "fsmatrix: lava: refusing to write %s: it is %s\n", path,
			file_type_name(st.st_mode));
		close(fd);
		return NULL;
	}
	FILE *f = fd < 0 || ftruncate(fd, 0) < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "fsmatrix: lava: unable to write %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static int close_output(FILE *f, const char *path)
{
	if (fclose(f) != 0) {
		fprintf(stderr, "fsmatrix: lava: unable to write %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int write_job(const struct lava_args *a, const struct lava_files *lf, const struct plan *p,
		     int k, double est_s, const char *group, const char *sha, int ndisks)
{
	char path[PATH_MAX], kargs[900], size[32];
	snprintf(path, sizeof path, "%s/%s-shard-%d-of-%d.yaml", a->dir, p->name, k, a->shards);
	FILE *f = open_output(path);
	if (!f)
		return 1;
	int minutes = a->timeout_min ? a->timeout_min
		: (int)(TIMEOUT_MARGIN * est_s / 60 + 0.999) + TIMEOUT_BOOT_MIN;
	kernel_args(a, lf, sha, k, kargs, sizeof kargs);
	plan_fmt_size(a->disk_size, size, sizeof size);
	fprintf(f, "# fsmatrix lava: shard %d of %d of plan %s (sha256 %.16s...), scale %g\n"
		"# run group %s: `fsmatrix report` merges the shards' logs by it\n"
		"# the plan travels in %s as %s; /init refuses another (fsmatrix.plan_sha256)\n",
		k, a->shards, p->name, sha, a->scale, group, lf->ramdisk, lf->plan_path);
	if (!strcmp(a->type, "qemu"))
		fprintf(f, "# test disks: %d, each a copy of %s, a blank qcow2 image of %s\n", ndisks,
			a->disk_url ? a->disk_url : DISK_NAME, a->disk_url ? "your own" : size);
	fprintf(f, "device_type: %s\njob_name: 'fsmatrix %s shard %d/%d'\n", a->type, p->name, k,
		a->shards);
	fprintf(f, "priority: medium\nvisibility: public\ntimeouts:\n  job: {minutes: %d}\n"
		"  action: {minutes: %d}\n  connection: {minutes: %d}\n", minutes + 15, minutes,
		minutes);
	fprintf(f, "metadata:\n  fsmatrix.plan: %s\n  fsmatrix.plan_sha256: '%s'\n"
		"  fsmatrix.scale: '%g'\n  fsmatrix.shard: '%d/%d'\n  fsmatrix.run_group: '%s'\n"
		"  fsmatrix.estimate_s: '%.0f'\n", p->name, sha, a->scale, k, a->shards, group, est_s);
	if (!strcmp(a->type, "qemu"))
		fprintf(f, "  fsmatrix.test_disks: '%d'\n  fsmatrix.test_disk_size: '%s'\n", ndisks,
			a->disk_url ? "" : size);
	fprintf(f, "context:\n  arch: amd64\n");
	if (!strcmp(a->type, "x86")) {
		fprintf(f, "  extra_kernel_args: ");
		yq(f, kargs);
		fprintf(f, "\nactions:\n");
		deploy_x86(f, lf);
	} else {
		fprintf(f, "actions:\n");
		deploy_qemu(f, a, lf, kargs, ndisks);
	}
	test_action(f, minutes);
	if (close_output(f, path))
		return 1;
	printf("%s\n", path);
	return 0;
}

static int write_bytes(const char *path, const void *buf, size_t len, char sha[65])
{
	FILE *f = open_output(path);
	if (!f)
		return 1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		fprintf(stderr, "fsmatrix: lava: unable to write %s: %s\n", path, strerror(errno));
		return 1;
	}
	sha256_hex(buf, len, sha);
	return close_output(f, path);
}

/* DIR/PLAN-initramfs.img: the image's initramfs, zeros to a 4-byte boundary (where the kernel
 * looks for the next archive), and an uncompressed cpio of /job/PLAN.ini. */
static int write_ramdisk(const struct lava_args *a, struct lava_files *lf, const struct plan *p)
{
	char image[PATH_MAX + 32], path[2 * PATH_MAX], why[200], name[PATH_MAX];
	size_t ilen, plen;
	snprintf(image, sizeof image, "%s/" INITRAMFS_NAME, lf->local);
	char *img = file_read(image, 0, &ilen);
	if (!img) {
		fprintf(stderr, "fsmatrix: lava: unable to read %s: %s (make image builds it; --from "
			"DIR names the folder of vmlinuz and initramfs.img)\n", image,
			file_why(image, errno, why, sizeof why));
		return 1;
	}
	char *plan = file_read(a->plan, 0, &plen);
	snprintf(name, sizeof name, JOB_DIR "/%s.ini", p->name);
	size_t at = (ilen + 3) & ~(size_t)3;
	size_t cap = at + cpio_newc_size(JOB_DIR, 0) + cpio_newc_size(name, plen) +
		cpio_newc_size(NULL, 0);
	char *buf = plan ? calloc(1, cap) : NULL;
	int rc = 1;
	if (buf) {
		memcpy(buf, img, ilen);
		size_t off = at;
		if (cpio_newc_entry(buf, cap, &off, JOB_DIR, NULL, 0) == 0 &&
		    cpio_newc_entry(buf, cap, &off, name, plan, plen) == 0 &&
		    cpio_newc_entry(buf, cap, &off, NULL, NULL, 0) == 0) {
			snprintf(path, sizeof path, "%s/%s", a->dir, lf->ramdisk);
			rc = write_bytes(path, buf, off, lf->ramdisk_sha);
		}
	} else {
		fprintf(stderr, "fsmatrix: lava: unable to read %s: %s\n", a->plan, strerror(errno));
	}
	if (!rc)
		printf("%s/%s: %s with the plan as /%s (sha256 %.16s...)\n", a->dir, lf->ramdisk,
		       image, name, lf->ramdisk_sha);
	free(buf);
	free(plan);
	free(img);
	return rc;
}

static int write_disk(const struct lava_args *a, struct lava_files *lf, int ndisks)
{
	char path[PATH_MAX + 32], size[32];
	size_t len = qcow2_blank_len(a->disk_size);
	unsigned char *img = malloc(len);
	int rc = !img || !qcow2_blank(a->disk_size, img, len);
	snprintf(path, sizeof path, "%s/" DISK_NAME, a->dir);
	if (!rc)
		rc = write_bytes(path, img, len, lf->disk_sha);
	free(img);
	plan_fmt_size(a->disk_size, size, sizeof size);
	if (!rc)
		printf("%s: a blank qcow2 test disk of %s; each qemu job deploys %d copies of it\n",
		       path, size, ndisks);
	return rc;
}

/* The image's folder and the URLs of both folders; the kernel's sha256. */
static int find_files(const struct lava_args *a, struct lava_files *lf, const struct plan *p)
{
	char dir[PATH_MAX], kernel[PATH_MAX + 32], why[200];
	const char *from = a->from ? a->from : a->url && !strncmp(a->url, "file://", 7) ? a->url + 7 : "out";
	snprintf(lf->local, sizeof lf->local, "%s", from);
	snprintf(kernel, sizeof kernel, "%s/" KERNEL_NAME, lf->local);
	if (sha256_file(kernel, lf->kernel_sha) < 0) {
		int e = errno;
		fprintf(stderr, "fsmatrix: lava: unable to read %s: %s (make image builds it; --from "
			"DIR names the folder of vmlinuz and initramfs.img)\n", kernel,
			file_why(kernel, e, why, sizeof why));
		return 1;
	}
	if (a->url)
		snprintf(lf->base, sizeof lf->base, "%s", a->url);
	else if (realpath(lf->local, dir))
		snprintf(lf->base, sizeof lf->base, "file://%s", dir);
	if (a->url)
		snprintf(lf->jobs, sizeof lf->jobs, "%s", a->url);
	else if (realpath(a->dir, dir))
		snprintf(lf->jobs, sizeof lf->jobs, "file://%s", dir);
	for (char *b = lf->base; b; b = b == lf->base ? lf->jobs : NULL) {
		size_t bl = strlen(b);
		if (bl > 1 && b[bl - 1] == '/')
			b[bl - 1] = '\0';
	}
	snprintf(lf->ramdisk, sizeof lf->ramdisk, "%s-" INITRAMFS_NAME, p->name);
	snprintf(lf->plan_path, sizeof lf->plan_path, "/" JOB_DIR "/%s.ini", p->name);
	return 0;
}

int host_cmd_lava(int argc, char **argv)
{
	static struct plan p;
	static struct lava_files lf;
	struct lava_args a;
	int rc = lava_parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (plan_load(a.plan, &p) < 0) {
		for (int i = 0; i < p.nerrors && i < PLAN_ERRORS_MAX; i++)
			fprintf(stderr, "%s\n", p.errors[i]);
		return 1;
	}
	if (!cmdline_safe(p.name))
		return host_usage_error("lava", "%s: the plan's name \"%s\" has a space, quote or "
					"backslash: rename the file", a.plan, p.name);
	/* the switch between kernels needs the kernel sets and the run's journal on a results
	 * partition, which a LAVA job does not deploy */
	if (p.nkernels)
		return host_usage_error("lava", "%s: kernels = %s, ...: a LAVA job boots one kernel "
					"and carries no results partition for the switches; make one "
					"plan per kernel set (without kernels =), a job set each, and "
					"compare the runs", a.plan, p.kernels[0]);
	if (a.scale != 1.0)
		plan_scale(&p, a.scale);
	int ndisks = 1;
	for (int i = 0; i < p.narrays; i++)
		if (plan_array_disks_taken(&p, &p.arrays[i]) > ndisks)
			ndisks = plan_array_disks_taken(&p, &p.arrays[i]);
	if (a.disks > 0)
		ndisks = a.disks;
	if (mkdir(a.dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fsmatrix: lava: unable to create %s: %s\n", a.dir, strerror(errno));
		return 1;
	}
	char sha[65], group[65];
	if (sha256_file(a.plan, sha) < 0)
		sha[0] = '\0';
	if (find_files(&a, &lf, &p) || write_ramdisk(&a, &lf, &p) ||
	    (!strcmp(a.type, "qemu") && !a.disk_url && write_disk(&a, &lf, ndisks)))
		return 1;
	shard_run_group(sha, p.scale, a.shards, group);
	struct estimate_model m;
	estimate_model_default(&m);
	int *owner = calloc((size_t)matrix_per_rep(&p) + 1, sizeof *owner);
	double *load = calloc((size_t)a.shards, sizeof *load);
	rc = !owner || !load || shard_plan(&p, &m, a.shards, owner, load) < 0;
	for (int k = 1; !rc && k <= a.shards; k++)
		rc = write_job(&a, &lf, &p, k, load[k - 1], group, sha, ndisks);
	free(owner);
	free(load);
	/* what the lab must put at BASE for the jobs to find it */
	if (!rc && a.url)
		printf("serve at %s: %s/" KERNEL_NAME ", %s/%s%s%s%s\n", a.url, lf.local, a.dir,
		       lf.ramdisk, strcmp(a.type, "qemu") || a.disk_url ? "" : ", ",
		       strcmp(a.type, "qemu") || a.disk_url ? "" : a.dir,
		       strcmp(a.type, "qemu") || a.disk_url ? "" : "/" DISK_NAME);
	return rc;
}
