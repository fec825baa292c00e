/* core/parse/cmdline.c: the fsmatrix.* kernel parameters. Splits the command line the way the kernel's
 * next_arg() does (double quotes group words, param="a b" and "param=a b" both work), then
 * looks each fsmatrix.* key up in a table. Pure: no I/O. */
#include "core/parse/cmdline.h"
#include "core/matrix/kernels.h"
#include "core/model/plan.h"
#include "core/matrix/shard.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof ((struct cmdline *)0)->kernel == PLAN_KERNEL_NAME_MAX,
	       "fsmatrix.kernel= holds any name a plan's kernels = takes");

enum kind { K_STRING, K_BOOL, K_SHELL, K_SCALE, K_MS, K_WATCHDOG, K_CELL, K_SHARD, K_CONTROL,
	    K_SHA256, K_SEED, K_KERNEL };

struct param {
	const char *key;       /* after "fsmatrix." */
	enum kind kind;
	size_t off;            /* offsetof the field in struct cmdline */
	const char *form;      /* what follows the key in the docs: "=NAME", "=1" */
	const char *help;      /* docs/kernel-parameters.md's row (fsmatrix keys --markdown kernel) */
};

static const struct param params[] = {
	{ "disks", K_STRING, offsetof(struct cmdline, disks), "=",
	  "the test disks: names (`vdb`), `serial:GLOB`, `wwn:GLOB`, `path:GLOB`, `blank`; "
	  "see [Safety](safety.md). Absent: nothing destructive runs" },
	{ "wipe", K_STRING, offsetof(struct cmdline, wipe), "=",
	  "named disks whose existing signatures may be destroyed: the item forms of "
	  "`fsmatrix.disks=` but `blank`; see [Safety](safety.md)" },
	{ "plan", K_STRING, offsetof(struct cmdline, plan), "=NAME",
	  "the plan: `/plans/NAME.ini` in the image, or an absolute path (see "
	  "[Plans](plans.md))" },
	{ "plan_sha256", K_SHA256, offsetof(struct cmdline, plan_sha256), "=HEX",
	  "the sha256 (64 lower-case hex digits, as `sha256sum` prints it) the plan must "
	  "have: `/init` reads the plan `fsmatrix.plan=` (or the default lookup) finds and, "
	  "when its sha256 is another, stops with `fsmatrix: fatal: the plan "
	  "/job/default.ini has sha256 ..., not the ... that fsmatrix.plan_sha256= names: "
	  "refusing to run another plan than the job's (nothing was written to any test "
	  "disk)` and a `fatal` event, before any test disk is written. `fsmatrix lava` "
	  "puts it in every job, beside the plan the job carries ([Running in a "
	  "lab](labs.md))" },
	{ "dry", K_BOOL, offsetof(struct cmdline, dry), "=1",
	  "expand the plan and show every cell with its commands; run none" },
	{ "shell", K_SHELL, offsetof(struct cmdline, shell), "=1|now",
	  "`1`: a fatal error gives a shell on the console before powering off; `now`: a "
	  "shell on the console once the disks and the plan are shown, instead of the run "
	  "(the boot menus' `shell` entry); exit it, or type `poweroff`, `reboot` or `halt` "
	  "(busybox signals PID 1, which stops every process and unmounts the results "
	  "partition first)" },
	{ "debug", K_BOOL, offsetof(struct cmdline, debug), "=1",
	  "more output" },
	{ "scale", K_SCALE, offsetof(struct cmdline, scale), "=X",
	  "multiply every workload size by X (e.g. `0.05` to run a shipped plan quickly); a "
	  "[relative size](plans.md#sizes-relative-to-the-machine) is resolved first and "
	  "then multiplied (`2x ram` with 512 MiB and `0.1` writes about 102 MiB), and the "
	  "cell record keeps the formula and the scale beside the bytes" },
	{ "settle", K_MS, offsetof(struct cmdline, settle_ms), "=MS",
	  "how long to wait for block devices (default 10000)" },
	{ "watchdog", K_WATCHDOG, offsetof(struct cmdline, watchdog_s), "=auto|0|S",
	  "the watchdog's timeout: `auto` (default) is the plan's cell timeout or 120 s (a "
	  "teardown command's bound), whichever is longer, plus 60 s; `0` leaves it off; a "
	  "number sets it in seconds (it must outlast the longest step, or a healthy cell "
	  "reboots the machine). No cell timeout (`timeout = 0`) means no watchdog under "
	  "`auto`" },
	{ "debug_hang", K_CELL, offsetof(struct cmdline, debug_hang), "=N",
	  "testing only: cell N's first attempt hangs PID 1 in the kernel (it freezes the "
	  "test filesystem and writes to it), so that only the watchdog can end it" },
	{ "debug_suspend", K_CELL, offsetof(struct cmdline, debug_suspend), "=N",
	  "testing only: the first attempt of cell N, and of every later cell with "
	  "device-mapper layers, suspends its top layer (`dmsetup suspend --nolockfs`) "
	  "before its workload, which then waits in the kernel for writes that never "
	  "complete (boot test 56)" },
	{ "hang", K_WATCHDOG, offsetof(struct cmdline, hang_s), "=auto|0|S",
	  "how long a task of a cell may sit in D state while no I/O completes on the "
	  "cell's disks before the cell is declared `hung` "
	  "([reliability](reliability.md#a-hung-cell)): `auto` (default) is 120 s, at most "
	  "half the plan's cell timeout and at least 5 s; `0` turns the watch off (the "
	  "watchdog alone then ends a hang); a number sets it in seconds. Keep it under the "
	  "watchdog's timeout, or the watchdog reboots the machine before the evidence is "
	  "kept" },
	{ "shard", K_SHARD, offsetof(struct cmdline, shard_k), "=K/N",
	  "run only shard K of N of the plan's cells (1 <= K <= N <= 1000), for a run split "
	  "over N machines: the split is by cell (a cell's repetitions and its summary stay "
	  "on one machine), the longest estimated cell first to the machine with the least "
	  "so far, the same on every machine. The header records `shard` and the "
	  "`run_group` every shard shares; `fsmatrix check PLAN --shards N` shows the "
	  "split, `fsmatrix report` merges the shards ([Running in a lab](labs.md)). More "
	  "shards than cells is fine: the extra ones run nothing. An unfinished run of the "
	  "same plan on the results partition under another shard (or none) stops the boot, "
	  "naming both, rather than being left unfinished "
	  "([reliability](reliability.md#resume-after-a-reboot)). `0/2`, `3/2` or `2` stop "
	  "the boot with `fsmatrix.shard=3/2: expected K/N, shard K of N with 1 <= K <= N "
	  "<= 1000`" },
	{ "seed", K_SEED, offsetof(struct cmdline, seed), "=N",
	  "the seed of a plan's `order = shuffle` (0 to 9007199254740991), over the plan's "
	  "`seed`: the order a run's `plan` event records (`seed`) is replayed by booting "
	  "the same plan with it, and `fsmatrix check PLAN --seed N` lists it. A resumed "
	  "boot keeps its run's seed, and starts a new run instead when this differs from "
	  "it. Ignored (said on the console) for another order "
	  "([plans](plans.md#warm-up-and-order)). `fsmatrix.seed=x` stops the boot with "
	  "`fsmatrix.seed=x: expected a whole number, 0 to 9007199254740991`" },
	{ "kernel", K_KERNEL, offsetof(struct cmdline, kernel), "=NAME",
	  "the kernel set this boot runs (a folder of `out/kernels/` that `make kernels` "
	  "builds, [image](image.md#more-than-one-kernel-make-kernels)): each cell record "
	  "carries it as `axes.kernel`, and the header as `kernel.set`. `qemu/run --kernel "
	  "NAME` adds it; in a run under several kernels "
	  "([plans](plans.md#kernels-as-an-axis)) `/init` runs the cells of this set only "
	  "and gives the next kernel its own on the switch's command line (a boot without "
	  "it, as from a stick, switches to the first cell's kernel at once). A name is 1 "
	  "to 31 of letters, digits, `.`, `_` and `-`; `fsmatrix.kernel=a/b` stops the boot "
	  "with `fsmatrix.kernel=a/b: expected a kernel set's name (...), such as 6.12`" },
	/* every machine control (core/model/conditions.h) */
#define CMDLINE_CONTROL(id, name, dflt, values, what, where) \
	{ name, K_CONTROL, offsetof(struct cmdline, controls[COND_##id]), "=", what ": " values \
	  ", or `keep`: as found (default `" dflt "`)" COND_IF_PLAN(where, "; wins over the " \
	  "plan's `" name "`") },
	COND_CONTROLS(CMDLINE_CONTROL)
#undef CMDLINE_CONTROL
};

#define PREFIX "fsmatrix."
#define SETTLE_MAX_MS 600000   /* ten minutes: anything longer is a typo, not a slow HBA */
#define SCALE_MAX 1000.0
#define WATCHDOG_MAX_S 65535   /* softdog's own limit */
#define CELL_MAX 1000000

int cmdline_param_doc(int i, const char **key, const char **form, const char **help)
{
	if (i < 0 || (size_t)i >= sizeof params / sizeof params[0])
		return -1;
	*key = params[i].key, *form = params[i].form, *help = params[i].help;
	return 0;
}

static const struct param *find_param(const char *key)
{
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
		if (strcmp(params[i].key, key) == 0)
			return &params[i];
	return NULL;
}

/* Each kind's setter: the value into f, its field in out (has_val 0 for a bare
 * "fsmatrix.KEY"). Returns NULL, or what was expected (for the error line). */
typedef const char *(*setter)(const struct param *p, void *f, const char *val, int has_val,
			      struct cmdline *out);

/* A whole number from min to max into the int at f, no sign. Returns NULL, or want. */
static const char *set_whole(void *f, const char *val, int has_val, long min, long max,
			     const char *want)
{
	char *end;
	if (!has_val || !*val || *val == '-' || *val == '+')
		return want;
	errno = 0;
	long v = strtol(val, &end, 10);
	if (errno || *end || v < min || v > max)
		return want;
	*(int *)f = (int)v;
	return NULL;
}

/* "K/N" with 1 <= K <= N <= SHARD_MAX into shard_k and shard_n (f points at shard_k). */
static const char *set_shard(const struct param *p, void *f, const char *val, int has_val,
			     struct cmdline *out)
{
	static const char want[] = "expected K/N, shard K of N with 1 <= K <= N <= 1000";
	char *end, *slash;
	(void)p, (void)f;
	if (!has_val || !*val || *val == '-' || *val == '+')
		return want;
	errno = 0;
	long k = strtol(val, &slash, 10);
	if (errno || slash == val || *slash != '/' || slash[1] == '-' || slash[1] == '+')
		return want;
	long n = strtol(slash + 1, &end, 10);
	if (errno || end == slash + 1 || *end || k < 1 || n < k || n > SHARD_MAX)
		return want;
	out->shard_k = (int)k;
	out->shard_n = (int)n;
	return NULL;
}

static const char *set_seed(const struct param *p, void *f, const char *val, int has_val,
			    struct cmdline *out)
{
	static const char want[] = "expected a whole number, 0 to 9007199254740991";
	char *end;
	(void)p;
	if (!has_val || *val < '0' || *val > '9')
		return want;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 10);
	if (errno || *end || v > PLAN_SEED_MAX)
		return want;
	*(unsigned long long *)f = v;
	out->seed_given = 1;
	return NULL;
}

static const char *set_control(const struct param *p, void *f, const char *val, int has_val,
			       struct cmdline *out)
{
	static char why[200];
	(void)out;
	if (!has_val || cond_check(cond_find(p->key), val, why, sizeof why) < 0)
		return has_val ? why : "expected a value";
	snprintf(f, COND_VALUE_MAX, "%s", val);
	return NULL;
}

static const char *set_string(const struct param *p, void *f, const char *val, int has_val,
			      struct cmdline *out)
{
	(void)p, (void)out;
	if (!has_val || !*val)
		return "expected a value";
	if (strlen(val) >= CMDLINE_VALUE_MAX)
		return "value too long";
	strcpy(f, val);
	return NULL;
}

static const char *set_sha256(const struct param *p, void *f, const char *val, int has_val,
			      struct cmdline *out)
{
	/* lower case, as sha256sum and every record print it, so that equal is strcmp */
	static const char want[] = "expected 64 hex digits, lower case (sha256sum's)";
	(void)p, (void)out;
	if (!has_val || strlen(val) != 64 || strspn(val, "0123456789abcdef") != 64)
		return want;
	memcpy(f, val, 65);
	return NULL;
}

static const char *set_kernel(const struct param *p, void *f, const char *val, int has_val,
			      struct cmdline *out)
{
	(void)p, (void)out;
	if (!has_val || !kernel_name_ok(val))
		return "expected a kernel set's name (letters, digits, '.', '_', '-'; at most 31 "
		       "characters), such as 6.12";
	snprintf(f, PLAN_KERNEL_NAME_MAX, "%s", val);
	return NULL;
}

static const char *set_bool(const struct param *p, void *f, const char *val, int has_val,
			    struct cmdline *out)
{
	(void)p, (void)out;
	/* A bare flag (fsmatrix.dry) means 1, as for the kernel's own bool parameters. */
	if (!has_val || strcmp(val, "1") == 0)
		*(int *)f = 1;
	else if (strcmp(val, "0") == 0)
		*(int *)f = 0;
	else
		return "expected 0 or 1";
	return NULL;
}

static const char *set_shell(const struct param *p, void *f, const char *val, int has_val,
			     struct cmdline *out)
{
	/* "now" is the boot menu's shell entry: a look at the machine, not a run. */
	if (has_val && strcmp(val, "now") == 0) {
		*(int *)f = CMDLINE_SHELL_NOW;
		return NULL;
	}
	return set_bool(p, f, val, has_val, out) ? "expected 0, 1 or now" : NULL;
}

static const char *set_scale(const struct param *p, void *f, const char *val, int has_val,
			     struct cmdline *out)
{
	char *end;
	(void)p, (void)out;
	if (!has_val || !*val)
		return "expected a number greater than 0";
	errno = 0;
	double v = strtod(val, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > SCALE_MAX)
		return "expected a number greater than 0 and at most 1000";
	*(double *)f = v;
	return NULL;
}

static const char *set_ms(const struct param *p, void *f, const char *val, int has_val,
			  struct cmdline *out)
{
	(void)p, (void)out;
	return set_whole(f, val, has_val, 0, SETTLE_MAX_MS, "expected milliseconds, 0 to 600000");
}

static const char *set_watchdog(const struct param *p, void *f, const char *val, int has_val,
				struct cmdline *out)
{
	(void)p, (void)out;
	/* auto: the cell's timeout plus a margin (pid1/watchdog.c); 0: none */
	if (has_val && strcmp(val, "auto") == 0) {
		*(int *)f = CMDLINE_WATCHDOG_AUTO;
		return NULL;
	}
	return set_whole(f, val, has_val, 0, WATCHDOG_MAX_S, "expected auto, or seconds 0 to 65535");
}

static const char *set_cell(const struct param *p, void *f, const char *val, int has_val,
			    struct cmdline *out)
{
	(void)p, (void)out;
	return set_whole(f, val, has_val, 1, CELL_MAX, "expected a cell number, 1 to 1000000");
}

static const setter setters[] = {
	[K_STRING] = set_string, [K_BOOL] = set_bool,     [K_SHELL] = set_shell,
	[K_SCALE] = set_scale,   [K_MS] = set_ms,         [K_WATCHDOG] = set_watchdog,
	[K_CELL] = set_cell,     [K_SHARD] = set_shard,   [K_CONTROL] = set_control,
	[K_SHA256] = set_sha256, [K_SEED] = set_seed,     [K_KERNEL] = set_kernel,
};

/* One value into its field. Returns NULL, or what was expected (for the error line). */
static const char *set_value(const struct param *p, const char *val, int has_val,
			     struct cmdline *out)
{
	return setters[p->kind](p, (char *)out + p->off, val, has_val, out);
}

/* The next whitespace-separated word, quotes honoured and removed, into word.
 * Returns the position after it, or NULL at the end of the text. */
static const char *next_word(const char *s, char *word, size_t len, int *too_long)
{
	size_t n = 0;
	int quoted = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	*too_long = 0;
	for (; *s; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n'))
			break;
		if (n + 1 < len)
			word[n++] = *s;
		else
			*too_long = 1;
	}
	word[n] = '\0';
	return s;
}

static void set_defaults(struct cmdline *out)
{
	memset(out, 0, sizeof *out);
	out->scale = 1.0;
	out->settle_ms = 10000;
	out->watchdog_s = CMDLINE_WATCHDOG_AUTO;
	out->hang_s = CMDLINE_WATCHDOG_AUTO;
}

/* The message quotes the parameter as given, and quotes let a newline into a word: shown as
 * '?', so the error stays one line on the console. Returns -1 for the caller. */
static int one_line(char *err, size_t errlen)
{
	for (; errlen && *err; err++)
		if ((unsigned char)*err < ' ' || *err == 0x7f)
			*err = '?';
	return -1;
}

int cmdline_parse(const char *text, struct cmdline *out, char *err, size_t errlen)
{
	char word[CMDLINE_VALUE_MAX + 64];
	int too_long;

	set_defaults(out);
	if (!text)
		text = "";
	snprintf(out->raw, sizeof out->raw, "%s", text);
	out->raw[strcspn(out->raw, "\n")] = '\0';

	for (const char *s = text; (s = next_word(s, word, sizeof word, &too_long)) != NULL;) {
		if (strncmp(word, PREFIX, strlen(PREFIX)) != 0)
			continue;
		char *key = word + strlen(PREFIX);
		char *eq = strchr(key, '=');
		const char *val = "";
		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		const struct param *p = find_param(key);
		if (!p) {
			char known[400] = "";
			for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
				snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
					 i ? ", " : "", params[i].key);
			snprintf(err, errlen, PREFIX "%s: unknown parameter (known: %s)", key, known);
			return one_line(err, errlen);
		}
		const char *why = too_long ? "value too long" : set_value(p, val, eq != NULL, out);
		if (why) {
			snprintf(err, errlen, PREFIX "%s%s%.200s: %s", key, eq ? "=" : "", val, why);
			return one_line(err, errlen);
		}
	}
	return 0;
}
