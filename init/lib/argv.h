/* lib/argv.h: argument vectors built in a fixed buffer, for the commands a cell runs (mdadm,
 * mkfs, tune2fs) and for `fsmatrix check` to print them. Pure: no I/O.
 * v[] points into buf, so a struct argv must not be copied: build it where it is used. */
#ifndef FSM_ARGV_H
#define FSM_ARGV_H
#include <stddef.h>

#define ARGV_MAX 64
#define ARGV_BUF 2048

struct argv {
	int n;
	char *v[ARGV_MAX + 1];     /* NULL-terminated, ready for execv */
	char buf[ARGV_BUF];
	size_t used;
	int overflow;              /* set by any add that did not fit; later adds do nothing */
};

void argv_init(struct argv *a);
void argv_add(struct argv *a, const char *word);
void argv_addf(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends the words of s: split on blanks, with double quotes grouping words ("-L my label")
 * and a backslash inside quotes escaping the next character. Returns 0, or -1 with err saying
 * why (an unterminated quote, too many words). */
int argv_split(struct argv *a, const char *s, char *err, size_t errlen);

/* Writes the vector as one shell-readable line: words with blanks or quotes are quoted.
 * Returns the length it needed (like snprintf). */
size_t argv_join(const struct argv *a, char *buf, size_t len);

/* The index of the first word equal to w at or after from, or -1. */
int argv_find(const struct argv *a, const char *w, int from);

#endif
