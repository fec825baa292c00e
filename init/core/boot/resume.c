/* core/boot/resume.c: the journal read back at boot, and the decision for each cell. */
#include "core/boot/resume.h"
#include "lib/jscan.h"
#include <stdio.h>
#include <string.h>

const char *const resume_status_names[RESUME_NSTATUS] = { "ok", "error", "skipped", "timeout",
							  "interrupted", "hung" };

static int status_index(const char *s)
{
	for (int i = 0; i < RESUME_NSTATUS; i++)
		if (strcmp(resume_status_names[i], s) == 0)
			return i;
	return 1; /* an unknown status is a final record all the same: count it as an error */
}

static struct resume_cell *cell_of(const char *line, size_t n, struct resume_cell *cells,
				   int ncells)
{
	long long index;
	if (json_member_int(line, n, "index", &index) < 0 || index < 1 || index > ncells)
		return NULL;
	return &cells[index - 1];
}

/* conditions.inputs.disks of the first header: each taken disk's serial and write cache as
 * the device said it ("on", "off"; anything else, the kernel's belief, is not kept). */
static void first_write_caches(const char *line, size_t n, struct journal *j)
{
	const char *c, *in, *arr, *d;
	size_t cl, il, al, dl;
	if (json_member(line, n, "conditions", &c, &cl) < 0 || json_member(c, cl, "inputs", &in, &il) < 0 ||
	    json_member(in, il, "disks", &arr, &al) < 0)
		return;
	for (int i = 0; j->nwc < RESUME_WC_MAX && json_item(arr, al, i, &d, &dl) == 0; i++) {
		struct resume_wc *w = &j->wc[j->nwc];
		if (json_member_str(d, dl, "serial", w->serial, sizeof w->serial) < 0 || !w->serial[0] ||
		    json_member_str(d, dl, "write_cache", w->found, sizeof w->found) < 0 ||
		    (strcmp(w->found, "on") && strcmp(w->found, "off")))
			continue;
		j->nwc++;
	}
}

const char *journal_first_write_cache(const struct journal *j, const char *serial)
{
	for (int i = 0; serial[0] && i < j->nwc; i++)
		if (strcmp(j->wc[i].serial, serial) == 0)
			return j->wc[i].found;
	return NULL;
}

static void header_line(const char *line, size_t n, struct journal *j)
{
	const char *plan;
	size_t pl;
	if (j->run[0])
		return; /* a resumed run writes a header per boot: the first one names the run */
	if (json_member_str(line, n, "run", j->run, sizeof j->run) < 0)
		j->run[0] = '\0';
	if (json_member(line, n, "plan", &plan, &pl) == 0) {
		const char *sc;
		size_t sl;
		if (json_member_str(plan, pl, "sha256", j->plan_sha256, sizeof j->plan_sha256) < 0)
			j->plan_sha256[0] = '\0';
		if (json_member(plan, pl, "scale", &sc, &sl) == 0 && sl < sizeof j->scale)
			snprintf(j->scale, sizeof j->scale, "%.*s", (int)sl, sc);
	}
	const char *sh;
	size_t sl;
	long long k, nn;
	if (json_member(line, n, "shard", &sh, &sl) == 0 && json_member_int(sh, sl, "k", &k) == 0 &&
	    json_member_int(sh, sl, "n", &nn) == 0)
		snprintf(j->shard, sizeof j->shard, "%lld/%lld", k, nn);
	first_write_caches(line, n, j);
	const char *arr, *d;
	size_t al, dl;
	if (json_member(line, n, "disks", &arr, &al) < 0)
		return;
	for (int i = 0; j->ndisks < RESUME_DISKS_MAX && json_item(arr, al, i, &d, &dl) == 0; i++) {
		char verdict[32];
		struct resume_disk *r = &j->disks[j->ndisks];
		if (json_member_str(d, dl, "verdict", verdict, sizeof verdict) < 0 ||
		    strcmp(verdict, "taken") != 0)
			continue;
		memset(r, 0, sizeof *r);
		/* a name missing, null or escaped is left empty: it then matches nothing */
		json_member_str(d, dl, "serial", r->serial, sizeof r->serial);
		json_member_str(d, dl, "wwn", r->wwn, sizeof r->wwn);
		json_member_str(d, dl, "by_path", r->by_path, sizeof r->by_path);
		if (r->serial[0] || r->wwn[0] || r->by_path[0])
			j->ndisks++;
	}
}

int journal_took(const struct journal *j, const char *serial, const char *wwn, const char *by_path)
{
	for (int i = 0; i < j->ndisks; i++) {
		const struct resume_disk *r = &j->disks[i];
		if (r->serial[0] || serial[0]) {
			if (strcmp(r->serial, serial) == 0)
				return 1;
			continue;
		}
		if (r->wwn[0] || wwn[0]) {
			if (strcmp(r->wwn, wwn) == 0)
				return 1;
			continue;
		}
		if (r->by_path[0] && strcmp(r->by_path, by_path) == 0)
			return 1;
	}
	return 0;
}

static void record_line(const char *line, size_t n, struct journal *j, struct resume_cell *cells,
			int ncells)
{
	char type[16], what[32];
	if (json_member_str(line, n, "type", type, sizeof type) < 0)
		return;
	if (strcmp(type, "header") == 0) {
		const char *k;
		size_t kl;
		char set[32] = "";
		if (json_member(line, n, "kernel", &k, &kl) == 0 &&
		    json_member_str(k, kl, "set", set, sizeof set) < 0)
			set[0] = '\0';
		journal_arrive(j, set);
		header_line(line, n, j);
	} else if (strcmp(type, "trailer") == 0) {
		j->trailer = 1;
	} else if (strcmp(type, "event") == 0) {
		if (json_member_str(line, n, "event", what, sizeof what) < 0)
			return;
		struct resume_cell *c = cell_of(line, n, cells, ncells);
		long long seed;
		if (strcmp(what, "cell-start") == 0 && c)
			c->starts++;
		else if (strcmp(what, "plan") == 0 && !j->seeded &&
			 json_member_int(line, n, "seed", &seed) == 0 && seed >= 0) {
			j->seeded = 1;
			j->seed = (unsigned long long)seed;
		}
		else if (strcmp(what, "resume") == 0)
			j->resumes++;
		else if (strcmp(what, "kernel-switch") == 0 &&
			 json_member_str(line, n, "to", j->switch_to, sizeof j->switch_to) < 0)
			j->switch_to[0] = '\0';
	} else if (strcmp(type, "summary") == 0) {
		struct resume_cell *c = cell_of(line, n, cells, ncells);
		if (c && json_member_str(line, n, "auto", what, sizeof what) == 0 &&
		    (strcmp(what, "stable") == 0 || strcmp(what, "failing") == 0))
			c->stopped = 1;
	} else if (strcmp(type, "cell") == 0) {
		struct resume_cell *c = cell_of(line, n, cells, ncells);
		if (!c || json_member_str(line, n, "status", what, sizeof what) < 0)
			return;
		int st = status_index(what);
		if (st == RESUME_INTERRUPTED)
			c->interrupted++;
		else if (c->final < 0)
			c->final = st;
	}
}

void journal_scan(const char *text, size_t len, struct journal *j, struct resume_cell *cells,
		  int ncells)
{
	memset(j, 0, sizeof *j);
	for (int i = 0; i < ncells; i++)
		cells[i] = (struct resume_cell){ 0, 0, -1, 0 };
	size_t at = 0;
	while (at < len) {
		const char *line = text + at;
		const char *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		size_t next = at + n + (nl ? 1 : 0);
		int valid = n > 0 && line[0] == '{' && json_valid(line, n) == 0;
		if (valid) {
			j->records++;
			record_line(line, n, j, cells, ncells);
			j->need_newline = !nl;
		} else if (!nl) {
			/* the last write was cut: what it left is not a record */
			j->torn = 1;
			j->keep = at;
			return;
		} else if (n > 0) {
			j->bad++;
		}
		at = next;
	}
	j->keep = len;
}

void journal_arrive(struct journal *j, const char *set)
{
	if (!j->switch_to[0])
		return;
	if (strcmp(set, j->switch_to) == 0) {
		j->misses = 0;
		j->missed[0] = '\0';
	} else if (strcmp(j->missed, j->switch_to) == 0) {
		j->misses++;
	} else {
		memcpy(j->missed, j->switch_to, sizeof j->missed);
		j->misses = 1;
	}
	j->switch_to[0] = '\0';
}

int journal_kernel_misses(const struct journal *j, const char *name)
{
	return strcmp(j->missed, name) == 0 ? j->misses : 0;
}

int journal_resumable(const struct journal *j, const char *plan_sha256, const char *scale,
		      const char *shard, char *why, size_t len)
{
	if (!j->run[0])
		snprintf(why, len, "it has no valid header");
	else if (j->trailer)
		snprintf(why, len, "run %s finished (it has a trailer)", j->run);
	else if (strcmp(j->plan_sha256, plan_sha256) != 0)
		snprintf(why, len, "run %s ran another plan (sha256 %.16s..., this one %.16s...)", j->run,
			 j->plan_sha256[0] ? j->plan_sha256 : "none", plan_sha256);
	else if (strcmp(j->scale, scale) != 0)
		snprintf(why, len, "run %s ran the plan at scale %s, this boot at %s", j->run, j->scale,
			 scale);
	else if (strcmp(j->shard, shard) != 0) {
		/* the same plan and scale, stopped part way: the shard typed is most likely a
		 * mistake, and a new run would leave this one unfinished for good */
		char ran[40], asked[40], fix[64];
		snprintf(ran, sizeof ran, "%s%s", j->shard[0] ? "shard " : "every cell", j->shard);
		snprintf(asked, sizeof asked, "%s%s", shard[0] ? "shard " : "every cell", shard);
		snprintf(fix, sizeof fix, j->shard[0] ? "fsmatrix.shard=%s" : "no fsmatrix.shard=",
			 j->shard);
		snprintf(why, len, "run %s of this plan ran %s and stopped part way, and this boot "
			 "asks %s: refusing to leave it unfinished (boot with %s to resume it, or move "
			 "fsmatrix/results/%s.jsonl aside to start %s afresh; nothing was written to "
			 "any test disk)", j->run, ran, asked, fix, j->run, asked);
		return -2;
	} else
		return 0;
	return -1;
}

int journal_seed(const struct journal *j, int given, unsigned long long asked,
		 unsigned long long *seed, char *why, size_t len)
{
	if (!j->seeded) {
		snprintf(why, len, "run %s's shuffle seed is unknown (no plan event with a seed): its "
			 "order cannot be kept", j->run);
		return -1;
	}
	if (given && asked != j->seed) {
		snprintf(why, len, "run %s shuffles with seed %llu, this boot asks fsmatrix.seed=%llu",
			 j->run, j->seed, asked);
		return -1;
	}
	*seed = j->seed;
	return 0;
}

void resume_decide(const struct resume_cell *c, int retries, struct resume_step *out)
{
	memset(out, 0, sizeof *out);
	out->final = -1;
	if (!c) {
		out->action = RESUME_RUN;
		out->attempt = 1;
		return;
	}
	out->recorded = c->interrupted;
	if (c->final >= 0) {
		out->action = RESUME_SKIP;
		out->final = c->final;
		return;
	}
	/* Every attempt begun without a final record ended in an interruption. */
	out->record_interrupted = c->starts > c->interrupted ? c->starts - c->interrupted : 0;
	if (c->starts > retries) {
		out->action = RESUME_FAIL;
		out->interruptions = c->starts;
		return;
	}
	out->action = RESUME_RUN;
	out->attempt = c->starts + 1;
}
