/* pid1/deadline.c: a bound on one blocking system call. Some waits are only offered as
 * blocking calls: getrandom() makes the kernel generate entropy itself (CPU jitter, 5.18+)
 * only when it may block, and tcdrain() has no timeout. An interval timer's SIGALRM, caught
 * without SA_RESTART, makes the call return EINTR when the time is up. The timer keeps
 * firing every few milliseconds after that, so a signal that lands just before the call
 * blocks is followed by another: the caller loops while deadline_passed() is false. */
#include "pid1/pid1.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>

enum { DEADLINE_REPEAT_MS = 20 };

static volatile sig_atomic_t passed;

static void on_alarm(int sig)
{
	(void)sig;
	passed = 1;
}

void deadline_arm(long ms)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;   /* no SA_RESTART: the blocked call must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	passed = 0;
	struct itimerval t = {
		.it_interval = { 0, DEADLINE_REPEAT_MS * 1000L },
		.it_value = { ms / 1000, ms % 1000 * 1000L },
	};
	if (ms <= 0)
		t.it_value.tv_usec = 1;   /* zero would disarm the timer instead */
	setitimer(ITIMER_REAL, &t, NULL);
}

int deadline_passed(void)
{
	return passed;
}

void deadline_disarm(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);   /* a last tick already queued must not end PID 1 */
}
