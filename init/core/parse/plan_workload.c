/* core/parse/plan_workload.c: one workload section's keys outside a plan, for what `fsmatrix
 * workload` builds from its options: the plan's own defaults, parser and limits. */
#include "core/parse/plan_keys.h"

#include <stdio.h>

void plan_workload_defaults(struct plan_workload *w)
{
	key_defaults(wl_keys, (char *)w);
	w->type = -1;    /* unset: required */
	w->size_rel = (struct size_rel){ SIZE_BYTES, 0, 1.0 };
}

int plan_workload_set(struct plan_workload *w, const char *key, const char *val, char *msg,
		      size_t mlen)
{
	const struct key *k = find_key(wl_keys, key);
	if (!k || k->kind == K_MOUNT) {
		snprintf(msg, mlen, "no workload key \"%s\"", key);
		return -1;
	}
	if (!wl_key_applies(k, wl_kind_of(w->type))) {
		snprintf(msg, mlen, "\"%s\" does not apply to %s", key, plan_wl_name(w->type));
		return -1;
	}
	return set_value(k, (char *)w, val, msg, mlen);
}

int plan_workload_given(const struct plan_workload *w, const char *key)
{
	const struct key *k = find_key(wl_keys, key);
	return k && w->key_line[k - wl_keys] != 0;
}
