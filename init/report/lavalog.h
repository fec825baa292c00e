/* report/lavalog.h: a line of a LAVA job log back into the console line it carries. LAVA's
 * dispatcher (lava-run, and lava-server's output.yaml, where each line is an item of a YAML
 * list, "- {...}") writes its log one YAML flow mapping per line, every scalar
 * double-quoted: {"dt": "...", "lvl": "target", "msg": "console text"}. Before that its
 * ShellLogger escapes every '"' of the console as '\"' (and drops '\r' and ESC), so a framed
 * record comes back byte for byte by undoing the YAML escapes and then that one. Pure. */
#ifndef FSM_REPORT_LAVALOG_H
#define FSM_REPORT_LAVALOG_H
#include <stddef.h>

enum lava_line { LAVA_NOT = -1, LAVA_OTHER = 0, LAVA_TARGET = 1 };

/* LAVA_NOT when line (n bytes, without its newline) is no LAVA log line; LAVA_OTHER for a
 * log line of another level (info, results, ...) or one that cannot be decoded; LAVA_TARGET
 * with the console text in out (cap bytes, NUL-terminated) and its length in *outlen. */
enum lava_line lava_log_line(const char *line, size_t n, char *out, size_t cap, size_t *outlen);

#endif
