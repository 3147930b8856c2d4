/*
 * cpu.h - how many CPUs prof may use.
 *
 * Counts the CPUs in the process's affinity mask, so that taskset, cpusets
 * and containers are respected: code that would start a helper thread asks
 * usable_cpus() > 1 first.
 */
#ifndef PROF_UTIL_CPU_H
#define PROF_UTIL_CPU_H

/* The CPUs this process may run on (at least 1). */
int usable_cpus(void);

#endif
