/*
 * flame_fold.h - the flame folder: each sample of a recording as one
 * stack of frame names in a flame trie (flame.h), resolved as perf script
 * resolves it, so the stacks are those of "perf script |
 * stackcollapse-perf.pl".
 *
 * A sample's stack is its call chain walked from the leaf by perf's rules
 * (the call-chain cursor, session/chain.h: context markers, at most
 * --max-stack recorded addresses, a marker perf does not know emptying
 * the chain; functions inlined at unwound addresses are not shown); a
 * sample without a call chain is its own address.  The caller begins the
 * walk, a --call-graph dwarf sample's user stack unwound and joined to
 * its recorded chain first as perf script does, and hands it over.
 * Frames are named as stackcollapse-perf.pl names them: the symbol
 * (argument lists, quotes and ';' tidied away), "[dso]" when the address
 * has a map but no symbol (the file name whole, where the Perl script's
 * parser cuts names like "memfd:x (deleted)"), "[unknown]" when it has
 * no map.  The stack, outermost caller first and the process name as its
 * root, goes into the trie (on a second thread when there are two CPUs).
 *
 * Use: fold_new() with the trie and the options; for each file
 * fold_begin(), then, in file order, fold_note_record() for every record
 * that is not a sample and fold_sample() for every sample to show; then
 * fold_end(), after which the trie holds every stack of the file.
 * fold_free() once every file is read.  Between fold_begin() and
 * fold_end() only the folder touches the trie.
 *
 * Invariants: nothing is allocated per sample: frame names are built in
 * one buffer and interned once per symbol (a cache keyed by symbol or
 * DSO), the stack lives in one growing array.  A call-chain address
 * resolved once is not resolved again until a record that may change its
 * process's maps (or the kernel's) arrives (a cache keyed by process,
 * cpumode and address, valid while the generations fold_note_record()
 * counts stay), and a DSO's address is named once for every process that
 * maps the DSO (a cache keyed by DSO and address).  The caches are
 * direct-mapped and small enough to stay in the CPU's caches; they only
 * ever save work, never change a result.  fold_begin() and fold_end()
 * empty the caches whose keys are a file's session's (threads, symbols,
 * DSOs).
 */
#ifndef PROF_ANALYSIS_FLAME_FOLD_H
#define PROF_ANALYSIS_FLAME_FOLD_H

#include "../session/chain.h"
#include "../session/session.h"
#include "flame.h"

/* How stacks are made. */
struct fold_opts {
	int merged;		/* no process frames */
	int with_pid;		/* process frames as "comm-PID" */
	int with_tid;		/* process frames as "comm-PID/TID" (wins) */
	int kernel_marks;	/* "_[k]" after kernel frames */
	int jit_marks;		/* "_[j]" after JIT frames */
	int addrs;		/* frames without a symbol named by their
				   address too: "[dso <addr>]" */
	int reverse;		/* the whole stack leaf first */
};

struct flame_fold;

/* A folder adding to fl (kept, flame_init()ed) as opts (copied) say. */
struct flame_fold *fold_new(struct flame *fl, const struct fold_opts *opts);
/* Frees the folder (not the trie); after fold_end(). */
void fold_free(struct flame_fold *fo);

/* Begins a file whose stacks go to input (0 or 1, flame.h) of the trie. */
void fold_begin(struct flame_fold *fo, int input);

/* A record that is not a sample, before the next sample: counts the
 * generations it may end (a process's maps, the kernel's, the rest). */
void fold_note_record(struct flame_fold *fo, const struct pd_header *hdr);

/*
 * Adds a sample of session s, resolved into al (at least to its map and
 * DSO: SESSION_NO_SYMBOL is enough), as one stack: w is the walk of its
 * call chain, begun in callee order (the folder walks it to its end), or
 * NULL for a sample without a call chain (then sample->ip is its frame).
 */
void fold_sample(struct flame_fold *fo, struct session *s, const struct addr_location *al,
		 const struct pd_sample *sample, struct chain_walk *w);

/* Ends the file: the trie has every stack of it; the caches are emptied
 * of its session's symbols and DSOs. */
void fold_end(struct flame_fold *fo);

#endif
