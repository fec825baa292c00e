/* cli/keys.c: `fsmatrix keys`: every plan key with its default and what it does, from the
 * parser's own rows (core/parse/plan_key_rows.c), and every fsmatrix.* kernel parameter from
 * the command line's (core/parse/cmdline.c), as text or as the docs' tables, which are
 * written from it (docs/plans.md, docs/kernel-parameters.md; tests/docs/run.sh compares). */
#include "cli/cli.h"
#include "core/parse/cmdline.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>
#include <string.h>

const char host_keys_usage[] =
	"usage: fsmatrix keys [--markdown] [SECTION]\n"
	"  every plan key with its default and what it does; SECTION (global, array, layer, fs,\n"
	"  bisect, workload) only that section's; kernel: the fsmatrix.* kernel parameters\n"
	"  --markdown  the docs' table: docs/plans.md's (one row per key, keys sharing a text in\n"
	"              one row), or with kernel docs/kernel-parameters.md's\n";

/* "[array NAME]" is section "array". */
static int in_section(const char *doc_section, const char *want)
{
	size_t n = strlen(want);
	return !want[0] || (strncmp(doc_section + 1, want, n) == 0 &&
			    (doc_section[n + 1] == ']' || doc_section[n + 1] == ' '));
}

/* A help text wrapped at 78, indented under its key. */
static void text_help(const char *s)
{
	while (*s) {
		size_t n = strlen(s);
		if (n > 72) {
			n = 72;
			while (n > 0 && s[n] != ' ')
				n--;
			if (n == 0)
				n = strcspn(s, " ");
		}
		printf("      %.*s\n", (int)n, s);
		s += n;
		while (*s == ' ')
			s++;
	}
}

/* Text: a section's name once, then each key, its default and its help. */
static void text_row(const struct plan_key_doc *d, const char *prev_section)
{
	if (!prev_section || strcmp(prev_section, d->section) != 0)
		printf("%s%s\n", prev_section ? "\n" : "", d->section);
	printf("  %s%s%s%s\n", d->name, d->def ? " (default: " : "", d->def ? d->def : "",
	       d->def ? ")" : "");
	text_help(d->help);
}

/* The kernel parameters: as text, or as docs/kernel-parameters.md's table ("|" in a form
 * escaped for markdown). */
static int kernel_params(int markdown)
{
	const char *key, *form, *help;
	if (markdown)
		printf("| parameter | meaning |\n|---|---|\n");
	for (int i = 0; cmdline_param_doc(i, &key, &form, &help) == 0; i++) {
		if (!markdown) {
			printf("  fsmatrix.%s%s\n", key, form);
			text_help(help);
			continue;
		}
		printf("| `fsmatrix.%s", key);
		for (const char *c = form; *c; c++)
			if (*c == '|')
				fputs("\\|", stdout);
			else
				putchar(*c);
		printf("` | %s |\n", help);
	}
	return 0;
}

/* Markdown: the section in its first row only; keys in a run that share one help text (the
 * tunables) in one row. */
static void markdown_rows(const char *want)
{
	struct plan_key_doc d, next;
	const char *prev = NULL;
	printf("| section | key | meaning (default) |\n|---|---|---|\n");
	for (int i = 0; plan_key_doc(i, &d) == 0; i++) {
		if (!in_section(d.section, want))
			continue;
		if (prev && strcmp(prev, d.section) == 0)
			printf("| | `%s`", d.name);
		else
			printf("| `%s` | `%s`", d.section, d.name);
		for (; plan_key_doc(i + 1, &next) == 0 && next.help == d.help &&
		       strcmp(next.section, d.section) == 0; i++)
			printf(", `%s`", next.name);
		printf(" | %s", d.help);
		if (d.def)
			printf(" (`%s`)", d.def);
		printf(" |\n");
		prev = d.section;
	}
}

int host_cmd_keys(int argc, char **argv)
{
	int markdown = 0;
	const char *want = "";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--markdown") == 0)
			markdown = 1;
		else if (argv[i][0] == '-')
			return host_usage_error("keys", "unknown option \"%s\"", argv[i]);
		else if (want[0])
			return host_usage_error("keys", "unexpected argument \"%s\"", argv[i]);
		else
			want = argv[i];
	}
	if (strcmp(want, "kernel") == 0)
		return kernel_params(markdown);
	struct plan_key_doc d;
	int found = 0;
	for (int i = 0; plan_key_doc(i, &d) == 0; i++)
		found |= in_section(d.section, want);
	if (!found)
		return host_usage_error("keys", "no section \"%s\": expected global, array, layer, fs, "
					"bisect, workload or kernel", want);
	if (markdown) {
		markdown_rows(want);
		return 0;
	}
	const char *prev = NULL;
	for (int i = 0; plan_key_doc(i, &d) == 0; i++)
		if (in_section(d.section, want)) {
			text_row(&d, prev);
			prev = d.section;
		}
	return 0;
}
