/* cli/disks.c: `fsmatrix disks SYSROOT`: discovery and the safety verdicts for a /sys tree,
 * the very code PID 1 runs, so a sysadmin can see what a boot would take before booting. */
#include "core/disk/disk.h"
#include "cli/cli.h"
#include "core/disk/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char host_disks_usage[] =
	"usage: fsmatrix disks SYSROOT [--dev DEVROOT] [--disks SPEC] [--wipe SPEC] [--boot NAME]\n"
	"  SYSROOT  a sysfs tree (/sys, or a fixture such as tests/fixtures/sys-basic/sys)\n"
	"  DEVROOT  where the device nodes are (default: dev beside SYSROOT, /dev for /sys)\n"
	"  SPEC     as fsmatrix.disks= and fsmatrix.wipe=: vdb,serial:GLOB,wwn:GLOB,path:GLOB,blank\n"
	"  NAME     the boot medium (disk or partition), never taken\n";

/* 128K, 1.0G, 931.5G: binary units, as lsblk prints them. */
static void human_size(unsigned long long bytes, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && units[u + 1]) {
		v /= 1024;
		u++;
	}
	if (u == 0 || v >= 100 || v == (double)(unsigned long long)v)
		snprintf(buf, len, "%.0f%c", v, units[u]);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
}

/* One column: "-" when empty, blanks made underscores so columns stay split on blanks. */
static const char *col(const char *s, char *buf, size_t len)
{
	if (!s[0])
		return "-";
	snprintf(buf, len, "%s", s);
	for (char *p = buf; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	return buf;
}

/* DEVROOT default: the "dev" beside SYSROOT, so /sys gives /dev and a fixture's sys its dev. */
static void default_devroot(const char *sysroot, char *buf, size_t len)
{
	const char *slash = strrchr(sysroot, '/');
	while (slash && slash > sysroot && slash[1] == '\0') {   /* "dir/sys/" */
		const char *p = slash - 1;
		while (p > sysroot && *p != '/')
			p--;
		slash = *p == '/' ? p : NULL;
	}
	if (!slash)
		snprintf(buf, len, "dev");
	else if (slash == sysroot)
		snprintf(buf, len, "/dev");
	else
		snprintf(buf, len, "%.*s/dev", (int)(slash - sysroot), sysroot);
}

int host_cmd_disks(int argc, char **argv)
{
	const char *sysroot = NULL, *devroot = NULL, *spec = "", *wipe = "", *boot = NULL;
	char devbuf[512], err[256];

	for (int i = 1; i < argc; i++) {
		const char **opt = strcmp(argv[i], "--dev") == 0 ? &devroot :
				   strcmp(argv[i], "--disks") == 0 ? &spec :
				   strcmp(argv[i], "--wipe") == 0 ? &wipe :
				   strcmp(argv[i], "--boot") == 0 ? &boot : NULL;
		if (opt && i + 1 < argc)
			*opt = argv[++i];
		else if (opt)
			return host_usage_error("disks", "%s wants a value", argv[i]);
		else if (argv[i][0] == '-')
			return host_usage_error("disks", "unknown option \"%s\"", argv[i]);
		else if (!sysroot)
			sysroot = argv[i];
		else
			return host_usage_error("disks", "unexpected argument \"%s\"", argv[i]);
	}
	if (!sysroot)
		return host_usage_error("disks", "no SYSROOT given");
	if (!devroot) {
		default_devroot(sysroot, devbuf, sizeof devbuf);
		devroot = devbuf;
	}

	static struct disk disks[DISK_MAX];
	static struct selection sel[DISK_MAX];
	int n = disks_discover(sysroot, devroot, disks, DISK_MAX, err, sizeof err);
	if (n < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (boot && !disks_mark_boot(disks, n, boot))
		fprintf(stderr, "fsmatrix disks: boot medium %s is not among the disks found\n", boot);
	int taken = select_disks(disks, n, spec, wipe, sel, err, sizeof err);
	if (taken < 0) {
		fprintf(stderr, "fsmatrix: %s\n", err);
		return 1;
	}

	printf("%-8s %6s %-16s %-16s %-9s %-30s %-16s %-13s %s\n", "NAME", "SIZE", "MODEL",
	       "SERIAL", "TRANSPORT", "PATH", "SIGNATURE", "VERDICT", "REASON");
	for (int i = 0; i < n; i++) {
		const struct disk *d = &disks[i];
		char size[16], m[64], s[64], p[160], sig[130], sc[130];
		human_size(d->size, size, sizeof size);
		snprintf(sig, sizeof sig, "%s%s%s", d->signature, d->label[0] ? ":" : "", d->label);
		printf("%-8s %6s %-16s %-16s %-9s %-30s %-16s %-13s %s\n", d->name, size,
		       col(d->model, m, sizeof m), col(d->serial, s, sizeof s), d->transport,
		       col(d->by_path, p, sizeof p), col(d->signature[0] ? sig : "", sc, sizeof sc),
		       verdict_name(sel[i].verdict), sel[i].reason);
	}
	for (int i = 0; i < n; i++)
		if (strcmp(disks[i].signature, "unreadable") == 0)
			printf("fsmatrix: %s (so it counts as not blank)\n", disks[i].sig_where);
	char unmatched[256];
	if (select_unmatched(disks, n, spec, unmatched, sizeof unmatched))
		printf("fsmatrix: fsmatrix.disks items that match no disk: %s\n", unmatched);
	printf("fsmatrix: %d disk%s found, %d taken\n", n, n == 1 ? "" : "s", taken);
	return 0;
}
