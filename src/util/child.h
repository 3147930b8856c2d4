/*
 * child.h - starts a command held at the starting line: forked, then
 * waiting on a pipe until the caller has set up what watches it (counters
 * opened on its pid), then exec'd.  Used by record and stat.
 *
 * Invariant: both pipes are close-on-exec, so a successful exec closes the
 * error pipe and the caller reads end-of-file there; a failed exec writes
 * its errno first.
 */
#ifndef PROF_UTIL_CHILD_H
#define PROF_UTIL_CHILD_H

#include <signal.h>
#include <sys/types.h>

/*
 * Forks argv.  The child runs with signal mask mask and default handlers
 * for SIGINT, SIGTERM, SIGCHLD and SIGPIPE, is named name until its exec
 * (when name is not NULL), and execs once a byte arrives on *go_fd (it
 * exits 127 if the pipe closes first).  An exec failure comes back as an
 * errno on *err_fd.  Returns the pid, or -1 after an error message.
 */
pid_t child_start(char **argv, const sigset_t *mask, const char *name, int *go_fd,
		  int *err_fd);

#endif
