/* fuzz_record.c: record_unframe on any console line, and the framing round trip. Invariants:
 * an accepted line's record lies inside the line and its CRC is right; framing the input as a
 * record and unframing it gives the same bytes back. */
#include "fuzz.h"
#include "lib/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data, *json;
	size_t jl;
	if (record_unframe(line, size, &json, &jl) == 0) {
		FUZZ_ASSERT(json >= line && json + jl <= line + size, "record outside the line");
		FUZZ_ASSERT(jl >= 2, "record of %zu bytes", jl);
	}

	/* Round trip: what the writer frames, the reader takes back unchanged. */
	size_t cap = size + 64;
	char *framed = malloc(cap);
	int n = record_frame(line, size, framed, cap);
	FUZZ_ASSERT(n > 0 && (size_t)n < cap, "record_frame: %d", n);
	int trailing = size && (line[size - 1] == '\n' || line[size - 1] == '\r');
	if (size >= 2 && !trailing) {
		FUZZ_ASSERT(record_unframe(framed, (size_t)n, &json, &jl) == 0, "own frame refused");
		FUZZ_ASSERT(jl == size && memcmp(json, line, size) == 0, "round trip changed the record");
		/* One flipped bit anywhere in the record is caught by the CRC. */
		framed[n - 1 - (int)(data[0] % size)] ^= 1;
		FUZZ_ASSERT(record_unframe(framed, (size_t)n, &json, &jl) != 0 ||
			    framed[n - 1] == '\n' || framed[n - 1] == '\r', "a flipped bit passed");
	}
	/* A frame cut short by a full buffer is refused, never overrun. */
	if (size && cap > 20)
		FUZZ_ASSERT(record_frame(line, size, framed, (size_t)(data[0] % 20)) == -1 ||
			    size + 17 <= (size_t)(data[0] % 20), "short buffer accepted");
	free(framed);
	return 0;
}
