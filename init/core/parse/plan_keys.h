/* core/parse/plan_keys.h: the plan parser's own header, shared by the files of core/parse/ and
 * by nothing else (their public side is core/parse/plan_parse.h): plan.c reads lines and
 * sections, plan_keys.c holds the key tables and puts values into fields, plan_check.c
 * validates what only makes sense once a section or the plan is read. */
#ifndef FSM_PLAN_KEYS_H
#define FSM_PLAN_KEYS_H
#include <stddef.h>
#include "core/model/level.h"
#include "core/model/plan.h"
#include "core/parse/plan_parse.h"
#include "core/workload/workload_kinds.h"

enum kind {
	K_NAME,     /* [A-Za-z0-9._-] */
	K_STR,      /* any text */
	K_WORDS,    /* words for a command line: checked by splitting them */
	K_MOUNT,    /* repeatable: one mount option string per line */
	K_INT,
	K_U64,
	K_SIZE,
	K_CHUNKS,   /* a comma-separated list of sizes */
	K_LEVEL,    /* a key of core/model/level.c's table */
	K_DUR,
	K_BOOL,
	K_CHOICE,
	K_WLTYPE,   /* a workload type: a name of core/workload/workload_kinds.c's table */
	K_PERIOD,   /* off, or a period in ms or s */
	K_CONTROL,  /* a machine control: a value core/model/conditions.c's row takes */
	K_REPEAT,   /* a whole number, or auto (struct plan's repeat_auto) */
	K_PCT,      /* a percentage above 0 up to 100, "5%" or "5": a double */
	K_WLSIZE,   /* a workload's size: bytes, or relative to the machine (core/workload/wlsize.h) */
	K_KERNELS,  /* a list of kernel set names (core/matrix/kernels.c) */
};

struct choice {
	const char *name;
	int value;
};

struct key {
	const char *name;
	enum kind kind;
	size_t off;                    /* of the field in the section's struct */
	long long min, max;            /* K_INT, K_SIZE */
	const struct choice *choices;  /* K_CHOICE, NULL-terminated */
	const char *expected;          /* K_CHOICE: the error message */
	unsigned only;                 /* bit per section type the key applies to; 0 = all */
	const char *def;               /* the default, as a plan writes it, put into the field
	                                  through the key's own setter when the section opens
	                                  (key_defaults); NULL: the field's zero, or required */
	const char *help;              /* what the key does, for docs/plans.md's key table
	                                  (fsmatrix keys --markdown writes it) */
};

/* Section type bits for key.only. Arrays: by what the level is; fs: by type. Workload keys
 * say nothing here: each engine's row in core/workload/workload_kinds.c names the keys it takes. */
#define B_EXT ((1u << FS_EXT2) | (1u << FS_EXT3) | (1u << FS_EXT4))
#define B_MD 0x1u        /* md levels */
#define B_STRIPED 0x2u   /* md levels with a chunk */
#define B_BTRFS 0x4u     /* btrfs's own profiles, no md */
#define B_LVM 0x8u       /* lvm's own volumes, no md */

enum sect { S_NONE, S_IGNORE, S_GLOBAL, S_ARRAY, S_FS, S_WORKLOAD, S_BISECT, S_LAYER };

extern const struct key global_keys[], array_keys[], fs_keys[], wl_keys[];
/* yes/no, 1/0, true/false: K_BOOL's words (core/parse/plan_key_rows.c) */
extern const struct choice bools[];
/* [bisect]'s keys (core/parse/plan_bisect.c): fields of struct plan, as the global ones */
extern const struct key bisect_keys[];
extern const struct key layer_keys[];   /* core/parse/plan_layer.c */

/* core/parse/plan_layer.c: a [layer] section's defaults; after the last line, each layer's checks
 * and each array's layers = resolved into stacks (errors at its line); the highest disk
 * position an array's stacks take as a cache disk (0: none). */
void plan_layer_defaults(struct plan_layer *l);
void plan_check_layers(struct plan *p);
int plan_layers_max_disk(const struct plan *p, const struct plan_array *a);
/* core/parse/plan_durability.c: durability = log-writes, its log disk against each array's
 * disks, once the whole plan is read. */
void plan_check_durability(struct plan *p);

/* Sets every key of keys that has a default (key.def) in the section at base, through the
 * key's setter: a default is written once, as a plan would write it. */
void key_defaults(const struct key *keys, char *base);

/* key.only bits of an array section of level l */
unsigned level_bits(const struct md_level *l);
/* A workload key applies to the engines whose row names it; "type" to every one. */
int wl_key_applies(const struct key *k, const struct wl_kind *wk);
int is_name(const char *s);
/* Copies a string value; -1 if it does not fit PLAN_STR_MAX. */
int copy_str(char *dst, const char *src);
const struct key *find_key(const struct key *keys, const char *name);
int key_index(const struct key *keys, const char *name);
void key_list(const struct key *keys, char *buf, size_t len);
/* One value into its field. Returns 0, or -1 with msg saying what was expected. */
int set_value(const struct key *k, char *base, const char *val, char *msg, size_t mlen);

/* tunable = VALUE[, VALUE...] of an array (a row of core/model/tunable.c). Returns 0, or -1 with
 * msg saying what was expected. */
int set_tunable(struct plan_array *a, int id, const char *val, char *msg, size_t mlen);

/* After the last line: the whole plan's checks, then the errors sorted. content and comments
 * count the lines that were not blank. */
void plan_validate(struct plan *p, int end, int content, int comments);

/* core/parse/plan_bisect.c: [bisect] before the global checks (it makes repeat = auto the
 * default), and after the sections are checked (its sets, cell and metric). */
void plan_bisect_defaults(struct plan *p);
void plan_bisect_check(struct plan *p);

#endif
