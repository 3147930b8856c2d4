/*
 * cpu.c - usable_cpus() from sched_getaffinity(); 1 when that fails.
 */
#include <sched.h>

#include "cpu.h"

int usable_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}
