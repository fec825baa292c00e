/* engines/workload.h: what the workload engines share: their CPU accounting, the cache drop,
 * their failures, the random data they write, seqwrite's writer (which seqread reuses to
 * make the file it reads back), and the file set of smallfiles and gen-tree. An engine
 * itself is reached only through the table of engines/engine.h: PID 1 runs it on the
 * filesystem under test and the host CLI runs the same code (`fsmatrix workload ...`) so
 * that it can be compared with fio and GNU tar. Times come from CLOCK_MONOTONIC. Rates are
 * in MB/s with MB = 10^6 bytes (as fio's "MB/s"), never MiB/s.
 *
 * Every engine fills a result whose err is 0 on success, or the errno of the first failure
 * with errmsg saying what failed ("unable to write /mnt/f: No space left on device"); the
 * figures then describe what was done up to that point. Its row's cell_json writes the
 * result's fields into an open JSON object, so the image's cell records and the host CLI
 * use the same names. */
#ifndef FSM_WORKLOAD_H
#define FSM_WORKLOAD_H
#include "lib/clock.h"   /* mono_s(): the engines' clock */
#include "lib/record.h"
#include <stddef.h>
#include <stdint.h>

#define WL_ERR_MAX 320

/* ---------------------------------------------------------------- CPU accounting */

/* The aggregate "cpu" line of /proc/stat, in USER_HZ ticks. guest and guest_nice are
 * already counted in user and nice, so they are left out of the total. */
struct procstat_cpu {
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Parses the first "cpu " line of /proc/stat text. Returns 0, or -1 when absent/short. */
int procstat_parse(const char *text, struct procstat_cpu *out);
unsigned long long procstat_total(const struct procstat_cpu *c);

struct wl_cpu_snap {
	double self_user, self_sys, child_user, child_sys;   /* seconds, getrusage */
	struct procstat_cpu stat;
	int stat_ok;
	double t;                                            /* CLOCK_MONOTONIC seconds */
};

/* Percentages of all the machine's CPU time over the interval (the /proc/stat total, as
 * top and iostat count): user and sys are this process and the children it reaped
 * (getrusage), iowait is the whole machine's. A single busy thread on 2 CPUs is 50%.
 * Writeback done by kernel threads is not in sys. NaN (null in JSON) where /proc/stat was
 * unreadable or the interval under a second (iowait), or the interval under 10 ms (all). */
struct wl_cpu {
	double user_pct, sys_pct, iowait_pct;
};

void wl_cpu_begin(struct wl_cpu_snap *s);
void wl_cpu_end(const struct wl_cpu_snap *start, struct wl_cpu *out);
/* Pure: the percentages from two snapshots (ncpu is used only without /proc/stat). */
void wl_cpu_delta(const struct wl_cpu_snap *a, const struct wl_cpu_snap *b, int ncpu,
		  struct wl_cpu *out);
/* cpu_user_pct, cpu_sys_pct, cpu_iowait_pct */
void wl_cpu_json(struct jw *w, const struct wl_cpu *c);
/* The last fields of every engine's result: the CPU figures, then after a failure "error"
 * (errmsg) and "errno" (err's name). */
void wl_tail_json(struct jw *w, const struct wl_cpu *c, int err, const char *errmsg);

/* sync(), then 3 into /proc/sys/vm/drop_caches (page cache, dentries and inodes).
 * Returns 0, or -1 with errno (EACCES when not root, ENOENT without /proc). */
int wl_drop_caches(void);

/* Sets *err = e and msg (WL_ERR_MAX bytes) to "unable to <fmt...>: <strerror(e)>".
 * Returns -1. */
int wl_fail(int *err, char *msg, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* err of a failure a tool reported in its own words with no errno known (fio exited
 * non-zero: errmsg carries its message). Not an errno: the record's "errno" is null, and a
 * cell's error names none. */
#define WL_ETOOL 0x7ffe

/* "ENOSPC" for ENOSPC; "E?" for numbers not in the table. */
const char *wl_errno_name(int e);
/* 1 when err is an errno (not WL_ETOOL): worth naming after a message. */
int wl_errno_known(int e);

/* ---------------------------------------------------------------- seqwrite's writer */

struct wl_seqwrite_opts {
	uint64_t size;             /* bytes to write */
	uint64_t bs;               /* block size; the last block is short if size is not a multiple */
	int direct;                /* O_DIRECT: size and bs should be multiples of 4096 */
	int fallocate;             /* reserve size bytes (posix_fallocate) before the timed writes */
	int zero;                  /* data: zeroes instead of incompressible pseudo-random bytes */
	uint64_t seed;             /* data = random: the stream's seed (0: PLAN_DEFAULT_SEED) */
	int keep;                  /* leave the file in place (default: unlink it afterwards,
	                              if it is a regular file) */
};

struct wl_seqwrite_res {
	uint64_t bytes;            /* written (less than size only on error) */
	uint64_t bs;
	int direct, zero, fallocate;
	uint64_t seed;             /* of the random data, as written */
	double fallocate_s;        /* reserving the blocks, before and outside the timed part */
	double write_s;            /* first write to last write returning */
	double flush_s;            /* fdatasync */
	double total_s;            /* write_s + flush_s */
	double mbps;               /* bytes / total_s / 10^6 */
	double mbps_noflush;       /* bytes / write_s / 10^6 */
	struct wl_cpu cpu;
	int err;
	char errmsg[WL_ERR_MAX];
};

/* Creates (O_CREAT|O_TRUNC|O_WRONLY) path, writes size bytes in bs blocks from one aligned
 * buffer, then fdatasync inside the timed region, as fio's end_fsync=1. Random data is the
 * seed's (wl_stream_at): no two 4 KiB of the file alike, so a layer that deduplicates or
 * compresses sees none of it; zero data is one zeroed buffer. Open happens before,
 * close and unlink after the timed region.
 * Returns 0, or -1 with res->err and res->errmsg set. */
int wl_seqwrite(const char *path, const struct wl_seqwrite_opts *o, struct wl_seqwrite_res *r);

/* Fills buf with the splitmix64 stream of seed: fast, incompressible, reproducible. */
void wl_fill_random(void *buf, size_t len, uint64_t seed);
/* splitmix64's output for x: one step of the stream, a 64-bit hash of x. */
uint64_t wl_mix64(uint64_t x);
/* A seed's random data as a function of the file offset: byte X is the pool's byte X mod
 * WL_STREAM_POOL (WL_STREAM_POOL bytes of wl_fill_random, filled once), except the first 16
 * bytes of every 4 KiB of the file (X a multiple of WL_STREAM_CHUNK), which carry a stamp
 * made from the chunk's number and the seed. No two 4 KiB chunks of a run alike (the stamp
 * is a bijection of the number), none compressible, and a block costs 16 bytes stamped per
 * 4 KiB instead of a pass over it: fio's scramble_buffers, which stamps the offset and time
 * into each 512 bytes of one buffer, is the model. */
#define WL_STREAM_POOL (1u << 20)
#define WL_STREAM_CHUNK 4096u
struct wl_stream {
	unsigned char *win;        /* the pool, then repeated up to size: a block never wraps */
	size_t size;               /* WL_STREAM_POOL + the largest block asked for */
	uint64_t k0, k1;           /* the stamps' keys, from the seed */
};
/* A window for blocks of at most bs bytes (4096-aligned). 0, or -1 with errno (ENOMEM). */
int wl_stream_init(struct wl_stream *d, size_t bs, uint64_t seed);
/* The data of [off, off + len), len <= the init's bs: a pointer into the window, stamped in
 * place (valid until the next call). Aligned as off is, to 4096 at most. */
const void *wl_stream_at(struct wl_stream *d, uint64_t off, size_t len);
void wl_stream_free(struct wl_stream *d);

/* ---------------------------------------------------------------- the file set */

/* One entry of a generated tree, in creation order: every directory comes before its
 * files and its subdirectories, and a directory's files follow it directly. */
struct tree_entry {
	uint32_t parent;           /* index of the parent directory entry; entry 0 is the root */
	uint32_t is_dir;
	uint64_t size;             /* files: bytes */
	uint32_t off;              /* files: where its content starts in the random pool */
	char name[28];
};

struct tree {
	struct tree_entry *e;      /* e[0] is the root directory itself (name "") */
	size_t n, cap;
	uint64_t files, dirs, bytes;  /* dirs does not count the root */
	uint64_t seed;
};

#define TREE_MAX_DEPTH 5          /* directories below the root */
#define TREE_MAX_FILE (4u << 20)  /* the long tail stops at 4 MiB */
#define TREE_POOL (16u << 20)     /* file contents are slices of this much random data */

/* Generates the file set for (size, files, seed) without touching the disk.
 * files == 0: sizes are drawn until they add up to size (the last one cut to fit), so
 * bytes == size exactly. files > 0: exactly that many files, sizes drawn then scaled so
 * that they add up to size. Returns 0, or -1 with errno ENOMEM. */
int tree_generate(struct tree *t, uint64_t size, uint64_t files, uint64_t seed);
void tree_free(struct tree *t);
/* The path of entry i relative to the root ("" for the root; dirs without a trailing
 * slash). Returns its length, or -1 if buf is short. */
int tree_path(const struct tree *t, size_t i, char *buf, size_t len);

/* Fills TREE_POOL bytes of random content for a seed (malloc'd, NULL on ENOMEM): file i of
 * a tree is t->e[i].size bytes of it from t->e[i].off. */
unsigned char *wl_tree_pool(uint64_t seed);

/* Counts regular files and their bytes below dir (no symlinks followed). 0 or -1/errno. */
int wl_count_tree(const char *dir, uint64_t *files, uint64_t *bytes);

#endif
