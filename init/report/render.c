/* report/render.c: grids as aligned text, markdown, CSV (RFC 4180) and HTML tables. */
#include "report/grid.h"

#include <ctype.h>
#include <string.h>

/* Width on a terminal: UTF-8 continuation bytes take no column (± is two bytes). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Figures get class "num" in HTML tables, to be right-aligned. */
static int numeric(const char *s)
{
	return isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1]));
}

/* Columns padded to their widest cell; no trailing blanks, which golden files and terminals
 * both prefer. */
void render_text(FILE *f, const struct grid *g)
{
	size_t w[64] = { 0 };
	size_t nc = g->ncols < 64 ? g->ncols : 64;
	for (size_t r = 0; r < g->nrows; r++)
		for (size_t c = 0; c < nc; c++)
			if (width(g->cell[r * g->ncols + c]) > w[c])
				w[c] = width(g->cell[r * g->ncols + c]);
	fprintf(f, "%s\n", g->title);
	if (g->note)
		fprintf(f, "%s\n", g->note);
	for (size_t r = 0; r < g->nrows; r++) {
		for (int rule = 0; rule <= (r == 0); rule++) {
			size_t pending = 0;   /* blanks owed, written only before more text */
			for (size_t c = 0; c < nc; c++) {
				const char *s = g->cell[r * g->ncols + c];
				size_t sw = rule ? w[c] : width(s);
				fprintf(f, "%*s", (int)(pending + 2), "");
				if (rule)
					for (size_t i = 0; i < w[c]; i++)
						fputc('-', f);
				else
					fputs(s, f);
				pending = w[c] - sw;
			}
			fputs("\n", f);
		}
	}
	for (size_t i = 0; i < g->nlegend; i++)
		fprintf(f, "  %s\n", g->legend[i]);
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

void render_md(FILE *f, const struct grid *g)
{
	fprintf(f, "### %s\n\n", g->title);
	if (g->note)
		fprintf(f, "%s\n\n", g->note);
	for (size_t r = 0; r < g->nrows; r++) {
		fputs("|", f);
		for (size_t c = 0; c < g->ncols; c++) {
			fputs(" ", f);
			md_cell(f, g->cell[r * g->ncols + c]);
			fputs(" |", f);
		}
		fputs("\n", f);
		if (r == 0) {
			fputs("|", f);
			for (size_t c = 0; c < g->ncols; c++)
				fputs("---|", f);
			fputs("\n", f);
		}
	}
	fputs("\n", f);
	for (size_t i = 0; i < g->nlegend; i++)
		fprintf(f, "%s\n\n", g->legend[i]);
}

/* RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; CRLF. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void render_csv(FILE *f, const struct grid *g, int heading)
{
	for (size_t r = heading ? 0 : 1; r < g->nrows; r++) {
		for (size_t c = 0; c < g->ncols; c++) {
			if (c)
				fputc(',', f);
			csv_field(f, g->cell[r * g->ncols + c]);
		}
		fputs("\r\n", f);
	}
}

void html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void render_html_table(FILE *f, const struct grid *g)
{
	static const struct { char c; const char *name; } classes[] = {
		{ 'g', "better" }, { 'b', "worse" }, { 'e', "error" }, { 'm', "missing" },
		{ 'i', "num ignored" }, { 'u', "num unstable" },
	};
	fputs("<h3>", f);
	html_escape(f, g->title);
	fputs("</h3>\n", f);
	if (g->note) {
		fputs("<p class=\"note\">", f);
		html_escape(f, g->note);
		fputs("</p>\n", f);
	}
	fputs("<table>\n", f);
	for (size_t r = 0; r < g->nrows; r++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < g->ncols; c++) {
			const char *tag = r ? "td" : "th";
			const char *cls = NULL;
			for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
				if (g->cls[r * g->ncols + c] == classes[k].c)
					cls = classes[k].name;
			fprintf(f, "<%s", tag);
			if (cls)
				fprintf(f, " class=\"%s\"", cls);
			else if (r && numeric(g->cell[r * g->ncols + c]))
				fputs(" class=\"num\"", f);
			if (g->tip && g->tip[r * g->ncols + c]) {
				fputs(" title=\"", f);
				html_escape(f, g->tip[r * g->ncols + c]);
				fputs("\"", f);
			}
			fputs(">", f);
			html_escape(f, g->cell[r * g->ncols + c]);
			fprintf(f, "</%s>", tag);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (size_t i = 0; i < g->nlegend; i++) {
		fputs("<p class=\"note\">", f);
		html_escape(f, g->legend[i]);
		fputs("</p>\n", f);
	}
}
