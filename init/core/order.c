/* core/order.c: positions to (repetition, slot) and back (core/order.h).
 *
 * A shuffle is a keyed permutation of 0..per-1 rather than a Fisher-Yates table: a balanced
 * Feistel network over the smallest power of four that holds per, walked until it lands
 * inside 0..per-1 (cycle-walking, as format-preserving encryption does). Each round is a
 * permutation of the larger domain, so the walk is one of the smaller, and it runs
 * backwards as easily. Six rounds of splitmix64 keyed by the seed and the repetition. */
#include "core/order.h"

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

static void feistel_init(struct feistel *f, uint64_t seed, int rep, int per)
{
	int bits = 2;
	while (bits < 32 && (1u << bits) < (unsigned)per)
		bits += 2;
	f->half = bits / 2;
	f->mask = (1u << f->half) - 1;
	f->key = mix(seed ^ mix((uint64_t)rep));
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

/* The slot at place i of repetition rep's shuffle, and the place of a slot. */
static int shuffled(uint64_t seed, int rep, int per, int i, int inverse)
{
	struct feistel f;
	feistel_init(&f, seed, rep, per);
	uint32_t x = (uint32_t)i;
	do
		x = inverse ? backward(&f, x) : forward(&f, x);
	while (x >= (uint32_t)per);
	return (int)x;
}

int order_at(enum plan_order o, uint64_t seed, int per, int repeat, int pos, int *rep, int *slot)
{
	if (per <= 0 || repeat <= 0 || pos < 0 || pos / per >= repeat)
		return -1;
	switch (o) {
	case ORDER_SEQUENTIAL:
		*slot = pos / repeat;
		*rep = pos % repeat + 1;
		return 0;
	case ORDER_SHUFFLE:
		*rep = pos / per + 1;
		*slot = shuffled(seed, *rep, per, pos % per, 0);
		return 0;
	case ORDER_INTERLEAVE:
	default:
		*rep = pos / per + 1;
		*slot = pos % per;
		return 0;
	}
}

int order_position(enum plan_order o, uint64_t seed, int per, int repeat, int rep, int slot)
{
	if (per <= 0 || rep < 1 || rep > repeat || slot < 0 || slot >= per)
		return -1;
	switch (o) {
	case ORDER_SEQUENTIAL:
		return slot * repeat + rep - 1;
	case ORDER_SHUFFLE:
		return (rep - 1) * per + shuffled(seed, rep, per, slot, 1);
	case ORDER_INTERLEAVE:
	default:
		return (rep - 1) * per + slot;
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
