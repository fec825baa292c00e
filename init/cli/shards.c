/* cli/shards.c: `fsmatrix check PLAN --shards N`: which cells each machine of a sharded run
 * (fsmatrix.shard=K/N) runs and its estimated time, from the split /init makes
 * (core/matrix/shard.h), and the run group the shards share. Also what `fsmatrix lava` writes
 * into each job. */
#include "cli/cli.h"
#include "core/command/cellshow.h"
#include "core/matrix/matrix.h"
#include "core/matrix/shard.h"
#include "lib/sha256.h"

#include <stdio.h>
#include <stdlib.h>

int shards_print(const struct plan *p, const char *path, const struct estimate_model *m, int n)
{
	int per = matrix_per_rep(p);
	int *owner = calloc((size_t)per + 1, sizeof *owner);
	double *load = calloc((size_t)n, sizeof *load);
	char sha[65], group[65], ts[32];
	struct cell c;

	if (!owner || !load || shard_plan(p, m, n, owner, load) < 0) {
		fprintf(stderr, "fsmatrix: check: unable to split %s: out of memory\n", path);
		free(owner);
		free(load);
		return 1;
	}
	if (sha256_file(path, sha) < 0)
		sha[0] = '\0';
	shard_run_group(sha, p->scale, n, group);
	printf("\n%d shards (fsmatrix.shard=K/%d), run group %s\n", n, n, group);
	printf("(each cell with its repetitions on one machine; the longest estimate first, to the "
	       "shard with the least so far)\n");
	for (int s = 0; s < n; s++) {
		int cells = 0;
		for (int i = 0; i < per; i++)
			cells += owner[i] == s;
		show_secs(load[s], ts, sizeof ts);
		printf("\nshard %d/%d: %d cell%s x %d repetition%s, estimated ~%s\n", s + 1, n, cells,
		       cells == 1 ? "" : "s", p->repeat, p->repeat == 1 ? "" : "s", ts);
		for (int i = 0; i < per; i++) {
			if (owner[i] != s || matrix_slot_cell(p, i, 1, &c) < 0)
				continue;
			show_secs(cell_estimate(p, &c, m, NULL), ts, sizeof ts);
			printf("  cell %-3d %s  ~%s each\n", i + 1, c.id, ts);
		}
	}
	free(owner);
	free(load);
	return 0;
}
