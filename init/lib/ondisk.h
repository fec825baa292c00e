/* lib/ondisk.h: fields of on-disk and on-wire structures (boot sectors, partition tables,
 * superblocks, SCSI and NVMe pages), read byte by byte whatever the host's order or
 * alignment: little-endian, and big-endian for xfs's superblock and SCSI's pages. */
#ifndef FSM_ONDISK_H
#define FSM_ONDISK_H
#include <stdint.h>

static inline uint16_t le16(const unsigned char *b) { return (uint16_t)(b[0] | b[1] << 8); }
static inline uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint64_t le64(const unsigned char *b) { return le32(b) | (uint64_t)le32(b + 4) << 32; }
static inline uint16_t be16(const unsigned char *b) { return (uint16_t)(b[0] << 8 | b[1]); }

/* An n-byte field (n at most 8) in either order. */
static inline uint64_t le_n(const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}
static inline uint64_t be_n(const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

#endif
