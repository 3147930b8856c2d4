/*
 * flame_svg.h - writes a finished flame trie (analysis/flame.h) as one
 * self-contained interactive SVG, or as folded stacks.
 *
 * The SVG draws every node at least min_width pixels wide as a rectangle
 * with its name, outermost frame at the bottom (at the top for an
 * icicle), children left to right in name order; narrower nodes and all
 * below them are left out, so the file stays small whatever the number of
 * distinct stacks.  Inline JavaScript zooms on click, resets, searches by
 * regular expression (matched frames highlighted, their share shown) and
 * shows the frame under the pointer; every frame has a <title> tooltip
 * with its samples and share.  With two inputs it is a differential graph:
 * sizes from input 1, each frame coloured by how its share of the samples
 * changed from input 0 (red: grew, blue: shrank).
 *
 * Output goes through one large buffer, written in big blocks.
 */
#ifndef PROF_OUTPUT_FLAME_SVG_H
#define PROF_OUTPUT_FLAME_SVG_H

#include "../analysis/flame.h"

#include <stdio.h>

struct flame_svg_opts {
	const char *title;	/* the heading */
	const char *subtitle;	/* a line under it, or NULL */
	double width;		/* image width in pixels */
	double frame_height;	/* pixels per stack level */
	double min_width;	/* frames narrower than this are left out */
	int icicle;		/* root at the top, stacks growing down */
};

/* Writes fl (flame_finish()ed, with samples) as an SVG.  Returns 0, or -1
 * when writing failed. */
int flame_write_svg(FILE *out, const struct flame *fl, const struct flame_svg_opts *o);

/*
 * Writes one line per stack that samples end at: the frame names from the
 * outermost, joined by ';', a space and the sample count (with two inputs,
 * the count of each: "stack base new", as FlameGraph's difffolded.pl
 * writes).  Depth-first, siblings in name order.  Returns 0 or -1.
 */
int flame_write_folded(FILE *out, const struct flame *fl);

#endif
