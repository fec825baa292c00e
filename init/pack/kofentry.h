/* pack/kofentry.h: a kernel module's ftrace call sites, turned into the NOPs the kernel would
 * turn them into, before the module goes into the image.
 *
 * A module built for ftrace (CONFIG_DYNAMIC_FTRACE) starts each function with
 * "call __fentry__" and lists those calls in its __mcount_loc section. At every load the kernel
 * turns each listed call into a 5-byte NOP, and then (Linux 6.1, ftrace_module_enable) looks
 * each one up in the module's symbols to skip weak functions: a scan of the whole symbol table
 * per call site. ext4 has 854 sites and 3,664 symbols: half of its load.
 *
 * Done here instead, the way objtool --mnop does it for kernels built with
 * CC_USING_NOP_MCOUNT: each call becomes the kernel's own 5-byte NOP (0f 1f 44 00 00, what
 * ftrace writes on x86-64), its relocation R_X86_64_NONE, and the caller then removes
 * __mcount_loc, so the kernel has no call site to convert or look up. The code that runs is
 * the same; only ftrace's function tracer can no longer trace the module's functions. */
#ifndef FSM_KOFENTRY_H
#define FSM_KOFENTRY_H
#include <stddef.h>

enum ko_fentry_result {
	KO_FENTRY_DONE,   /* every listed site is a NOP now (none listed: nothing to do) */
	KO_FENTRY_LEFT,   /* the module is unchanged, and why[] says why */
};

/* Rewrites the call sites of the relocatable x86-64 ELF module elf[0..len): all of them or,
 * if any one is not a "call __fentry__" (or already the NOP) that a relocation names, none.
 * *sites: how many sites __mcount_loc lists, on KO_FENTRY_DONE. The section stays: removing
 * it means rewriting the file, which objcopy does. Never reads or writes outside elf[]. */
enum ko_fentry_result ko_nop_fentry(unsigned char *elf, size_t len, size_t *sites,
				    char *why, size_t whylen);

#endif
