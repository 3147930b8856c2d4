/*
 * flame.h - the stack trie behind flame graphs and folded stacks.
 *
 * A flame is a trie of frames: node 0 is the root ("all"), every other
 * node is one distinct (parent node, frame name) pair, so a path from the
 * root is one distinct stack, outermost frame first.  Each node counts the
 * samples whose stack ends at it (self), once per input: input 0 is the
 * profile (or the base of a differential graph), input 1 the new profile
 * of a differential graph.
 *
 * Frame names are interned: flame_name() gives each distinct string one id
 * and a kind (user, kernel, JIT, unknown, comm), which the SVG colours by.
 *
 * Use: flame_init(); flame_name() and flame_add() per sample; then
 * flame_finish() once, which fills the totals and the children lists
 * (siblings sorted by name); then read nodes and names; flame_exit().
 * flame_name() and flame_add() touch disjoint fields, so one thread may
 * intern names while another adds stacks (of names already interned).
 *
 * Invariants: a node's parent has a smaller index than the node; nothing
 * is allocated per sample (arrays grow by doubling, names live in an
 * arena); a stack seen before is found whole by its hash (one probe and a
 * compare with its stored copy), a new one walks the trie, a hash probe
 * per frame.  Stacks are added a few calls late, with their memory
 * prefetched meanwhile; flame_finish() adds the last ones.  Memory grows
 * with the distinct stacks, not the samples.
 */
#ifndef PROF_ANALYSIS_FLAME_H
#define PROF_ANALYSIS_FLAME_H

#include "../util/types.h"
#include "../util/arena.h"

#include <stddef.h>

/* What a frame is; decides its colour. */
enum flame_kind {
	FLAME_USER,		/* a user-space symbol */
	FLAME_KERNEL,		/* the kernel or a module */
	FLAME_JIT,		/* a JIT map (/tmp/perf-PID.map) */
	FLAME_UNKNOWN,		/* no symbol ("[unknown]", "[libc.so.6]") */
	FLAME_COMM,		/* a process name (the root frames) */
	FLAME_ROOT,		/* "all" */
};

#define FLAME_MAX_INPUTS 2

/* A stack in flame_add()'s pipeline. */
struct flame_pending {
	u32 *names;
	u32 n, room;
	u64 hash, count;
	int input;
};

#define FLAME_PIPELINE 2	/* stacks added late, their memory fetched */

/* A slot of the whole-stack table; hash 0 is an empty slot. */
struct flame_stack_slot {
	u64 hash;
	u64 at;			/* where its copy starts in stack_names */
	u32 leaf;		/* its last node */
};

struct flame {
	/* nodes, by index; node 0 is the root */
	u32 *parent;
	u32 *name;			/* name id */
	u64 *self[FLAME_MAX_INPUTS];	/* samples ending here, per input */
	u64 *total[FLAME_MAX_INPUTS];	/* flame_finish(): self + descendants */
	u32 nr_nodes, alloc_nodes;
	int nr_inputs;			/* 1, or 2 for a differential graph */

	/* (parent, name) -> node, open addressing; 0 is an empty slot */
	u64 *slot_key;
	u32 *slot_node;
	u32 slot_mask;

	/* flame_finish(): node i's children are child[first[i]..first[i+1]),
	   sorted by name */
	u32 *first, *child;

	/* interned names: string, length and kind per id */
	const char **names;
	u32 *name_len;
	u8 *name_kind;
	u32 nr_names, alloc_names;
	u32 *name_slot;			/* content hash -> id + 1 */
	u32 name_mask;
	struct arena arena;

	/* whole stacks seen: hash -> (leaf node, copy of the names), so a
	   stack seen before costs one probe and one compare; 0 is empty */
	struct flame_stack_slot *stacks;
	u32 stack_mask, nr_stacks;
	u32 *stack_names;		/* per stack: its length, then its names */
	u64 stack_names_len, stack_names_room;

	/* flame_add() adds each stack FLAME_PIPELINE calls later, having
	   asked for its slot and its copy meanwhile: ring, oldest first */
	struct flame_pending pending[FLAME_PIPELINE];
	u32 first_pending, nr_pending;
};

/* Makes an empty trie for nr_inputs (1 or 2) inputs. */
void flame_init(struct flame *fl, int nr_inputs);
/* Frees everything. */
void flame_exit(struct flame *fl);

/* The id of the name s[0..len) (copied on first use) with the given kind;
 * a name keeps the kind it was first given. */
u32 flame_name(struct flame *fl, const char *s, size_t len, enum flame_kind kind);

/* Adds count samples of input to the stack names[0..n) (outermost first). */
void flame_add(struct flame *fl, int input, const u32 *names, u32 n, u64 count);

/* Computes totals and children lists and frees the lookup tables; call
 * once, after the last add. */
void flame_finish(struct flame *fl);

/* The name string and kind of node i. */
static inline const char *flame_node_name(const struct flame *fl, u32 i)
{
	return fl->names[fl->name[i]];
}

static inline enum flame_kind flame_node_kind(const struct flame *fl, u32 i)
{
	return (enum flame_kind)fl->name_kind[fl->name[i]];
}

#endif
