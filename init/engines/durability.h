/* engines/durability.h: the durability workload (core/workload/durable.h) as the cell's replay check
 * uses it: the verifier of a filesystem against what mark fsm.N promised. */
#ifndef FSM_DURABILITY_H
#define FSM_DURABILITY_H
#include "core/workload/durable.h"
#include <stdint.h>

/* Reads every file the model after ops operations (files base files, seed) holds from
 * dir, and tallies each record: present, whole and its checksum right, or lost or torn
 * (core/workload/durable.h); a file missing counts in files_missing and its records as lost. 0, or
 * -1 with errno when dir cannot be read or memory runs out. */
int dur_verify(const char *dir, unsigned files, uint64_t seed, uint64_t ops,
	       struct dur_tally *t);

#endif
