/* cli/keys.c: `fsmatrix keys`: every plan key with its default and what it does, from the
 * parser's own rows (core/parse/plan_key_rows.c), as text or as docs/plans.md's key table,
 * which is written from it (tests/docs/run.sh compares the two). */
#include "cli/cli.h"
#include "core/parse/plan_parse.h"

#include <stdio.h>
#include <string.h>

const char host_keys_usage[] =
	"usage: fsmatrix keys [--markdown] [SECTION]\n"
	"  every plan key with its default and what it does; SECTION (global, array, layer, fs,\n"
	"  bisect, workload) only that section's\n"
	"  --markdown  docs/plans.md's key table, one row per key (keys sharing a text, one row)\n";

/* "[array NAME]" is section "array". */
static int in_section(const char *doc_section, const char *want)
{
	size_t n = strlen(want);
	return !want[0] || (strncmp(doc_section + 1, want, n) == 0 &&
			    (doc_section[n + 1] == ']' || doc_section[n + 1] == ' '));
}

/* Text: a section's name once, then each key, its default and its help wrapped at 78. */
static void text_row(const struct plan_key_doc *d, const char *prev_section)
{
	if (!prev_section || strcmp(prev_section, d->section) != 0)
		printf("%s%s\n", prev_section ? "\n" : "", d->section);
	printf("  %s%s%s%s\n", d->name, d->def ? " (default: " : "", d->def ? d->def : "",
	       d->def ? ")" : "");
	const char *s = d->help;
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
	struct plan_key_doc d;
	int found = 0;
	for (int i = 0; plan_key_doc(i, &d) == 0; i++)
		found |= in_section(d.section, want);
	if (!found)
		return host_usage_error("keys", "no section \"%s\": expected global, array, layer, fs, "
					"bisect or workload", want);
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
