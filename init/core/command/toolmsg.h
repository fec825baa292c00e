/* core/command/toolmsg.h: the line of a failed tool's output that says why, for a cell's error.
 * Pure. */
#ifndef FSM_TOOLMSG_H
#define FSM_TOOLMSG_H
#include <stddef.h>

/* 1 when line (n bytes, no newline) is a tool's version banner and not a reason: a word,
 * a version that starts with a digit (after "version " or "v"), and at most a date in
 * parentheses: "mke2fs 1.47.0 (5-Feb-2023)", "tune2fs 1.47.0 (5-Feb-2023)", "mkfs.xfs
 * version 6.1.0". */
int tool_banner(const char *line, size_t n);

/* The reason a tool gave for failing, into buf: the first non-empty line of err that is not
 * its version banner (mke2fs prints its banner first, then the error; mdadm and mkfs.xfs the
 * error first, then usage), else the same of out, else "". Leading blanks dropped. */
void tool_reason(const char *err, const char *out, char *buf, size_t len);

#endif
