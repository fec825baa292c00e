/* lib/bytes.h: a byte count for people, in binary units as the kernel counts disks and RAM
 * ("512 B", "1.5 GiB"). One formatter for the console, the report's header and the logs. */
#ifndef FSM_BYTES_H
#define FSM_BYTES_H
#include <stddef.h>

/* "%.0f B" under 1 KiB, else one decimal and KiB, MiB, GiB, TiB or PiB. */
void bytes_human(double b, char *out, size_t len);

#endif
