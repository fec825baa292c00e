/* core/command/xfssb.h: an xfs superblock read as xfs_db -r -c info (and xfs_info) print it, so that
 * a cell's fs_geometry says the same without xfs_db in the image (its 668 KiB did not fit the
 * budget beside btrfs and dm). The rules are xfsprogs 6.1's: the superblock's fields and
 * feature bits become struct xfs_fsop_geom (libxfs/xfs_sb.c xfs_fs_geometry), printed by
 * libfrog/fsgeom.c xfs_report_geom. Pure. */
#ifndef FSM_XFSSB_H
#define FSM_XFSSB_H
#include <stddef.h>

/* The fewest bytes of the superblock the text needs (the v5 fields end at 224). */
#define XFS_SB_BYTES 512

/* The text for the superblock sb (n bytes from the filesystem's first byte), its first line
 * naming name (the device), into out. 0, or -1 when sb is too short, is no xfs superblock
 * (magic XFSB) or has a block size of 0. */
int xfs_sb_info(const unsigned char *sb, size_t n, const char *name, char *out, size_t len);

#endif
