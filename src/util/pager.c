/*
 * pager.c - pager_start(): a pager on standard output, as perf runs one.
 *
 * Invariant: at most one pager per process; the exit handler that waits
 * for it is registered once, when it starts.  prof never exits before its
 * pager (the shell would take the terminal back from it): at exit, and on
 * a signal that ends prof, standard output is closed and the pager waited
 * for first.
 */
#include "pager.h"
#include "outcheck.h"

#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The pager, process-wide as the standard output it reads: the exit and
 * signal handlers that wait for it take no argument to find it by. */
static pid_t pager_pid;

/* Waits for the pager after the last output. */
static void pager_wait(void)
{
	stdout_finish();
	close(STDOUT_FILENO);
	if (pager_pid > 0)
		waitpid(pager_pid, NULL, 0);
}

/* SIGPIPE (the pager quit early), SIGINT, SIGHUP and SIGTERM end prof
 * once the pager has ended, by the signal that came. */
static void pager_signal(int sig)
{
	close(STDOUT_FILENO);
	if (pager_pid > 0)
		waitpid(pager_pid, NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

void pager_start(void)
{
	const char *pager = getenv("PROF_PAGER");
	int fds[2];

	if (pager_pid || !isatty(1))
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	if (pipe(fds))
		return;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pager_pid) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRX", 0);
		execlp("sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], 1);
	close(fds[0]);
	close(fds[1]);
	/* the terminal's line buffering, unless the command chose its own */
	if (__flbf(stdout))
		setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	signal(SIGPIPE, pager_signal);
	signal(SIGINT, pager_signal);
	signal(SIGHUP, pager_signal);
	signal(SIGTERM, pager_signal);
	atexit(pager_wait);
}
