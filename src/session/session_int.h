/*
 * session_int.h - the session model's two-thread protocol, for the report
 * engine: only the session module (src/session/) and src/engine/ include
 * it.  Every other user resolves with session.h alone.
 *
 * Two threads.  The thread that feeds session_event() (the engine's record
 * thread) resolves samples with SESSION_NO_SYMBOL and hands what it found
 * (dso, map-relative address) to one other thread (the histogram thread),
 * which looks the symbols up: with session_find_symbol(), or in three
 * prefetched steps (session_probe_start(), _ranges(), _find()), or only
 * once the loader thread has loaded the dso (session_dso_ready(),
 * session_load_async(), session_loader_wait()) while its samples wait.
 *
 * Invariants of the protocol:
 *  - The model (threads, comms, maps, the dso table) changes only on the
 *    feeding thread.  Before it changes a symbol table (the kernel's
 *    load, which also fills the modules; a KSYMBOL; a new build-id for a
 *    dso the other thread may be loading) it calls the sync hook of
 *    session_set_sync(), which returns only once the other thread has
 *    finished every lookup it was handed: no lookup sees a table half
 *    made.  Symbols found stay valid until session_free().
 *  - With SESSION_DEFER_KERNEL, while session_kernel_pending() the other
 *    thread looks up no kernel or module symbol (session_dso_is_kernel())
 *    and asks for no load of one; the kernel then loads without sync.
 *  - A thread that asked for loads with session_load_async() loads or
 *    changes no symbols itself until session_loader_wait().
 *  - Used so, the threads resolve each sample as session_resolve() on
 *    one thread does.
 */
#ifndef PROF_SESSION_SESSION_INT_H
#define PROF_SESSION_SESSION_INT_H

#include "session.h"
#include "../symbol/symbol_int.h"

/*
 * SESSION_DEFER_KERNEL (with SESSION_NO_SYMBOL, on the feeding thread of
 * two) does not wait for kallsyms to be read: the kernel loads at the
 * first kernel sample after that, without sync.  Until then a sample in
 * the kernel map resolves to the map as recorded, and all but the first
 * (the one perf loads on, which keeps its map) get al->kernel_unsure.
 * The other thread must not look up kernel or module symbols while
 * session_kernel_pending(), and then asks session_kernel_outside() of
 * each unsure sample.
 */
#define SESSION_DEFER_KERNEL 2

/* The feeding thread's hook (NULL: none) that waits until the other
 * thread has finished every lookup it was handed; called before the
 * session changes a symbol table. */
void session_set_sync(struct session *s, void (*sync)(void *arg), void *arg);

/* SESSION_DEFER_KERNEL: 1 while the kernel map waits for its load (any
 * thread; acquire). */
int session_kernel_pending(const struct session *s);
/* For a loaded kernel dso and the address of an unsure sample: 1 when the
 * loaded (shrunk) kernel map does not reach it, so perf reports it with no
 * map. */
int session_kernel_outside(const struct dso *dso, u64 addr);
/* The feeding thread, while the other is idle: loads the kernel now when
 * SESSION_DEFER_KERNEL left it pending (waits for kallsyms). */
void session_load_kernel(struct session *s);

/* The other thread of two: whether dso's symbols may be looked up now;
 * to have them loaded meanwhile on the loader thread; to wait for that
 * (see dso_load_async()). */
static inline int session_dso_ready(const struct dso *dso)
{
	return dso_ready(dso);
}
void session_load_async(struct session *s, struct dso *dso);
void session_loader_wait(struct session *s);

/* session_find_symbol() in three steps some lookups apart, for the other
 * thread (see dso_probe_start()). */
static inline void session_probe_start(const struct dso *dso, u64 addr, struct sym_probe *p)
{
	dso_probe_start(dso, addr, p);
}
static inline void session_probe_ranges(const struct dso *dso, struct sym_probe *p)
{
	dso_probe_ranges(dso, p);
}
const struct symbol *session_probe_find(struct session *s, struct dso *dso, u64 addr,
					const struct sym_probe *p);

#endif
