/* test_kmod.c: depmod metadata parsing, alias matching and load order, on fixture files in
 * tests/fixtures/kmod/ (a hand-cut subset in depmod's format; ahci is aliased but not
 * shipped, as when the image holds only some drivers). */
#include "check.h"
#include <fnmatch.h>
#include "core/boot/kmod.h"

static struct kmod_db db;

/* The names of a load order, space-separated. */
static const char *names(const int *idx, int n)
{
	static char buf[1024];
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, db.mods[idx[i]].name);
	}
	return buf;
}

static const char *order_of(const char *spec, const unsigned char *done)
{
	int want[16], nw = 0, order[64];
	char copy[256], *save, *tok;
	snprintf(copy, sizeof copy, "%s", spec);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int hits[8], nh = kmod_lookup(&db, tok, hits, 8);
		for (int h = 0; h < nh; h++)
			want[nw++] = hits[h];
	}
	int n = kmod_order(&db, want, nw, done, order, 64);
	return n < 0 ? "(overflow)" : names(order, n);
}

static const char *match_of(const char *alias)
{
	int hits[8];
	return names(hits, kmod_match(&db, alias, hits, 8));
}

static void test_order(void)
{
	static const struct { const char *want, *order; } rows[] = {
		{ "virtio_blk", "virtio_ring virtio virtio_blk" },
		{ "virtio-pci", "virtio_pci_legacy_dev virtio_pci_modern_dev virtio_ring virtio virtio_pci" },
		/* shared dependencies appear once */
		{ "virtio_blk virtio_scsi sd_mod", "virtio_ring virtio virtio_blk scsi_common scsi_mod virtio_scsi sd_mod" },
		/* softdep pre through an alias matching two modules, and jbd2's own softdep */
		{ "ext4", "crc32c_generic crc32c_intel jbd2 mbcache crc16 ext4" },
		/* by alias; post softdep after, an unshipped softdep skipped */
		{ "fs-vfat", "fat vfat nls_cp437" },
		{ "md-personality-3", "md_mod raid1" },
		/* asked twice, loaded once */
		{ "raid1 md_mod raid1", "md_mod raid1" },
		/* neither shipped nor known */
		{ "ahci nosuch", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(strcmp(order_of(rows[i].want, NULL), rows[i].order) == 0,
		      "order(%s) = \"%s\", want \"%s\"", rows[i].want, order_of(rows[i].want, NULL), rows[i].order);

	/* already loaded modules are left out */
	unsigned char done[64] = { 0 };
	done[kmod_find(&db, "virtio")] = 1;
	done[kmod_find(&db, "crc32c_intel")] = 1;
	CHECK_STR(order_of("virtio_blk", done), "virtio_ring virtio_blk");
	CHECK_STR(order_of("ext4", done), "crc32c_generic jbd2 mbcache crc16 ext4");

	/* too small an output */
	int want = kmod_find(&db, "ext4"), out[2];
	CHECK_INT(kmod_order(&db, &want, 1, NULL, out, 2), -1);
}

/* kmod_groups over names: each want's group, space-separated ("-" for a repeat). */
static const char *groups_of(const char *spec, const unsigned char *done)
{
	static char buf[256];
	int want[16], nw = 0, group[16];
	char copy[256], *save, *tok;
	snprintf(copy, sizeof copy, "%s", spec);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		want[nw++] = kmod_find(&db, tok);
	int n = kmod_groups(&db, want, nw, done, group, 64);
	int l = snprintf(buf, sizeof buf, "%d:", n);
	for (int k = 0; k < nw && l < (int)sizeof buf; k++)
		l += group[k] < 0 ? snprintf(buf + l, sizeof buf - (size_t)l, " -")
				  : snprintf(buf + l, sizeof buf - (size_t)l, " %d", group[k]);
	return buf;
}

static void test_groups(void)
{
	static const struct { const char *want, *groups; } rows[] = {
		/* nothing shared: each alone */
		{ "virtio_blk raid1", "2: 0 1" },
		/* the same driver for two devices: loaded once */
		{ "virtio_blk virtio_blk", "1: 0 -" },
		/* virtio_blk and virtio_scsi share virtio; sd_mod shares scsi_mod with virtio_scsi */
		{ "virtio_blk raid1 virtio_scsi sd_mod", "2: 0 1 0 0" },
		/* sharing through a third: joined in one group, numbered by first appearance */
		{ "raid1 sd_mod virtio_blk virtio_scsi", "2: 0 1 1 1" },
		{ "", "0:" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(strcmp(groups_of(rows[i].want, NULL), rows[i].groups) == 0,
		      "groups(%s) = \"%s\", want \"%s\"", rows[i].want, groups_of(rows[i].want, NULL),
		      rows[i].groups);
	/* what is already in shares nothing: virtio loaded, the two virtio drivers part */
	unsigned char done[64] = { 0 };
	done[kmod_find(&db, "virtio")] = 1;
	done[kmod_find(&db, "virtio_ring")] = 1;
	CHECK_STR(groups_of("virtio_blk virtio_scsi", done), "2: 0 1");
	/* a module out of range is left out; too small an order is an error */
	int want[2] = { -1, kmod_find(&db, "ext4") }, group[2];
	CHECK_INT(kmod_groups(&db, want, 2, NULL, group, 64), 1);
	CHECK_INT(group[0], -1);
	CHECK_INT(kmod_groups(&db, want, 2, NULL, group, 2), -1);
}

static void test_match(void)
{
	static const struct { const char *alias, *mods; } rows[] = {
		{ "pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00", "virtio_pci" },
		{ "virtio:d00000002v00001AF4", "virtio_blk" },
		{ "virtio:d00000008v00001AF4", "virtio_scsi" },
		{ "virtio:d00000001v00001AF4", "" },                       /* a NIC: no driver shipped */
		{ "virtio:d0000000Av00001AF4", "virtio_scsi" },            /* a [set] in the fixed part */
		{ "virtio:d0000000Bv00001AF4", "" },
		{ "scsi:t-0x00", "sd_mod" },                               /* '-' in the modalias */
		{ "scsi:t_0x0e", "sd_mod" },
		{ "scsi:t-0x05", "" },                                     /* cdrom */
		{ "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01", "" }, /* ahci not shipped */
		{ "crc32c", "crc32c_generic crc32c_intel" },
		{ "fs_ext4", "ext4" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(strcmp(match_of(rows[i].alias), rows[i].mods) == 0, "match(%s) = \"%s\", want \"%s\"",
		      rows[i].alias, match_of(rows[i].alias), rows[i].mods);
}

/* A module that serves only CPUs with a feature is left out on a CPU without it. */
static void test_wrong_cpu(void)
{
	const char *sse42 = "cpu:type:x86,ven0000fam0006mod003F:feature:,0000,0001,0094,00C0";
	const char *qemu64 = "cpu:type:x86,ven0000fam0006mod0006:feature:,0000,0001,0002,00C0";
	int intel = kmod_find(&db, "crc32c_intel"), generic = kmod_find(&db, "crc32c_generic");
	CHECK(intel >= 0 && generic >= 0, "fixture lacks crc32c_intel or crc32c_generic");
	CHECK(kmod_wrong_cpu(&db, intel, qemu64) == 1, "crc32c_intel on a CPU without SSE4.2");
	CHECK(kmod_wrong_cpu(&db, intel, sse42) == 0, "crc32c_intel on a CPU with SSE4.2");
	CHECK(kmod_wrong_cpu(&db, generic, qemu64) == 0, "crc32c_generic has no CPU alias");
	CHECK(kmod_wrong_cpu(&db, intel, "") == 0, "unknown CPU: load and let the kernel say");
	CHECK(kmod_wrong_cpu(&db, intel, NULL) == 0, "unknown CPU (NULL)");
}

static void test_names(void)
{
	char out[64];
	CHECK(kmod_find(&db, "md-mod") >= 0, "md-mod found");
	CHECK_INT(kmod_find(&db, "md-mod"), kmod_find(&db, "md_mod"));
	CHECK_INT(kmod_find(&db, "crc32c-intel"), kmod_find(&db, "crc32c_intel"));
	CHECK_INT(kmod_find(&db, "nosuch"), -1);
	CHECK_STR(db.mods[kmod_find(&db, "ext4")].path, "kernel/fs/ext4/ext4.ko");
	kmod_normalize("pci:v*d*sv*sd*bc01sc[0-9]i-*", out, sizeof out);
	CHECK_STR(out, "pci:v*d*sv*sd*bc01sc[0-9]i_*");
	/* a name is normalized whole, blanks included, and cut to the buffer */
	kmod_normalize("a-b c-d", out, 6);
	CHECK_STR(out, "a_b c");
}

static void test_errors(void)
{
	static const struct {
		int (*parse)(struct kmod_db *, const char *, char *, size_t);
		const char *text, *err;
	} rows[] = {
		{ kmod_parse_dep, "kernel/a.ko:\nno colon here\n", "line 2: expected \"path.ko: deps\"" },
		{ kmod_parse_softdep, "softdep x a\n", "line 1: softdep name before pre: or post:" },
		{ kmod_parse_softdep, "alias x y\n", "line 1: expected \"softdep MODULE pre: ... post: ...\"" },
		{ kmod_parse_alias, "# c\n\nalias onlypattern\n", "line 3: expected \"alias PATTERN MODULE\"" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct kmod_db d;
		char err[200] = "";
		kmod_db_init(&d);
		CHECK_INT(rows[i].parse(&d, rows[i].text, err, sizeof err), -1);
		CHECK_STR(err, rows[i].err);
		kmod_db_free(&d);
	}
	/* words apart by tabs and spaces, lines ending in CR LF, as depmod's files edited by hand
	 * may be: each line read as the same three words */
	struct kmod_db d;
	char err[300] = "";
	int hits[4];
	kmod_db_init(&d);
	CHECK_INT(kmod_parse_dep(&d, "kernel/a-b.ko:\t kernel/c.ko \r\nkernel/c.ko:\r\n", err, sizeof err), 0);
	CHECK_INT(kmod_parse_softdep(&d, "softdep\ta-b\tpre:\t c\r\n", err, sizeof err), 0);
	CHECK_INT(kmod_parse_alias(&d, " alias \t pci:v*d-1* \ta-b\r\nalias x-y c\r\n", err, sizeof err), 0);
	CHECK_INT(d.naliases, 2);
	CHECK_STR(d.aliases[0].pattern, "pci:v*d_1*");
	CHECK_STR(d.aliases[0].module, "a_b");
	CHECK_INT(d.aliases[0].fixed, 5);
	CHECK_INT(d.aliases[1].fixed, 3);
	CHECK_INT(d.mods[kmod_find(&d, "a-b")].ndeps, 1);
	CHECK_STR(d.mods[kmod_find(&d, "a-b")].pre[0], "c");
	CHECK_INT(kmod_match(&d, "pci:v1d-1", hits, 4), 1);
	CHECK_INT(kmod_match(&d, "x_y", hits, 4), 1);
	kmod_db_free(&d);
	kmod_db_init(&d);
	CHECK_INT(kmod_db_load(&d, "tests/fixtures/no-such-dir", err, sizeof err), -1);
	CHECK(strstr(err, "unable to read tests/fixtures/no-such-dir/modules.dep: No such file") != NULL, "%s", err);
	kmod_db_free(&d);
}

/* What kmod_match answered before it had an index: every pattern in file order. */
static int match_reference(const struct kmod_db *d, const char *alias, int *out, int max)
{
	char q[512];
	int n = 0;
	kmod_normalize(alias, q, sizeof q);
	for (int i = 0; i < d->naliases; i++) {
		int m = kmod_find(d, d->aliases[i].module), seen = 0;
		if (fnmatch(d->aliases[i].pattern, q, 0) != 0 || m < 0 || !d->mods[m].path)
			continue;
		for (int k = 0; k < n; k++)
			seen |= out[k] == m;
		if (!seen && n < max)
			out[n++] = m;
	}
	return n;
}

/* The index gives what comparing every pattern gives, in the same order, on aliases made to
 * share starts of every length (wildcards first, inside and last, [sets], '-' spellings) and
 * modaliases made of the same pieces. */
static void test_match_index(void)
{
	static const char *const starts[] = { "pci:v", "pci:v00001AF4d", "pci:v00008086d0000", "usb:v",
		"acpi*:", "acpi:PNP0", "virtio:d0000000", "md-", "scsi:t-0x0", "cpu:type:x86,ven" };
	static const char *const pieces[] = { "0", "1", "A", "F4", "*", "?", "[9A]", "d", "sv*", "-" };
	struct kmod_db d;
	char dep[4096] = "", text[65536] = "", err[100], alias[128];
	unsigned seed = 12345;
	size_t l = 0;
	kmod_db_init(&d);
	for (int m = 0; m < 40; m++)   /* m0 .. m29 shipped, m30 .. m39 only aliased */
		if (m < 30)
			snprintf(dep + strlen(dep), sizeof dep - strlen(dep), "kernel/m%d.ko:\n", m);
	for (int i = 0; i < 600; i++) {
		seed = seed * 1103515245u + 12345u;
		l += (size_t)snprintf(text + l, sizeof text - l, "alias %s", starts[(seed >> 16) % 10]);
		for (int k = 0; k < (int)((seed >> 8) % 5); k++) {
			seed = seed * 1103515245u + 12345u;
			l += (size_t)snprintf(text + l, sizeof text - l, "%s", pieces[(seed >> 16) % 10]);
		}
		l += (size_t)snprintf(text + l, sizeof text - l, " m%u\n", (seed >> 20) % 40);
	}
	CHECK_INT(kmod_parse_dep(&d, dep, err, sizeof err), 0);
	/* in two parts: the index covers both */
	char *half = strchr(text + l / 2, '\n');
	*half = '\0';
	CHECK_INT(kmod_parse_alias(&d, text, err, sizeof err), 0);
	CHECK_INT(kmod_parse_alias(&d, half + 1, err, sizeof err), 0);
	CHECK_INT(d.naliases, 600);
	CHECK(d.slots && d.nlengths > 1, "the index was made (%d lengths of fixed start)", d.nlengths);
	int differ = 0, matched = 0;
	for (int i = 0; i < 5000; i++) {
		int got[8], want[8];
		size_t a = 0;
		seed = seed * 1103515245u + 12345u;
		a += (size_t)snprintf(alias + a, sizeof alias - a, "%s", starts[(seed >> 16) % 10]);
		for (int k = 0; k < (int)((seed >> 8) % 7); k++) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % 10];
			a += (size_t)snprintf(alias + a, sizeof alias - a, "%s", p[0] == '*' || p[0] == '?' ? "F" :
					      p[0] == '[' ? "A" : p[0] == 's' ? "sv00" : p);
		}
		int ng = kmod_match(&d, alias, got, 8), nw = match_reference(&d, alias, want, 8);
		matched += nw > 0;
		if (ng != nw || memcmp(got, want, sizeof *got * (size_t)ng) != 0) {
			if (!differ++)
				CHECK(0, "match(%s): %d modules through the index, %d comparing every pattern",
				      alias, ng, nw);
		}
	}
	CHECK_INT(differ, 0);
	CHECK(matched > 500, "the modaliases matched something (%d of 5000)", matched);
	kmod_db_free(&d);
}

static void test_cycle(void)
{
	struct kmod_db d;
	char err[100];
	int want, order[8];
	kmod_db_init(&d);
	CHECK_INT(kmod_parse_dep(&d, "a.ko:\nb.ko:\n", err, sizeof err), 0);
	CHECK_INT(kmod_parse_softdep(&d, "softdep a pre: b\nsoftdep b pre: a post: a\n", err, sizeof err), 0);
	want = kmod_find(&d, "a");
	int n = kmod_order(&d, &want, 1, NULL, order, 8);
	CHECK_INT(n, 2);
	CHECK(n == 2 && order[0] == kmod_find(&d, "b") && order[1] == want, "softdep cycle cut");
	kmod_db_free(&d);
}

int main(void)
{
	char err[300];
	kmod_db_init(&db);
	int rc = kmod_db_load(&db, "tests/fixtures/kmod", err, sizeof err);
	CHECK(rc == 0, "load: %s", err);
	if (rc == 0) {
		test_order();
		test_groups();
		test_match();
		test_match_index();
		test_wrong_cpu();
		test_names();
	}
	test_errors();
	test_cycle();
	kmod_db_free(&db);
	return check_done("test_kmod");
}
