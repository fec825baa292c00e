/* core/model/layer.c: the layer kinds and ciphers as tables, a stack's order rules, metadata sizes
 * and the dmsetup table lines of a stack. Pure. */
#include "core/model/layer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct layer_kind layer_kinds[LAYER_TYPES] = {
	[LAYER_CRYPT] = { "crypt", "crypt", { "dm_crypt", NULL, NULL }, 0 },
	[LAYER_THIN] = { "thin", "thin-pool, thin", { "dm_thin_pool", NULL, NULL }, 0 },
	[LAYER_CACHE] = { "cache", "cache (smq)", { "dm_cache", "dm_cache_smq", NULL }, 1 },
	[LAYER_WRITECACHE] = { "writecache", "writecache", { "dm_writecache", NULL, NULL }, 1 },
	[LAYER_BCACHE] = { "bcache", "bcache (not dm)", { "bcache", NULL, NULL }, 1 },
};

/* aesni_intel is the AES a real machine runs (the built-in aes_generic serves a CPU without
 * AES-NI, such as qemu's default one, where aesni_intel's load fails harmlessly). */
const struct layer_cipher layer_ciphers[] = {
	{ "aes-xts-plain64", { "xts", "aesni_intel", NULL }, { 256, 512, 0 }, 512 },
	{ "aes-cbc-essiv:sha256", { "essiv", "aesni_intel", NULL }, { 128, 192, 256, 0 }, 256 },
	{ NULL, { NULL }, { 0 }, 0 },
};

const struct layer_kind *layer_kind_named(const char *name)
{
	for (int i = 0; i < LAYER_TYPES; i++)
		if (strcmp(layer_kinds[i].name, name) == 0)
			return &layer_kinds[i];
	return NULL;
}

const struct layer_cipher *layer_cipher_named(const char *spec)
{
	for (const struct layer_cipher *c = layer_ciphers; c->spec; c++)
		if (strcmp(c->spec, spec) == 0)
			return c;
	return NULL;
}

void layer_ciphers_text(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const struct layer_cipher *c = layer_ciphers; c->spec && n < len; c++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", c->spec);
}

int layer_key_bits(const struct plan_layer *l)
{
	const struct layer_cipher *c = layer_cipher_named(l->cipher);
	return l->key_bits ? l->key_bits : c ? c->default_bits : 0;
}

static int is_cache(int type)
{
	return type == LAYER_CACHE || type == LAYER_WRITECACHE || type == LAYER_BCACHE;
}

const char *layer_mode_name(int mode)
{
	static const char *const names[] = { "writeback", "writethrough", "writearound" };
	return (unsigned)mode < 3 ? names[mode] : "writeback";
}

const char *layer_stack_rule(const struct plan_layer *layers, const struct layer_stack *s)
{
	int seen_thin = 0, seen_cache = 0, seen_crypt = 0;
	for (int i = 0; i < s->n; i++) {
		int t = layers[s->layer[i]].type;
		for (int j = 0; j < i; j++)
			if (s->layer[j] == s->layer[i])
				return "a layer once per stack";
		if (t == LAYER_THIN && seen_thin++)
			return "no thin volume on a thin volume";
		if (is_cache(t) && seen_crypt)
			return "no cache above crypt: the cache disk would hold the plaintext "
			       "(put the cache below it)";
		if (is_cache(t) && seen_cache++)
			return "at most one cache (cache, writecache or bcache) per stack";
		seen_crypt |= t == LAYER_CRYPT;
	}
	return NULL;
}

void layer_stack_id(const struct plan_layer *layers, const struct layer_stack *s, char *buf,
		    size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < s->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "+%s", layers[s->layer[i]].name);
}

void layer_stack_name(const struct plan_layer *layers, const struct layer_stack *s, char *buf,
		      size_t len)
{
	if (!s->n) {
		snprintf(buf, len, "none");
		return;
	}
	layer_stack_id(layers, s, buf, len);
	memmove(buf, buf + 1, strlen(buf));
}

#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

uint64_t layer_thin_meta_sectors(uint64_t data_sectors, uint64_t block_sectors)
{
	uint64_t blocks = block_sectors ? data_sectors / block_sectors : 0;
	uint64_t s = DIV_UP(blocks, 126) * 8 + 8;
	return s < 4096 ? 4096 : s;
}

uint64_t layer_cache_meta_sectors(uint64_t cache_sectors, uint64_t block_sectors)
{
	uint64_t blocks = block_sectors ? cache_sectors / block_sectors : 0;
	return 8192 + DIV_UP(blocks * 16, 512) + DIV_UP(blocks * 12, 512);
}

/* ------------------------------------------------------------------ tables */

struct builder {
	struct layer_plan *out;
	int pos;                    /* the layer's position in the stack */
	int known;                  /* sizes known (0 in `check`) */
	char *err;
	size_t len;
};

static void sectors_text(const struct builder *b, uint64_t v, char *buf, size_t len)
{
	if (b->known)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "<sectors>");
}

/* A new device named fsm-POS-what, its table from fmt. */
static struct layer_dev *dev_add(struct builder *b, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct layer_dev *dev_add(struct builder *b, const char *what, const char *fmt, ...)
{
	struct layer_plan *o = b->out;
	if (o->n >= LAYER_DEVS_MAX)
		return NULL;
	struct layer_dev *d = &o->dev[o->n++];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, LAYER_DM_PREFIX "%d-%s", b->pos, what);
	d->layer = b->pos;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->table, sizeof d->table, fmt, ap);
	va_end(ap);
	return d;
}

static uint64_t block_of(const struct plan_layer *l)
{
	return (l->block ? l->block : 65536) / 512;
}

static int build_crypt(struct builder *b, const struct plan_layer *l, const char *dev,
		       uint64_t *sectors)
{
	char n[32];
	sectors_text(b, *sectors, n, sizeof n);
	struct layer_dev *d = dev_add(b, "crypt", "0 %s crypt %s " LAYER_KEY_MARK " 0 %s 0", n,
				      l->cipher, dev);
	if (d)
		d->secret = 1;
	snprintf(b->out->top, sizeof b->out->top, "/dev/mapper/%s", d ? d->name : "");
	return d ? 0 : -1;
}

static int build_thin(struct builder *b, const struct plan_layer *l, const char *dev,
		      uint64_t *sectors)
{
	uint64_t blk = block_of(l), meta = layer_thin_meta_sectors(*sectors, blk);
	uint64_t data = *sectors > meta ? (*sectors - meta) / blk * blk : 0;
	uint64_t vol = l->size ? l->size / 512 : data;
	if (b->known && (data < blk || vol > data)) {
		snprintf(b->err, b->len, "thin volume of %llu sectors does not fit the pool's %llu "
			 "(%llu sectors of metadata)", (unsigned long long)vol,
			 (unsigned long long)data, (unsigned long long)meta);
		return -1;
	}
	char m[32], dt[32], v[32], pre[40];
	sectors_text(b, meta, m, sizeof m);
	sectors_text(b, data, dt, sizeof dt);
	sectors_text(b, vol, v, sizeof v);
	snprintf(pre, sizeof pre, LAYER_DM_PREFIX "%d-", b->pos);
	b->out->thin_meta_sectors = meta;
	if (!dev_add(b, "tmeta", "0 %s linear %s 0", m, dev) ||
	    !dev_add(b, "tdata", "0 %s linear %s %s", dt, dev, m))
		return -1;
	struct layer_dev *pool = dev_add(b, "pool", "0 %s thin-pool /dev/mapper/%stmeta "
					 "/dev/mapper/%stdata %llu 0 %s", dt, pre, pre,
					 (unsigned long long)blk, l->zero ? "0" :
					 "1 skip_block_zeroing");
	if (!pool)
		return -1;
	snprintf(pool->zero_dev, sizeof pool->zero_dev, "/dev/mapper/%stmeta", pre);
	snprintf(pool->message, sizeof pool->message, "create_thin 0");
	struct layer_dev *t = dev_add(b, "thin", "0 %s thin /dev/mapper/%spool 0", v, pre);
	if (!t)
		return -1;
	snprintf(b->out->top, sizeof b->out->top, "/dev/mapper/%s", t->name);
	*sectors = vol;
	return 0;
}

static int build_cache(struct builder *b, const struct plan_layer *l, const char *dev,
		       uint64_t *sectors, const char *cdev, uint64_t csectors)
{
	uint64_t blk = block_of(l);
	char o[32], pre[40];
	sectors_text(b, *sectors, o, sizeof o);
	snprintf(pre, sizeof pre, LAYER_DM_PREFIX "%d-", b->pos);
	struct layer_dev *top;
	if (l->type == LAYER_WRITECACHE) {
		top = dev_add(b, "wcache", "0 %s writecache s %s %s 4096 0", o, dev, cdev);
		if (top)
			snprintf(top->zero_dev, sizeof top->zero_dev, "%s", cdev);
	} else {
		uint64_t meta = layer_cache_meta_sectors(csectors, blk);
		uint64_t data = csectors > meta ? (csectors - meta) / blk * blk : 0;
		if (b->known && data < blk) {
			snprintf(b->err, b->len, "cache disk %s of %llu sectors holds no cache block "
				 "after %llu sectors of metadata", cdev,
				 (unsigned long long)csectors, (unsigned long long)meta);
			return -1;
		}
		char m[32], dt[32];
		sectors_text(b, meta, m, sizeof m);
		sectors_text(b, data, dt, sizeof dt);
		b->out->cache_meta_sectors = meta;
		if (!dev_add(b, "cmeta", "0 %s linear %s 0", m, cdev) ||
		    !dev_add(b, "cdata", "0 %s linear %s %s", dt, cdev, m))
			return -1;
		top = dev_add(b, "cache", "0 %s cache /dev/mapper/%scmeta /dev/mapper/%scdata %s "
			      "%llu 1 %s smq 0", o, pre, pre, dev, (unsigned long long)blk,
			      layer_mode_name(l->mode));
		if (top)
			snprintf(top->zero_dev, sizeof top->zero_dev, "/dev/mapper/%scmeta", pre);
	}
	if (!top)
		return -1;
	snprintf(b->out->top, sizeof b->out->top, "/dev/mapper/%s", top->name);
	return 0;
}

/* make-bcache over the device below and the cache disk: bcache's data starts 8 KiB into the
 * backing device (its superblock before it). The kernel takes a cache of 1024 buckets or
 * more (cache_alloc: "nbuckets is too small"): make-bcache's are 512k unless block says. */
static int build_bcache(struct builder *b, const struct plan_layer *l, const char *dev,
			uint64_t *sectors, const char *cdev, uint64_t csectors)
{
	uint64_t bucket = (l->block ? l->block : 512 * 1024) / 512;
	char opt[32] = "";
	if (b->known && csectors / bucket < 1024) {
		snprintf(b->err, b->len, "bcache's cache disk %s of %llu sectors holds %llu buckets "
			 "of %llu sectors, the kernel takes 1024 or more (a smaller block)", cdev,
			 (unsigned long long)csectors, (unsigned long long)(csectors / bucket),
			 (unsigned long long)bucket);
		return -1;
	}
	if (l->block)
		snprintf(opt, sizeof opt, " --bucket %lluk", (unsigned long long)(l->block / 1024));
	struct layer_dev *d = dev_add(b, "bcache", "make-bcache%s%s -B %s -C %s", opt,
				      l->mode == LAYER_WRITEBACK ? " --writeback" : "", dev, cdev);
	if (!d)
		return -1;
	d->bcache = 1;
	snprintf(d->name, sizeof d->name, "%s", LAYER_BCACHE_NAME);
	snprintf(d->backing, sizeof d->backing, "%s", dev);
	snprintf(d->cache, sizeof d->cache, "%s", cdev);
	snprintf(b->out->top, sizeof b->out->top, "%s", LAYER_BCACHE_DEV);
	if (*sectors > 16)
		*sectors -= 16;
	return 0;
}

int layer_plan_build(const struct plan_layer *layers, const struct layer_stack *s,
		     const char *base, uint64_t base_sectors, const char *cache_dev,
		     uint64_t cache_sectors, struct layer_plan *out, char *err, size_t len)
{
	struct builder b = { out, 0, base_sectors != 0, err, len };
	uint64_t sectors = base_sectors;
	memset(out, 0, sizeof *out);
	snprintf(out->top, sizeof out->top, "%s", base);
	for (int i = 0; i < s->n; i++) {
		const struct plan_layer *l = &layers[s->layer[i]];
		char below[64];
		int rc = -1;
		b.pos = i;
		snprintf(below, sizeof below, "%s", out->top);
		if (l->type == LAYER_CRYPT)
			rc = build_crypt(&b, l, below, &sectors);
		else if (l->type == LAYER_THIN)
			rc = build_thin(&b, l, below, &sectors);
		else if (l->type == LAYER_CACHE || l->type == LAYER_WRITECACHE)
			rc = build_cache(&b, l, below, &sectors, cache_dev ? cache_dev : "<cache disk>",
					 cache_sectors);
		else if (l->type == LAYER_BCACHE)
			rc = build_bcache(&b, l, below, &sectors, cache_dev ? cache_dev : "<cache disk>",
					  cache_sectors);
		if (rc < 0) {
			if (!err[0])
				snprintf(err, len, "more than %d dm devices in one stack", LAYER_DEVS_MAX);
			return -1;
		}
	}
	out->top_sectors = sectors;
	return 0;
}

int layer_table_keyed(const char *table, const char *key_hex, char *out, size_t len)
{
	const char *k = strstr(table, " " LAYER_KEY_MARK " ");
	if (!k)
		return snprintf(out, len, "%s", table) < (int)len ? 0 : -1;
	int n = snprintf(out, len, "%.*s %s %s", (int)(k - table), table, key_hex,
			 k + strlen(" " LAYER_KEY_MARK " "));
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

/* "START LEN crypt CIPHER KEY IV_OFFSET ...": the fifth word of a crypt line. */
void layer_table_masked(const char *table, char *out, size_t len)
{
	snprintf(out, len, "%s", table);
	char *w = out;
	for (int i = 0; i < 2 && w; i++)
		w = strchr(w, ' '), w = w ? w + 1 : NULL;
	if (!w || strncmp(w, "crypt ", 6) != 0)
		return;
	w += 6;
	w = strchr(w, ' ');
	if (!w)
		return;
	for (w++; *w && *w != ' '; w++)
		if (*w != ':')
			*w = '0';
}

void layer_bcache_choice(const char *text, char *out, size_t len)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
	snprintf(out, len, "%.*s", a && b ? (int)(b - a - 1) : 0, a ? a + 1 : "");
}

long long layer_bcache_bytes(const char *text)
{
	static const char units[] = "kMGTPEZY";
	char *end;
	double v = strtod(text, &end);
	if (end == text || v < 0)
		return -1;
	const char *u = *end ? strchr(units, *end) : NULL;
	if (*end && (!u || end[1]))
		return -1;
	for (const char *k = units; u && k <= u; k++)
		v *= 1024;
	return (long long)(v + 0.5);
}

int layer_cache_status_parse(const char *line, struct layer_cache_stats *st)
{
	long long start, len, mblock, mused, mtotal, cblock;
	char target[16];
	memset(st, 0, sizeof *st);
	if (sscanf(line, "%lld %lld %15s %lld %lld/%lld %lld %lld/%lld %lld %lld %lld %lld %lld %lld "
		   "%lld", &start, &len, target, &mblock, &mused, &mtotal, &cblock, &st->used_blocks,
		   &st->total_blocks, &st->read_hits, &st->read_misses, &st->write_hits,
		   &st->write_misses, &st->demotions, &st->promotions, &st->dirty) != 16 ||
	    strcmp(target, "cache") != 0)
		return -1;
	return 0;
}
