/* lib/utf8.h: where text stops being well-formed UTF-8 (RFC 3629: no overlong forms, no
 * UTF-16 surrogates, nothing past U+10FFFF). Records must be valid JSON, which is UTF-8, and
 * a plan's values end up in them. Pure. */
#ifndef FSM_UTF8_H
#define FSM_UTF8_H
#include <stddef.h>

/* The length (1 to 4) of the well-formed character that starts s[0..n), or 0 when s[0]
 * starts none (n > 0). */
size_t utf8_char(const char *s, size_t n);

/* The offset of the first byte of s[0..n) outside a well-formed character, or n. */
size_t utf8_bad(const char *s, size_t n);

#endif
