/* lib/sha256.h: SHA-256 (FIPS 180-4), for the image MANIFEST hash in the run header. */
#ifndef FSM_SHA256_H
#define FSM_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char blk[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char digest[32]);
/* Lowercase hex of the digest of len bytes at data, into hex[65]. */
void sha256_hex(const void *data, size_t len, char hex[65]);
/* Same for a whole file. Returns 0, or -1 with errno set (hex untouched). */
int sha256_file(const char *path, char hex[65]);

#endif
