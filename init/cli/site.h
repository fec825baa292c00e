/* cli/site.h: `fsmatrix site`, a static site over a history: its options and order
 * (cli/site.c), what it reads of the history (cli/site_data.c), its pages (the summary
 * cli/site_summary.c, the regressions and their feed cli/site_regress.c, a page per
 * series cli/site_series.c, a page per run cli/site_runs.c), and how a page is written
 * only when its bytes changed (cli/site_write.c). */
#ifndef FSM_CLI_SITE_H
#define FSM_CLI_SITE_H
#include "cli/history.h"
#include "report/sitename.h"
#include "core/figures/trend.h"

struct site_opts {
	const char *db, *dir, *url;   /* url: where the site is published, for the feed; or NULL */
	const char *db_name;          /* db's last part: what the pages name (no local path) */
	int by_kernel, all_metrics, quiet;
	struct cp_opts o;
};

struct site_row;

/* One change point of a series, with its triage state. */
struct site_cp {
	struct site_row *row;
	size_t k;                     /* its index in row->s.cp */
	long fixed_by;                /* the index of the one that fixed it, or -1 */
	enum triage state;
	char *note;                   /* the acknowledgement's note, or NULL */
	long long ack_time;
	char anchor[SITENAME_MAX];    /* regressions.html#cp-ANCHOR */
};

/* One cell and metric: its series, its page's name, its glance. */
struct site_row {
	struct hseries s;             /* cell and metric malloc'd here */
	char name[SITENAME_MAX];      /* series/NAME.html and index.html#NAME */
	struct cell_parts parts;
	struct trend t;
	double limit;                 /* the newest point's limit for this metric (MB/s), 0 none */
	size_t nvalues;               /* points with a value: 0 makes a row saying so */
};

struct site_run {
	char *run, *source, *kernels;
	long long time;
	int nfig;                     /* its figures in the history */
	char name[SITENAME_MAX];      /* run/NAME.html */
};

struct site {
	const struct site_opts *o;
	sqlite3 *h;
	struct site_row *row;
	size_t nrow;
	struct site_cp *cp;           /* every change point, newest first */
	size_t ncp;
	struct site_run *run;         /* newest first */
	size_t nrun;
	long long newest;             /* the newest run's time */
	char *state;                  /* the last write's keys of the run pages (.fsmatrix-site) */
	FILE *state_out;
	char *state_buf;
	size_t state_len;
	size_t written, kept, failed;
};

/* The file in the site's folder that marks it as one and keeps its run pages' keys. */
#define SITE_STATE ".fsmatrix-site"

/* cli/site_data.c: the rows, change points and runs of s->h. 0, or 1 after a line. */
int site_read(struct site *s);
void site_data_free(struct site *s);
/* The history's figures of a run as "metric n mean stddev verdict" per cell, for the page of
 * a run whose records cannot be read. */
void site_run_figures(struct site *s, const struct site_run *r, FILE *f);

/* cli/site_write.c: page rel (under the site's folder) as buf[0..len): written (through a
 * temporary file and a rename) only when the file there holds other bytes. 0, or -1 after a
 * line. site_page opens a page in memory; site_done hands it to site_put and frees it. */
int site_put(struct site *s, const char *rel, const char *buf, size_t len);
FILE *site_page(char **buf, size_t *len);
int site_done(struct site *s, const char *rel, FILE *f, char **buf, size_t *len);
/* The run page's key kept from the last write ("" when none), and this write's. */
const char *site_state_key(struct site *s, const char *rel, char *out, size_t len);
void site_state_set(struct site *s, const char *rel, const char *key);
/* The page's head with the site's style and title, the links to the other pages (up: ""
 * or "../"), and its tail. */
void site_head(FILE *f, const char *title, const char *up);
void site_nav(FILE *f, const char *up);
void site_tail(FILE *f);
/* A figure as the tables print it, and a time as RFC 3339 (UTC). */
void site_num(double v, char *out, size_t len);
void site_rfc3339(long long t, char *out, size_t len);

/* the pages */
int site_summary(struct site *s);
int site_regressions(struct site *s);
int site_feed(struct site *s);
int site_series(struct site *s);
int site_runs(struct site *s);

#endif
