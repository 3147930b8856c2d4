/*
 * sysctl.h - reads the kernel settings under /proc/sys that perf's
 * defaults come from (kernel.perf_event_max_stack, perf_event_paranoid).
 */
#ifndef PROF_UTIL_SYSCTL_H
#define PROF_UTIL_SYSCTL_H

/* The integer in /proc/sys/NAME ("kernel/perf_event_paranoid"), or
 * fallback when it cannot be read or is negative and negative_ok is 0. */
int sysctl_int(const char *name, int fallback, int negative_ok);

#endif
