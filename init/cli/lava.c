/* cli/lava.c: `fsmatrix lava PLAN --shards N`: one LAVA job per shard of a plan
 * (fsmatrix.shard=K/N), for a lab that runs its machines through LAVA. Each job deploys the
 * kernel and initramfs (and for qemu its own blank test disks), boots, and watches the
 * console with a test monitor that makes every cell record a LAVA test case, its main figure
 * ("figure" in the record) the measurement. The console is the only way results come back
 * under LAVA (it deletes the disk images it deployed), so nothing else is asked of the job.
 * The job format is lava-dispatcher's (lava_common/schemas); the x86 device type boots iPXE
 * and takes kernel arguments through the context's extra_kernel_args. */
#include "cli/cli.h"
#include "core/cellcmd.h"
#include "core/matrix.h"
#include "core/plan.h"
#include "core/shard.h"
#include "lib/sha256.h"

#include <errno.h>
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
	"usage: fsmatrix lava PLAN --shards N [--device-type qemu|x86] [--url BASE] [--scale X]\n"
	"                     [--select SPEC] [--disks N] [--disk-url URL] [--timeout MIN] [-o DIR]\n"
	"  one LAVA job YAML per shard, DIR/PLAN-shard-K-of-N.yaml (DIR default out/lava)\n"
	"  --device-type  qemu (default): the job's own blank test disks, serials fsmtest0...;\n"
	"                 x86: bare metal booted over iPXE, kernel and initramfs over TFTP\n"
	"  --url BASE     where vmlinuz and initramfs.img are (default file://$PWD/out)\n"
	"  --scale X      fsmatrix.scale=X\n"
	"  --select SPEC  fsmatrix.disks=SPEC: the disks the run may destroy (required for x86;\n"
	"                 qemu: serial:fsmtest*, the job's own images)\n"
	"  --disks N      qemu: test disks per job (default: as many as the plan needs)\n"
	"  --disk-url URL qemu: a blank qcow2 image for each test disk (default BASE/fsmtest.qcow2)\n"
	"  --timeout MIN  job timeout (default: three times the shard's estimate, plus 15)\n"
	"  -o DIR         where the jobs go\n";

struct lava_args {
	const char *plan, *type, *url, *select, *disk_url, *dir;
	int shards, disks, timeout_min;
	double scale;
	char base[PATH_MAX + 16];
};

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
	*a = (struct lava_args){ .type = "qemu", .dir = "out/lava", .disks = -1, .scale = 1.0 };
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

/* "fsmatrix.disks=... fsmatrix.plan=... fsmatrix.scale=... fsmatrix.shard=K/N"; one job of
 * every cell is a run, not a shard of one. */
static void kernel_args(const struct lava_args *a, const struct plan *p, int k, char *out,
			size_t len)
{
	int n = snprintf(out, len, "fsmatrix.disks=%s fsmatrix.plan=%s", a->select, p->name);
	if (a->scale != 1.0)
		n += snprintf(out + n, len - (size_t)n, " fsmatrix.scale=%g", a->scale);
	if (a->shards > 1)
		snprintf(out + n, len - (size_t)n, " fsmatrix.shard=%d/%d", k, a->shards);
}

/* A file of BASE: its URL, with its sha256 when BASE is a local file:// folder. */
static void url_entry(FILE *f, const char *indent, const struct lava_args *a, const char *name)
{
	char path[PATH_MAX + 64], sha[65];
	fprintf(f, "%surl: ", indent);
	snprintf(path, sizeof path, "%s/%s", a->base, name);
	yq(f, path);
	fputc('\n', f);
	if (strncmp(a->base, "file://", 7) == 0 && sha256_file(path + 7, sha) == 0)
		fprintf(f, "%ssha256sum: %s\n", indent, sha);
}

static void deploy_qemu(FILE *f, const struct lava_args *a, const char *kargs, int ndisks)
{
	char arg[1200], disk_url[PATH_MAX + 64];
	fprintf(f, "- deploy:\n    to: tmpfs\n    timeout: {minutes: 10}\n    images:\n");
	fprintf(f, "      kernel:\n        image_arg: ");
	snprintf(arg, sizeof arg, "-kernel {kernel} -append \"console=ttyS0 panic=-1 loglevel=4 %s\"",
		 kargs);
	yq(f, arg);
	fprintf(f, "\n");
	url_entry(f, "        ", a, KERNEL_NAME);
	fprintf(f, "      initrd:\n        image_arg: '-initrd {initrd}'\n");
	url_entry(f, "        ", a, INITRAMFS_NAME);
	snprintf(disk_url, sizeof disk_url, "%s", a->disk_url ? a->disk_url : "");
	if (!a->disk_url)
		snprintf(disk_url, sizeof disk_url, "%s/fsmtest.qcow2", a->base);
	for (int i = 0; i < ndisks; i++) {
		fprintf(f, "      disk%d:\n        image_arg: ", i);
		snprintf(arg, sizeof arg, "-drive format=qcow2,file={disk%d},if=none,id=d%d "
			 "-device virtio-blk-pci,drive=d%d,serial=fsmtest%d", i, i, i, i);
		yq(f, arg);
		fprintf(f, "\n        url: ");
		yq(f, disk_url);
		fprintf(f, "\n");
	}
	fprintf(f, "- boot:\n    method: qemu\n    media: tmpfs\n    timeout: {minutes: 5}\n");
}

static void deploy_x86(FILE *f, const struct lava_args *a)
{
	fprintf(f, "- deploy:\n    to: tftp\n    timeout: {minutes: 10}\n    kernel:\n");
	url_entry(f, "      ", a, KERNEL_NAME);
	/* LAVA leaves the initramfs as it is: no overlay, no modules of its own */
	fprintf(f, "    ramdisk:\n");
	url_entry(f, "      ", a, INITRAMFS_NAME);
	fprintf(f, "      install_modules: false\n      install_overlay: false\n");
	fprintf(f, "- boot:\n    method: ipxe\n    commands: ramdisk\n    timeout: {minutes: 10}\n");
}

/* Every cell record a test case: its id, its status (fixupdict) and its main figure. The
 * patterns see the raw console; [^\n] keeps a match on one record line. */
static void test_action(FILE *f, int minutes)
{
	fprintf(f, "- test:\n    timeout: {minutes: %d}\n    monitors:\n    - name: fsmatrix\n",
		minutes);
	/* the first line /init prints, and the last line of every run, dry or failed */
	fprintf(f, "      start: 'fsmatrix: /init'\n      end: 'fsmatrix: powering off'\n");
	fprintf(f, "      pattern: ");
	yq(f, "FSMREC [0-9a-f]{8} \\{\"v\":1,\"type\":\"cell\",[^\\n]*?\"cell\":\"(?P<test_case_id>"
	   "[^\"]+)\",[^\\n]*?\"status\":\"(?P<result>[a-z]+)\",\"figure\":(?:null|\\{\"metric\":"
	   "\"[a-z0-9_]+\",\"value\":(?:(?P<measurement>-?[0-9][-+.0-9eE]*)|null),\"unit\":"
	   "\"(?P<units>[^\"]*)\"\\})");
	fprintf(f, "\n      fixupdict: {ok: pass, error: fail, timeout: fail, interrupted: fail, "
		"skipped: skip}\n");
}

static int write_job(const struct lava_args *a, const struct plan *p, int k, double est_s,
		     const char *group, const char *sha, int ndisks)
{
	char path[PATH_MAX], kargs[900];
	snprintf(path, sizeof path, "%s/%s-shard-%d-of-%d.yaml", a->dir, p->name, k, a->shards);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "fsmatrix: lava: unable to write %s: %s\n", path, strerror(errno));
		return 1;
	}
	int minutes = a->timeout_min ? a->timeout_min : (int)(3 * est_s / 60) + 15;
	kernel_args(a, p, k, kargs, sizeof kargs);
	fprintf(f, "# fsmatrix lava: shard %d of %d of plan %s (sha256 %.16s...), scale %g\n"
		"# run group %s: `fsmatrix report` merges the shards' logs by it\n",
		k, a->shards, p->name, sha, a->scale, group);
	fprintf(f, "device_type: %s\njob_name: 'fsmatrix %s shard %d/%d'\n", a->type, p->name, k,
		a->shards);
	fprintf(f, "priority: medium\nvisibility: public\ntimeouts:\n  job: {minutes: %d}\n"
		"  action: {minutes: %d}\n  connection: {minutes: %d}\n", minutes + 15, minutes,
		minutes);
	fprintf(f, "metadata:\n  fsmatrix.plan: %s\n  fsmatrix.plan_sha256: '%s'\n"
		"  fsmatrix.scale: '%g'\n  fsmatrix.shard: '%d/%d'\n  fsmatrix.run_group: '%s'\n",
		p->name, sha, a->scale, k, a->shards, group);
	fprintf(f, "context:\n  arch: amd64\n");
	if (!strcmp(a->type, "x86")) {
		fprintf(f, "  extra_kernel_args: ");
		yq(f, kargs);
		fprintf(f, "\nactions:\n");
		deploy_x86(f, a);
	} else {
		fprintf(f, "actions:\n");
		deploy_qemu(f, a, kargs, ndisks);
	}
	test_action(f, minutes);
	if (fclose(f) != 0) {
		fprintf(stderr, "fsmatrix: lava: unable to write %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%s\n", path);
	return 0;
}

int host_cmd_lava(int argc, char **argv)
{
	static struct plan p;
	struct lava_args a;
	int rc = lava_parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (plan_load(a.plan, &p) < 0) {
		for (int i = 0; i < p.nerrors && i < PLAN_ERRORS_MAX; i++)
			fprintf(stderr, "%s\n", p.errors[i]);
		return 1;
	}
	if (a.scale != 1.0)
		plan_scale(&p, a.scale);
	char cwd[PATH_MAX - 16];
	if (a.url)
		snprintf(a.base, sizeof a.base, "%s", a.url);
	else if (getcwd(cwd, sizeof cwd))
		snprintf(a.base, sizeof a.base, "file://%s/out", cwd);
	size_t bl = strlen(a.base);
	if (bl > 1 && a.base[bl - 1] == '/')
		a.base[bl - 1] = '\0';
	int ndisks = 1;
	for (int i = 0; i < p.narrays; i++)
		if (plan_array_disks(&p.arrays[i]) > ndisks)
			ndisks = plan_array_disks(&p.arrays[i]);
	if (a.disks > 0)
		ndisks = a.disks;
	if (mkdir(a.dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fsmatrix: lava: unable to create %s: %s\n", a.dir, strerror(errno));
		return 1;
	}
	char sha[65], group[65];
	if (sha256_file(a.plan, sha) < 0)
		sha[0] = '\0';
	shard_run_group(sha, p.scale, a.shards, group);
	struct estimate_model m;
	estimate_model_default(&m);
	int *owner = calloc((size_t)matrix_per_rep(&p) + 1, sizeof *owner);
	double *load = calloc((size_t)a.shards, sizeof *load);
	rc = !owner || !load || shard_plan(&p, &m, a.shards, owner, load) < 0;
	for (int k = 1; !rc && k <= a.shards; k++)
		rc = write_job(&a, &p, k, load[k - 1], group, sha, ndisks);
	free(owner);
	free(load);
	return rc;
}
