/* core/command/xfssb.c: an xfs superblock as xfs_db's info prints it (core/command/xfssb.h). Offsets are
 * struct xfs_dsb's (libxfs/xfs_format.h); every field is big-endian. */
#include "core/command/xfssb.h"
#include "lib/ondisk.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* struct xfs_dsb: where each field the text needs sits, and its width in bytes */
enum sb_field {
	SB_BLOCKSIZE, SB_DBLOCKS, SB_RBLOCKS, SB_REXTENTS, SB_LOGSTART, SB_REXTSIZE, SB_AGBLOCKS,
	SB_AGCOUNT, SB_LOGBLOCKS, SB_VERSIONNUM, SB_SECTSIZE, SB_INODESIZE, SB_BLOCKLOG,
	SB_IMAX_PCT, SB_UNIT, SB_WIDTH, SB_DIRBLKLOG, SB_LOGSECTSIZE, SB_LOGSUNIT, SB_FEATURES2,
	SB_RO_COMPAT, SB_INCOMPAT, SB_NFIELDS
};
static const struct { unsigned short off, bytes; } sb_at[SB_NFIELDS] = {
	[SB_BLOCKSIZE] = { 4, 4 }, [SB_DBLOCKS] = { 8, 8 }, [SB_RBLOCKS] = { 16, 8 },
	[SB_REXTENTS] = { 24, 8 }, [SB_LOGSTART] = { 48, 8 }, [SB_REXTSIZE] = { 80, 4 },
	[SB_AGBLOCKS] = { 84, 4 }, [SB_AGCOUNT] = { 88, 4 }, [SB_LOGBLOCKS] = { 96, 4 },
	[SB_VERSIONNUM] = { 100, 2 }, [SB_SECTSIZE] = { 102, 2 }, [SB_INODESIZE] = { 104, 2 },
	[SB_BLOCKLOG] = { 120, 1 }, [SB_IMAX_PCT] = { 127, 1 }, [SB_UNIT] = { 184, 4 },
	[SB_WIDTH] = { 188, 4 }, [SB_DIRBLKLOG] = { 192, 1 }, [SB_LOGSECTSIZE] = { 194, 2 },
	[SB_LOGSUNIT] = { 196, 4 }, [SB_FEATURES2] = { 200, 4 }, [SB_RO_COMPAT] = { 212, 4 },
	[SB_INCOMPAT] = { 216, 4 },
};

/* sb_versionnum's bits, sb_features2's, and the v5 feature words' (xfs_format.h) */
#define V_NUMBITS 0x000f
#define V_ATTR 0x0010
#define V_LOGV2 0x0400
#define V_SECTOR 0x0800
#define V_BORG 0x4000          /* ASCII-only case-insensitive names */
#define V_MOREBITS 0x8000
#define V2_LAZYSB 0x0002
#define V2_ATTR2 0x0008
#define V2_PROJID32 0x0080
#define V2_FTYPE 0x0200
#define RO_FINOBT 0x1
#define RO_RMAPBT 0x2
#define RO_REFLINK 0x4
#define RO_INOBTCNT 0x8
#define IN_FTYPE 0x01
#define IN_SPINODES 0x02
#define IN_BIGTIME 0x08
#define IN_NREXT64 0x20

int xfs_sb_info(const unsigned char *sb, size_t n, const char *name, char *out, size_t len)
{
	uint64_t f[SB_NFIELDS];
	if (n < XFS_SB_BYTES || memcmp(sb, "XFSB", 4) != 0)
		return -1;
	for (int i = 0; i < SB_NFIELDS; i++)
		f[i] = be_n(sb + sb_at[i].off, sb_at[i].bytes);
	if (!f[SB_BLOCKSIZE])
		return -1;
	unsigned v = (unsigned)f[SB_VERSIONNUM];
	int v5 = (v & V_NUMBITS) == 5;
	unsigned f2 = v & V_MOREBITS ? (unsigned)f[SB_FEATURES2] : 0;
	unsigned ro = v5 ? (unsigned)f[SB_RO_COMPAT] : 0, in = v5 ? (unsigned)f[SB_INCOMPAT] : 0;
	/* a v5 superblock has these whatever its version bits say (xfs_sb_version_to_features) */
	int attr2 = v5 || (f2 & V2_ATTR2), lazy = v5 || (f2 & V2_LAZYSB);
	int projid32 = v5 || (f2 & V2_PROJID32), logv2 = v5 || (v & V_LOGV2);
	int ftype = (f2 & V2_FTYPE) || (in & IN_FTYPE);
	unsigned bsize = (unsigned)f[SB_BLOCKSIZE];
	unsigned logsect = v & V_SECTOR ? (unsigned)f[SB_LOGSECTSIZE] : 512;
	int r = snprintf(out, len,
		"meta-data=%-22s isize=%-6d agcount=%u, agsize=%u blks\n"
		"         =%-22s sectsz=%-5u attr=%u, projid32bit=%u\n"
		"         =%-22s crc=%-8u finobt=%u, sparse=%u, rmapbt=%u\n"
		"         =%-22s reflink=%-4u bigtime=%u inobtcount=%u nrext64=%u\n"
		"data     =%-22s bsize=%-6u blocks=%llu, imaxpct=%u\n"
		"         =%-22s sunit=%-6u swidth=%u blks\n"
		"naming   =version %-14u bsize=%-6u ascii-ci=%d, ftype=%d\n"
		"log      =%-22s bsize=%-6d blocks=%u, version=%d\n"
		"         =%-22s sectsz=%-5u sunit=%d blks, lazy-count=%d\n"
		"realtime =%-22s extsz=%-6d blocks=%lld, rtextents=%lld\n",
		name, (int)f[SB_INODESIZE], (unsigned)f[SB_AGCOUNT], (unsigned)f[SB_AGBLOCKS],
		"", (unsigned)f[SB_SECTSIZE], attr2 ? 2u : v & V_ATTR ? 1u : 0u, (unsigned)projid32,
		"", (unsigned)v5, !!(ro & RO_FINOBT), !!(in & IN_SPINODES), !!(ro & RO_RMAPBT),
		"", !!(ro & RO_REFLINK), !!(in & IN_BIGTIME), !!(ro & RO_INOBTCNT),
		!!(in & IN_NREXT64),
		"", bsize, (unsigned long long)f[SB_DBLOCKS], (unsigned)f[SB_IMAX_PCT],
		"", (unsigned)f[SB_UNIT], (unsigned)f[SB_WIDTH],
		2u, 1u << (f[SB_BLOCKLOG] + f[SB_DIRBLKLOG]), !!(v & V_BORG), ftype,
		f[SB_LOGSTART] > 0 ? "internal log" : "external", (int)bsize,
		(unsigned)f[SB_LOGBLOCKS], logv2 ? 2 : 1,
		"", logsect, (int)(f[SB_LOGSUNIT] / bsize), lazy,
		f[SB_RBLOCKS] ? "external" : "none", (int)(f[SB_REXTSIZE] * bsize),
		(long long)f[SB_RBLOCKS], (long long)f[SB_REXTENTS]);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}
