/* lib/qcow2.c: a blank qcow2 image (lib/qcow2.h). Layout, one 64 KiB cluster each: the
 * header, the refcount table, one refcount block (16-bit counts), then the L1 table, all
 * zero: no L2 table, so no cluster of data, and every read gives zeros. */
#include "lib/qcow2.h"

#include <string.h>

#define L2_SPAN ((uint64_t)QCOW2_CLUSTER / 8 * QCOW2_CLUSTER)   /* one L2 table maps 512 MiB */
#define SIZE_MAX_BLANK ((uint64_t)1 << 44)                       /* 16 TiB: plenty for a test disk */

static void be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

static uint64_t l1_clusters(uint64_t size)
{
	uint64_t entries = (size + L2_SPAN - 1) / L2_SPAN;
	return (entries * 8 + QCOW2_CLUSTER - 1) / QCOW2_CLUSTER;
}

size_t qcow2_blank_len(uint64_t size)
{
	if (size == 0 || size > SIZE_MAX_BLANK)
		return 0;
	return (size_t)((3 + l1_clusters(size)) * QCOW2_CLUSTER);
}

size_t qcow2_blank(uint64_t size, unsigned char *buf, size_t cap)
{
	size_t len = qcow2_blank_len(size);
	if (!len || cap < len)
		return 0;
	uint64_t l1 = l1_clusters(size), clusters = 3 + l1;
	memset(buf, 0, len);
	memcpy(buf, "QFI\xfb", 4);
	be(buf + 4, 2, 4);                              /* version */
	be(buf + 20, 16, 4);                            /* cluster_bits: 64 KiB */
	be(buf + 24, size, 8);
	be(buf + 36, (size + L2_SPAN - 1) / L2_SPAN, 4);  /* l1_size, in entries */
	be(buf + 40, 3 * QCOW2_CLUSTER, 8);             /* l1_table_offset */
	be(buf + 48, 1 * QCOW2_CLUSTER, 8);             /* refcount_table_offset */
	be(buf + 56, 1, 4);                             /* refcount_table_clusters */
	be(buf + QCOW2_CLUSTER, 2 * QCOW2_CLUSTER, 8);  /* the one refcount block */
	for (uint64_t c = 0; c < clusters; c++)         /* every metadata cluster is in use once */
		be(buf + 2 * QCOW2_CLUSTER + 2 * c, 1, 2);
	return len;
}
