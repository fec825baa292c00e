/* core/model/skip.c: why a cell is skipped (skip.h). */
#include "core/model/skip.h"

#include <stdio.h>

int cell_skip_reason(const char *array, int need, int have, int gone, const char *lost,
		     char *why, size_t len)
{
	if (have >= need)
		return 0;
	snprintf(why, len, "[array %s] needs %d test disk%s, %d %s%s%s%s", array, need,
		 need == 1 ? "" : "s", have, gone ? "remain" : "taken", gone ? " (gone: " : "",
		 gone ? lost : "", gone ? ")" : "");
	return -1;
}
