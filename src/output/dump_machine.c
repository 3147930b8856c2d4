/*
 * dump_machine.c - the " ... thread: COMM:TID" and " ...... dso: NAME"
 * lines of "prof report -D", from the session model (src/session): every
 * record is fed to it after it was printed, and a sample is resolved as
 * perf's machine__resolve() does, without symbols.  perf loads the
 * kernel's symbols at the first lookup that hits the kernel map, which
 * then shrinks to them: the sample's own address, or after the sample was
 * printed, a kernel address of its callchain or in branch mode a branch
 * target above 2^63; the session loads on the same lookups.
 */
#include "dump_int.h"
#include "../session/session.h"

void dump_machine_begin(struct dump_state *st, struct pd_file *f)
{
	st->session = session_new(f, NULL);
}

void dump_machine_end(struct dump_state *st)
{
	session_free(st->session);
	st->session = NULL;
}

void dump_machine_event(struct dump_state *st, const struct pd_event *ev)
{
	s32 pid, tid;

	session_event(st->session, ev);
	if (ev->hdr->type == PD_REC_FORK && session_fork_removed_parent(st->session, &pid, &tid))
		ob_fmt(&st->ob, "removing erroneous parent thread %d/%d\n", pid, tid);
}

/* The lookups perf's report makes after printing a sample that can load
 * the kernel map: kernel callchain entries, branch targets in branch
 * mode. */
static void touch_kernel_map(struct dump_state *st, const struct pd_evsel *e,
			     const struct pd_sample *s, const struct addr_location *al)
{
	struct session *ses = st->session;
	struct addr_location kal;

	if (e->attr.sample_type & PD_SAMPLE_CALLCHAIN) {
		int kernel = 0;

		for (u64 i = 0; i < s->callchain_nr && !session_kernel_loaded(ses); i++) {
			u64 ip = pd_get64(s->callchain + 8 * i);

			if (ip >= PD_CONTEXT_MAX)
				kernel = ip == PD_CONTEXT_KERNEL;
			else if (kernel)
				session_resolve_addr_flags(ses, al, s->time, PD_MISC_KERNEL, ip,
							   SESSION_NO_SYMBOL, &kal);
		}
	}
	if (st->branch_mode && (e->attr.sample_type & PD_SAMPLE_BRANCH_STACK)) {
		for (u64 i = 0; i < 2 * s->branch_nr && !session_kernel_loaded(ses); i++) {
			u64 addr = pd_get64(s->branch + 8 * (i + i / 2));

			if (addr >= (1ULL << 63))
				session_resolve_addr_flags(ses, al, s->time, PD_MISC_KERNEL, addr,
							   SESSION_NO_SYMBOL, &kal);
		}
	}
}

void dump_resolve(struct dump_state *st, const struct pd_event *ev, const struct pd_evsel *e,
		  const struct pd_sample *s)
{
	struct obuf *o = &st->ob;
	struct addr_location al;

	session_resolve_flags(st->session, ev, s, SESSION_NO_SYMBOL, &al);
	ob_str(o, " ... thread: ");
	ob_str(o, al.comm);
	ob_chr(o, ':');
	ob_s64(o, al.tid);
	ob_str(o, "\n ...... dso: ");
	/* perf's thread__find_map(): no fallback to the other address space */
	ob_str(o, al.dso ? dso_loaded_name(al.dso) : al.level == 'H' ? "[hypervisor]" : "<not found>");
	ob_chr(o, '\n');
	if (!session_kernel_loaded(st->session))
		touch_kernel_map(st, e, s, &al);
}
