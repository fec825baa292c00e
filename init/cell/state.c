/* cell/state.c: the state around a cell that is read, not run: sysfs values of the array
 * and the disks (queue, md), statvfs, /proc/mounts, and what the kernel logged. One value
 * at a time, as fio's diskutil reads sysfs. */
#include "cell/cell.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void kv_sysfs(struct jw *w, const char *key, const char *dev, const char *attr)
{
	char path[160], v[256];
	snprintf(path, sizeof path, "/sys/block/%s/%s", dev, attr);
	jw_kstr(w, key, file_first_line(path, v, sizeof v) == 0 ? v : NULL);
}

static void queue_fields(struct jw *w, const char *dev)
{
	kv_sysfs(w, "scheduler", dev, "queue/scheduler");
	kv_sysfs(w, "write_cache", dev, "queue/write_cache");
	kv_sysfs(w, "read_ahead_kb", dev, "queue/read_ahead_kb");
}

void probe_queue_json(struct jw *w, const char *target, char *const *members, int nmembers)
{
	jw_key(w, "queue");
	jw_obj(w);
	queue_fields(w, target);
	/* An md device has no scheduler of its own: the members' queues do the I/O. */
	if (nmembers && strncmp(target, "md", 2) == 0) {
		jw_key(w, "members");
		jw_arr(w);
		for (int i = 0; i < nmembers; i++) {
			jw_obj(w);
			jw_kstr(w, "name", members[i]);
			queue_fields(w, members[i]);
			jw_end_obj(w);
		}
		jw_end_arr(w);
	}
	jw_end_obj(w);
}

void probe_md_json(struct jw *w, const char *md)
{
	jw_key(w, "md");
	jw_obj(w);
	kv_sysfs(w, "array_state", md, "md/array_state");
	kv_sysfs(w, "sync_action", md, "md/sync_action");
	kv_sysfs(w, "degraded", md, "md/degraded");
	kv_sysfs(w, "chunk_size", md, "md/chunk_size");
	kv_sysfs(w, "layout", md, "md/layout");
	kv_sysfs(w, "optimal_io_size", md, "queue/optimal_io_size");
	jw_end_obj(w);
}

void probe_df_json(struct jw *w, const char *key, const char *mnt)
{
	struct statvfs s;
	jw_key(w, key);
	if (statvfs(mnt, &s) < 0) {
		jw_null(w);
		return;
	}
	unsigned long long f = s.f_frsize;
	jw_obj(w);
	jw_kint(w, "size", (long long)(s.f_blocks * f));
	jw_kint(w, "used", (long long)((s.f_blocks - s.f_bfree) * f));
	jw_kint(w, "avail", (long long)(s.f_bavail * f));
	jw_kint(w, "inodes", (long long)s.f_files);
	jw_kint(w, "inodes_used", (long long)(s.f_files - s.f_ffree));
	jw_end_obj(w);
}

int probe_mount_line(const char *mnt, char *buf, size_t len)
{
	FILE *f = fopen("/proc/mounts", "re");
	char line[1024];
	int found = -1;
	buf[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		char dev[256], dir[256];
		if (sscanf(line, "%255s %255s", dev, dir) == 2 && strcmp(dir, mnt) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line); /* the last one is the one on top */
			found = 0;
		}
	}
	if (f)
		fclose(f);
	return found;
}

int disk_present(const char *name)
{
	char path[128];
	snprintf(path, sizeof path, "/sys/block/%s", name);
	return access(path, F_OK) == 0;
}

int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		lseek(fd, 0, SEEK_END); /* only what the kernel says from now on */
	return fd;
}

/* /dev/kmsg gives one record per read: "prio,seq,usec,flags;text\n" plus continuation
 * lines (kmsg_record_parse). Everything the kernel said since the last call, oldest first;
 * records beyond max are read and dropped. */
int kmsg_collect(int fd, struct kmsg_line *out, int max)
{
	char rec[2048];
	int n = 0;
	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(fd, rec, sizeof rec - 1);
		if (r < 0 && errno == EPIPE)
			continue; /* overwritten while we read: go on from the next */
		if (r <= 0)
			break;
		rec[r] = '\0';
		if (n < max && kmsg_record_parse(rec, &out[n].level, out[n].text, sizeof out[n].text) == 0)
			n++;
	}
	return n;
}

/* The last line that names one of the words is what the kernel said about our device or
 * filesystem ("EXT4-fs (md0): Unrecognized mount option ..."). */
void kmsg_last(const struct kmsg_line *lines, int n, const char *const *words, char *out,
	       size_t len)
{
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		for (int j = 0; words[j]; j++)
			if (words[j][0] && strstr(lines[i].text, words[j])) {
				snprintf(out, len, "%s", lines[i].text);
				break;
			}
}
