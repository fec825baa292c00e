/* core/le.h: little-endian fields of on-disk structures (boot sectors, partition tables,
 * superblocks), read byte by byte whatever the host's order or alignment. */
#ifndef FSM_LE_H
#define FSM_LE_H
#include <stdint.h>

static inline uint16_t le16(const unsigned char *b) { return (uint16_t)(b[0] | b[1] << 8); }
static inline uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint64_t le64(const unsigned char *b) { return le32(b) | (uint64_t)le32(b + 4) << 32; }

#endif
