#include "opt.h"
#include "error.h"
#include "outcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE_HELP_COLUMN 26

void opt_usage(const char *const *usage, const struct opt *opts, int err)
{
	FILE *f = err ? stderr : stdout;

	fprintf(f, "\n Usage: %s\n", usage[0]);
	for (int i = 1; usage[i]; i++)
		fprintf(f, "    or: %s\n", usage[i]);
	fputc('\n', f);
	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		int col;

		if (o->type == OPT_T_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		col = fprintf(f, "    ");
		if (o->short_name)
			col += fprintf(f, "-%c", o->short_name);
		if (o->short_name && o->long_name)
			col += fprintf(f, ", ");
		else if (o->long_name)
			col += fprintf(f, "    ");	/* long names line up, as in perf */
		if (o->long_name)
			col += fprintf(f, "--%s", o->long_name);
		if (o->argh && !(o->flags & OPT_NOARG)) {
			if (o->flags & OPT_OPTARG)
				col += fprintf(f, "[=<%s>]", o->argh);
			else if (o->flags & OPT_LASTARG_DEFAULT)
				col += fprintf(f, " [<%s>]", o->argh);
			else
				col += fprintf(f, " <%s>", o->argh);
		}
		if (col >= USAGE_HELP_COLUMN - 1) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s%s\n", USAGE_HELP_COLUMN - col, "", o->help ? o->help : "");
	}
	fputc('\n', f);
}

void opt_usage_error(const char *const *usage, const struct opt *opts,
		     const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error("%s", buf);
	opt_usage(usage, opts, 1);
	exit(129);
}

static int takes_arg(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_STRING:
	case OPT_T_INT:
	case OPT_T_U64:
		return 1;
	case OPT_T_CALLBACK:
		return !(o->flags & (OPT_NOARG | OPT_OPTARG));
	default:
		return 0;
	}
}

static void opt_name(const struct opt *o, int use_long, char *buf, size_t size)
{
	if (use_long)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
}

/* Stores arg into o's value; returns 0 or -1 after printing why. */
static int apply(const struct opt *o, const char *arg, int unset, int use_long)
{
	char name[128];
	char *end;

	opt_name(o, use_long, name, sizeof(name));
	switch (o->type) {
	case OPT_T_BOOL:
		*(int *)o->value = !unset;
		return 0;
	case OPT_T_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPT_T_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end || v < -2147483647L - 1 || v > 2147483647L)
			return error("option '%s' expects a number, not '%s'", name, arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_T_U64: {
		unsigned long long v;

		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || arg[0] == '-')
			return error("option '%s' expects a non-negative number, not '%s'", name, arg);
		*(unsigned long long *)o->value = v;
		return 0;
	}
	case OPT_T_CALLBACK:
		return o->callback(o, arg, unset);
	default:
		return error("option '%s' has a bad table entry", name);
	}
}

static const struct opt *find_long(const struct opt *opts, const char *name, size_t len,
				   int *negated, int *ambiguous)
{
	const struct opt *found = NULL;
	int found_neg = 0, nfound = 0;

	*ambiguous = 0;
	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		if (!o->long_name)
			continue;
		for (int neg = 0; neg < 2; neg++) {
			const char *n = name;
			size_t l = len;

			if (neg) {
				if (takes_arg(o) || len < 3 || strncmp(name, "no-", 3))
					continue;
				n += 3;
				l -= 3;
			}
			if (strncmp(o->long_name, n, l))
				continue;
			if (o->long_name[l] == '\0') {
				*negated = neg;
				return o;	/* exact match wins */
			}
			if (found != o)
				nfound++;
			found = o;
			found_neg = neg;
		}
	}
	if (nfound > 1) {
		*ambiguous = 1;
		return NULL;
	}
	*negated = found_neg;
	return found;
}

int opt_parse(int argc, char **argv, const struct opt *opts,
	      const char *const *usage, int stop_at_non_option)
{
	int nleft = 0;
	int i;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		if (a[0] != '-' || a[1] == '\0') {
			if (stop_at_non_option)
				break;
			argv[nleft++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opt_usage(usage, opts, 0);
			exit(stdout_finish());
		}
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int negated, ambiguous;
			const struct opt *o = find_long(opts, name, len, &negated, &ambiguous);
			const char *arg = eq ? eq + 1 : NULL;

			if (ambiguous)
				opt_usage_error(usage, opts, "ambiguous option '%.*s'", (int)len, name);
			if (!o)
				opt_usage_error(usage, opts, "unknown option '%.*s'", (int)len, name);
			if (takes_arg(o) && !arg && (o->flags & OPT_LASTARG_DEFAULT) &&
			    (i + 1 >= argc || argv[i + 1][0] == '-')) {
				/* the callback gets NULL */
			} else if (takes_arg(o) && !arg) {
				if (i + 1 >= argc)
					opt_usage_error(usage, opts, "option '--%s' requires a value", o->long_name);
				arg = argv[++i];
			} else if (!takes_arg(o) && arg && !(o->flags & OPT_OPTARG)) {
				opt_usage_error(usage, opts, "option '--%s' takes no value", o->long_name);
			}
			if (apply(o, arg, negated, 1))
				opt_usage_error(usage, opts, "bad value for option '--%s'", o->long_name);
			continue;
		}
		/* a bundle of short options */
		for (const char *p = a + 1; *p; p++) {
			const struct opt *o = NULL;

			for (const struct opt *q = opts; q->type != OPT_T_END; q++) {
				if (q->short_name && q->short_name == *p) {
					o = q;
					break;
				}
			}
			if (!o)
				opt_usage_error(usage, opts, "unknown switch '%c'", *p);
			if (takes_arg(o)) {
				const char *arg = p[1] ? p + 1 : NULL;

				if (!arg && (o->flags & OPT_LASTARG_DEFAULT) &&
				    (i + 1 >= argc || argv[i + 1][0] == '-')) {
					/* the callback gets NULL */
				} else if (!arg) {
					if (i + 1 >= argc)
						opt_usage_error(usage, opts, "switch '%c' requires a value", *p);
					arg = argv[++i];
				}
				if (apply(o, arg, 0, 0))
					opt_usage_error(usage, opts, "bad value for switch '%c'", *p);
				break;
			}
			if (apply(o, NULL, 0, 0))
				opt_usage_error(usage, opts, "bad value for switch '%c'", *p);
		}
	}
	while (i < argc)
		argv[nleft++] = argv[i++];
	argv[nleft] = NULL;
	return nleft;
}
