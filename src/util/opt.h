/*
 * opt.h - command-line options from a table, with generated -h output.
 *
 * Each command declares a table of struct opt ending in OPT_END() and calls
 * opt_parse().  Short options may be bundled (-nq), take their argument
 * attached or separate (-ifile, -i file); long options take "--name=value"
 * or "--name value", may be abbreviated to any unique prefix, and boolean
 * ones accept "--no-name".  "--" ends the options.  -h and --help print the
 * usage generated from the table to stdout and exit 0 (1 when writing it
 * failed); an unknown option or a bad value prints the error and the usage
 * to stderr and exits 129, as git and perf do.
 */
#ifndef PROF_UTIL_OPT_H
#define PROF_UTIL_OPT_H

enum opt_type {
	OPT_T_END,
	OPT_T_GROUP,	/* a heading line in the help output */
	OPT_T_BOOL,	/* int *: set to 1, or 0 with --no-name */
	OPT_T_INCR,	/* int *: incremented on each use (-v -v) */
	OPT_T_STRING,	/* const char **: the argument */
	OPT_T_INT,	/* int *: a decimal argument */
	OPT_T_U64,	/* unsigned long long *: a decimal or 0x argument */
	OPT_T_CALLBACK,	/* callback(value, arg): returns 0 or -1 */
};

struct opt;
typedef int (*opt_callback_fn)(const struct opt *opt, const char *arg, int unset);

struct opt {
	enum opt_type type;
	char short_name;	/* 0 when there is no short form */
	const char *long_name;	/* NULL when there is no long form */
	void *value;		/* where the result goes; see enum opt_type */
	const char *argh;	/* argument name in the help, e.g. "file" */
	const char *help;	/* one line of help */
	opt_callback_fn callback;	/* OPT_T_CALLBACK only */
	int flags;		/* OPT_NOARG, OPT_OPTARG */
};

#define OPT_NOARG	1	/* a callback that takes no argument */
#define OPT_OPTARG	2	/* a callback whose argument is optional (--x=y only) */
#define OPT_LASTARG_DEFAULT 4	/* a callback whose argument may be left
				   out (perf's PARSE_OPT_LASTARG_DEFAULT): it
				   gets NULL when no value is attached and the
				   next argument is missing or starts with '-' */

#define OPT_END()			{ .type = OPT_T_END }
#define OPT_GROUP(h)			{ .type = OPT_T_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h)		{ .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h)		{ .type = OPT_T_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_STRING(s, l, v, a, h)	{ .type = OPT_T_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_INTEGER(s, l, v, h)		{ .type = OPT_T_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h)		{ .type = OPT_T_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f)	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOARG(s, l, v, h, f) { .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .callback = (f), .flags = OPT_NOARG }

/*
 * Parses argv[1..argc-1] (argv[0] is the command name) against opts.
 * Returns the number of arguments left; they are moved to argv[0..n-1].
 * usage is the synopsis line, e.g. "prof report [<options>]".  Options and
 * other arguments may be mixed unless stop_at_non_option is set, in which
 * case parsing stops at the first non-option (for "prof record cmd args").
 */
int opt_parse(int argc, char **argv, const struct opt *opts,
	      const char *const *usage, int stop_at_non_option);

/* Prints the usage lines and the option table to stdout (err == 0) or stderr. */
void opt_usage(const char *const *usage, const struct opt *opts, int err);

/* Prints an error, then the usage to stderr, and exits with status 129. */
void opt_usage_error(const char *const *usage, const struct opt *opts,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4), __noreturn__));

#endif
