/* fuzz_plan.c: plan_parse on any bytes; every plan that parses is then expanded into cells and
 * each cell's commands are built, since that code trusts the values the parser let through.
 * Invariants: a failure gives errors, each one line "fuzz.ini:LINE: message"; a success gives
 * at least one array, fs and workload. */
#include "fuzz.h"
#include "core/command/cellcmd.h"
#include "core/command/cellshow.h"
#include "core/matrix/matrix.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"

#include <ctype.h>

#define CELLS_MAX 64   /* enough to reach every section; more only slows the fuzzer */

static void check_errors(const struct plan *p)
{
	FUZZ_ASSERT(p->nerrors > 0, "plan_parse failed with no error");
	int kept = p->nerrors < PLAN_ERRORS_MAX ? p->nerrors : PLAN_ERRORS_MAX;
	for (int i = 0; i < kept; i++) {
		const char *e = p->errors[i];
		fuzz_one_line(e, PLAN_ERROR_LEN);
		FUZZ_ASSERT(strncmp(e, "fuzz.ini:", 9) == 0, "no file in \"%s\"", e);
		const char *d = e + 9;
		FUZZ_ASSERT(isdigit((unsigned char)*d), "no line number in \"%s\"", e);
		while (isdigit((unsigned char)*d))
			d++;
		FUZZ_ASSERT(d[0] == ':' && d[1] == ' ' && d[2], "no message after the position in \"%s\"", e);
	}
}

static void show_line(void *ctx, const char *line)
{
	(void)ctx;
	FUZZ_ASSERT(strchr(line, '\n') == NULL, "cell_show line spans lines: \"%s\"", line);
}

static void run_cells(struct plan *p)
{
	static const char *const disks[] = {
		"/dev/vdb", "/dev/vdc", "/dev/vdd", "/dev/vde", "/dev/vdf", "/dev/vdg", "/dev/vdh",
		"/dev/vdi",
	};
	const int ndisks = sizeof disks / sizeof disks[0];
	struct estimate_model m;
	estimate_model_default(&m);
	plan_check_disks(p, ndisks);
	int n = matrix_count(p);
	FUZZ_ASSERT(n >= 0, "matrix_count %d", n);
	FUZZ_ASSERT(matrix_cell(p, n, &(struct cell){ 0 }) == -1, "cell %d past the end exists", n);
	for (int i = 0; i < n && i < CELLS_MAX; i++) {
		static struct cell c;
		static struct argv a;
		struct geometry g;
		struct warnings w = { 0 };
		char err[256], data[4096], names[256];
		unsigned long flags;
		double resync, total = 0;
		int nwarn = 0;
		FUZZ_ASSERT(matrix_cell(p, i, &c) == 0, "cell %d of %d missing", i, n);
		FUZZ_ASSERT(memchr(c.id, '\0', sizeof c.id) != NULL, "cell id not terminated");
		if (cell_mdadm_argv(p, &c, "/dev/md0", disks, ndisks, &a, err, sizeof err) != 0)
			fuzz_one_line(err, sizeof err);
		const char *dev = cell_target(p, &c, "/dev/md0", disks);
		FUZZ_ASSERT(dev != NULL, "no target for cell %d", i);
		if (cell_mkfs_argv(p, &c, dev, &a, &g, &w, err, sizeof err) != 0)
			fuzz_one_line(err, sizeof err);
		if (cell_tune_argv(p, &c, dev, &a, err, sizeof err) != 0)
			fuzz_one_line(err, sizeof err);
		if (mount_opts_split(p->fs[c.fs].mount[c.mount], &flags, data, sizeof data) == 0)
			mount_flags_names(flags, names, sizeof names);
		cell_estimate(p, &c, &m, &resync);
		cell_show(p, &c, disks, ndisks, &m, &total, &nwarn, show_line, NULL);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct plan p;
	if (plan_parse("fuzz.ini", (const char *)data, size, &p) != 0) {
		check_errors(&p);
		return 0;
	}
	FUZZ_ASSERT(p.nerrors == 0, "plan_parse succeeded with %d errors", p.nerrors);
	FUZZ_ASSERT(p.narrays > 0 && p.nfs > 0 && p.nworkloads > 0, "a plan without cells parsed");
	run_cells(&p);
	/* fsmatrix.scale= is applied after parsing: the smallest and largest values it allows */
	plan_scale(&p, size & 1 ? 0.001 : 1000.0);
	run_cells(&p);
	return 0;
}
