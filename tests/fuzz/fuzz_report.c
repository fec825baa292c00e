/* fuzz_report.c: the host's record loader (report_load) on any bytes, read both as a .jsonl
 * results file and as a serial console log, then the report model and the header and problem
 * lines built from what was loaded. report_load takes only paths, so the input is written to
 * two files in a private temporary directory. Invariant: every line the report builds is one
 * line. */
#include "fuzz.h"
#include "report/sections.h"

#include <unistd.h>

static char dir[] = "/tmp/fsmatrix-fuzz-XXXXXX";
static char jsonl[64], console[64];

static void cleanup(void)
{
	unlink(jsonl);
	unlink(console);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir)) {
		perror("fuzz_report: mkdtemp");
		exit(1);
	}
	snprintf(jsonl, sizeof jsonl, "%s/run.jsonl", dir);
	snprintf(console, sizeof console, "%s/run.console.log", dir);
	atexit(cleanup);
	return 0;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	FUZZ_ASSERT(f != NULL, "cannot write %s", path);
	FUZZ_ASSERT(fwrite(data, 1, size, f) == size && fclose(f) == 0, "short write to %s", path);
}

static void one_line(void *ctx, const char *s)
{
	(void)ctx;
	FUZZ_ASSERT(s && !strchr(s, '\n'), "report line spans lines: \"%s\"", s ? s : "(null)");
}

static void load(const char *path)
{
	struct runset rs = { 0 };
	struct report_opts o = { .format = "text" };
	/* "no records in ..." for most inputs: true, and noise at thousands of runs a second.
	 * Sanitizer reports write to fd 2 directly and still show. */
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w");
	report_load(path, &rs);
	fclose(stderr);
	stderr = saved;
	for (size_t i = 0; i < rs.n; i++) {
		report_model(&rs.run[i]);
		report_header_lines(&rs.run[i], one_line, NULL);
		report_problem_lines(&rs.run[i], &o, one_line, NULL);
	}
	report_free(&rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	put(jsonl, data, size);
	load(jsonl);
	/* A sector that looks like a FAT boot sector sends report_load to mcopy, a program of
	 * its own: not the parser under test, and a fork per input. */
	if (size >= 512 && data[510] == 0x55 && data[511] == 0xaa)
		return 0;
	put(console, data, size);
	load(console);
	return 0;
}
