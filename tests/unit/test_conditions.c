/* test_conditions.c: the order the conditions fingerprint lists the taken disks in
 * (core/model/conditions.c, cond_disk_order): one order for the same disks however the kernel
 * discovered them, so that one machine's boots share a fingerprint. */
#include "check.h"
#include "core/model/conditions.h"

static void order_text(const char *const *keys, int n, char *out, size_t len)
{
	int order[8];
	size_t k = 0;
	cond_disk_order(keys, n, order);
	out[0] = '\0';
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " " : "", keys[order[i]]);
}

int main(void)
{
	/* make bench's boot a4 (2026-12-07) found fsmtest3 first; a1-a3 in serial order */
	static const char *const a1[] = { "fsmtest0", "fsmtest1", "fsmtest2", "fsmtest3" };
	static const char *const a4[] = { "fsmtest3", "fsmtest0", "fsmtest1", "fsmtest2" };
	static const char *const rev[] = { "fsmtest3", "fsmtest2", "fsmtest1", "fsmtest0" };
	char x[128], y[128], z[128];
	order_text(a1, 4, x, sizeof x);
	order_text(a4, 4, y, sizeof y);
	order_text(rev, 4, z, sizeof z);
	CHECK_STR(x, "fsmtest0 fsmtest1 fsmtest2 fsmtest3");
	CHECK_STR(y, x);
	CHECK_STR(z, x);
	/* the whole key decides: serial, then model, firmware and write cache; equal keys stay
	 * in the order given (two disks without a serial and of one model) */
	static const char *const keys[] = { "S2\tm\tf\ton", "\tQEMU\t2.5\toff", "S1\tm\tf\ton",
					    "\tQEMU\t2.5\toff", "S1\tm\tf\toff" };
	int order[5];
	cond_disk_order(keys, 5, order);
	static const int want[] = { 1, 3, 4, 2, 0 };
	for (int i = 0; i < 5; i++)
		CHECK_INT(order[i], want[i]);
	cond_disk_order(keys, 0, order);
	return check_done("test_conditions");
}
