/* cell/layers.c: the cell's device-mapper layers (core/model/layer.h) between its array and its
 * filesystem, made by dmsetup alone: each dm device of the stack created in order (a crypt
 * key drawn for the cell from the kernel's CSPRNG, handed to dmsetup in a file under /run
 * and never written anywhere else: its sha256 goes into the record), each table read back
 * with `dmsetup table`, and every fsm-* device removed, newest first, at teardown and before
 * a cell makes its array (a mapping a failed teardown left would hold the disks). */
#include "cell/ctx.h"
#include "core/command/lvmcmd.h"
#include "lib/file.h"
#include "lib/sha256.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <unistd.h>

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)   /* musl's headers lack the kernel's fs.h */
#endif

#define DMSETUP "dmsetup"
#define KEY_FILE "/run/fsm-dm-table"

static const struct layer_stack *stack_of(const struct cell_ctx *x)
{
	const struct plan_array *a = &x->p->arrays[x->c->array];
	return x->c->stack >= 0 ? &a->stacks[x->c->stack] : NULL;
}

int cell_has_layers(const struct cell_ctx *x)
{
	const struct layer_stack *s = stack_of(x);
	return s && s->n > 0;
}

/* A dm device with nothing stacked on it: /sys/block/dm-N/holders is empty. */
static int no_holders(const char *dm)
{
	char path[300];
	snprintf(path, sizeof path, "/sys/block/%s/holders", dm);
	DIR *d = opendir(path);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n == 0;
}

/* One fsm-* device nothing holds, by its dm name, into name; 0 when none is left. keep: a
 * prefix of names left alone (an lvm level's LV, which its teardown removes with lvm), or
 * NULL. */
static int next_removable(char *name, size_t len, const char *keep)
{
	DIR *d = opendir("/sys/block");
	int found = 0;
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		char path[300], dm[64];
		if (strncmp(e->d_name, "dm-", 3) != 0)
			continue;
		snprintf(path, sizeof path, "/sys/block/%s/dm/name", e->d_name);
		if (file_first_line(path, dm, sizeof dm) < 0 ||
		    strncmp(dm, LAYER_DM_PREFIX, strlen(LAYER_DM_PREFIX)) != 0 || !no_holders(e->d_name) ||
		    (keep && strncmp(dm, keep, strlen(keep)) == 0))
			continue;
		snprintf(name, len, "%s", dm);
		found = 1;
	}
	if (d)
		closedir(d);
	return found;
}

void cell_remove_layers(struct cell_ctx *x, int teardown)
{
	char name[64], failed[LAYER_DEVS_MAX][64];
	int nfailed = 0;
	/* bcache holds the device below it: it goes first */
	cell_stop_bcache(x, teardown);
	const char *keep = teardown && x->lvm_made ? LVM_DM_PREFIX : NULL;
	/* Top first: a device is removed once nothing holds it; one that refuses is not tried
	 * again, so a device held by something else ends the loop. */
	while (next_removable(name, sizeof name, keep)) {
		int seen = 0;
		for (int i = 0; i < nfailed; i++)
			seen |= strcmp(failed[i], name) == 0;
		if (seen || nfailed >= LAYER_DEVS_MAX)
			break;
		const char *argv[] = { DMSETUP, "--noudevrules", "--noudevsync", "remove", name, NULL };
		if (step_run(x, argv, teardown, NULL) != 0)
			snprintf(failed[nfailed++], sizeof failed[0], "%s", name);
	}
	if (next_removable(name, sizeof name, keep) || nfailed) {
		if (teardown)
			warn_add(&x->warn, "teardown: device-mapper device %s could not be removed", name);
		else
			cell_fail(x, CELL_ERROR, "unable to remove device-mapper device %s left from "
				  "before", name);
	}
	x->layers_made = 0;
}

/* A crypt table: a fresh key from the kernel, its sha256 kept, the table in a file only
 * dmsetup reads, removed right after. */
static int create_secret(struct cell_ctx *x, const struct layer_dev *d, int bits)
{
	unsigned char key[64];
	char hex[129], line[LAYER_TABLE_MAX + 160];
	size_t n = (size_t)bits / 8;
	if (n > sizeof key || getrandom(key, n, 0) != (ssize_t)n) {
		cell_fail(x, CELL_ERROR, "unable to draw a %d-bit key: %s", bits, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	sha256_hex(key, n, x->key_sha256);
	memset(key, 0, sizeof key);
	int rc = layer_table_keyed(d->table, hex, line, sizeof line);
	memset(hex, 0, sizeof hex);
	int fd = rc < 0 ? -1 : open(KEY_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t len = strlen(line);
	if (fd < 0 || write(fd, line, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
		cell_fail(x, CELL_ERROR, "unable to write the table of %s to " KEY_FILE ": %s",
			  d->name, strerror(errno));
		rc = -1;
	}
	memset(line, 0, sizeof line);
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		const char *argv[] = { DMSETUP, "--noudevrules", "--noudevsync", "create", d->name,
				       KEY_FILE, NULL };
		rc = step_must(x, argv, NULL);
	}
	unlink(KEY_FILE);
	return rc;
}

static int create_dev(struct cell_ctx *x, const struct layer_dev *d)
{
	if (d->bcache)
		return cell_make_bcache(x, d, &x->p->layers[stack_of(x)->layer[d->layer]]);
	/* a metadata device holds no superblock of a cell before (a pool or a cache whose mapping
	 * a power cut took away): the kernel formats it fresh */
	if (d->zero_dev[0] && cell_zero_head(x, d->zero_dev, 4096, 1) < 0)
		return -1;
	int rc;
	if (d->secret) {
		const struct plan_layer *l = &x->p->layers[stack_of(x)->layer[d->layer]];
		rc = create_secret(x, d, layer_key_bits(l));
	} else {
		const char *argv[] = { DMSETUP, "--noudevrules", "--noudevsync", "create", d->name,
				       "--table", d->table, NULL };
		rc = step_must(x, argv, NULL);
	}
	if (rc == 0 && d->message[0]) {
		const char *argv[] = { DMSETUP, "message", d->name, "0", d->message, NULL };
		rc = step_must(x, argv, NULL);
	}
	return rc;
}

/* The cache disk a layer names: the taken disk at its position, kept just after the
 * members (names[n]), wiped as they are. */
static int take_cache_disk(struct cell_ctx *x, const struct layer_stack *s, const char **dev)
{
	*dev = NULL;
	for (int i = 0; i < s->n; i++) {
		const struct plan_layer *l = &x->p->layers[s->layer[i]];
		if (!layer_kinds[l->type].cache_disk)
			continue;
		const char *disk = cell_extra_disk(x, l->cache);
		if (!disk || x->n >= PLAN_DEVICES_MAX) {
			cell_fail(x, CELL_ERROR, "[layer %s]: no disk %d among the taken disks for its "
				  "cache", l->name, l->cache);
			return -1;
		}
		snprintf(x->names[x->n], sizeof x->names[0], "%s", disk);
		snprintf(x->paths[x->n], sizeof x->paths[0], "/dev/%s", disk);
		x->cache_disk = 1;
		if (cell_wipe(x, x->n) < 0) {
			cell_fail(x, CELL_ERROR, "%s", x->steps[x->nsteps - 1].err);
			return -1;
		}
		*dev = x->paths[x->n];
	}
	return 0;
}

int cell_make_layers(struct cell_ctx *x)
{
	const struct layer_stack *s = stack_of(x);
	const char *cache;
	char err[300] = "";
	if (!s || !s->n)
		return 0;
	if (take_cache_disk(x, s, &cache) < 0)
		return -1;
	if (layer_plan_build(x->p->layers, s, x->target, file_dev_sectors(x->target), cache,
			     cache ? file_dev_sectors(cache) : 0, &x->lp, err, sizeof err) < 0) {
		cell_fail(x, CELL_ERROR, "unable to stack the layers: %s", err);
		return -1;
	}
	x->layers_made = 1;
	for (int i = 0; i < x->lp.n; i++)
		if (create_dev(x, &x->lp.dev[i]) < 0)
			return -1;
	snprintf(x->layer_top, sizeof x->layer_top, "%s", x->lp.top);
	x->target = x->layer_top;
	return 0;
}

/* The stack a cell before left standing (reuse): still there, its top the target. */
int cell_take_layers(struct cell_ctx *x)
{
	const struct layer_stack *s = stack_of(x);
	char err[300] = "";
	if (!s || !s->n)
		return 0;
	if (layer_plan_build(x->p->layers, s, x->target, 0, NULL, 0, &x->lp, err, sizeof err) < 0 ||
	    access(x->lp.top, F_OK) != 0)
		return -1;
	x->layers_made = 1;
	snprintf(x->layer_top, sizeof x->layer_top, "%s", x->lp.top);
	x->target = x->layer_top;
	return 0;
}

void cell_read_layers(struct cell_ctx *x)
{
	const char *argv[] = { DMSETUP, "table", NULL };
	struct run_result r = { 0 };
	int dm = 0;
	x->dm_tables[0] = '\0';
	for (int i = 0; i < x->lp.n; i++)
		dm |= !x->lp.dev[i].bcache;   /* bcache alone is no dm table */
	if (!x->layers_made || !dm || step_run(x, argv, 0, &r) != 0)
		return;
	size_t used = 0;
	for (char *save, *l = strtok_r(r.out, "\n", &save); l && used < sizeof x->dm_tables - 1;
	     l = strtok_r(NULL, "\n", &save)) {
		char *colon = strstr(l, ": ");
		if (strncmp(l, LAYER_DM_PREFIX, strlen(LAYER_DM_PREFIX)) != 0 || !colon)
			continue;
		char masked[LAYER_TABLE_MAX + 64];
		layer_table_masked(colon + 2, masked, sizeof masked);
		used += (size_t)snprintf(x->dm_tables + used, sizeof x->dm_tables - used, "%.*s: %s\n",
					 (int)(colon - l), l, masked);
	}
	run_free(&r);
}

/* "layers": {"stack", "devices": ["name: table", ...], "key_sha256", metadata sizes}. */
void cell_layers_json(struct jw *w, const struct cell_ctx *x)
{
	const struct layer_stack *s = stack_of(x);
	char name[PLAN_STR_MAX];
	if (!s)
		return;
	layer_stack_name(x->p->layers, s, name, sizeof name);
	jw_key(w, "layers");
	jw_obj(w);
	jw_kstr(w, "stack", name);
	jw_kstr(w, "top", x->layer_top[0] ? x->layer_top : NULL);
	jw_key(w, "tables");
	jw_arr(w);
	char buf[sizeof x->dm_tables];
	snprintf(buf, sizeof buf, "%s", x->dm_tables);
	for (char *save, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		jw_str(w, l);
	jw_end_arr(w);
	jw_kstr(w, "key_sha256", x->key_sha256[0] ? x->key_sha256 : NULL);
	if (x->lp.thin_meta_sectors)
		jw_kint(w, "thin_meta_sectors", (long long)x->lp.thin_meta_sectors);
	if (x->lp.cache_meta_sectors)
		jw_kint(w, "cache_meta_sectors", (long long)x->lp.cache_meta_sectors);
	cell_bcache_json(w, x);
	cell_dmcache_json(w, x);
	jw_end_obj(w);
}
