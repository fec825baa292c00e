/* test_kernels.c: kernels as an axis (core/matrix/kernels.c): the plan key and its errors, the
 * passes of a run (each repetition once under each kernel, the order reversed every other
 * repetition: A B B A A B), positions to (repetition, kernel, slot) and back in interleave
 * and shuffle, each cell exactly once per kernel and repetition, and the orders refused;
 * the matrix's cells under their kernels (ids with @NAME), the command line a switch hands
 * the next kernel, and the journal's account of switches that arrived or did not. */
#include "check.h"
#include <errno.h>
#include "core/matrix/kernels.h"
#include "core/matrix/matrix.h"
#include "core/boot/resume.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

static struct plan p;

static const char *first_error(const char *text)
{
	static char none[] = "";
	if (plan_parse("k.ini", text, strlen(text), &p) == 0)
		return none;
	return p.errors[0];
}

#define SECTIONS "[array d]\nlevel = none\n[fs e]\ntype = ext4\nmount = defaults\n" \
	"[workload s]\ntype = seqwrite\nsize = 16m\n"

static void test_key(void)
{
	CHECK_STR(first_error("[global]\nkernels = 6.1, 6.12\nrepeat = 2\n" SECTIONS), "");
	CHECK_INT(p.nkernels, 2);
	CHECK_STR(p.kernels[0], "6.1");
	CHECK_STR(p.kernels[1], "6.12");
	CHECK_STR(first_error("[global]\nkernels=mine\n" SECTIONS), "");
	CHECK_INT(p.nkernels, 1);
	CHECK_STR(p.kernels[0], "mine");
	CHECK_STR(first_error("[global]\n" SECTIONS), "");
	CHECK_INT(p.nkernels, 0);

	static const struct { const char *val, *error; } bad[] = {
		{ "6.1, 6.1", "k.ini:2: kernels: kernel 6.1 is named twice" },
		{ "6.1,,6.12", "k.ini:2: kernels: expected kernel set names" },
		{ "6.1 6.12", "k.ini:2: kernels: expected kernel set names" },
		{ "a/b", "k.ini:2: kernels: expected kernel set names" },
		{ "a,b,c,d,e,f,g,h,i", "k.ini:2: kernels: at most 8 kernels" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, "[global]\nkernels = %s\n" SECTIONS, bad[i].val);
		const char *e = first_error(text);
		CHECK(strncmp(e, bad[i].error, strlen(bad[i].error)) == 0, "%s: got \"%s\"",
		      bad[i].val, e);
	}
	CHECK_STR(first_error("[global]\nkernels = 6.1, 6.12\norder = sequential\n" SECTIONS),
		  "k.ini:2: [global]: \"kernels\" needs order = interleave or shuffle (sequential "
		  "would switch kernels between every two cells)");
	CHECK_STR(first_error("[global]\nrepeat = auto\nkernels = 6.1, 6.12\n" SECTIONS),
		  "k.ini:3: [global]: \"kernels\" needs a fixed repeat (not auto): each kernel "
		  "runs the same repetitions");
}

static void test_passes(void)
{
	/* two kernels, four repetitions: A B B A A B B A */
	static const int want2[][2] = { { 1, 0 }, { 1, 1 }, { 2, 1 }, { 2, 0 },
					{ 3, 0 }, { 3, 1 }, { 4, 1 }, { 4, 0 } };
	int rep, k;
	for (int pass = 0; pass < 8; pass++) {
		CHECK_INT(kernel_pass(2, 4, pass, &rep, &k), 0);
		CHECK_INT(rep, want2[pass][0]);
		CHECK_INT(k, want2[pass][1]);
		CHECK_INT(kernel_pass_of(2, 4, rep, k), pass);
	}
	/* three kernels: A B C C B A A B C */
	static const int want3[] = { 0, 1, 2, 2, 1, 0, 0, 1, 2 };
	for (int pass = 0; pass < 9; pass++) {
		CHECK_INT(kernel_pass(3, 3, pass, &rep, &k), 0);
		CHECK_INT(k, want3[pass]);
		CHECK_INT(rep, pass / 3 + 1);
	}
	/* one kernel: the plain repetitions */
	CHECK_INT(kernel_pass(1, 3, 2, &rep, &k), 0);
	CHECK_INT(rep, 3);
	CHECK_INT(k, 0);
	CHECK_INT(kernel_pass(2, 4, 8, &rep, &k), -1);
	CHECK_INT(kernel_pass(2, 4, -1, &rep, &k), -1);
	CHECK_INT(kernel_pass(0, 4, 0, &rep, &k), -1);
	CHECK_INT(kernel_pass_of(2, 4, 5, 0), -1);
	CHECK_INT(kernel_pass_of(2, 4, 1, 2), -1);
	CHECK_INT(kernel_pass_of(2, 4, 0, 0), -1);
}

/* Every (repetition, kernel, slot) exactly once, each pass's positions one kernel's and
 * one repetition's, and back again. */
static void test_positions(void)
{
	static const enum plan_order orders[] = { ORDER_INTERLEAVE, ORDER_SHUFFLE };
	enum { PER = 5, REPEAT = 3, NK = 2 };
	for (int o = 0; o < 2; o++) {
		struct order_shape s = order_flat(orders[o], 99, PER, REPEAT);
		int seen[REPEAT][NK][PER] = { { { 0 } } };
		for (int pos = 0; pos < PER * REPEAT * NK; pos++) {
			int rep, k, slot, prep, pk;
			CHECK_INT(kernel_order_at(&s, NK, pos, &rep, &k, &slot), 0);
			CHECK_INT(kernel_pass(NK, REPEAT, pos / PER, &prep, &pk), 0);
			CHECK_INT(rep, prep);
			CHECK_INT(k, pk);
			seen[rep - 1][k][slot]++;
			CHECK_INT(kernel_order_position(&s, NK, rep, k, slot), pos);
			if (orders[o] == ORDER_INTERLEAVE)
				CHECK_INT(slot, pos % PER);
		}
		for (int r = 0; r < REPEAT; r++)
			for (int k = 0; k < NK; k++)
				for (int c = 0; c < PER; c++)
					CHECK_INT(seen[r][k][c], 1);
		int rep, k, slot;
		CHECK_INT(kernel_order_at(&s, NK, PER * REPEAT * NK, &rep, &k, &slot), -1);
		CHECK_INT(kernel_order_position(&s, NK, 1, 0, PER), -1);
	}
	struct order_shape seq = order_flat(ORDER_SEQUENTIAL, 0, PER, REPEAT);
	int rep, k, slot;
	CHECK_INT(kernel_order_at(&seq, NK, 0, &rep, &k, &slot), -1);
	CHECK_INT(kernel_order_position(&seq, NK, 1, 0, 0), -1);
}

/* The matrix of a plan with kernels: per x repeat x kernels cells, each with its kernel in
 * the id and the field, in passes A B B A. */
static void test_matrix(void)
{
	static const char text[] = "[global]\nkernels = 6.1, 6.12\nrepeat = 2\n"
		"[array d]\nlevel = none\n[fs e]\ntype = ext4\nmount = defaults\n"
		"[workload s]\ntype = seqwrite\nsize = 16m\n[workload t]\ntype = seqwrite\nsize = 8m\n";
	CHECK_INT(plan_parse("k.ini", text, strlen(text), &p), 0);
	CHECK_INT(matrix_per_rep(&p), 2);
	CHECK_INT(matrix_count(&p), 8);
	static const struct { int rep, kernel; const char *id; } want[] = {
		{ 1, 0, "d/e/defaults/s@6.1" },  { 1, 0, "d/e/defaults/t@6.1" },
		{ 1, 1, "d/e/defaults/s@6.12" }, { 1, 1, "d/e/defaults/t@6.12" },
		{ 2, 1, "d/e/defaults/s@6.12" }, { 2, 1, "d/e/defaults/t@6.12" },
		{ 2, 0, "d/e/defaults/s@6.1" },  { 2, 0, "d/e/defaults/t@6.1" },
	};
	struct cell c;
	for (int i = 0; i < 8; i++) {
		CHECK_INT(matrix_cell(&p, i, &c), 0);
		CHECK_INT(c.index, i);
		CHECK_INT(c.rep, want[i].rep);
		CHECK_INT(c.kernel, want[i].kernel);
		CHECK_STR(c.id, want[i].id);
	}
	CHECK_INT(matrix_cell(&p, 8, &c), -1);
	CHECK_INT(matrix_slot_cell(&p, 1, 2, &c), 0);
	CHECK_INT(c.index, 7);
	CHECK_STR(c.id, "d/e/defaults/t@6.1");
	static const char plain[] = "[array d]\nlevel = none\n[fs e]\ntype = ext4\nmount = defaults\n"
		"[workload s]\ntype = seqwrite\nsize = 16m\n";
	CHECK_INT(plan_parse("k.ini", plain, strlen(plain), &p), 0);
	CHECK_INT(matrix_cell(&p, 0, &c), 0);
	CHECK_INT(c.kernel, -1);
	CHECK_STR(c.id, "d/e/defaults/s");
}

static void test_switch_cmdline(void)
{
	static const struct { const char *cur, *name, *want; } rows[] = {
		{ "console=ttyS0 fsmatrix.kernel=6.1 fsmatrix.disks=serial:fsm*", "6.12",
		  "console=ttyS0 fsmatrix.disks=serial:fsm* fsmatrix.kernel=6.12" },
		{ "BOOT_IMAGE=/vmlinuz initrd=/initramfs.img  quiet\n", "6.1",
		  "quiet fsmatrix.kernel=6.1" },
		{ "", "6.1", "fsmatrix.kernel=6.1" },
		{ "a=\"x y\" fsmatrix.kernel=b c", "k", "a=\"x y\" c fsmatrix.kernel=k" },
		{ "fsmatrix.kernelx=1", "k", "fsmatrix.kernelx=1 fsmatrix.kernel=k" },
	};
	char out[128];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		CHECK_INT(kernel_switch_cmdline(rows[i].cur, rows[i].name, out, sizeof out), 0);
		CHECK_STR(out, rows[i].want);
	}
	/* too long: refused, never cut */
	CHECK_INT(kernel_switch_cmdline("console=ttyS0", "6.12", out, 20), -1);
	CHECK_INT(kernel_switch_cmdline("console=ttyS0", "6.12", out, 35), 0);
	CHECK_INT(kernel_switch_cmdline("console=ttyS0", "6.12", out, 34), -1);
}

/* Switches that arrived (a header under the kernel switched to) and those that did not. */
static void test_journal_switches(void)
{
	static const char text[] =
		"{\"type\":\"header\",\"run\":\"r1\",\"kernel\":{\"set\":\"6.1\"}}\n"
		"{\"type\":\"event\",\"event\":\"kernel-switch\",\"from\":\"6.1\",\"to\":\"6.12\"}\n"
		"{\"type\":\"header\",\"run\":\"r1\",\"kernel\":{\"set\":\"6.12\"}}\n"
		"{\"type\":\"event\",\"event\":\"kernel-switch\",\"from\":\"6.12\",\"to\":\"x\"}\n"
		"{\"type\":\"header\",\"run\":\"r1\",\"kernel\":{\"set\":\"6.1\"}}\n"
		"{\"type\":\"event\",\"event\":\"kernel-switch\",\"from\":\"6.1\",\"to\":\"x\"}\n";
	struct journal j;
	journal_scan(text, strlen(text), &j, NULL, 0);
	CHECK_STR(j.run, "r1");
	CHECK_INT(journal_kernel_misses(&j, "6.12"), 0);
	CHECK_INT(journal_kernel_misses(&j, "x"), 1);
	CHECK_STR(j.switch_to, "x");      /* the last switch, no header after it yet */
	struct journal k = j;
	journal_arrive(&k, "6.1");        /* this boot came up under 6.1 again: a second miss */
	CHECK_INT(journal_kernel_misses(&k, "x"), 2);
	CHECK_STR(k.switch_to, "");
	journal_arrive(&k, "6.1");        /* no switch pending: nothing changes */
	CHECK_INT(journal_kernel_misses(&k, "x"), 2);
	k = j;
	journal_arrive(&k, "x");          /* it arrived */
	CHECK_INT(journal_kernel_misses(&k, "x"), 0);
	/* a header without a kernel set after a switch: a miss too */
	static const char unnamed[] =
		"{\"type\":\"event\",\"event\":\"kernel-switch\",\"to\":\"6.12\"}\n"
		"{\"type\":\"header\",\"run\":\"r2\",\"kernel\":{\"set\":null}}\n";
	journal_scan(unnamed, strlen(unnamed), &j, NULL, 0);
	CHECK_INT(journal_kernel_misses(&j, "6.12"), 1);
}

/* A bzImage's kernel_version string, and whether it names the kernel running. */
static void test_bzimage(void)
{
	static unsigned char img[0x4400];
	static const char ver[] = "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP "
		"PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)";
	char out[256];
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20E] = 0xc0;
	img[0x20F] = 0x42;   /* 0x42c0 + 0x200, as Debian's 6.1 has it */
	CHECK_INT(bzimage_version(img, sizeof img, out, sizeof out), -1);   /* beyond len */
	static unsigned char big[0x4600];
	memcpy(big, img, sizeof img);
	memcpy(big + 0x44c0, ver, sizeof ver);
	CHECK_INT(bzimage_version(big, sizeof big, out, sizeof out), 0);
	CHECK_STR(out, ver);
	CHECK_INT(bzimage_version(big, sizeof big, out, 20), -1);           /* does not fit */
	CHECK_INT(bzimage_is(out, "6.1.0-57-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"), 1);
	CHECK_INT(bzimage_is(out, "6.12.117+deb12-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"), 0);
	CHECK_INT(bzimage_is(out, "6.1.0-57", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"), 0);
	CHECK_INT(bzimage_is(out, "6.1.0-57-amd64", "#2 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"), 0);
	CHECK_INT(bzimage_is(out, "", ""), 0);
	big[0x202] = 'X';
	CHECK_INT(bzimage_version(big, sizeof big, out, sizeof out), -1);   /* no bzImage */
}

/* The boot's refusal of a missing set names the set (it read "kernels = :" without it). */
static void test_set_unreadable(void)
{
	char why[300];
	kernel_set_unreadable("nonexistent", "/results/fsmatrix/kernels/nonexistent/vmlinuz", ENOENT,
			      why, sizeof why);
	CHECK_STR(why, "kernels = nonexistent: unable to read "
		  "/results/fsmatrix/kernels/nonexistent/vmlinuz: No such file or directory");
	CHECK_STR(kernel_set_files[0], "vmlinuz");
	CHECK_STR(kernel_set_files[1], "initramfs.img");
}

/* A set's name against the release running, when the plan names no kernels and the boot
 * only says fsmatrix.kernel=: a label that is not the kernel running is not kept. */
static void test_name_fits_release(void)
{
	static const struct { const char *name, *release; int want; } rows[] = {
		{ "6.1", "6.1.0-57-amd64", 1 },
		{ "6.12", "6.12.57+deb12-amd64", 1 },
		{ "6.12", "6.1.0-57-amd64", 0 },
		{ "6.1", "6.12.57+deb12-amd64", 0 },
		{ "6.1.0", "6.1.0-57-amd64", 1 },
		{ "6.1", "6.1", 0 },
		{ "mine", "6.1.0-57-amd64", -1 },
		{ "", "6.1.0-57-amd64", -1 },
		{ "6.", "6.1.0-57-amd64", -1 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(kernel_name_fits_release(rows[i].name, rows[i].release) == rows[i].want,
		      "%s against %s", rows[i].name, rows[i].release);
}

int main(void)
{
	test_name_fits_release();
	test_set_unreadable();
	test_bzimage();
	test_matrix();
	test_switch_cmdline();
	test_journal_switches();
	test_key();
	test_passes();
	test_positions();
	return check_done("test_kernels");
}
