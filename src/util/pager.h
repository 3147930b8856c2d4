/*
 * pager.h - sends standard output through a pager when it is a terminal,
 * as perf does: $PROF_PAGER, else $PAGER, else "less" (with LESS=FRX
 * unless LESS is set); an empty pager or "cat" means none.
 */
#ifndef PROF_UTIL_PAGER_H
#define PROF_UTIL_PAGER_H

/*
 * Starts the pager when standard output is a terminal and makes it
 * standard output; at exit, standard output is checked and closed
 * (stdout_finish()) and the pager waited for.  When the pager quits before
 * the end (SIGPIPE), or on SIGINT, SIGHUP or SIGTERM, prof waits for the
 * pager and then ends by that signal, quietly.  Call before the first
 * output.  Failures leave standard output as it was.
 */
void pager_start(void);

#endif
