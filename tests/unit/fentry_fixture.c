/* fentry_fixture.c: compiled as the kernel compiles a module for ftrace (-pg -mfentry
 * -mrecord-mcount, in the kernel's code model), into the object test_kofentry.c rewrites.
 * Each function below is kept out of line, so each starts with a "call __fentry__" that
 * __mcount_loc lists: FIXTURE_SITES of them, in three text sections. */
#include "fentry_fixture.h"

int counter;

__attribute__((noinline)) static int helper(int x)
{
	counter += x;
	return counter * 3;
}

__attribute__((noinline)) int visible(int x)
{
	return helper(x) + helper(x + 1);
}

__attribute__((noinline)) int second(int x)
{
	return visible(x) ^ counter;
}

__attribute__((cold, noinline)) int cold_path(int x)
{
	counter -= x;
	return -1;
}

__attribute__((section(".init.text"), noinline)) int setup(void)
{
	counter = 7;
	return cold_path(counter) + second(counter);
}
