/* report/load.c: turns a source the user names into runs of records. A source is a
 * .jsonl file, a serial console log, a run directory of qemu/run, a FAT results image (read
 * with mtools), or a mounted results partition (a directory holding fsmatrix/results/). */
#include "report/timeseries.h"
#include "lib/file.h"
#include "report/lavalog.h"
#include "report/lean.h"
#include "lib/record.h"
#include "core/disk/mbr.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct loader {
	struct runset *rs;
	const char *source;
	struct rrun *cur;
	int from_console;
	int rej_crc, rej_trunc, rej_json, rej_long;   /* lines rejected before the first record */
	int last_bad;   /* the line just read was rejected (a .jsonl's last one is torn, not bad) */
	char *lava;     /* a LAVA log line's console text (REPORT_LINE_MAX), once one is seen */
	struct series_rows rows;   /* the series record just read's rows, when has_rows */
	int has_rows;
};

static struct rrun *new_run(struct loader *l)
{
	struct runset *rs = l->rs;
	rs->run = realloc(rs->run, (rs->n + 1) * sizeof *rs->run);
	struct rrun *r = &rs->run[rs->n++];
	memset(r, 0, sizeof *r);
	r->source = strdup(l->source);
	r->records = json_array();
	r->headers = json_array();
	r->ok_recs = json_object();
	r->charted = json_object();
	r->refs = json_array();
	r->warmups = json_array();
	r->stops = json_array();
	r->speeds = json_array();
	r->dev_ends = json_array();
	r->from_console = l->from_console;
	/* rejected lines before any record belong to the first run of the source */
	r->rejected_crc = l->rej_crc;
	r->rejected_trunc = l->rej_trunc;
	r->rejected_json = l->rej_json;
	r->rejected_long = l->rej_long;
	l->rej_crc = l->rej_trunc = l->rej_json = l->rej_long = 0;
	l->cur = r;
	return r;
}

/* kind: 'c' bad checksum, 't' truncated, 'j' not JSON, 'l' too long. */
static int *reject_counter(struct loader *l, char kind)
{
	struct rrun *r = l->cur;
	switch (kind) {
	case 'c': return r ? &r->rejected_crc : &l->rej_crc;
	case 't': return r ? &r->rejected_trunc : &l->rej_trunc;
	case 'l': return r ? &r->rejected_long : &l->rej_long;
	default: return r ? &r->rejected_json : &l->rej_json;
	}
}

static void count_reject(struct loader *l, char kind)
{
	(*reject_counter(l, kind))++;
	l->last_bad = 1;
}

/* A reference record, kept in order. A "start" notes how many cell records came before it;
 * the "end" of the same boot lists the cells measured since, which a drift between the two
 * puts in doubt (report/conditions.c). */
static void reference_record(struct rrun *r, json_t *rec)
{
	const char *phase = json_string_value(json_object_get(rec, "phase"));
	json_int_t boot = json_integer_value(json_object_get(rec, "boot"));
	if (phase && strcmp(phase, "start") == 0) {
		json_object_set_new(rec, "_cells_before", json_integer((json_int_t)json_array_size(r->records)));
	} else if (phase && strcmp(phase, "end") == 0) {
		json_t *start = NULL, *x;
		size_t i;
		json_array_foreach(r->refs, i, x)
			if (json_integer_value(json_object_get(x, "boot")) == boot &&
			    json_is_integer(json_object_get(x, "_cells_before")))
				start = x;
		json_t *between = json_array();
		size_t from = start ? (size_t)json_integer_value(json_object_get(start, "_cells_before")) : 0;
		for (i = from; start && i < json_array_size(r->records); i++) {
			json_t *c = json_array_get(r->records, i);
			json_array_append_new(between, json_sprintf("%s rep %lld/%lld",
				json_string_value(json_object_get(c, "cell")) ?: "?",
				(long long)json_integer_value(json_object_get(c, "rep")),
				(long long)json_integer_value(json_object_get(c, "reps"))));
		}
		json_object_set_new(rec, "_between", between);
	}
	json_array_append_new(r->refs, rec);
}

/* One record; a header opens a new run, unless the current one has no header and no cells,
 * or is the same run resumed. */
static void feed(struct loader *l, json_t *rec)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	if (!type) {
		count_reject(l, 'j');
		json_decref(rec);
		return;
	}
	if (strcmp(type, "header") == 0) {
		const char *rid = json_string_value(json_object_get(rec, "run"));
		/* A run resumed after a reboot (pid1/resume.c) writes a header per boot under its
		 * first id: the run goes on, and its first header describes it. */
		if (l->cur && l->cur->header && l->cur->id && rid && strcmp(l->cur->id, rid) == 0) {
			json_array_append_new(l->cur->headers, rec);
			return;
		}
		if (!l->cur || l->cur->header || json_array_size(l->cur->records))
			new_run(l);
		l->cur->header = rec;
		json_array_append(l->cur->headers, rec);
		const char *id = json_string_value(json_object_get(rec, "run"));
		if (id) {
			free(l->cur->id);
			l->cur->id = strdup(id);
		}
		return;
	}
	if (!l->cur)
		new_run(l);
	if (strcmp(type, "cell") == 0 && report_impossible_figure(rec)) {
		l->cur->rejected_figure++;   /* its cell's position is then a lost one */
		json_decref(rec);
	} else if (strcmp(type, "cell") == 0) {
		report_series_note_cell(l->cur, rec);
		json_array_append_new(l->cur->records, rec);
	} else if (strcmp(type, "series") == 0) {
		report_series_take(l->cur, rec, l->has_rows ? &l->rows : NULL, !l->rs->no_charts);
		json_decref(rec);
	} else if (strcmp(type, "reference") == 0) {
		reference_record(l->cur, rec);
	} else if (strcmp(type, "summary") == 0 && json_object_get(rec, "auto")) {
		/* repeat = auto: where a cell stopped, so that its later repetitions are not lost */
		json_array_append_new(l->cur->stops, rec);
	} else if (strcmp(type, "warmup") == 0) {
		/* shaped as a cell record, and kept apart from them: no figure is made of it */
		json_array_append_new(l->cur->warmups, rec);
	} else if (strcmp(type, "bisect") == 0) {
		json_decref(l->cur->bisect);
		l->cur->bisect = rec;
	} else if (strcmp(type, "trailer") == 0) {
		json_decref(l->cur->trailer);
		l->cur->trailer = rec;
	} else if (strcmp(type, "event") == 0 &&
		   strcmp(json_string_value(json_object_get(rec, "event")) ?: "", "plan") == 0) {
		json_decref(l->cur->plan);
		l->cur->plan = rec;
	} else if (strcmp(type, "event") == 0 &&
		   strcmp(json_string_value(json_object_get(rec, "event")) ?: "", "disk-speed") == 0) {
		json_array_append_new(l->cur->speeds, rec);
	} else if (strcmp(type, "event") == 0 &&
		   strcmp(json_string_value(json_object_get(rec, "event")) ?: "", "devices") == 0) {
		json_array_append_new(l->cur->dev_ends, rec);
	} else {
		json_decref(rec);   /* events and summaries: the model recomputes what it shows */
	}
}

/* A console line: a framed record somewhere in it (kernel messages can interleave, so the
 * prefix is searched for), or anything else, which is ignored. */
static void console_line(struct loader *l, const char *line, size_t n)
{
	/* A LAVA job log (lava-run's, or lava-server's output.yaml): the console is in its
	 * "target" entries, escaped; its other entries are the dispatcher's own. */
	size_t m = n;
	while (m && (line[m - 1] == '\n' || line[m - 1] == '\r'))
		m--;
	if (m > 8 && (line[0] == '{' || line[0] == '-')) {
		if (!l->lava && !(l->lava = malloc(REPORT_LINE_MAX)))
			return;
		enum lava_line k = lava_log_line(line, m, l->lava, REPORT_LINE_MAX, &m);
		if (k == LAVA_OTHER)
			return;
		if (k == LAVA_TARGET) {
			line = l->lava;
			n = m;
		}
	}
	const char *p = memmem(line, n, RECORD_PREFIX, sizeof RECORD_PREFIX - 1);
	if (!p)
		return;
	n -= (size_t)(p - line);
	const char *js;
	size_t jl;
	if (record_unframe(p, n, &js, &jl) != 0) {
		/* A complete JSON object whose CRC disagrees was garbled; anything else was cut. */
		size_t hl = sizeof RECORD_PREFIX - 1 + 9;
		json_t *t = n > hl ? json_loadb(p + hl, n - hl, 0, NULL) : NULL;
		count_reject(l, t ? 'c' : 't');
		json_decref(t);
		return;
	}
	json_t *rec = report_parse_record(js, jl, &l->rows, &l->has_rows);
	if (!rec || !json_is_object(rec)) {
		json_decref(rec);
		count_reject(l, 'j');
		return;
	}
	feed(l, rec);
}

static void jsonl_line(struct loader *l, const char *line, size_t n)
{
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	if (n == 0)
		return;
	json_t *rec = report_parse_record(line, n, &l->rows, &l->has_rows);
	if (!rec || !json_is_object(rec)) {
		json_decref(rec);
		count_reject(l, 'j');   /* 't' if it turns out to be the last line: see read_lines */
		return;
	}
	feed(l, rec);
}

/* The lines of a source, each at most REPORT_LINE_MAX bytes with its newline; a longer one is
 * counted and skipped without being held. Returns 1 when the source ran on for
 * REPORT_RUNAWAY bytes without a line break and reading stopped there, else 0. */
static int each_line(struct loader *l, FILE *f, void (*fn)(struct loader *, const char *, size_t))
{
	static char chunk[1 << 16];
	char *line = malloc(REPORT_LINE_MAX);
	size_t len = 0, n;
	unsigned long long run = 0;   /* bytes of the current line, held or not */
	int toolong = 0, stopped = 0;

	while (!stopped && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		for (size_t i = 0; i < n && !stopped;) {
			char *nl = memchr(chunk + i, '\n', n - i);
			size_t take = (nl ? (size_t)(nl - chunk) + 1 : n) - i;
			if (!toolong && len + take > REPORT_LINE_MAX)
				toolong = 1;
			if (!toolong) {
				memcpy(line + len, chunk + i, take);
				len += take;
			}
			run += take;
			i += take;
			if (nl || run >= REPORT_RUNAWAY) {
				l->last_bad = 0;
				if (toolong)
					count_reject(l, 'l');
				else
					fn(l, line, len);
				stopped = !nl;
				len = 0;
				run = 0;
				toolong = 0;
			}
		}
	}
	if (toolong || len) {
		l->last_bad = 0;
		if (toolong)
			count_reject(l, 'l');
		else
			fn(l, line, len);
	}
	free(line);
	return stopped;
}

/* A source's file, when it is a regular file: a device named by mistake would never end
 * (/dev/urandom has line breaks, so no line runs away) and a FIFO would block the open. NULL
 * after one line on stderr saying what it is. */
static FILE *open_file(const char *path)
{
	int fd = file_open_regular(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		int e = errno;
		char why[64];
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "fsmatrix: unable to read %s: %s\n", path, file_why(path, e, why, sizeof why));
	}
	return f;
}

static int read_lines(struct loader *l, const char *path, int console)
{
	FILE *f = open_file(path);
	if (!f)
		return -1;
	l->from_console = console;
	l->cur = NULL;
	l->last_bad = 0;
	int stopped = each_line(l, f, console ? console_line : jsonl_line);
	int err = ferror(f) ? errno : 0;
	fclose(f);
	/* Only the last line of a .jsonl can be cut short (by a power cut mid-write): an
	 * invalid one anywhere else is simply not JSON. */
	if (!console && l->last_bad && *reject_counter(l, 'j') > 0) {
		(*reject_counter(l, 'j'))--;
		(*reject_counter(l, 't'))++;
	}
	if (err)
		fprintf(stderr, "fsmatrix: unable to read %s: %s (the records before are kept)\n", path,
			strerror(err));
	if (stopped)
		fprintf(stderr, "fsmatrix: stopped reading %s after %d MiB without a line break: not a "
			"log or results file\n", path, REPORT_RUNAWAY >> 20);
	if (!l->cur) {
		int n = l->rej_crc + l->rej_trunc + l->rej_json + l->rej_long;
		if (n)
			fprintf(stderr, "fsmatrix: no records in %s (%d line%s rejected: %d bad checksum, "
				"%d truncated, %d not JSON, %d too long)\n", path, n, n == 1 ? "" : "s",
				l->rej_crc, l->rej_trunc, l->rej_json, l->rej_long);
		else
			fprintf(stderr, "fsmatrix: no records in %s\n", path);
		l->rej_crc = l->rej_trunc = l->rej_json = l->rej_long = 0;
		return -1;
	}
	return 0;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir ending in suffix, sorted (run ids sort by time). */
static size_t list_dir(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	*out = NULL;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !has_suffix(e->d_name, suffix))
			continue;
		*out = realloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(*out, n, sizeof **out, cmpstr);
	return n;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A results directory: every <run>.jsonl; a run with no .jsonl but a console log (the
 * results disk filled up, say) is read from its console log. */
static int load_results_dir(struct loader *l, const char *dir)
{
	char **j, **c, path[4096];
	size_t nj = list_dir(dir, ".jsonl", &j);
	size_t nc = list_dir(dir, ".console.log", &c);
	size_t before = l->rs->n;
	for (size_t i = 0; i < nj; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, j[i]);
		read_lines(l, path, 0);
	}
	for (size_t i = 0; i < nc; i++) {
		char stem[512];
		snprintf(stem, sizeof stem, "%.*s.jsonl", (int)(strlen(c[i]) - strlen(".console.log")), c[i]);
		if (bsearch(&(char *){ stem }, j, nj, sizeof *j, cmpstr))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, c[i]);
		read_lines(l, path, 1);
	}
	/* qemu/run's run directory: console.log beside the copied results */
	if (nj == 0 && nc == 0) {
		snprintf(path, sizeof path, "%s/console.log", dir);
		if (access(path, R_OK) == 0)
			read_lines(l, path, 1);
	}
	free_list(j, nj);
	free_list(c, nc);
	if (l->rs->n == before) {
		fprintf(stderr, "fsmatrix: no results in %s (no .jsonl or console log)\n", dir);
		return -1;
	}
	return 0;
}

/* A mounted results partition holds fsmatrix/results/; a run directory of qemu/run holds
 * results/ (the guest's files, copied back) beside console.log, which is the fallback when
 * the guest wrote nothing to its results disk. */
static int load_dir(struct loader *l, const char *dir)
{
	static const char *const subdirs[] = { "fsmatrix/results", "results" };
	char sub[4096];
	struct stat st;
	for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
		snprintf(sub, sizeof sub, "%s/%s", dir, subdirs[i]);
		if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		char **v;
		size_t nj = list_dir(sub, ".jsonl", &v);
		free_list(v, nj);
		size_t nc = list_dir(sub, ".console.log", &v);
		free_list(v, nc);
		if (nj + nc)
			return load_results_dir(l, sub);
	}
	return load_results_dir(l, dir);
}

/* The byte offset of the FAT filesystem in an image: 0 when the image is a bare FAT
 * filesystem, else the start of the first FAT partition in its MBR; -1 when neither. */
static long long fat_offset(const unsigned char *s)
{
	static const unsigned char fat_types[] = { 0x01, 0x04, 0x06, 0x0b, 0x0c, 0x0e, 0xef };
	struct mbr_part e[MBR_PARTS];
	if (mbr_parts(s, e) < 0)
		return -1;
	if (memcmp(s + 0x36, "FAT", 3) == 0 || memcmp(s + 0x52, "FAT32", 5) == 0)
		return 0;
	for (int i = 0; i < MBR_PARTS; i++)
		if (memchr(fat_types, e[i].type, sizeof fat_types))
			return (long long)e[i].lba * 512;
	return -1;
}

static int run_quiet(char *const argv[])
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "fsmatrix: unable to run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int load_image(struct loader *l, const char *path, long long off)
{
	char tmp[] = "/tmp/fsmatrix-report-XXXXXX", img[4200], dest[4200];
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "fsmatrix: unable to create a temporary directory: %s\n", strerror(errno));
		return -1;
	}
	if (off)
		snprintf(img, sizeof img, "%s@@%lld", path, off);
	else
		snprintf(img, sizeof img, "%s", path);
	snprintf(dest, sizeof dest, "%s/results", tmp);
	/* mtools refuses images whose geometry looks odd unless told not to check */
	setenv("MTOOLS_SKIP_CHECK", "1", 1);
	char *argv[] = { "mcopy", "-s", "-n", "-i", img, "::fsmatrix/results", dest, NULL };
	int rc = run_quiet(argv);
	int ret = -1;
	if (rc != 0)
		fprintf(stderr, "fsmatrix: unable to read fsmatrix/results from %s with mcopy (status %d)\n",
			path, rc);
	else
		ret = load_results_dir(l, dest);
	char *rm[] = { "rm", "-rf", tmp, NULL };
	run_quiet(rm);
	return ret;
}

static int load_source(struct loader *l, const char *source);

int report_load(const char *source, struct runset *rs)
{
	struct loader l = { .rs = rs, .source = source };
	int rc = load_source(&l, source);
	free(l.lava);
	free(l.rows.v);
	return rc;
}

static int load_source(struct loader *l, const char *source)
{
	struct stat st;
	if (stat(source, &st) != 0) {
		fprintf(stderr, "fsmatrix: unable to read %s: %s\n", source, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return load_dir(l, source);
	if (has_suffix(source, ".jsonl"))
		return read_lines(l, source, 0);
	unsigned char sec[512];
	FILE *f = open_file(source);
	if (!f)
		return -1;
	size_t n = fread(sec, 1, sizeof sec, f);
	fclose(f);
	if (n == sizeof sec) {
		long long off = fat_offset(sec);
		if (off >= 0)
			return load_image(l, source, off);
	}
	return read_lines(l, source, 1);
}

void report_free_run(struct rrun *r)
{
	for (size_t c = 0; c < r->ncells; c++) {
		struct rcell *x = &r->cells[c];
		free(x->id);
		for (size_t a = 0; x->axis && x->axis[a]; a++)
			free(x->axis[a]);
		free(x->axis);
		json_decref(x->axes);
		json_decref(x->bad);
		json_decref(x->ignored);
		json_decref(x->kernel);
		json_decref(x->device);
		json_decref(x->tun_ignored);
		json_decref(x->ser_bad);
		stats_cell_free(&x->fig);
		free(x->ser);
	}
	free(r->cells);
	free(r->source);
	free(r->id);
	free(r->missing_idx);
	free(r->lost_idx);
	free(r->missing_cells);
	free(r->lost_cells);
	json_decref(r->header);
	json_decref(r->headers);
	json_decref(r->trailer);
	json_decref(r->bisect);
	json_decref(r->plan);
	json_decref(r->records);
	report_series_free(r->series, r->nseries);
	json_decref(r->ok_recs);
	json_decref(r->charted);
	json_decref(r->cell_ix);
	json_decref(r->refs);
	json_decref(r->warmups);
	json_decref(r->stops);
	json_decref(r->speeds);
	json_decref(r->dev_ends);
	json_decref(r->notes);
}

void report_free(struct runset *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		report_free_run(&rs->run[i]);
	free(rs->run);
	rs->run = NULL;
	rs->n = 0;
}
