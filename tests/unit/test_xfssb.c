/* test_xfssb: the superblocks the pinned mkfs.xfs made (tests/fixtures/make-xfs-fixtures)
 * read as xfs_db -r -c info printed them, byte for byte; what is not an xfs superblock
 * refused. */
#include "check.h"
#include "core/command/xfssb.h"

#include <stdio.h>

#define DIR "tests/fixtures/xfs/"

static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

static const char *const cases[] = {
	"striped-v5", "v4-1k", "sect4k-dir8k", "rmap-ci-nrext64", "external-log-rt",
};

static void test_fixtures(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[128], want[2048], got[2048], sb[XFS_SB_BYTES + 1];
		snprintf(path, sizeof path, DIR "%s.sb", cases[i]);
		size_t n = slurp(path, sb, sizeof sb);
		CHECK_INT(n, XFS_SB_BYTES);
		snprintf(path, sizeof path, DIR "%s.info", cases[i]);
		CHECK(slurp(path, want, sizeof want) > 0, "no %s", path);
		CHECK_INT(xfs_sb_info((unsigned char *)sb, n, "dev", got, sizeof got), 0);
		CHECK(strcmp(got, want) == 0, "%s:\ngot:\n%s\nwant:\n%s", cases[i], got, want);
	}
}

static void test_refused(void)
{
	unsigned char sb[XFS_SB_BYTES + 1];
	char text[2048];
	char raw[XFS_SB_BYTES + 1];
	CHECK_INT(slurp(DIR "striped-v5.sb", raw, sizeof raw), XFS_SB_BYTES);
	memcpy(sb, raw, XFS_SB_BYTES);
	CHECK_INT(xfs_sb_info(sb, XFS_SB_BYTES - 1, "dev", text, sizeof text), -1);
	CHECK_INT(xfs_sb_info(sb, XFS_SB_BYTES, "dev", text, 100), -1);   /* does not fit */
	sb[3] = 'C';
	CHECK_INT(xfs_sb_info(sb, XFS_SB_BYTES, "dev", text, sizeof text), -1);
	memcpy(sb, raw, XFS_SB_BYTES);
	memset(sb + 4, 0, 4);                                              /* block size 0 */
	CHECK_INT(xfs_sb_info(sb, XFS_SB_BYTES, "dev", text, sizeof text), -1);
}

int main(void)
{
	test_fixtures();
	test_refused();
	return check_done("test_xfssb");
}
