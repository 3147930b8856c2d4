/*
 * hist_layout.c - the report's columns and sort keys: perf 6.1's --sort
 * and --fields (setup_sorting(), perf_hpp__init()), the columns a
 * one-item filter hides, the column titles and widths
 * (hists__calc_col_len()).
 */
#include "hist_impl.h"
#include "../util/error.h"

#include <string.h>
#include <strings.h>

/*
 * perf's dimension names, in the order perf tries them: a key matches the
 * first name it is a case-insensitive prefix of.  Names prof does not
 * implement map to HD_NR.
 */
static const struct {
	const char *name;
	enum hist_dim dim;
} dim_names[] = {
	{ "pid", HD_PID }, { "comm", HD_COMM }, { "dso", HD_DSO },
	{ "symbol", HD_SYM }, { "parent", HD_NR }, { "cpu", HD_CPU },
	{ "socket", HD_NR }, { "srcline", HD_NR }, { "srcfile", HD_NR },
	{ "local_weight", HD_NR }, { "weight", HD_NR },
	{ "transaction", HD_NR }, { "trace", HD_TRACE }, { "symbol_size", HD_NR },
	{ "dso_size", HD_NR }, { "cgroup", HD_NR }, { "cgroup_id", HD_NR },
	{ "ipc_null", HD_NR }, { "time", HD_NR }, { "code_page_size", HD_NR },
	{ "local_ins_lat", HD_NR }, { "ins_lat", HD_NR },
	{ "local_p_stage_cyc", HD_NR }, { "p_stage_cyc", HD_NR },
	{ "addr", HD_NR },
	{ "overhead", HD_OVERHEAD }, { "overhead_sys", HD_NR },
	{ "overhead_us", HD_NR }, { "overhead_guest_sys", HD_NR },
	{ "overhead_guest_us", HD_NR }, { "overhead_children", HD_CHILDREN },
	{ "sample", HD_SAMPLE }, { "period", HD_PERIOD },
};

static const char *const dim_headers[HD_NR] = {
	[HD_CHILDREN] = "Children", [HD_OVERHEAD] = "Overhead", [HD_SAMPLE] = "Samples",
	[HD_PERIOD] = "Period", [HD_PID] = "    Pid:Command",
	[HD_COMM] = "Command", [HD_DSO] = "Shared Object",
	[HD_SYM] = "Symbol", [HD_CPU] = "CPU", [HD_TRACE] = "Trace output",
};

const char *hist_dim_header(const struct hist_layout *lay, enum hist_dim d)
{
	if (d == HD_OVERHEAD && lay->self_title)
		return "Self";
	return dim_headers[d];
}

static int dim_in(const enum hist_dim *list, int nr, enum hist_dim d)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == d)
			return 1;
	return 0;
}

/* Parses a comma-separated key list into list (duplicates dropped). */
static int parse_dims(const char *str, const char *what, enum hist_dim *list, int *nr)
{
	char buf[1024], *tok, *save;

	if (strlen(str) >= sizeof(buf))
		return error("--%s: list too long", what);
	strcpy(buf, str);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t n = strlen(tok);
		size_t i;

		for (i = 0; i < sizeof(dim_names) / sizeof(dim_names[0]); i++)
			if (!strncasecmp(tok, dim_names[i].name, n))
				break;
		if (i == sizeof(dim_names) / sizeof(dim_names[0]))
			return error("unknown --%s key: '%s'", what, tok);
		if (dim_names[i].dim == HD_NR)
			return error("--%s key '%s' is not supported yet", what,
				     dim_names[i].name);
		if (!dim_in(list, *nr, dim_names[i].dim))
			list[(*nr)++] = dim_names[i].dim;
	}
	return 0;
}

int hist_layout_parse(struct hist_layout *lay, const char *sort_order,
		      const char *field_order, int show_nr_samples,
		      int show_total_period, int children)
{
	int strict_fields = field_order && field_order[0] != '+';
	enum hist_dim keys[HD_NR];
	int nr_keys = 0;

	memset(lay, 0, sizeof(*lay));
	lay->children = children;
	lay->self_title = children && !strict_fields;
	/* perf's __setup_sorting(): the keys, "overhead" (and in children
	   mode "overhead_children" before it) first unless -F */
	if (sort_order || !strict_fields) {
		const char *s = sort_order ? sort_order : "comm,dso,sym";

		if (!strict_fields && children && !strstr(s, "overhead_children"))
			keys[nr_keys++] = HD_CHILDREN;
		if (!strict_fields && !strstr(s, "overhead"))
			keys[nr_keys++] = HD_OVERHEAD;
		if (parse_dims(s, "sort", keys, &nr_keys))
			return -1;
	}
	memcpy(lay->sort, keys, nr_keys * sizeof(keys[0]));
	lay->nr_sort = nr_keys;
	lay->dso_sorted = dim_in(keys, nr_keys, HD_DSO);

	/* perf_hpp__init(): default columns unless -F is strict */
	if (!strict_fields) {
		if (children)
			lay->cols[lay->nr_cols++] = HD_CHILDREN;
		lay->cols[lay->nr_cols++] = HD_OVERHEAD;
		if (show_nr_samples)
			lay->cols[lay->nr_cols++] = HD_SAMPLE;
		if (show_total_period)
			lay->cols[lay->nr_cols++] = HD_PERIOD;
	}
	if (field_order) {
		const char *f = strict_fields ? field_order : field_order + 1;

		if (!*f)
			return error("invalid --fields key: '+'");
		if (parse_dims(f, "fields", lay->cols, &lay->nr_cols))
			return -1;
	}
	/* sort keys become columns, then columns become sort keys */
	for (int i = 0; i < lay->nr_sort; i++)
		if (!dim_in(lay->cols, lay->nr_cols, lay->sort[i]))
			lay->cols[lay->nr_cols++] = lay->sort[i];
	for (int i = 0; i < lay->nr_cols; i++)
		if (!dim_in(lay->sort, lay->nr_sort, lay->cols[i]))
			lay->sort[lay->nr_sort++] = lay->cols[i];
	for (int i = 0; i < lay->nr_sort; i++)
		if (lay->sort[i] >= HD_PID)
			lay->key_mask |= 1u << lay->sort[i];
	return 0;
}

void hist_layout_elide(struct hist_layout *lay, int comm, int dso, int sym)
{
	int all = 1;

	lay->elide_mask = 0;
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];

		if ((d == HD_COMM && comm) || (d == HD_DSO && dso) || (d == HD_SYM && sym))
			lay->elide_mask |= 1u << d;
		else if (d >= HD_PID)
			all = 0;
	}
	if (all)
		lay->elide_mask = 0;
}

/* ---- column widths --------------------------------------------------------- */

static void new_width(int *w, int len)
{
	if (len > *w)
		*w = len;
}

void hist_column_widths(struct hists *h, struct hist_entry *const *shown, int dso_list_given)
{
	const struct hist_strings *hs = h->strs;
	int comm_len = 0, unresolved = 0;
	/* perf makes an entry's trace text only when it compares it with
	   another's: never in a histogram of one sample, whose text is then
	   cut to the title's width */
	int trace_known = h->nr_samples > 1;

	for (int d = 0; d < HD_NR; d++)
		h->col_width[d] = strlen(hist_dim_header(h->lay, d));
	for (u32 j = 0; j < h->nr_sorted; j++) {
		const struct hist_entry *e = shown[j];

		if (e->sym)
			new_width(&h->col_width[HD_SYM], strlen(symbol_name(e->sym)) + 4);
		else
			unresolved = 1;
		new_width(&comm_len, strlen(thread_comm_now(h->origins[e - h->entries].thread)));
		if (e->dso_name)
			new_width(&h->col_width[HD_DSO], hs->len[e->dso_name]);
		if (e->trace && trace_known)
			new_width(&h->col_width[HD_TRACE], hs->len[e->trace]);
	}
	/* an unresolved symbol: "[.] 0x" and 16 digits; its DSO column is
	   made as wide as the address unless --dsos was given */
	if (unresolved) {
		new_width(&h->col_width[HD_SYM], 4 + 2 + 16);
		if (!dso_list_given)
			new_width(&h->col_width[HD_DSO], 16);
	}
	new_width(&h->col_width[HD_COMM], comm_len);
	if (comm_len)
		new_width(&h->col_width[HD_PID], comm_len + 8);
	/* a group's counts: one column of perf's width per event */
	h->col_width[HD_CHILDREN] = 8 * (1 + h->group_nr);
	h->col_width[HD_OVERHEAD] = 8 * (1 + h->group_nr);
	h->col_width[HD_SAMPLE] = 12 * (1 + h->group_nr);
	h->col_width[HD_PERIOD] = 12 * (1 + h->group_nr);
}
