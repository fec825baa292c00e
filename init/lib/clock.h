/* lib/clock.h: the clocks every layer reads. CLOCK_MONOTONIC times what runs (steps, tools,
 * workloads); CLOCK_BOOTTIME counts from the kernel's start, so PID 1 can say how long the
 * boot took and set deadlines that a suspend does not stretch. */
#ifndef FSM_CLOCK_H
#define FSM_CLOCK_H

long long mono_ms(void);       /* CLOCK_MONOTONIC, whole milliseconds */
double mono_s(void);           /* CLOCK_MONOTONIC, seconds to the nanosecond */
long long boottime_ms(void);   /* CLOCK_BOOTTIME, whole milliseconds since the kernel started */

#endif
