/* core/model/layer.h: device-mapper layers between the array (md or one plain disk) and the
 * filesystem: crypt (dm-crypt), thin (a dm-thin pool and one thin volume), cache (dm-cache
 * with the smq policy) and writecache (dm-writecache). A plan's [layer NAME] sections say what
 * each layer is; an array's `layers = ` lists the stacks its cells are run with, each an axis
 * value ("md5+luks+pool/xfs/..."). Pure: the kinds and ciphers as tables, the rules of a
 * stack's order, the metadata sizes and the exact dmsetup table lines; cell/layers.c runs
 * them, `fsmatrix check` prints them. */
#ifndef FSM_LAYER_H
#define FSM_LAYER_H
#include <stddef.h>
#include <stdint.h>

#define LAYER_STACK_MAX 4          /* layers in one stack */
#define LAYER_STACKS_MAX 8         /* stacks one array lists */
#define LAYER_DEVS_MAX 16          /* dm devices one stack makes (thin and cache make 4) */
#define LAYER_CIPHER_MAX 48
#define LAYER_TABLE_MAX 512
#define LAYER_DM_PREFIX "fsm-"     /* every dm device a cell makes: teardown finds them so */

enum layer_type { LAYER_CRYPT, LAYER_THIN, LAYER_CACHE, LAYER_WRITECACHE, LAYER_BCACHE,
		  LAYER_TYPES };
enum layer_mode { LAYER_WRITEBACK, LAYER_WRITETHROUGH, LAYER_WRITEAROUND };

/* One [layer NAME] section. */
struct plan_layer {
	char name[48];
	int line;
	int key_line[28];
	int type;                  /* enum layer_type; -1 until type = is given */
	char cipher[LAYER_CIPHER_MAX]; /* crypt: default aes-xts-plain64 */
	int key_bits;              /* crypt: 0 = the cipher's default */
	uint64_t size;             /* thin: the thin volume's bytes, 0 = as big as the pool */
	uint64_t block;            /* thin: the pool's block; cache: the cache block; 0 = 64k;
	                              bcache: make-bcache's bucket, 0 = its 512k */
	int zero;                  /* thin: the pool zeroes each new block (default yes) */
	int cache;                 /* cache, writecache: the cache disk, a position among the
	                              disks handed over (1 = the first) */
	int mode;                  /* cache: enum layer_mode, default writeback */
	/* bcache: what its documentation says a benchmark must set, since its defaults route
	 * sequential I/O and I/O under latency around the cache; all 0 unless the plan says */
	uint64_t sequential_cutoff;      /* bytes; 0 = every I/O through the cache */
	int congested_read_us, congested_write_us;   /* 0 = never bypass for latency */
};

/* A stack, bottom first: indexes into the plan's layers; n = 0 is `none`. */
struct layer_stack {
	int n;
	int layer[LAYER_STACK_MAX];
};

/* A row per kind: the plan's name, the dm targets it makes, the modules it needs (crypt's
 * cipher adds its own), whether it takes a cache disk. */
struct layer_kind {
	const char *name;
	const char *targets;
	const char *modules[3];
	int cache_disk;
};
extern const struct layer_kind layer_kinds[LAYER_TYPES];
const struct layer_kind *layer_kind_named(const char *name);

/* A row per cipher the image's kernel can run: dm-crypt's spec, the modules it needs (the
 * AES itself is built into the kernel: CONFIG_CRYPTO_AES=y), the key sizes it takes and its
 * default. A cipher not here is refused by `check`: the image has no module for it. */
struct layer_cipher {
	const char *spec;
	const char *modules[3];
	int key_bits[4];            /* 0 ends */
	int default_bits;
};
extern const struct layer_cipher layer_ciphers[];
const struct layer_cipher *layer_cipher_named(const char *spec);
/* "aes-xts-plain64, aes-cbc-essiv:sha256": what an error lists. */
void layer_ciphers_text(char *buf, size_t len);
/* The layer's key bits: its own, else its cipher's default. */
int layer_key_bits(const struct plan_layer *l);

/* Whether the stack's order can work: NULL, or why not (a static sentence naming the rule).
 * Rules: a layer once per stack; no thin volume on a thin volume; at most one cache of
 * either kind; no cache above crypt (the cache disk would hold the plaintext). layers are
 * the plan's. */
const char *layer_stack_rule(const struct plan_layer *layers, const struct layer_stack *s);

/* "+luks+pool" for a stack (names as the plan gives them), "" for none: the cell id's part. */
void layer_stack_id(const struct plan_layer *layers, const struct layer_stack *s, char *buf,
		    size_t len);
/* "luks+pool", or "none": the record's axis. */
void layer_stack_name(const struct plan_layer *layers, const struct layer_stack *s, char *buf,
		      size_t len);

/* Metadata sizes in 512-byte sectors. Thin, as thin_metadata_size (thin-provisioning-tools)
 * estimates it for one thin volume: 8 sectors per 126 data blocks (half-full btree leaves)
 * plus 8 per thin volume, at least 2 MiB (lvm2's floor). Cache, as cache_metadata_size does
 * with smq's 4-byte hints: 4 MiB of transaction space plus 16 bytes of mapping and 12 of hint
 * per cache block. */
uint64_t layer_thin_meta_sectors(uint64_t data_sectors, uint64_t block_sectors);
uint64_t layer_cache_meta_sectors(uint64_t cache_sectors, uint64_t block_sectors);

/* One dm device of a stack, in the order they are made (teardown removes them backwards). */
struct layer_dev {
	char name[32];              /* fsm-L-what: L the layer's position in the stack */
	char table[LAYER_TABLE_MAX];/* one line; a crypt table holds KEY where the key goes */
	int layer;                  /* position in the stack */
	int secret;                 /* the table holds the key: given to dmsetup in a file */
	char zero_dev[64];          /* before it is made: this device's first 4 KiB zeroed (a
	                               fresh metadata superblock, never a stale one), or "" */
	char message[64];           /* after it is made: `dmsetup message NAME 0 MESSAGE`, or "" */
	int bcache;                 /* not dm: table is make-bcache's argv, backing and cache
	                               are the devices it formats */
	char backing[64], cache[64];
};

struct layer_plan {
	int n;
	struct layer_dev dev[LAYER_DEVS_MAX];
	char top[64];               /* what mkfs and mount get */
	uint64_t top_sectors;
	uint64_t thin_meta_sectors, cache_meta_sectors;  /* as sized, for the record */
};
#define LAYER_KEY_MARK "KEY"

/* bcache is no device-mapper target: its "device" is make-bcache's command line (its
 * table), registered with the kernel and set through sysfs, and its top /dev/bcache0. */
#define LAYER_BCACHE_DEV "/dev/bcache0"
#define LAYER_BCACHE_NAME "bcache0"
/* "writeback", "writethrough", "writearound": bcache's and dm-cache's word for a mode. */
const char *layer_mode_name(int mode);
/* bcache's sysfs answers: the bracketed choice of "writethrough [writeback] writearound
 * none" into out ("" when none is), and a size as bch_hprint writes it ("0", "512", "4.0M",
 * "1.5G") in bytes, or -1 when it is not one. */
void layer_bcache_choice(const char *text, char *out, size_t len);
long long layer_bcache_bytes(const char *text);

/* dm-cache's counters, from its `dmsetup status` line: "0 LEN cache META_BLOCK USED/TOTAL
 * CACHE_BLOCK USED/TOTAL READ_HITS READ_MISSES WRITE_HITS WRITE_MISSES DEMOTIONS PROMOTIONS
 * DIRTY ..." (the kernel's Documentation/admin-guide/device-mapper/cache.rst). */
struct layer_cache_stats {
	long long used_blocks, total_blocks, read_hits, read_misses, write_hits, write_misses;
	long long demotions, promotions, dirty;
};
/* Returns 0, or -1 for a line that is not dm-cache's. */
int layer_cache_status_parse(const char *line, struct layer_cache_stats *st);

/* The dm devices of stack s over base (base_sectors long; 0 when unknown, as in `check`,
 * where sizes are then printed as <sectors>), with the cache disk at cache_dev
 * (cache_sectors). Returns 0, or -1 with err (a volume that does not fit). */
int layer_plan_build(const struct plan_layer *layers, const struct layer_stack *s,
		     const char *base, uint64_t base_sectors, const char *cache_dev,
		     uint64_t cache_sectors, struct layer_plan *out, char *err, size_t len);

/* The table with the key put in (hex, key_bits / 4 digits), into out. Returns 0 or -1
 * when it does not fit. */
int layer_table_keyed(const char *table, const char *key_hex, char *out, size_t len);
/* A table as dmsetup read it back, with any crypt key replaced by zeros of its length (what
 * dmsetup itself prints without --showkeys), so no key reaches a record. */
void layer_table_masked(const char *table, char *out, size_t len);

#endif
