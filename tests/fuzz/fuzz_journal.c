/* fuzz_journal.c: journal_scan, the resume reader PID 1 runs on <run>.jsonl after a reboot,
 * on any bytes, then resume_decide for every cell it saw; and the jscan lookups on every line
 * json_valid accepts. Invariants: the kept length never exceeds the text; a torn last line is
 * cut off before the kept length; counts are not negative; decisions are in range. */
#include "fuzz.h"
#include "lib/jscan.h"
#include "core/boot/resume.h"

#define CELLS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct journal j;
	static struct resume_cell cells[CELLS];
	const char *text = (const char *)data;
	memset(cells, 0, sizeof cells);
	journal_scan(text, size, &j, cells, CELLS);
	FUZZ_ASSERT(j.keep <= size, "keep %zu of %zu", j.keep, size);
	FUZZ_ASSERT(!j.torn || j.keep < size, "torn, yet all %zu bytes kept", size);
	FUZZ_ASSERT(j.records >= 0 && j.bad >= 0 && j.resumes >= 0, "negative count");
	FUZZ_ASSERT(j.ndisks >= 0 && j.ndisks <= RESUME_DISKS_MAX, "ndisks %d", j.ndisks);
	FUZZ_ASSERT(memchr(j.run, '\0', sizeof j.run) && memchr(j.plan_sha256, '\0', sizeof j.plan_sha256) &&
		    memchr(j.scale, '\0', sizeof j.scale), "a header field is not terminated");
	char why[256] = "";
	if (journal_resumable(&j, "0123", "1", "", why, sizeof why) != 0)
		fuzz_one_line(why, sizeof why);
	for (int i = 0; i < CELLS; i++) {
		struct resume_step st;
		resume_decide(&cells[i], 1, &st);
		FUZZ_ASSERT(st.action == RESUME_RUN || st.action == RESUME_SKIP || st.action == RESUME_FAIL,
			    "action %d", (int)st.action);
	}
	resume_decide(NULL, 0, &(struct resume_step){ 0 });

	/* Each line again through the lookups PID 1 uses on records. */
	for (size_t at = 0; at < size;) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t n = nl ? (size_t)(nl - text - at) : size - at;
		const char *line = text + at, *v;
		size_t vl;
		if (json_valid(line, n) == 0 && json_member(line, n, "disks", &v, &vl) == 0) {
			FUZZ_ASSERT(v >= line && v + vl <= line + n, "member outside the line");
			const char *it;
			size_t il;
			for (int i = 0; i < 64 && json_item(v, vl, i, &it, &il) == 0; i++)
				FUZZ_ASSERT(it >= v && it + il <= v + vl, "item outside the array");
		}
		char s[64];
		long long x;
		if (json_valid(line, n) == 0) {
			if (json_member_str(line, n, "type", s, sizeof s) == 0)
				FUZZ_ASSERT(memchr(s, '\0', sizeof s), "string not terminated");
			json_member_int(line, n, "index", &x);
		}
		at += n + 1;
	}
	return 0;
}
