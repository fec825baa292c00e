/* pid1/modload.c: one module file into the kernel, without modprobe: what modules.c and
 * modimage.c both do, and the lowest file of the two (neither calls the other). */
#include "pid1/pid1.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!params)
		params = "";
	int rc = (int)syscall(SYS_finit_module, fd, params, 0);
	if (rc < 0 && errno == ENOSYS) {
		/* Kernels before 3.8 have only init_module, which takes the bytes. */
		struct stat st;
		void *buf = NULL;
		if (fstat(fd, &st) == 0 && (buf = malloc((size_t)st.st_size)) &&
		    pread(fd, buf, (size_t)st.st_size, 0) == st.st_size)
			rc = (int)syscall(SYS_init_module, buf, (unsigned long)st.st_size, params);
		free(buf);
	}
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int module_load_file(const char *path, const char *params, struct load_time *t)
{
	t->at_ms = boottime_ms();
	double start = mono_s();
	int rc = load(path, params);
	int e = errno;
	t->ms = (mono_s() - start) * 1e3;
	errno = e;
	return rc;
}
