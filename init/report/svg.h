/* report/svg.h: inline SVG bar charts of one metric (report/svg.c). */
#ifndef FSM_REPORT_SVG_H
#define FSM_REPORT_SVG_H
#include "report/model.h"

/* Charts: an inline SVG bar chart of one metric, bars grouped in clusters along the x axis
 * and coloured by series; each bar is the median, its whisker min..max over repeats. */
struct chart_item {
	const struct rcell *c;
	char cluster[128];   /* x-axis group */
	char series[128];    /* colour, with a legend */
};
void svg_chart(FILE *f, const struct chart_item *it, size_t n, const struct metric *m,
	       const char *title, const char *xlabel);

#endif
