/* fuzz_history.c: `fsmatrix history` list, cells and show on any file: the bytes as an
 * SQLite file, then the same with its schema version (PRAGMA user_version, bytes 60-63 of the
 * header) set to one of -2 .. 3 by the input's last byte. Invariants: each returns 0 or 1 (a
 * refusal is one line on stderr, never a crash: a statement finalized twice made a file of
 * version 1 without the history's tables a SIGBUS), and the file is byte for byte as it was,
 * since they open it read-only. */
#include "fuzz.h"
#include "cli/history.h"

#include <unistd.h>

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	FUZZ_ASSERT(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "unable to write %s", path);
}

static void one(const char *db, const uint8_t *data, size_t size)
{
	static const struct cp_opts o = { CP_WINDOW, CP_MAX_P, CP_MIN_MAGNITUDE, 0 };
	write_file(db, data, size);
	int rc[4] = { history_list(db), history_cells(db),
		      history_show(db, "md1/ext4/defaults/seqwrite", "mbps", 0, &o, NULL),
		      history_show(db, "disk/ext4/defaults/seq@6.12", "mbps", 1, &o, NULL) };
	for (int i = 0; i < 4; i++)
		FUZZ_ASSERT(rc[i] == 0 || rc[i] == 1, "call %d returned %d", i, rc[i]);
	FILE *f = fopen(db, "rb");
	uint8_t *back = malloc(size + 1);
	size_t n = f ? fread(back, 1, size + 1, f) : 0;
	FUZZ_ASSERT(f && n == size && memcmp(back, data, size) == 0, "the file changed (%zu of %zu "
		    "bytes read back)", n, size);
	fclose(f);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char db[64];
	if (!db[0]) {
		snprintf(db, sizeof db, "/tmp/fsm-fuzz-history-%ld.sqlite", (long)getpid());
		FUZZ_ASSERT(freopen("/dev/null", "w", stdout), "no /dev/null");
	}
	one(db, data, size);
	if (size >= 100) {
		uint8_t *v = malloc(size);
		memcpy(v, data, size);
		int32_t version = (int32_t)(data[size - 1] % 6) - 2;
		uint32_t u = (uint32_t)version;
		for (int i = 0; i < 4; i++)
			v[60 + i] = (uint8_t)(u >> (24 - 8 * i));
		one(db, v, size);
		free(v);
	}
	unlink(db);
	return 0;
}
