/* core/matrix/order.c: positions to (repetition, slot) and back (core/matrix/order.h).
 *
 * A shuffle is a keyed permutation of 0..per-1 rather than a Fisher-Yates table: a balanced
 * Feistel network over the smallest power of four that holds per, walked until it lands
 * inside 0..per-1 (cycle-walking, as format-preserving encryption does). Each round is a
 * permutation of the larger domain, so the walk is one of the smaller, and it runs
 * backwards as easily. Six rounds of splitmix64 keyed by the seed and the repetition. */
#include "core/matrix/order.h"

#define ROUNDS 6

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct feistel {
	uint64_t key;
	int half;          /* bits of each half */
	uint32_t mask;
};

static void feistel_init(struct feistel *f, uint64_t key, int n)
{
	int bits = 2;
	while (bits < 32 && (1u << bits) < (unsigned)n)
		bits += 2;
	f->half = bits / 2;
	f->mask = (1u << f->half) - 1;
	f->key = key;
}

static uint32_t round_fn(const struct feistel *f, int r, uint32_t x)
{
	return (uint32_t)mix(f->key + ((uint64_t)r << 32) + x) & f->mask;
}

static uint32_t forward(const struct feistel *f, uint32_t x)
{
	uint32_t l = x >> f->half, r = x & f->mask;
	for (int i = 0; i < ROUNDS; i++) {
		uint32_t t = l ^ round_fn(f, i, r);
		l = r;
		r = t;
	}
	return l << f->half | r;
}

static uint32_t backward(const struct feistel *f, uint32_t x)
{
	uint32_t l = x >> f->half, r = x & f->mask;
	for (int i = ROUNDS - 1; i >= 0; i--) {
		uint32_t t = r ^ round_fn(f, i, l);
		r = l;
		l = t;
	}
	return l << f->half | r;
}

/* Place i of a keyed shuffle of 0..n-1, or (inverse) the place of element i. */
static int shuffle_key(uint64_t key, int n, int i, int inverse)
{
	struct feistel f;
	feistel_init(&f, key, n);
	uint32_t x = (uint32_t)i;
	do
		x = inverse ? backward(&f, x) : forward(&f, x);
	while (x >= (uint32_t)n);
	return (int)x;
}

/* The keys of one repetition's shuffles: of the blocks (or the flat slots), of the runs in
 * block b, of the cells in run r of block b. The flat one is what a shape without blocks has
 * always used, so a seed replays the same order it did. */
static uint64_t key_rep(uint64_t seed, int rep)
{
	return mix(seed ^ mix((uint64_t)rep));
}

static uint64_t key_in(uint64_t k, int b, int r)
{
	return mix(k ^ mix(((uint64_t)(unsigned)b << 32 | (unsigned)(r + 1)) + 0x5bd1e995u));
}

struct order_shape order_flat(enum plan_order o, uint64_t seed, int per, int repeat)
{
	return (struct order_shape){ .o = o, .seed = seed, .per = per, .repeat = repeat };
}

/* A shape whose blocks tile a repetition and whose runs tile a block. */
static int shape_ok(const struct order_shape *s)
{
	if (s->per <= 0 || s->repeat <= 0)
		return 0;
	if (s->block <= 1)
		return 1;
	if (s->per % s->block || s->nrun < 0 || s->nrun > PLAN_SECTIONS_MAX)
		return 0;
	int sum = 0;
	for (int k = 0; k < s->nrun; k++) {
		if (s->run[k] <= 0)
			return 0;
		sum += s->run[k];
	}
	return s->nrun == 0 || sum == s->block;
}

/* Within one block (b of the repetition keyed k): the slot offset at place i, or (inverse)
 * the place of offset i. */
static int in_block(const struct order_shape *s, uint64_t k, int b, int i, int inverse)
{
	if (s->nrun == 0)
		return shuffle_key(key_in(k, b, -1), s->block, i, inverse);
	int start[PLAN_SECTIONS_MAX], acc = 0;
	for (int r = 0; r < s->nrun; r++) {
		start[r] = acc;
		acc += s->run[r];
	}
	uint64_t kr = key_in(k, b, -1);
	if (!inverse) {
		/* walk the runs in their shuffled order to the one place i falls in */
		int at = 0;
		for (int q = 0; q < s->nrun; q++) {
			int r = shuffle_key(kr, s->nrun, q, 0);
			if (i < at + s->run[r])
				return start[r] + shuffle_key(key_in(k, b, r), s->run[r], i - at, 0);
			at += s->run[r];
		}
		return -1;
	}
	int r = 0;
	while (i >= start[r] + s->run[r])
		r++;
	int q = shuffle_key(kr, s->nrun, r, 1), at = 0;
	for (int t = 0; t < q; t++)
		at += s->run[shuffle_key(kr, s->nrun, t, 0)];
	return at + shuffle_key(key_in(k, b, r), s->run[r], i - start[r], 1);
}

/* The slot at place i of repetition rep's shuffle, or (inverse) the place of slot i. */
static int shuffled(const struct order_shape *s, int rep, int i, int inverse)
{
	uint64_t k = key_rep(s->seed, rep);
	if (s->block <= 1)
		return shuffle_key(k, s->per, i, inverse);
	int nb = s->per / s->block;
	int b = i / s->block, w = i % s->block;
	if (!inverse)
		return shuffle_key(k, nb, b, 0) * s->block + in_block(s, k, shuffle_key(k, nb, b, 0), w, 0);
	return shuffle_key(k, nb, b, 1) * s->block + in_block(s, k, b, w, 1);
}

int order_at(const struct order_shape *s, int pos, int *rep, int *slot)
{
	if (!shape_ok(s) || pos < 0 || pos / s->per >= s->repeat)
		return -1;
	switch (s->o) {
	case ORDER_SEQUENTIAL:
		*slot = pos / s->repeat;
		*rep = pos % s->repeat + 1;
		return 0;
	case ORDER_SHUFFLE:
		*rep = pos / s->per + 1;
		*slot = shuffled(s, *rep, pos % s->per, 0);
		return 0;
	case ORDER_INTERLEAVE:
	default:
		*rep = pos / s->per + 1;
		*slot = pos % s->per;
		return 0;
	}
}

int order_position(const struct order_shape *s, int rep, int slot)
{
	if (!shape_ok(s) || rep < 1 || rep > s->repeat || slot < 0 || slot >= s->per)
		return -1;
	switch (s->o) {
	case ORDER_SEQUENTIAL:
		return slot * s->repeat + rep - 1;
	case ORDER_SHUFFLE:
		return (rep - 1) * s->per + shuffled(s, rep, slot, 1);
	case ORDER_INTERLEAVE:
	default:
		return (rep - 1) * s->per + slot;
	}
}

uint64_t order_seed_from(const unsigned char *bytes, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s = mix(s ^ bytes[i]);
	/* a seed a person can type back: up to 9 digits */
	return s % 1000000000u;
}
