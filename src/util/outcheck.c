/*
 * outcheck.c - the write checks of outcheck.h.
 *
 * The streams of output_open() and stdout_watch() are stdio cookie
 * streams over a file descriptor (struct watched): a failed write keeps
 * its errno, and closing the stream fails with that errno, so that
 * fclose() says why the first write failed, not only that one did.
 *
 * Invariant: standard output's failure is reported at most once:
 * stdout_reported is set by the first report, and stdout_finish() prints
 * nothing after it.
 */
#include "outcheck.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A cookie stream's file descriptor and its first failed write. */
struct watched {
	int fd;
	int err;	/* errno of the first failed write; 0: none failed */
};

/* Standard output's state is process-wide, as standard output is: one
 * stream, watched once, whose failure is reported once whichever command
 * or layer wrote it (and at exit, from pager.c's handler). */
static struct watched stdout_watched = { STDOUT_FILENO, 0 };
static int stdout_reported;	/* output_error(NULL, ...) printed the failure */
static int stdout_finished;	/* stdout_finish() ran */

/* All of buf to the file descriptor, or the bytes written before a
 * failure, whose errno is kept. */
static ssize_t watched_write(void *cookie, const char *buf, size_t size)
{
	struct watched *w = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(w->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!w->err)
				w->err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* Closes the file descriptor; fails with the first failed write's errno
 * when there was one, else with close()'s. */
static int watched_close(void *cookie)
{
	struct watched *w = cookie;
	int ret = close(w->fd), err = w->err;

	if (w != &stdout_watched)
		free(w);
	if (err) {
		errno = err;
		return -1;
	}
	return ret;
}

static const cookie_io_functions_t watched_io = {
	.write = watched_write,
	.close = watched_close,
};

void output_reader_gone(void)
{
	struct sigaction old;
	sigset_t pipe_set;

	fflush(stderr);
	sigaction(SIGPIPE, NULL, &old);
	if (old.sa_handler == SIG_IGN)
		signal(SIGPIPE, SIG_DFL);
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_UNBLOCK, &pipe_set, NULL);
	raise(SIGPIPE);
	/* a handler that returned: end with the status a shell gives SIGPIPE */
	_exit(128 + SIGPIPE);
}

int output_error(const char *name, int err)
{
	if (err == EPIPE)
		output_reader_gone();
	if (!name) {
		if (stdout_reported)
			return -1;
		stdout_reported = 1;
	}
	return error("cannot write %s: %s", name ? name : "standard output",
		     err ? strerror(err) : "a write failed");
}

FILE *output_open(const char *path, const char *mode)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (*mode == 'a' ? O_APPEND : O_TRUNC);
	struct watched *w;
	FILE *f;
	int fd = open(path, flags, 0666), err;

	if (fd < 0)
		return NULL;
	w = xmalloc(sizeof(*w));
	w->fd = fd;
	w->err = 0;
	f = fopencookie(w, "w", watched_io);
	if (!f) {
		err = errno;
		close(fd);
		free(w);
		errno = err;
	}
	return f;
}

/* Flushes f and closes it (when do_close is set, or a write failed).
 * Returns 0, or -1 when output was lost, with *err set to why (0:
 * unknown). */
static int flush_close(FILE *f, int do_close, int *err)
{
	int failed;

	errno = 0;
	failed = fflush(f) != 0;
	*err = failed ? errno : 0;
	failed |= ferror(f) != 0;
	errno = 0;
	if ((do_close || failed) && fclose(f)) {
		failed = 1;
		*err = errno;
	}
	return failed ? -1 : 0;
}

int output_close(FILE *f, const char *name)
{
	int err;

	return flush_close(f, 1, &err) ? output_error(name, err) : 0;
}

void stdout_watch(void)
{
	FILE *f = fopencookie(&stdout_watched, "w", watched_io);

	if (!f)
		return;
	if (isatty(STDOUT_FILENO))
		setvbuf(f, NULL, _IOLBF, BUFSIZ);
	stdout = f;
}

int stdout_finish(void)
{
	struct stat st;
	int err;

	if (stdout_finished)
		return 0;
	stdout_finished = 1;
	/* closing finds what only the close finds (NFS); a standard output
	   that was never open and got nothing has nothing to close */
	if (!flush_close(stdout, !fstat(STDOUT_FILENO, &st), &err))
		return 0;
	output_error(NULL, err);
	return 1;
}
