/* test_cmdline.c: the kernel command line parser, good and bad input, one row per case. */
#include "check.h"
#include "core/parse/cmdline.h"

static const struct good {
	const char *line;
	const char *disks, *wipe, *plan;
	int dry, shell, debug, settle_ms;
	double scale;
} good[] = {
	/* Nothing of ours: defaults. */
	{ "", "", "", "", 0, 0, 0, 10000, 1.0 },
	{ "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet\n", "", "", "", 0, 0, 0, 10000, 1.0 },
	{ "console=ttyS0 fsmatrix.disks=vdb,vdc", "vdb,vdc", "", "", 0, 0, 0, 10000, 1.0 },
	{ "fsmatrix.disks=serial:fsmtest* fsmatrix.wipe=vdd fsmatrix.plan=quick",
	  "serial:fsmtest*", "vdd", "quick", 0, 0, 0, 10000, 1.0 },
	{ "fsmatrix.dry=1 fsmatrix.shell=1 fsmatrix.debug=1", "", "", "", 1, 1, 1, 10000, 1.0 },
	{ "fsmatrix.dry=1 fsmatrix.dry=0", "", "", "", 0, 0, 0, 10000, 1.0 },   /* last wins */
	{ "fsmatrix.dry", "", "", "", 1, 0, 0, 10000, 1.0 },                   /* bare flag */
	{ "fsmatrix.shell", "", "", "", 0, 1, 0, 10000, 1.0 },
	{ "fsmatrix.dry=1 fsmatrix.shell=now", "", "", "", 1, CMDLINE_SHELL_NOW, 0, 10000, 1.0 },
	{ "fsmatrix.scale=0.25 fsmatrix.settle=2500", "", "", "", 0, 0, 0, 2500, 0.25 },
	{ "fsmatrix.settle=0", "", "", "", 0, 0, 0, 0, 1.0 },
	/* Quotes, as the kernel allows them: around the value or around the whole word. */
	{ "fsmatrix.disks=\"vdb vdc\" quiet", "vdb vdc", "", "", 0, 0, 0, 10000, 1.0 },
	{ "\"fsmatrix.plan=my plan\" fsmatrix.dry=1", "", "", "my plan", 1, 0, 0, 10000, 1.0 },
	{ "  \tfsmatrix.wipe=path:pci-0000:00:0?.0  ", "", "path:pci-0000:00:0?.0", "", 0, 0, 0,
	  10000, 1.0 },
	/* Other people's dotted parameters are not ours. */
	{ "ext4.foo=1 fsmatrixx.dry=1 md_mod.start_ro=1", "", "", "", 0, 0, 0, 10000, 1.0 },
};

static const struct bad {
	const char *line;
	const char *err;
} bad[] = {
	{ "fsmatrix.dry=maybe", "fsmatrix.dry=maybe: expected 0 or 1" },
	{ "fsmatrix.shell=2", "fsmatrix.shell=2: expected 0, 1 or now" },
	{ "fsmatrix.shell=NOW", "fsmatrix.shell=NOW: expected 0, 1 or now" },
	{ "fsmatrix.disk=vdb", "fsmatrix.disk: unknown parameter (known: disks, wipe, plan, plan_sha256, dry, "
	  "shell, debug, scale, settle, watchdog, debug_hang, debug_suspend, hang, shard, seed, kernel, governor, turbo, cstates, "
	  "thp, swap, nmi_watchdog, clocksource)" },
	{ "quiet fsmatrix.=1", "fsmatrix.: unknown parameter (known: disks, wipe, plan, plan_sha256, dry, "
	  "shell, debug, scale, settle, watchdog, debug_hang, debug_suspend, hang, shard, seed, kernel, governor, turbo, cstates, "
	  "thp, swap, nmi_watchdog, clocksource)" },
	/* the machine's controls (core/model/conditions.c) */
	{ "fsmatrix.turbo=maybe", "fsmatrix.turbo=maybe: expected on or off, or keep" },
	{ "fsmatrix.cstates=-1", "fsmatrix.cstates=-1: expected the wakeup latency allowed, in "
	  "microseconds (0: the shallowest idle state only), or keep" },
	{ "fsmatrix.thp=sometimes", "fsmatrix.thp=sometimes: expected always, madvise or never, or keep" },
	{ "fsmatrix.swap=on", "fsmatrix.swap=on: expected none, or keep" },
	{ "fsmatrix.governor", "fsmatrix.governor: expected a value" },
	{ "fsmatrix.disks=", "fsmatrix.disks=: expected a value" },
	{ "fsmatrix.disks", "fsmatrix.disks: expected a value" },
	{ "fsmatrix.scale=0", "fsmatrix.scale=0: expected a number greater than 0 and at most 1000" },
	{ "fsmatrix.scale=-1", "fsmatrix.scale=-1: expected a number greater than 0 and at most 1000" },
	{ "fsmatrix.scale=1x", "fsmatrix.scale=1x: expected a number greater than 0 and at most 1000" },
	{ "fsmatrix.scale=nan", "fsmatrix.scale=nan: expected a number greater than 0 and at most 1000" },
	{ "fsmatrix.settle=10s", "fsmatrix.settle=10s: expected milliseconds, 0 to 600000" },
	{ "fsmatrix.settle=-5", "fsmatrix.settle=-5: expected milliseconds, 0 to 600000" },
	{ "fsmatrix.settle=600001", "fsmatrix.settle=600001: expected milliseconds, 0 to 600000" },
	{ "fsmatrix.settle", "fsmatrix.settle: expected milliseconds, 0 to 600000" },
	/* Quotes let control characters into a word: the message stays one line (found by
	 * tests/fuzz/fuzz_cmdline). */
	{ "\"fsmatrix.dry=1\n\rx\"", "fsmatrix.dry=1??x: expected 0 or 1" },
	{ "\"fsmatrix.d\nry=1\"", "fsmatrix.d?ry: unknown parameter (known: disks, wipe, plan, "
	  "plan_sha256, dry, shell, debug, scale, settle, watchdog, debug_hang, debug_suspend, hang, shard, seed, kernel, governor, turbo, "
	  "cstates, thp, swap, nmi_watchdog, clocksource)" },
#define KERNEL_WANT ": expected a kernel set's name (letters, digits, '.', '_', '-'; at most 31 characters), such as 6.12"
	{ "fsmatrix.kernel", "fsmatrix.kernel" KERNEL_WANT },
	{ "fsmatrix.kernel=", "fsmatrix.kernel=" KERNEL_WANT },
	{ "fsmatrix.kernel=a/b", "fsmatrix.kernel=a/b" KERNEL_WANT },
	{ "fsmatrix.kernel=0123456789012345678901234567890123", "fsmatrix.kernel=0123456789012345678901234567890123" KERNEL_WANT },
	{ "fsmatrix.watchdog=-1", "fsmatrix.watchdog=-1: expected auto, or seconds 0 to 65535" },
	{ "fsmatrix.watchdog=65536", "fsmatrix.watchdog=65536: expected auto, or seconds 0 to 65535" },
	{ "fsmatrix.watchdog=on", "fsmatrix.watchdog=on: expected auto, or seconds 0 to 65535" },
	{ "fsmatrix.debug_hang=0", "fsmatrix.debug_hang=0: expected a cell number, 1 to 1000000" },
	{ "fsmatrix.hang=soon", "fsmatrix.hang=soon: expected auto, or seconds 0 to 65535" },
	{ "fsmatrix.debug_suspend=x", "fsmatrix.debug_suspend=x: expected a cell number, 1 to 1000000" },
	{ "fsmatrix.debug_hang", "fsmatrix.debug_hang: expected a cell number, 1 to 1000000" },
#define SHARD_WANT ": expected K/N, shard K of N with 1 <= K <= N <= 1000"
	{ "fsmatrix.shard=0/2", "fsmatrix.shard=0/2" SHARD_WANT },
	{ "fsmatrix.plan_sha256=abc", "fsmatrix.plan_sha256=abc: expected 64 hex digits, lower case (sha256sum's)" },
	{ "fsmatrix.plan_sha256=967D16751B103170553580AAE55E60D082F8E8A41A4D5C1ADB4CF5938930D4CB",
	  "fsmatrix.plan_sha256=967D16751B103170553580AAE55E60D082F8E8A41A4D5C1ADB4CF5938930D4CB: expected 64 hex digits, lower case (sha256sum's)" },
	{ "fsmatrix.plan_sha256=967d16751b103170553580aae55e60d082f8e8a41a4d5c1adb4cf5938930d4cb0",
	  "fsmatrix.plan_sha256=967d16751b103170553580aae55e60d082f8e8a41a4d5c1adb4cf5938930d4cb0: expected 64 hex digits, lower case (sha256sum's)" },
	{ "fsmatrix.plan_sha256", "fsmatrix.plan_sha256: expected 64 hex digits, lower case (sha256sum's)" },
	{ "fsmatrix.shard=3/2", "fsmatrix.shard=3/2" SHARD_WANT },
	{ "fsmatrix.shard=1/0", "fsmatrix.shard=1/0" SHARD_WANT },
	{ "fsmatrix.shard=2", "fsmatrix.shard=2" SHARD_WANT },
	{ "fsmatrix.shard=1/", "fsmatrix.shard=1/" SHARD_WANT },
	{ "fsmatrix.shard=/2", "fsmatrix.shard=/2" SHARD_WANT },
	{ "fsmatrix.shard=1/2x", "fsmatrix.shard=1/2x" SHARD_WANT },
	{ "fsmatrix.shard=1/-2", "fsmatrix.shard=1/-2" SHARD_WANT },
	{ "fsmatrix.shard=-1/2", "fsmatrix.shard=-1/2" SHARD_WANT },
	{ "fsmatrix.shard=1/1001", "fsmatrix.shard=1/1001" SHARD_WANT },
	{ "fsmatrix.shard", "fsmatrix.shard" SHARD_WANT },
};

/* The watchdog, debug_hang and shard values, which the table above does not carry. */
/* The controls as asked: the command line's value wins over the plan's, else the default. */
static void test_controls(void)
{
	struct cmdline c;
	char err[256];
	CHECK_INT(cmdline_parse("fsmatrix.governor=powersave fsmatrix.thp=never fsmatrix.cstates=keep",
				&c, err, sizeof err), 0);
	CHECK_STR(c.controls[COND_GOVERNOR], "powersave");
	CHECK_STR(c.controls[COND_THP], "never");
	CHECK_STR(c.controls[COND_TURBO], "");
	CHECK_STR(cond_asked(COND_GOVERNOR, c.controls[COND_GOVERNOR], "schedutil"), "powersave");
	CHECK_STR(cond_asked(COND_TURBO, c.controls[COND_TURBO], "off"), "off");
	CHECK_STR(cond_asked(COND_TURBO, "", ""), "keep");
	CHECK_STR(cond_asked(COND_CSTATES, c.controls[COND_CSTATES], ""), "keep");
	CHECK_STR(cond_asked(COND_CSTATES, "", ""), "0");
	CHECK_STR(cond_asked(COND_GOVERNOR, "", ""), "performance");
	CHECK_STR(cond_asked(COND_SWAP, "", ""), "none");
	CHECK_INT(cond_find("nmi_watchdog"), COND_NMI_WATCHDOG);
	CHECK_INT(cond_find("turbos"), -1);
	CHECK_STR(cond_status_name(COND_UNAVAILABLE), "unavailable");
	/* the command line the fingerprint takes: no boot loader words, no disk selectors, no
	 * shuffle seed (the order is the plan event's, not the machine's) */
	char cl[256];
	cond_cmdline("BOOT_IMAGE=/vmlinuz initrd=/initramfs.img console=ttyS0 "
		     "fsmatrix.disks=serial:fsmtest* fsmatrix.wipe=vdb fsmatrix.shard=1/2 "
		     "fsmatrix.thp=never fsmatrix.seed=42 fsmatrix.kernel=6.12  quiet\n", cl, sizeof cl);
	CHECK_STR(cl, "console=ttyS0 fsmatrix.thp=never quiet");
}

static void test_kernel(void)
{
	struct cmdline c;
	char err[256];
	CHECK_INT(cmdline_parse("console=ttyS0 fsmatrix.kernel=6.12", &c, err, sizeof err), 0);
	CHECK_STR(c.kernel, "6.12");
	CHECK_INT(cmdline_parse("fsmatrix.kernel=my_kernel-1.2", &c, err, sizeof err), 0);
	CHECK_STR(c.kernel, "my_kernel-1.2");
	CHECK_INT(cmdline_parse("console=ttyS0", &c, err, sizeof err), 0);
	CHECK_STR(c.kernel, "");
}

static void test_watchdog(void)
{
	static const struct { const char *in; int watchdog_s, debug_hang, shard_k, shard_n; } rows[] = {
		{ "", CMDLINE_WATCHDOG_AUTO, 0, 0, 0 },
		{ "fsmatrix.watchdog=auto", CMDLINE_WATCHDOG_AUTO, 0, 0, 0 },
		{ "fsmatrix.watchdog=0", 0, 0, 0, 0 },
		{ "fsmatrix.watchdog=30 fsmatrix.debug_hang=2", 30, 2, 0, 0 },
		{ "fsmatrix.watchdog=65535", 65535, 0, 0, 0 },
		{ "fsmatrix.shard=1/2", CMDLINE_WATCHDOG_AUTO, 0, 1, 2 },
		{ "fsmatrix.shard=2/2", CMDLINE_WATCHDOG_AUTO, 0, 2, 2 },
		{ "fsmatrix.shard=1/1", CMDLINE_WATCHDOG_AUTO, 0, 1, 1 },
		{ "fsmatrix.shard=1000/1000", CMDLINE_WATCHDOG_AUTO, 0, 1000, 1000 },
		/* more shards than cells is fine: the extra ones are empty */
		{ "fsmatrix.shard=7/999", CMDLINE_WATCHDOG_AUTO, 0, 7, 999 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cmdline c;
		char err[300] = "";
		CHECK(cmdline_parse(rows[i].in, &c, err, sizeof err) == 0, "%s: %s", rows[i].in, err);
		CHECK_INT(c.watchdog_s, rows[i].watchdog_s);
		CHECK_INT(c.debug_hang, rows[i].debug_hang);
		CHECK_INT(c.shard_k, rows[i].shard_k);
		CHECK_INT(c.shard_n, rows[i].shard_n);
	}
	static const struct { const char *in; int hang_s, debug_suspend; } hangs[] = {
		{ "", CMDLINE_WATCHDOG_AUTO, 0 },
		{ "fsmatrix.hang=auto", CMDLINE_WATCHDOG_AUTO, 0 },
		{ "fsmatrix.hang=0", 0, 0 },
		{ "fsmatrix.hang=15 fsmatrix.debug_suspend=2", 15, 2 },
	};
	for (size_t i = 0; i < sizeof hangs / sizeof hangs[0]; i++) {
		struct cmdline c;
		char err[300] = "";
		CHECK(cmdline_parse(hangs[i].in, &c, err, sizeof err) == 0, "%s: %s", hangs[i].in, err);
		CHECK_INT(c.hang_s, hangs[i].hang_s);
		CHECK_INT(c.debug_suspend, hangs[i].debug_suspend);
	}
}

/* Every parameter has its docs row (docs/kernel-parameters.md is written from them), and every
 * one the rows name is one the parser takes. */
static void test_docs(void)
{
	const char *key, *form, *help;
	int n = 0;
	for (; cmdline_param_doc(n, &key, &form, &help) == 0; n++) {
		CHECK(form && form[0] == '=', "fsmatrix.%s: form \"%s\" does not start with =", key,
		      form ? form : "(null)");
		CHECK(help && help[0], "fsmatrix.%s has no help", key);
	}
	CHECK(n > 14, "only %d parameters documented", n);
	CHECK_INT(cmdline_param_doc(-1, &key, &form, &help), -1);
}

int main(void)
{
	test_docs();
	test_controls();
	test_watchdog();
	test_kernel();
	struct cmdline c;
	char err[256];

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		const struct good *g = &good[i];
		err[0] = '\0';
		int rc = cmdline_parse(g->line, &c, err, sizeof err);
		CHECK(rc == 0, "case %zu \"%s\": %s", i, g->line, err);
		CHECK_STR(c.disks, g->disks);
		CHECK_STR(c.wipe, g->wipe);
		CHECK_STR(c.plan, g->plan);
		CHECK_INT(c.dry, g->dry);
		CHECK_INT(c.shell, g->shell);
		CHECK_INT(c.debug, g->debug);
		CHECK_INT(c.settle_ms, g->settle_ms);
		CHECK(c.scale == g->scale, "case %zu: scale %g, want %g", i, c.scale, g->scale);
		CHECK(strchr(c.raw, '\n') == NULL, "case %zu: raw keeps the newline", i);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		int rc = cmdline_parse(bad[i].line, &c, err, sizeof err);
		CHECK_INT(rc, -1);
		CHECK_STR(err, bad[i].err);
	}

	/* The sha256 the plan must have, as sha256sum prints it; none by default. */
	CHECK_INT(cmdline_parse("fsmatrix.plan=/job/a.ini", &c, err, sizeof err), 0);
	CHECK_STR(c.plan_sha256, "");
	CHECK_INT(cmdline_parse("fsmatrix.plan=/job/a.ini fsmatrix.plan_sha256="
				"967d16751b103170553580aae55e60d082f8e8a41a4d5c1adb4cf5938930d4cb", &c, err, sizeof err), 0);
	CHECK_STR(c.plan_sha256, "967d16751b103170553580aae55e60d082f8e8a41a4d5c1adb4cf5938930d4cb");

	/* A value longer than the field is refused, not cut short. */
	char longline[CMDLINE_VALUE_MAX + 64] = "fsmatrix.disks=";
	memset(longline + strlen(longline), 'a', CMDLINE_VALUE_MAX + 10);
	longline[sizeof longline - 1] = '\0';
	CHECK_INT(cmdline_parse(longline, &c, err, sizeof err), -1);
	CHECK(strstr(err, "value too long") != NULL, "got \"%s\"", err);

	/* The raw line is kept for the run header. */
	cmdline_parse("console=ttyS0 fsmatrix.dry=1\n", &c, err, sizeof err);
	CHECK_STR(c.raw, "console=ttyS0 fsmatrix.dry=1");
	return check_done("test_cmdline");
}
