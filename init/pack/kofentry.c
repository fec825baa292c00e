/* pack/kofentry.c: a module's "call __fentry__" sites made NOPs (pack/kofentry.h says why).
 * Every field read comes from the file: each is checked against its bounds first, and
 * nothing is written until every site has been checked. */
#include "pack/kofentry.h"

#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MCOUNT_SECTION "__mcount_loc"
#define FENTRY_SYMBOL "__fentry__"
#define SITE_LEN 5

static const unsigned char call_fentry[SITE_LEN] = { 0xe8, 0, 0, 0, 0 };  /* rel32 in the RELA */
static const unsigned char nop5[SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

struct module {
	unsigned char *b;
	size_t len;
	Elf64_Shdr *sh;
	size_t shnum, shstrndx;
	const Elf64_Shdr *symtab, *strtab;
};

struct site {
	size_t sec;          /* the section holding the call */
	uint64_t off;        /* its offset there */
	size_t rela_at;      /* file offset of the call's relocation; 0: none found (yet) */
};

static int left(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return KO_FENTRY_LEFT;
}

/* [off, off+n) lies within the file */
static int inside(const struct module *m, uint64_t off, uint64_t n)
{
	return off <= m->len && n <= m->len - off;
}

/* a section's bytes lie within the file (a NOBITS section has none) */
static int sec_inside(const struct module *m, const Elf64_Shdr *s)
{
	return s->sh_type == SHT_NOBITS || inside(m, s->sh_offset, s->sh_size);
}

/* the NUL-terminated string at index i of string section s, or NULL */
static const char *str_at(const struct module *m, const Elf64_Shdr *s, uint64_t i)
{
	if (s->sh_type != SHT_STRTAB || !sec_inside(m, s) || i >= s->sh_size)
		return NULL;
	const char *p = (const char *)m->b + s->sh_offset + i;
	return memchr(p, 0, s->sh_size - i) ? p : NULL;
}

static int sym_at(const struct module *m, uint64_t i, Elf64_Sym *out)
{
	if (i == 0 || i >= m->symtab->sh_size / sizeof *out)
		return -1;
	memcpy(out, m->b + m->symtab->sh_offset + i * sizeof *out, sizeof *out);
	return 0;
}

/* entry k of a relocation section already known to lie within the file */
static void rela_at(const struct module *m, const Elf64_Shdr *s, size_t k, Elf64_Rela *out)
{
	memcpy(out, m->b + s->sh_offset + k * sizeof *out, sizeof *out);
}

static int by_place(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int load_headers(struct module *m, char *why, size_t whylen)
{
	Elf64_Ehdr eh;
	if (m->len < sizeof eh)
		return left(why, whylen, "shorter than an ELF header");
	memcpy(&eh, m->b, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return left(why, whylen, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
		return left(why, whylen, "not an x86-64 kernel module (a relocatable 64-bit ELF)");
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum ||
	    !inside(m, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)))
		return left(why, whylen, "its section headers are not where its ELF header says");
	m->shnum = eh.e_shnum;
	m->shstrndx = eh.e_shstrndx;
	m->sh = malloc(m->shnum * sizeof *m->sh);
	if (!m->sh)
		return left(why, whylen, "out of memory");
	memcpy(m->sh, m->b + eh.e_shoff, m->shnum * sizeof *m->sh);
	for (size_t i = 0; i < m->shnum; i++)
		if (!sec_inside(m, &m->sh[i]))
			return left(why, whylen, "section %zu lies outside the file", i);
	return KO_FENTRY_DONE;
}

static const char *sec_name(const struct module *m, size_t i)
{
	return str_at(m, &m->sh[m->shstrndx], m->sh[i].sh_name);
}

/* The sites __mcount_loc's relocations name (its own bytes are zero until the kernel
 * relocates it), sorted by place. */
static int list_sites(struct module *m, size_t mcount, struct site **out, size_t *n,
		      char *why, size_t whylen)
{
	const Elf64_Shdr *rel = NULL;
	for (size_t i = 0; i < m->shnum; i++)
		if (m->sh[i].sh_type == SHT_RELA && m->sh[i].sh_info == mcount)
			rel = &m->sh[i];
	if (!rel)
		return left(why, whylen, MCOUNT_SECTION " has no relocations");
	if (rel->sh_link == 0 || rel->sh_link >= m->shnum || m->sh[rel->sh_link].sh_type != SHT_SYMTAB ||
	    m->sh[rel->sh_link].sh_link >= m->shnum)
		return left(why, whylen, MCOUNT_SECTION "'s relocations have no symbol table");
	m->symtab = &m->sh[rel->sh_link];
	m->strtab = &m->sh[m->symtab->sh_link];
	size_t count = rel->sh_size / sizeof(Elf64_Rela);
	struct site *s = calloc(count ? count : 1, sizeof *s);
	if (!s)
		return left(why, whylen, "out of memory");
	*out = s;
	for (size_t k = 0; k < count; k++) {
		Elf64_Rela r;
		Elf64_Sym sym;
		rela_at(m, rel, k, &r);
		if (ELF64_R_TYPE(r.r_info) != R_X86_64_64 || sym_at(m, ELF64_R_SYM(r.r_info), &sym) != 0 ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= m->shnum)
			return left(why, whylen, MCOUNT_SECTION " entry %zu names no place in a section", k);
		const Elf64_Shdr *text = &m->sh[sym.st_shndx];
		uint64_t off = sym.st_value + (uint64_t)r.r_addend;
		if (text->sh_type != SHT_PROGBITS || off > text->sh_size || text->sh_size - off < SITE_LEN)
			return left(why, whylen, MCOUNT_SECTION " entry %zu points outside its section", k);
		s[k] = (struct site){ .sec = sym.st_shndx, .off = off };
	}
	qsort(s, count, sizeof *s, by_place);
	for (size_t k = 1; k < count; k++)
		if (by_place(&s[k - 1], &s[k]) == 0)
			return left(why, whylen, MCOUNT_SECTION " lists one call site twice");
	*n = count;
	return KO_FENTRY_DONE;
}

/* Finds each site's "call __fentry__" relocation in the relocations of its section. */
static int find_calls(struct module *m, struct site *s, size_t n, char *why, size_t whylen)
{
	for (size_t i = 0; i < m->shnum; i++) {
		const Elf64_Shdr *rel = &m->sh[i];
		if (rel->sh_type != SHT_RELA || rel->sh_link >= m->shnum || &m->sh[rel->sh_link] != m->symtab)
			continue;
		for (size_t k = 0; k < rel->sh_size / sizeof(Elf64_Rela); k++) {
			Elf64_Rela r;
			Elf64_Sym sym;
			rela_at(m, rel, k, &r);
			uint32_t type = ELF64_R_TYPE(r.r_info);
			if ((type != R_X86_64_PLT32 && type != R_X86_64_PC32) || r.r_offset == 0 ||
			    sym_at(m, ELF64_R_SYM(r.r_info), &sym) != 0)
				continue;
			const char *name = str_at(m, m->strtab, sym.st_name);
			if (!name || strcmp(name, FENTRY_SYMBOL) != 0)
				continue;
			struct site key = { .sec = rel->sh_info, .off = r.r_offset - 1 };
			struct site *hit = bsearch(&key, s, n, sizeof *s, by_place);
			if (!hit)
				continue;   /* a call no one lists: the kernel leaves it too */
			if (hit->rela_at || r.r_addend != -4)
				return left(why, whylen, "the call at section %zu+0x%llx is relocated oddly",
					    hit->sec, (unsigned long long)hit->off);
			hit->rela_at = rel->sh_offset + k * sizeof(Elf64_Rela);
		}
	}
	for (size_t k = 0; k < n; k++) {
		const unsigned char *code = m->b + m->sh[s[k].sec].sh_offset + s[k].off;
		int is_call = s[k].rela_at && memcmp(code, call_fentry, SITE_LEN) == 0;
		int is_nop = !s[k].rela_at && memcmp(code, nop5, SITE_LEN) == 0;
		if (!is_call && !is_nop)
			return left(why, whylen, "section %zu+0x%llx is neither a call to " FENTRY_SYMBOL
				    " nor a 5-byte NOP", s[k].sec, (unsigned long long)s[k].off);
	}
	return KO_FENTRY_DONE;
}

enum ko_fentry_result ko_nop_fentry(unsigned char *elf, size_t len, size_t *sites,
				    char *why, size_t whylen)
{
	struct module m = { .b = elf, .len = len };
	struct site *s = NULL;
	size_t n = 0, mcount = 0;
	int rc = load_headers(&m, why, whylen);
	if (rc != KO_FENTRY_DONE)
		goto out;
	for (size_t i = 1; i < m.shnum; i++) {
		const char *name = sec_name(&m, i);
		if (name && strcmp(name, MCOUNT_SECTION) == 0)
			mcount = i;
	}
	if (mcount) {
		rc = list_sites(&m, mcount, &s, &n, why, whylen);
		if (rc == KO_FENTRY_DONE)
			rc = find_calls(&m, s, n, why, whylen);
	}
	if (rc == KO_FENTRY_DONE) {
		for (size_t k = 0; k < n; k++) {
			if (!s[k].rela_at)
				continue;   /* already the NOP */
			Elf64_Rela r;
			memcpy(&r, elf + s[k].rela_at, sizeof r);
			r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_NONE);
			memcpy(elf + s[k].rela_at, &r, sizeof r);
			memcpy(elf + m.sh[s[k].sec].sh_offset + s[k].off, nop5, SITE_LEN);
		}
		*sites = n;
	}
out:
	free(s);
	free(m.sh);
	return rc;
}
