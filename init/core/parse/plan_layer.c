/* core/parse/plan_layer.c: the [layer NAME] sections of a plan (core/model/layer.h) and the `layers = `
 * key of an array: the key table, and the checks once the whole plan is read: each layer's
 * required keys, its cipher against what the image's kernel has, each stack's names and
 * order, a cache disk that is also one of the array's members. */
#include "core/model/level.h"
#include "core/parse/plan_error.h"
#include "core/parse/plan_keys.h"

#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(((struct plan_layer *)0)->name) == PLAN_NAME_MAX, "layer name size");
_Static_assert(sizeof(((struct plan_layer *)0)->key_line) == PLAN_KEYS_MAX * sizeof(int),
	       "layer key_line size");

static const struct choice layer_types[] = {
	{ "crypt", LAYER_CRYPT }, { "thin", LAYER_THIN }, { "cache", LAYER_CACHE },
	{ "writecache", LAYER_WRITECACHE }, { "bcache", LAYER_BCACHE }, { NULL, 0 },
};
static const struct choice layer_modes[] = {
	{ "writeback", LAYER_WRITEBACK }, { "writethrough", LAYER_WRITETHROUGH },
	{ "writearound", LAYER_WRITEAROUND }, { NULL, 0 },
};
static const struct choice yes_no[] = {
	{ "yes", 1 }, { "no", 0 }, { NULL, 0 },
};

#define T(t) (1u << (t))
#define L(f) offsetof(struct plan_layer, f)
#define CACHES (T(LAYER_CACHE) | T(LAYER_WRITECACHE) | T(LAYER_BCACHE))
const struct key layer_keys[] = {
	{ "type", K_CHOICE, L(type), 0, 0, layer_types,
	  "expected crypt, thin, cache, writecache or bcache", 0,
	  .help = "`crypt` (dm-crypt), `thin` (a dm-thin pool and one thin volume), `cache` "
	  "(dm-cache, smq policy), `writecache` (dm-writecache) or `bcache` (bcache over the "
	  "device below, its cache on a named disk) ([below](#device-mapper-layers)) (required)" },
	{ "cipher", K_STR, L(cipher), 0, 0, NULL, NULL, T(LAYER_CRYPT),
	  .def = "aes-xts-plain64",
	  .help = "crypt: dm-crypt's cipher spec, `aes-xts-plain64` or `aes-cbc-essiv:sha256`, the "
	  "ones the image's kernel has modules for" },
	{ "key_bits", K_INT, L(key_bits), 128, 512, NULL, NULL, T(LAYER_CRYPT),
	  .help = "crypt: the key's size, 256 or 512 for XTS, 128, 192 or 256 for CBC (512 for XTS, "
	  "256 for CBC)" },
	{ "size", K_SIZE, L(size), 1 << 20, 0, NULL, NULL, T(LAYER_THIN),
	  .help = "thin: the thin volume's size, at most the pool's (over-provisioning is refused: "
	  "[below](#device-mapper-layers)) (as big as the pool)" },
	{ "block", K_SIZE, L(block), 32768, 1 << 30, NULL, NULL,
	  T(LAYER_THIN) | T(LAYER_CACHE) | T(LAYER_BCACHE),
	  .help = "thin: the pool's block, a power of two from 32k to 1g (64k); cache: the cache "
	  "block (64k); bcache: make-bcache's bucket (the kernel takes a cache of 1024 buckets "
	  "or more)" },
	{ "zero", K_CHOICE, L(zero), 0, 0, yes_no, "expected yes or no", T(LAYER_THIN),
	  .def = "yes",
	  .help = "thin: whether the pool zeroes each block on its first write, `yes` or `no`" },
	{ "cache", K_INT, L(cache), 1, PLAN_DEVICES_MAX, NULL, NULL, CACHES,
	  .help = "cache, writecache, bcache: the disk that holds the cache, by its position among the "
	  "disks handed over (`cache = 5`: the fifth), never one of the array's members "
	  "(required)" },
	{ "mode", K_CHOICE, L(mode), 0, 0, layer_modes, "expected writeback, writethrough or "
	  "writearound", CACHES,
	  .def = "writeback",
	  .help = "cache, writecache, bcache: `writeback` or `writethrough` (writecache only writes "
	  "back); bcache also `writearound`" },
	{ "sequential_cutoff", K_SIZE, L(sequential_cutoff), 0, 0, NULL, NULL, T(LAYER_BCACHE),
	  .help = "bcache: sequential I/O past this size bypasses the cache (0, bcache's own "
	  "default 4m sends a benchmark's streams around the cache: [below](#device-mapper-layers)) "
	  "(0: none bypasses)" },
	{ "congested_read_threshold_us", K_INT, L(congested_read_us), 0, 1000000, NULL, NULL,
	  T(LAYER_BCACHE),
	  .help = "bcache: the cache set's read latency past which I/O bypasses a congested cache, "
	  "in µs; 0 turns the bypass off (0)" },
	{ "congested_write_threshold_us", K_INT, L(congested_write_us), 0, 1000000, NULL, NULL,
	  T(LAYER_BCACHE),
	  .help = "bcache: the same for writes (0)" },
	{ .name = NULL },
};
_Static_assert(sizeof layer_keys / sizeof layer_keys[0] - 1 <= PLAN_KEYS_MAX, "layer keys fit");

void plan_layer_defaults(struct plan_layer *l)
{
	key_defaults(layer_keys, (char *)l);
	l->type = -1;    /* unset: required */
}

static int line_of(const struct plan_layer *l, const char *key)
{
	int i = key_index(layer_keys, key), v = l->key_line[i];
	return v < 0 ? -v : v;
}

static void check_one(struct plan *p, const struct plan_layer *l)
{
	char what[PLAN_NAME_MAX + 16], list[160];
	snprintf(what, sizeof what, "[layer %s]", l->name);
	if (l->type < 0) {
		if (!line_of(l, "type"))
			plan_add_error(p, l->line, "%s: missing required key \"type\" (crypt, thin, "
				       "cache, writecache or bcache)", what);
		return;
	}
	for (int i = 0; layer_keys[i].name; i++) {
		int ln = l->key_line[i] < 0 ? -l->key_line[i] : l->key_line[i];
		if (ln && layer_keys[i].only && !(layer_keys[i].only & T(l->type)))
			plan_add_error(p, ln, "%s: \"%s\" does not apply to type = %s", what,
				       layer_keys[i].name, layer_kinds[l->type].name);
	}
	const struct layer_cipher *c = layer_cipher_named(l->cipher);
	if (l->type == LAYER_CRYPT && !c) {
		layer_ciphers_text(list, sizeof list);
		plan_add_error(p, line_of(l, "cipher"), "%s: cipher %s: the image's kernel has no "
			       "module for it (it has %s)", what, l->cipher, list);
	} else if (l->type == LAYER_CRYPT && l->key_bits) {
		int ok = 0;
		for (int i = 0; c->key_bits[i]; i++)
			ok |= c->key_bits[i] == l->key_bits;
		if (!ok)
			plan_add_error(p, line_of(l, "key_bits"), "%s: key_bits = %d: %s takes %d%s%d",
				       what, l->key_bits, c->spec, c->key_bits[0],
				       c->key_bits[2] ? ", 192 or " : " or ", c->key_bits[2] ?
				       c->key_bits[2] : c->key_bits[1]);
	}
	if (l->block && (l->block & (l->block - 1)) && line_of(l, "block") > 0)
		plan_add_error(p, line_of(l, "block"), "%s: block: expected a power of two from "
			       "32k to 1g", what);
	if (layer_kinds[l->type].cache_disk && !line_of(l, "cache"))
		plan_add_error(p, l->line, "%s: type = %s needs \"cache = N\", the disk (its "
			       "position among the disks handed over) that holds the cache", what,
			       layer_kinds[l->type].name);
	if (l->type == LAYER_WRITECACHE && l->mode == LAYER_WRITETHROUGH)
		plan_add_error(p, line_of(l, "mode"), "%s: dm-writecache only writes back (mode = "
			       "writethrough is type = cache)", what);
	if (l->mode == LAYER_WRITEAROUND && l->type != LAYER_BCACHE)
		plan_add_error(p, line_of(l, "mode"), "%s: mode = writearound is bcache's alone "
			       "(type = bcache)", what);
}

static int layer_named(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nlayers; i++)
		if (strcmp(p->layers[i].name, name) == 0)
			return i;
	return -1;
}

/* One stack "luks+pool" (or "none") of an array's list into s. */
static int parse_stack(struct plan *p, const char *text, struct layer_stack *s, char *msg,
		       size_t mlen)
{
	char buf[PLAN_STR_MAX];
	s->n = 0;
	snprintf(buf, sizeof buf, "%s", text);
	if (strcmp(buf, "none") == 0)
		return 0;
	for (char *save, *w = strtok_r(buf, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
		int i = layer_named(p, w);
		if (i < 0 || p->layers[i].type < 0) {
			snprintf(msg, mlen, i < 0 ? "no [layer %.47s] in the plan" :
				 "[layer %.47s] has no type", w);
			return -1;
		}
		if (s->n >= LAYER_STACK_MAX) {
			snprintf(msg, mlen, "at most %d layers in a stack", LAYER_STACK_MAX);
			return -1;
		}
		s->layer[s->n++] = i;
	}
	if (!s->n) {
		snprintf(msg, mlen, "expected layer names joined by +, or none");
		return -1;
	}
	const char *why = layer_stack_rule(p->layers, s);
	if (why) {
		snprintf(msg, mlen, "%s: %s", text, why);
		return -1;
	}
	return 0;
}

/* A cache disk must be one the array does not take: members are the first disks. */
static int cache_clash(const struct plan *p, const struct plan_array *a,
		       const struct layer_stack *s, char *msg, size_t mlen)
{
	for (int i = 0; i < s->n; i++) {
		const struct plan_layer *l = &p->layers[s->layer[i]];
		if (layer_kinds[l->type].cache_disk && l->cache && l->cache <= plan_array_disks(a)) {
			snprintf(msg, mlen, "[layer %s]'s cache disk %d is a member of the array (its "
				 "members are disks 1 to %d): give cache = %d or more", l->name,
				 l->cache, plan_array_disks(a), plan_array_disks(a) + 1);
			return -1;
		}
	}
	return 0;
}

static void resolve(struct plan *p, struct plan_array *a, int line)
{
	char buf[PLAN_STR_MAX], msg[300];
	struct plan_echo e;
	snprintf(buf, sizeof buf, "%s", a->layers);
	a->nstacks = 0;
	/* btrfs's own RAID hands every disk to mkfs.btrfs: there is no one device under the
	 * filesystem for a mapping to sit on (layers go under btrfs on an md level or none). */
	const char *profile = level_find(a->level)->profile;
	if (profile && strcmp(a->layers, "none") != 0) {
		plan_add_error(p, line, "layers: %s spreads btrfs over the disks itself, with no one "
			       "device for a layer to sit on: give layers = none, or an md level "
			       "(layers = %s)", level_name(a->level), plan_echo(a->layers, &e));
		return;
	}
	for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		while (*w == ' ' || *w == '\t')
			w++;
		size_t n = strlen(w);
		while (n && (w[n - 1] == ' ' || w[n - 1] == '\t'))
			w[--n] = '\0';
		if (a->nstacks >= LAYER_STACKS_MAX) {
			plan_add_error(p, line, "layers: at most %d stacks", LAYER_STACKS_MAX);
			return;
		}
		struct layer_stack *s = &a->stacks[a->nstacks];
		if (parse_stack(p, w, s, msg, sizeof msg) < 0 ||
		    (a->level != -2 && cache_clash(p, a, s, msg, sizeof msg) < 0)) {
			plan_add_error(p, line, "layers: %s (layers = %s)", msg, plan_echo(a->layers, &e));
			a->nstacks = 0;
			return;
		}
		for (int i = 0; i < a->nstacks; i++)
			if (a->stacks[i].n == s->n && !memcmp(a->stacks[i].layer, s->layer,
							      sizeof(int) * (size_t)s->n)) {
				plan_add_error(p, line, "layers: %s is given twice", w);
				a->nstacks = 0;
				return;
			}
		a->nstacks++;
	}
	if (!a->nstacks)
		plan_add_error(p, line, "layers: expected stacks such as none, luks, luks+pool");
}

void plan_check_layers(struct plan *p)
{
	int li = key_index(array_keys, "layers");
	for (int i = 0; i < p->nlayers; i++)
		check_one(p, &p->layers[i]);
	for (int i = 0; i < p->narrays; i++) {
		struct plan_array *a = &p->arrays[i];
		if (a->key_line[li] > 0)
			resolve(p, a, a->key_line[li]);
	}
}

int plan_array_disks_taken(const struct plan *p, const struct plan_array *a)
{
	int m = plan_layers_max_disk(p, a), n = plan_array_disks(a);
	if (p->durability && p->log_disk > m)
		m = p->log_disk;
	return m > n ? m : n;
}

int plan_layers_max_disk(const struct plan *p, const struct plan_array *a)
{
	int need = 0;
	for (int k = 0; k < a->nstacks; k++)
		for (int i = 0; i < a->stacks[k].n; i++) {
			const struct plan_layer *l = &p->layers[a->stacks[k].layer[i]];
			if (layer_kinds[l->type].cache_disk && l->cache > need)
				need = l->cache;
		}
	return need;
}
