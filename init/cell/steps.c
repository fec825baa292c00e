/* cell/steps.c: every command and system call of a cell is a step in its record; a
 * step that fails ends the cell as an error carrying the tool's own message, never the run.
 * The cell's first failure is its reason, and its deadline bounds every step but teardown. */
#include "cell/ctx.h"
#include "core/command/toolmsg.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cell_fail(struct cell_ctx *x, enum cell_status st, const char *fmt, ...)
{
	if (x->status != CELL_OK)
		return; /* the first failure is the reason */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->error, sizeof x->error, fmt, ap);
	va_end(ap);
	x->status = st;
}

long long cell_remaining_ms(const struct cell_ctx *x)
{
	if (!x->deadline)
		return 0;
	long long left = x->deadline - boottime_ms();
	return left > 0 ? left : -1;
}

static struct step *step_new(struct cell_ctx *x, const char *const *argv)
{
	struct step *s = x->nsteps < STEP_MAX ? &x->steps[x->nsteps++] : &x->spare;
	size_t used = 0;
	/* Each step is a sign of life: the watchdog's timeout covers the longest one. */
	x->env->ops->pet();
	memset(s, 0, sizeof *s);
	for (int i = 0; argv[i]; i++) {
		size_t l = strlen(argv[i]) + 1;
		if (used + l > sizeof s->words)
			break;
		memcpy(s->words + used, argv[i], l);
		used += l;
		s->nwords++;
	}
	return s;
}

int step_run(struct cell_ctx *x, const char *const *argv, int teardown, struct run_result *out)
{
	long long left = teardown ? TEARDOWN_MS : cell_remaining_ms(x);
	if (left < 0) {
		cell_fail(x, CELL_TIMEOUT, "the cell's timeout of %u s ran out before %s",
			  x->p->timeout_s, argv[0]);
		return -1;
	}
	struct step *s = step_new(x, argv);
	struct run_opts o = { .timeout_ms = (int)(left > 0x7fffffff ? 0x7fffffff : left),
			      .grace_ms = 2000, .out_cap = TEXT_MAX };
	struct run_result r;
	if (run_argv((char *const *)argv, &o, &r) < 0) {
		s->status = 127;
		snprintf(s->err, sizeof s->err, "unable to run %s: %s", argv[0], strerror(errno));
		if (!teardown)
			cell_fail(x, CELL_ERROR, "%s", s->err);
		return -1;
	}
	x->env->ops->reap();
	s->status = r.status;
	s->ms = r.ms;
	s->timed_out = r.timed_out;
	size_t el = r.errlen < sizeof s->err - 1 ? r.errlen : sizeof s->err - 1;
	memcpy(s->err, r.err + (r.errlen - el), el);
	s->err[el] = '\0';
	if (r.timed_out && !teardown)
		cell_fail(x, CELL_TIMEOUT, "%s did not finish within the cell's timeout of %u s: killed",
			  argv[0], x->p->timeout_s);
	int rc = r.timed_out ? -1 : r.status;
	if (out)
		*out = r;
	else
		run_free(&r);
	return rc;
}

int step_must(struct cell_ctx *x, const char *const *argv, struct run_result *out)
{
	struct run_result r = { 0 };
	int rc = step_run(x, argv, 0, &r);
	if (rc > 0) {
		char line[600];
		tool_reason(r.err, r.out, line, sizeof line);
		cell_fail(x, CELL_ERROR, "%s exited with status %d: %s", argv[0], rc,
			  line[0] ? line : "(it said nothing)");
	}
	if (out && rc >= 0)
		*out = r;
	else if (rc >= 0)
		run_free(&r);
	return rc == 0 ? 0 : -1;
}

struct step *syscall_step(struct cell_ctx *x, const char *const *argv, long long t0, int err)
{
	struct step *s = step_new(x, argv);
	s->ms = boottime_ms() - t0;
	s->status = err;
	if (err)
		snprintf(s->err, sizeof s->err, "%s", strerror(err));
	return s;
}

int cell_zero_head(struct cell_ctx *x, const char *dev, size_t bytes, int fail)
{
	char what[32];
	if (bytes >= 1 << 20)
		snprintf(what, sizeof what, "first %zu MiB", bytes >> 20);
	else
		snprintf(what, sizeof what, "first %zu KiB", bytes >> 10);
	const char *argv[] = { "zero", dev, what, NULL };
	long long t0 = boottime_ms();
	int err = file_zero_head(dev, bytes) < 0 ? errno : 0;
	struct step *s = syscall_step(x, argv, t0, err);
	if (!err)
		return 0;
	snprintf(s->err, sizeof s->err, "unable to zero %s: %s", dev, strerror(err));
	if (fail)
		cell_fail(x, CELL_ERROR, "%s", s->err);
	return -1;
}

const char *cell_extra_disk(const struct cell_ctx *x, int position)
{
	int k = 0;
	while (k < position - 1 && x->env->taken[k])
		k++;
	const char *d = x->env->taken[k];
	for (int m = 0; d && m < x->n; m++)
		if (strcmp(x->names[m], d) == 0)
			return NULL;
	return d && disk_present(d) ? d : NULL;
}
