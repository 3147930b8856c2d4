/*
 * pager.c - pager_start(): a pager on standard output, as perf runs one.
 *
 * Invariant: at most one pager per process; the exit handler that waits
 * for it is registered once, when it starts.
 */
#include "pager.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t pager_pid;

/* Waits for the pager after the last output. */
static void pager_wait(void)
{
	fflush(stdout);
	fclose(stdout);
	close(1);
	if (pager_pid > 0)
		waitpid(pager_pid, NULL, 0);
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
	signal(SIGPIPE, SIG_IGN);
	atexit(pager_wait);
}
