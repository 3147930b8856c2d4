/*
 * branch_stdio.c - prints a branch histogram as "perf report --stdio"
 * does in branch mode (perf 6.1: ui/stdio/hist.c, util/sort.c's branch
 * keys' snprintf functions).
 *
 * Layout: as report_stdio.c's (rows start with two spaces, columns are
 * joined by two, key columns are left-aligned and cut to their width);
 * a symbol column is "[level] name", or the address as "%#.16llx" when
 * unresolved; the "symbol" column is not padded when it is the last.
 * Invariant: nothing here changes the histogram.
 */
#include "branch_stdio.h"
#include "report_stdio.h"

#include <string.h>

static void print_titles(FILE *out, const struct branch_hist *bh)
{
	const struct branch_layout *lay = bh->lay;

	fputs("# ", out);
	for (int i = 0; i < lay->nr_cols; i++) {
		enum branch_dim d = lay->cols[i];
		int w = bh->col_width[d];

		if (i)
			fputs("  ", out);
		if (d <= BD_PERIOD)
			fprintf(out, "%*s", w, branch_dim_header(d));
		else
			fprintf(out, "%-*.*s", w, w, branch_dim_header(d));
	}
	fputs("\n# ", out);
	for (int i = 0; i < lay->nr_cols; i++) {
		if (i)
			fputs("  ", out);
		for (int k = 0; k < bh->col_width[lay->cols[i]]; k++)
			putc('.', out);
	}
	fputs("\n#\n", out);
}

/* "%-*.*s" */
static void put_cut(FILE *out, const char *s, int w)
{
	fprintf(out, "%-*.*s", w, w, s);
}

/* perf's _hist_entry__sym_snprintf(): "[l] name" or "[l] %#.16llx",
 * padded to the width (unless pad is 0) and cut to it. */
static void put_sym(FILE *out, char level, const struct symbol *sym, u64 addr, int w, int pad)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "[%c] ", level);

	if (sym)
		n += snprintf(buf + n, sizeof(buf) - n, "%.*s", w - n > 0 ? w - n : 0,
			      symbol_name(sym));
	else
		n += snprintf(buf + n, sizeof(buf) - n, "%-#.*llx", 16, (unsigned long long)addr);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (n > w)
		n = w > 0 ? w : 0;
	buf[n] = 0;
	if (pad)
		fprintf(out, "%-*s", w, buf);
	else
		fputs(buf, out);
}

static void print_row(FILE *out, const struct branch_hist *bh, const struct branch_entry *e,
		      u64 total, struct branch_stdio_opts *o)
{
	const struct branch_layout *lay = bh->lay;

	for (int i = 0; i < lay->nr_cols; i++) {
		enum branch_dim d = lay->cols[i];
		int w = bh->col_width[d];

		fputs(d <= BD_PERIOD ? "   " : "  ", out);
		switch (d) {
		case BD_OVERHEAD:
			fprintf(out, "%*.2f%%", w - 2, total ? 100.0 * e->period / total : 0.0);
			break;
		case BD_SAMPLE:
			fprintf(out, "%*llu", w - 1, (unsigned long long)e->nr_samples);
			break;
		case BD_PERIOD:
			fprintf(out, "%*llu", w - 1, (unsigned long long)e->period);
			break;
		case BD_PID:
			fprintf(out, "%7d:", e->tid);
			put_cut(out, thread_comm_now(e->thread), (w > 7 ? w : 7) - 8);
			break;
		case BD_COMM:
			put_cut(out, e->comm, w);
			break;
		case BD_DSO:
		case BD_DSO_TO:
			put_cut(out, dso_short_name(e->to.dso), w);
			break;
		case BD_DSO_FROM:
			put_cut(out, dso_short_name(e->from.dso), w);
			break;
		case BD_SYM:
			/* perf's entry: the target's symbol, its address as
			   recorded, the sample's level */
			put_sym(out, e->level, e->to.sym, e->to.addr, w, i < lay->nr_cols - 1);
			break;
		case BD_SYM_FROM:
			put_sym(out, e->from.level, e->from.sym, e->from.al_addr, w, 1);
			break;
		case BD_SYM_TO:
			put_sym(out, e->to.level, e->to.sym, e->to.al_addr, w, 1);
			break;
		case BD_MISPREDICT:
			if (e->predicted)
				o->mispredict = "N";
			else if (e->mispred)
				o->mispredict = "Y";
			put_cut(out, o->mispredict, w);
			break;
		case BD_IN_TX:
			fprintf(out, "%-*s", w, e->in_tx ? "T" : ".");
			break;
		case BD_ABORT:
			fprintf(out, "%-*s", w, e->abort ? "A" : ".");
			break;
		case BD_CYCLES:
			if (e->cycles)
				fprintf(out, "%-*hd", w, (short)e->cycles);
			else
				fprintf(out, "%-*s", w, "-");
			break;
		default:
			break;
		}
	}
	putc('\n', out);
}

void branch_stdio_hist(FILE *out, const struct branch_hist *bh, const char *evname,
		       struct branch_stdio_opts *o)
{
	u64 total = o->relative ? bh->total_non_filtered_period : bh->total_period;

	if (!o->mispredict)
		o->mispredict = "N/A";
	if (!o->quiet) {
		unsigned long nr = o->relative ? bh->nr_non_filtered_samples : bh->nr_samples;
		char unit;

		nr = report_convert_unit(nr, &unit);
		fprintf(out, "# Samples: %lu%c of event '%s'", nr, unit, evname);
		if (o->time_str)
			fprintf(out, " (time slices: %s)", o->time_str);
		fprintf(out, "\n# Event count (approx.): %llu\n#\n", (unsigned long long)total);
		print_titles(out, bh);
	}
	for (u32 i = 0; i < bh->nr_sorted; i++) {
		const struct branch_entry *e = bh->sorted[i];
		float percent = total ? e->period * 100.0 / total : 0;

		if (percent >= o->min_percent)
			print_row(out, bh, e, total, o);
	}
	fputs("\n\n", out);
}

void branch_stdio_types(FILE *out, const struct branch_type_stat *st)
{
	/* perf 6.1's branch_type_name() and branch_new_type_name() */
	static const char *const names[16] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
	};
	static const char *const new_names[16] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};
	const struct {
		const char *name;
		u64 n;
	} areas[] = {
		{ "COND_FWD", st->cond_fwd }, { "COND_BWD", st->cond_bwd },
		{ "CROSS_4K", st->cross_4k }, { "CROSS_2M", st->cross_2m },
	};
	u64 total = 0;

	for (int i = 0; i < 16; i++)
		total += st->counts[i] + st->new_counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", out);
	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++)
		if (areas[i].n)
			fprintf(out, "\n%8s: %5.1f%%", areas[i].name, 100.0 * areas[i].n / total);
	for (int i = 0; i < 16; i++)
		if (st->counts[i])
			fprintf(out, "\n%8s: %5.1f%%", names[i], 100.0 * st->counts[i] / total);
	for (int i = 0; i < 16; i++)
		if (st->new_counts[i])
			fprintf(out, "\n%8s: %5.1f%%", new_names[i] ? new_names[i] : "(null)",
				100.0 * st->new_counts[i] / total);
}
