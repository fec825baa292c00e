/* test_clock.c: the shared clocks: units agree, time does not go back, and boot time is
 * never behind monotonic time (it counts the same, plus any suspend). */
#include "check.h"
#include "lib/clock.h"
#include <time.h>

int main(void)
{
	for (int i = 0; i < 3; i++) {
		long long a = mono_ms();
		double s = mono_s();
		long long b = mono_ms();
		long long boot = boottime_ms();
		CHECK(a <= b, "mono_ms went back: %lld then %lld", a, b);
		CHECK(s * 1000 >= (double)a - 1 && s * 1000 <= (double)b + 1,
		      "mono_s %.6f s outside mono_ms %lld..%lld", s, a, b);
		CHECK(boot >= a, "boottime_ms %lld behind mono_ms %lld", boot, a);
		nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
		long long c = mono_ms();
		CHECK(c - b >= 20 && c - b < 2000, "a 20 ms sleep took %lld ms", c - b);
	}
	return check_done("test_clock");
}
