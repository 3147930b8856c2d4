/*
 * child.c - the held command start of child.h.
 */
#include "child.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

pid_t child_start(char **argv, const sigset_t *mask, const char *name, int *go_fd,
		  int *err_fd)
{
	int go[2], err[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return error("cannot create a pipe: %s", strerror(errno));
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -1;
	}
	if (!pid) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		if (name)
			prctl(PR_SET_NAME, name);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	*go_fd = go[1];
	*err_fd = err[0];
	return pid;
}
