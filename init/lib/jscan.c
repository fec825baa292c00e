/* lib/jscan.c: a recursive-descent JSON validator whose skip functions also serve member
 * lookups. Depth is bounded, so a hostile line cannot exhaust the stack. */
#include "lib/jscan.h"
#include <stdlib.h>
#include <string.h>

struct js {
	const char *s, *end;
	int depth;
};

static void blanks(struct js *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

static int hexdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int skip_string(struct js *j)
{
	if (j->s >= j->end || *j->s != '"')
		return -1;
	for (j->s++; j->s < j->end; j->s++) {
		unsigned char c = (unsigned char)*j->s;
		if (c == '"') {
			j->s++;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c != '\\')
			continue;
		if (++j->s >= j->end)
			return -1;
		if (*j->s == 'u') {
			for (int i = 0; i < 4; i++)
				if (++j->s >= j->end || !hexdigit(*j->s))
					return -1;
		} else if (!*j->s || !strchr("\"\\/bfnrt", *j->s)) {
			return -1;
		}
	}
	return -1;
}

static int digits(struct js *j)
{
	const char *start = j->s;
	while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
		j->s++;
	return j->s > start ? 0 : -1;
}

static int skip_number(struct js *j)
{
	if (j->s < j->end && *j->s == '-')
		j->s++;
	if (j->s < j->end && *j->s == '0')
		j->s++;
	else if (digits(j) < 0)
		return -1;
	if (j->s < j->end && *j->s == '.') {
		j->s++;
		if (digits(j) < 0)
			return -1;
	}
	if (j->s < j->end && (*j->s == 'e' || *j->s == 'E')) {
		j->s++;
		if (j->s < j->end && (*j->s == '+' || *j->s == '-'))
			j->s++;
		if (digits(j) < 0)
			return -1;
	}
	return 0;
}

static int word(struct js *j, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(j->end - j->s) < n || memcmp(j->s, w, n) != 0)
		return -1;
	j->s += n;
	return 0;
}

static int skip_value(struct js *j);

/* Both containers: items separated by commas, each "key": value in an object. */
static int skip_container(struct js *j, char close, int object)
{
	if (++j->depth > JSCAN_DEPTH)
		return -1;
	j->s++;
	blanks(j);
	if (j->s < j->end && *j->s == close) {
		j->s++;
		j->depth--;
		return 0;
	}
	for (;;) {
		blanks(j);
		if (object) {
			if (skip_string(j) < 0)
				return -1;
			blanks(j);
			if (j->s >= j->end || *j->s++ != ':')
				return -1;
			blanks(j);
		}
		if (skip_value(j) < 0)
			return -1;
		blanks(j);
		if (j->s >= j->end)
			return -1;
		char c = *j->s++;
		if (c == close)
			break;
		if (c != ',')
			return -1;
	}
	j->depth--;
	return 0;
}

static int skip_value(struct js *j)
{
	if (j->s >= j->end)
		return -1;
	switch (*j->s) {
	case '{': return skip_container(j, '}', 1);
	case '[': return skip_container(j, ']', 0);
	case '"': return skip_string(j);
	case 't': return word(j, "true");
	case 'f': return word(j, "false");
	case 'n': return word(j, "null");
	default: return skip_number(j);
	}
}

int json_valid(const char *text, size_t len)
{
	struct js j = { text, text + len, 0 };
	blanks(&j);
	if (skip_value(&j) < 0)
		return -1;
	blanks(&j);
	return j.s == j.end ? 0 : -1;
}

int json_member(const char *obj, size_t len, const char *key, const char **val, size_t *vlen)
{
	struct js j = { obj, obj + len, 0 };
	size_t klen = strlen(key);
	blanks(&j);
	if (j.s >= j.end || *j.s != '{')
		return -1;
	j.s++;
	for (;;) {
		blanks(&j);
		const char *k = j.s;
		if (skip_string(&j) < 0)
			return -1;
		/* keys we look for have no escapes, so the raw text compares */
		int match = (size_t)(j.s - k) == klen + 2 && memcmp(k + 1, key, klen) == 0;
		blanks(&j);
		if (j.s >= j.end || *j.s++ != ':')
			return -1;
		blanks(&j);
		const char *v = j.s;
		if (skip_value(&j) < 0)
			return -1;
		if (match) {
			*val = v;
			*vlen = (size_t)(j.s - v);
			return 0;
		}
		blanks(&j);
		if (j.s >= j.end || *j.s++ != ',')
			return -1;
	}
}

int json_next_member(const char *obj, size_t len, size_t *pos, const char **key, size_t *klen,
		     const char **val, size_t *vlen)
{
	struct js j = { obj + *pos, obj + len, 1 };
	blanks(&j);
	if (*pos == 0) {
		if (j.s >= j.end || *j.s++ != '{')
			return -1;
		blanks(&j);
		if (j.s < j.end && *j.s == '}') {
			*pos = (size_t)(j.s + 1 - obj);
			return 0;
		}
	} else {
		if (j.s >= j.end)
			return -1;
		char c = *j.s++;
		if (c == '}') {
			*pos = (size_t)(j.s - obj);
			return 0;
		}
		if (c != ',')
			return -1;
		blanks(&j);
	}
	const char *k = j.s;
	if (skip_string(&j) < 0)
		return -1;
	*key = k + 1;
	*klen = (size_t)(j.s - k) - 2;
	blanks(&j);
	if (j.s >= j.end || *j.s++ != ':')
		return -1;
	blanks(&j);
	*val = j.s;
	if (skip_value(&j) < 0)
		return -1;
	*vlen = (size_t)(j.s - *val);
	*pos = (size_t)(j.s - obj);
	return 1;
}

int json_item(const char *arr, size_t len, int i, const char **val, size_t *vlen)
{
	struct js j = { arr, arr + len, 0 };
	blanks(&j);
	if (j.s >= j.end || *j.s != '[')
		return -1;
	j.s++;
	blanks(&j);
	if (j.s < j.end && *j.s == ']')
		return -1;
	for (int k = 0;; k++) {
		blanks(&j);
		const char *v = j.s;
		if (skip_value(&j) < 0)
			return -1;
		if (k == i) {
			*val = v;
			*vlen = (size_t)(j.s - v);
			return 0;
		}
		blanks(&j);
		if (j.s >= j.end || *j.s++ != ',')
			return -1;
	}
}

int json_member_str(const char *obj, size_t len, const char *key, char *out, size_t outlen)
{
	const char *v;
	size_t n;
	if (json_member(obj, len, key, &v, &n) < 0 || n < 2 || v[0] != '"' || n - 2 >= outlen ||
	    memchr(v + 1, '\\', n - 2))
		return -1;
	memcpy(out, v + 1, n - 2);
	out[n - 2] = '\0';
	return 0;
}

int json_member_int(const char *obj, size_t len, const char *key, long long *out)
{
	const char *v;
	size_t n;
	char num[24];
	if (json_member(obj, len, key, &v, &n) < 0 || n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, v, n);
	num[n] = '\0';
	char *end;
	long long x = strtoll(num, &end, 10);
	if (*end || end == num)
		return -1;
	*out = x;
	return 0;
}

int json_member_double(const char *obj, size_t len, const char *key, double *out)
{
	const char *v;
	size_t n;
	char num[64];
	if (json_member(obj, len, key, &v, &n) < 0 || n == 0 || n >= sizeof num ||
	    !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')))
		return -1;
	memcpy(num, v, n);
	num[n] = '\0';
	char *end;
	double x = strtod(num, &end);
	if (*end || end == num)
		return -1;
	*out = x;
	return 0;
}
