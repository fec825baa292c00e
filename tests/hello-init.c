/* hello-init.c: the smallest useful /init. It is the baseline for boot-time measurements
 * (kernel start to a static musl PID 1 running) and the guest the runner tests boot.
 *
 * It mounts proc, prints the guest uptime, prints a framed trailer record so that qemu/run
 * counts the run as completed, and powers off. A parameter on the kernel command line picks
 * another ending, so the runner's other exit paths can be tested without the real image:
 *   hello.mode=hang      never power off (the run must end by its timeout)
 *   hello.mode=notrailer power off without the trailer (a guest failure)
 *   hello.mode=exit      return from PID 1 (the kernel panics; a guest failure)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <unistd.h>

/* CRC-32 as zlib computes it: the framing qemu/run and init/lib/record.c agree on. */
static uint32_t crc32_ieee(const char *s, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= (unsigned char)s[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1u));
	}
	return ~c;
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Still here: nothing else to do but say so and wait for the runner's timeout. */
	printf("hello-init: power-off failed\n");
	for (;;)
		pause();
}

int main(void)
{
	char uptime[128], cmdline[4096], json[256], mode[32] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0)
		printf("hello-init: unable to mount proc on /proc (uptime unknown)\n");
	read_line("/proc/uptime", uptime, sizeof uptime);
	read_line("/proc/cmdline", cmdline, sizeof cmdline);

	const char *m = strstr(cmdline, "hello.mode=");
	if (m)
		sscanf(m + strlen("hello.mode="), "%31[a-z]", mode);

	/* The first field of /proc/uptime is seconds since the kernel started. */
	double up = 0;
	sscanf(uptime, "%lf", &up);
	printf("hello-init: reached /init, uptime %.2f s\n", up);

	if (strcmp(mode, "hang") == 0) {
		printf("hello-init: mode hang, waiting forever\n");
		for (;;)
			pause();
	}
	if (strcmp(mode, "exit") == 0) {
		printf("hello-init: mode exit, returning from PID 1\n");
		return 1;
	}
	if (strcmp(mode, "notrailer") != 0) {
		int n = snprintf(json, sizeof json,
				 "{\"v\":1,\"type\":\"trailer\",\"tool\":\"hello-init\",\"uptime_s\":%.2f}", up);
		printf("FSMREC %08x %s\n", (unsigned)crc32_ieee(json, (size_t)n), json);
	}
	power_off();
	return 0;
}
