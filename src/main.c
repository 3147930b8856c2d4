/*
 * main.c - "prof <command> [options]": the command table and dispatch.
 */
#include "cmd/cmds.h"
#include "util/error.h"
#include "util/outcheck.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "flame", cmd_flame, "draw a perf.data file as a flame graph (SVG) or folded stacks" },
	{ "diff", cmd_diff, "compare the profiles of two or more perf.data files, as perf diff does" },
	{ "record", cmd_record, "run a command and record its profile into perf.data" },
	{ "report", cmd_report, "read a perf.data file and show its profile, header or records" },
	{ "script", cmd_script, "read a perf.data file and print its samples, as perf script does" },
	{ "stat", cmd_stat, "run a command and count its events, time it, compare commands" },
	{ NULL, NULL, NULL },
};

static void print_help(FILE *f)
{
	fprintf(f, "\n usage: prof [--version] [--help] <command> [<args>]\n\n");
	fprintf(f, " The commands are:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "   %-10s %s\n", c->name, c->help);
	fprintf(f, "\n See 'prof <command> -h' for the options of a command.\n\n");
}

/* The exit status of a run that returned status: 1 when status is 0 but
 * standard output lost some of what was written to it. */
static int finish(int status)
{
	if (stdout_finish() && !status)
		status = 1;
	return status;
}

/* Runs argv[1]'s command (or the help) and returns its status. */
static int run(int argc, char **argv)
{
	static char prefix[64];
	const char *name;

	if (argc < 2) {
		print_help(stdout);
		return 1;
	}
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("prof version %s\n", PROF_VERSION);
		return 0;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(name, "help")) {
		if (argc > 2)
			name = argv[2];
		else {
			print_help(stdout);
			return 0;
		}
		for (const struct command *c = commands; c->name; c++) {
			if (!strcmp(c->name, name)) {
				char *hargv[] = { argv[2], "-h", NULL };

				snprintf(prefix, sizeof(prefix), "prof %s", c->name);
				error_set_prefix(prefix);
				return c->fn(2, hargv);
			}
		}
	}
	for (const struct command *c = commands; c->name; c++) {
		if (!strcmp(c->name, name)) {
			snprintf(prefix, sizeof(prefix), "prof %s", c->name);
			error_set_prefix(prefix);
			return c->fn(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "prof: '%s' is not a prof command. See 'prof --help'.\n", name);
	return 129;
}

int main(int argc, char **argv)
{
	/* a reader that goes away ends prof at its next write, even when
	   the parent left SIGPIPE ignored (as git does) */
	signal(SIGPIPE, SIG_DFL);
	stdout_watch();
	return finish(run(argc, argv));
}
