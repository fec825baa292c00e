/* lib/jscan.h: just enough JSON reading for /init, which has no JSON library: a strict validator
 * for one value, and lookups of an object's members by key. No allocation, no copies: the
 * answers point into the caller's text. Pure; the host tests run it. */
#ifndef FSM_JSCAN_H
#define FSM_JSCAN_H
#include <stddef.h>

#define JSCAN_DEPTH 32

/* 0 when text[0..len) is exactly one JSON value (RFC 8259; surrounding blanks allowed),
 * -1 otherwise. A record cut anywhere short of its end is never valid: the object it
 * opened is not closed. */
int json_valid(const char *text, size_t len);

/* In a valid object, the value of member key (the first, at the top level of that object
 * only): *val and *vlen span its text. Returns 0, or -1 if there is none. */
int json_member(const char *obj, size_t len, const char *key, const char **val, size_t *vlen);

/* The members of an object in order, checking its syntax as it goes: *pos starts at 0 and
 * is advanced past each member. Returns 1 with *key (the key's text without its quotes,
 * escapes as written) and *val spanning one member, 0 past the closing brace (*pos just after
 * it), -1 when the text is no object or is invalid before that point. */
int json_next_member(const char *obj, size_t len, size_t *pos, const char **key, size_t *klen,
		     const char **val, size_t *vlen);

/* Item i (0-based) of a valid array. Returns 0, or -1 past its end. */
int json_item(const char *arr, size_t len, int i, const char **val, size_t *vlen);

/* A member that is a string without escapes (ids, names, statuses, hashes), copied into out.
 * Returns 0, or -1 if missing, not a string, escaped or too long. */
int json_member_str(const char *obj, size_t len, const char *key, char *out, size_t outlen);
/* A member that is an integer. Returns 0, or -1. */
int json_member_int(const char *obj, size_t len, const char *key, long long *out);
/* A member that is any JSON number. Returns 0, or -1. */
int json_member_double(const char *obj, size_t len, const char *key, double *out);

#endif
