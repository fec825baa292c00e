/* lib/record.h: the JSON-lines records of a run and their console framing.
 * A record is one JSON object on one line, {"v":1,"type":"header|event|cell|trailer",...}.
 * On the serial console each record is framed as "FSMREC <crc32-hex8> <json>", the CRC
 * covering the json text exactly, so a host can drop lines garbled by a noisy link.
 * Pure: no I/O; the writer fills a caller's buffer. */
#ifndef FSM_RECORD_H
#define FSM_RECORD_H
#include <stddef.h>
#include <stdint.h>

#define RECORD_SCHEMA 1
#define RECORD_PREFIX "FSMREC "
#define JW_DEPTH 16

/* A JSON writer into a fixed buffer. Commas are placed for the caller; an overflow sets
 * err and every later call is a no-op, so callers check once at the end.
 * Strings and keys may hold any bytes, and the output is still valid JSON: a byte that is not
 * part of a well-formed UTF-8 character (a Latin-1 file name, a plan value typed in another
 * encoding, a tool's garbled output) is written as \u00XX, its Latin-1 code point. Not
 * U+FFFD: the byte stays readable in the record, and two values that differ only there
 * (cell ids made from plan names) stay different. */
struct jw {
	char *buf;
	size_t len, cap;
	int err;
	int depth;
	int first[JW_DEPTH];   /* nothing written yet at this depth */
	int after_key;         /* the next value completes a "key": pair */
};

void jw_init(struct jw *w, char *buf, size_t cap);
void jw_obj(struct jw *w);     /* { */
void jw_end_obj(struct jw *w); /* } */
void jw_arr(struct jw *w);     /* [ */
void jw_end_arr(struct jw *w); /* ] */
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s);          /* NULL writes null */
void jw_strn(struct jw *w, const char *s, size_t n);
void jw_int(struct jw *w, long long v);
void jw_double(struct jw *w, double v, int decimals); /* NaN and inf write null */
void jw_bool(struct jw *w, int v);
void jw_null(struct jw *w);
/* A value another writer already made (a complete JSON value), placed like any value: how a
 * record takes in parts gathered while a cell ran. An empty or NULL json writes null. */
void jw_raw(struct jw *w, const char *json, size_t n);
/* "key": value shorthands */
void jw_kstr(struct jw *w, const char *key, const char *s);
void jw_kint(struct jw *w, const char *key, long long v);
void jw_kdouble(struct jw *w, const char *key, double v, int decimals);
void jw_kbool(struct jw *w, const char *key, int v);
/* "key": ["a", "b"] from the comma-separated list "a,b" ("" gives []), each item cut at
 * 127 bytes: how a cell's lists of what the kernel did not take are written. */
void jw_klist(struct jw *w, const char *key, const char *list);

struct stats_cell;
/* The "stats" of a summary record: {"METRIC":{"min":..,"median":..,"mean":..,"max":..,
 * "stddev":..,"cv":..},...} for each metric of c with a usable figure, in c's order, at 6
 * decimals (a NaN cv is null). */
void jw_summary_stats(struct jw *w, const struct stats_cell *c);

/* Opens a record: {"v":1,"type":TYPE. Close it with jw_end_obj. */
void record_begin(struct jw *w, const char *type);
/* 0 when the writer holds one complete object, -1 on overflow or unbalanced nesting. */
int jw_done(const struct jw *w);

/* CRC-32 as zlib computes it (IEEE 802.3, reflected 0xEDB88320). */
uint32_t crc32_ieee(uint32_t crc, const void *data, size_t len);

/* Writes "FSMREC xxxxxxxx json" (no newline). Returns its length, or -1 if out is short. */
int record_frame(const char *json, size_t jsonlen, char *out, size_t outlen);
/* Checks a console line (a trailing \n or \r\n is ignored). Returns 0 and points *json at
 * the record text with its length when the prefix, CRC and length agree; -1 otherwise. */
int record_unframe(const char *line, size_t linelen, const char **json, size_t *jsonlen);

/* A readable, sortable run id: YYYYMMDD-HHMMSS-xxxxxx from UTC time and 3 suffix bytes. */
void record_run_id(long long epoch, const unsigned char suffix[3], char out[32]);

#endif
