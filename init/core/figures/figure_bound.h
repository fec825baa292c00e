/* core/figures/figure_bound.h: what no device can give. A cell's figure that is not finite, is
 * negative, or goes beyond the bound of its unit came from a broken or forged record, not
 * from a disk: the report drops that record as it drops a garbled line (docs/records.md
 * states the bounds). Pure: no I/O. */
#ifndef FSM_FIGURE_BOUND_H
#define FSM_FIGURE_BOUND_H

/* The largest value a figure in unit ("MB/s", "IOPS", "files/s", "s", "us") can have on
 * any machine; 0 for a unit this table does not know (only finite and not negative then). */
double figure_bound(const char *unit);

/* 1 when v is a figure some device could give in unit: finite, not negative, within the
 * unit's bound; else 0. */
int figure_possible(const char *unit, double v);

#endif
