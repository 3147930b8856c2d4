/*
 * flame_svg.c - flame graphs as SVG, and folded stacks (see flame_svg.h).
 *
 * Layout: the image is width pixels wide with a 10-pixel margin on each
 * side; one sample is (width - 20) / total pixels.  A frame's x is where
 * its first sample falls among its parent's, siblings in name order, and
 * its y follows from its depth (the root "all" is depth 0).  The SVG is
 * written in two walks of the trie: the first finds the deepest frame
 * drawn (the image's height), the second writes the frames in depth-first
 * order, each as <g><title/><rect/><text/></g>.  Labels are cut to what
 * fits at 0.59 font sizes per character, as the script recomputes them
 * when zooming.
 *
 * Text in the SVG is escaped for XML, control characters and bytes that
 * are not UTF-8 become '?', so any symbol name gives a well-formed file.
 */
#include "flame_svg.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XPAD 10.0
#define FONT_SIZE 12.0
#define CHAR_WIDTH 0.59		/* of the font size, for Verdana */
#define OUT_BUF (1u << 20)

/* ---- the output buffer ---------------------------------------------------- */

struct obuf {
	FILE *out;
	char *buf;
	size_t len;
	int failed;
};

static void ob_flush(struct obuf *b)
{
	if (b->len && fwrite(b->buf, 1, b->len, b->out) != b->len)
		b->failed = 1;
	b->len = 0;
}

/* Room for n more bytes (n <= OUT_BUF). */
static inline char *ob_room(struct obuf *b, size_t n)
{
	if (b->len + n > OUT_BUF)
		ob_flush(b);
	return b->buf + b->len;
}

static void ob_put(struct obuf *b, const char *s, size_t n)
{
	if (n > OUT_BUF / 2) {
		ob_flush(b);
		if (fwrite(s, 1, n, b->out) != n)
			b->failed = 1;
		return;
	}
	memcpy(ob_room(b, n), s, n);
	b->len += n;
}

static void ob_str(struct obuf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

static void ob_u64(struct obuf *b, u64 v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	ob_put(b, p, tmp + sizeof(tmp) - p);
}

/* v with thousands separators: 1,234,567. */
static void ob_u64_commas(struct obuf *b, u64 v)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	int digits = 0;

	do {
		if (digits && digits % 3 == 0)
			*--p = ',';
		*--p = (char)('0' + v % 10);
		digits++;
	} while (v /= 10);
	ob_put(b, p, tmp + sizeof(tmp) - p);
}

/* v rounded to two decimals ("12.30", "-0.05"). */
static void ob_fixed2(struct obuf *b, double v)
{
	long long c = llround(v * 100.0);
	char frac[3];

	if (c < 0) {
		ob_put(b, "-", 1);
		c = -c;
	}
	ob_u64(b, (u64)c / 100);
	frac[0] = '.';
	frac[1] = (char)('0' + c / 10 % 10);
	frac[2] = (char)('0' + c % 10);
	ob_put(b, frac, 3);
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	u32 cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* s[0..n) as XML character data or attribute text, at most max_chars
 * characters of it (counting a UTF-8 sequence as one). */
static void ob_escaped(struct obuf *b, const char *s, size_t n, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	for (size_t chars = 0; p < end && chars < max_chars; chars++) {
		size_t len = utf8_len(p, end - p);

		switch (*p) {
		case '&': ob_put(b, "&amp;", 5); break;
		case '<': ob_put(b, "&lt;", 4); break;
		case '>': ob_put(b, "&gt;", 4); break;
		case '"': ob_put(b, "&quot;", 6); break;
		case '\'': ob_put(b, "&apos;", 6); break;
		default:
			if (!len || *p < 0x20 || *p == 0x7f)
				ob_put(b, "?", 1);
			else
				ob_put(b, (const char *)p, len);
		}
		p += len ? len : 1;
	}
}

/* The number of characters (UTF-8 sequences or stray bytes) in s[0..n). */
static size_t utf8_chars(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t chars = 0;

	while (p < end) {
		size_t len = utf8_len(p, end - p);

		p += len ? len : 1;
		chars++;
	}
	return chars;
}

/* ---- colours ---------------------------------------------------------------- */

struct rgb {
	u8 r, g, b;
};

/* hue in degrees, saturation and lightness in [0, 1]. */
static struct rgb hsl(double h, double s, double l)
{
	double c = (1 - fabs(2 * l - 1)) * s, hp = fmod(h, 360.0) / 60.0;
	double x = c * (1 - fabs(fmod(hp, 2.0) - 1)), m = l - c / 2, r = 0, g = 0, bl = 0;
	struct rgb out;

	if (hp < 1)
		r = c, g = x;
	else if (hp < 2)
		r = x, g = c;
	else if (hp < 3)
		g = c, bl = x;
	else if (hp < 4)
		g = x, bl = c;
	else if (hp < 5)
		r = x, bl = c;
	else
		r = c, bl = x;
	out.r = (u8)lround((r + m) * 255);
	out.g = (u8)lround((g + m) * 255);
	out.b = (u8)lround((bl + m) * 255);
	return out;
}

/* A frame's colour by its kind, varied by a hash of its name so that one
 * function has one colour everywhere. */
static struct rgb kind_colour(const char *name, size_t len, enum flame_kind kind)
{
	u64 h = 0xcbf29ce484222325ULL;
	double v1, v2;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ULL;
	h = hash_u64(h);
	v1 = (double)(h & 0xffff) / 65535.0;
	v2 = (double)(h >> 16 & 0xffff) / 65535.0;
	switch (kind) {
	case FLAME_KERNEL:	/* teal to sky blue */
		return hsl(178 + 24 * v1, 0.45 + 0.15 * v2, 0.55);
	case FLAME_JIT:		/* greens */
		return hsl(90 + 40 * v1, 0.45 + 0.15 * v2, 0.50);
	case FLAME_UNKNOWN:	/* greys */
		return hsl(0, 0, 0.68 + 0.1 * v1);
	case FLAME_COMM:	/* violets */
		return hsl(262 + 24 * v1, 0.30 + 0.15 * v2, 0.70);
	case FLAME_ROOT:
		return hsl(0, 0, 0.80);
	case FLAME_USER:
	default:		/* red to yellow */
		return hsl(50 * v1, 0.80 + 0.15 * v2, 0.56 + 0.06 * v2);
	}
}

/* A differential frame's colour: change is its share's change over the
 * largest change of any frame drawn, in [-1, 1]. */
static struct rgb diff_colour(double change)
{
	double i = fabs(change);
	u8 fade = (u8)lround(235 - 200 * i), strong = (u8)lround(235 + 20 * i);
	struct rgb c = { fade, fade, fade };

	if (change > 0)
		c.r = strong;
	else if (change < 0)
		c.b = strong;
	else
		c.r = c.g = c.b = 235;
	return c;
}

/* ---- walking the trie ------------------------------------------------------- */

/* A frame to draw: node, its depth and its first sample's offset. */
struct drawn {
	u32 node, depth;
	u64 start;
};

struct walk_frame {
	u32 node, next;		/* the next child index to visit */
	u64 child_start;	/* where that child starts */
};

/*
 * Calls fn on every node drawn (count * scale >= min_width and count > 0,
 * its parent drawn), depth first, siblings in name order.
 */
static void walk_drawn(const struct flame *fl, int in, double scale, double min_width,
		       void (*fn)(void *arg, const struct drawn *d), void *arg)
{
	const u64 *total = fl->total[in];
	struct walk_frame *stack;
	u32 depth = 0, room = 64;
	struct drawn d = { 0, 0, 0 };

	if (!total[0])
		return;
	fn(arg, &d);
	stack = xmalloc(room * sizeof(*stack));
	stack[0].node = 0;
	stack[0].next = fl->first[0];
	stack[0].child_start = 0;
	for (;;) {
		struct walk_frame *top = &stack[depth];
		u32 c;

		if (top->next == fl->first[top->node + 1]) {
			if (!depth--)
				break;
			continue;
		}
		c = fl->child[top->next++];
		d.start = top->child_start;
		top->child_start += total[c];
		if (!total[c] || (double)total[c] * scale < min_width)
			continue;
		d.node = c;
		d.depth = depth + 1;
		fn(arg, &d);
		if (fl->first[c] == fl->first[c + 1])
			continue;
		if (++depth == room) {
			room *= 2;
			stack = xrealloc(stack, room * sizeof(*stack));
		}
		stack[depth].node = c;
		stack[depth].next = fl->first[c];
		stack[depth].child_start = d.start;
	}
	free(stack);
}

static void max_depth_fn(void *arg, const struct drawn *d)
{
	u32 *max = arg;

	if (d->depth > *max)
		*max = d->depth;
}

/* ---- the SVG ---------------------------------------------------------------- */

struct svg_ctx {
	struct obuf b;
	const struct flame *fl;
	const struct flame_svg_opts *o;
	int in;			/* the input the sizes come from */
	double scale;		/* pixels per sample */
	double height;		/* image height */
	double top, bottom;	/* room above and below the frames */
	double max_change;	/* differential: largest |share change| */
	u64 frames;		/* frames written */
};

static double frame_y(const struct svg_ctx *c, u32 depth)
{
	if (c->o->icicle)
		return c->top + depth * c->o->frame_height;
	return c->height - c->bottom - (depth + 1) * c->o->frame_height;
}

/* A frame's change in share between the inputs (differential graphs). */
static double share_change(const struct flame *fl, u32 node)
{
	double base = fl->total[0][0] ? (double)fl->total[0][node] / fl->total[0][0] : 0;
	double cur = fl->total[1][0] ? (double)fl->total[1][node] / fl->total[1][0] : 0;

	return cur - base;
}

static void max_change_fn(void *arg, const struct drawn *d)
{
	struct svg_ctx *c = arg;
	double ch = fabs(share_change(c->fl, d->node));

	if (ch > c->max_change)
		c->max_change = ch;
}

static void write_frame(void *arg, const struct drawn *d)
{
	struct svg_ctx *c = arg;
	struct obuf *b = &c->b;
	const struct flame *fl = c->fl;
	u32 id = fl->name[d->node];
	const char *name = fl->names[id];
	size_t len = fl->name_len[id];
	u64 count = fl->total[c->in][d->node];
	double x = XPAD + d->start * c->scale, w = count * c->scale;
	double y = frame_y(c, d->depth), room;
	struct rgb col;
	size_t chars, fit;
	char rgb[40];

	if (fl->nr_inputs == 2)
		col = diff_colour(c->max_change > 0 ? share_change(fl, d->node) / c->max_change : 0);
	else
		col = kind_colour(name, len, (enum flame_kind)fl->name_kind[id]);

	ob_str(b, "<g><title>");
	ob_escaped(b, name, len, (size_t)-1);
	ob_str(b, " (");
	ob_u64_commas(b, count);
	ob_str(b, count == 1 ? " sample, " : " samples, ");
	ob_fixed2(b, 100.0 * count / fl->total[c->in][0]);
	ob_str(b, "%");
	if (fl->nr_inputs == 2) {
		u64 base = fl->total[0][d->node];
		double change = 100.0 * share_change(fl, d->node);

		ob_str(b, "; base ");
		ob_u64_commas(b, base);
		ob_str(b, base == 1 ? " sample, " : " samples, ");
		ob_fixed2(b, fl->total[0][0] ? 100.0 * base / fl->total[0][0] : 0);
		ob_str(b, change >= 0 ? "%; +" : "%; ");
		ob_fixed2(b, change);
		ob_str(b, " points");
	}
	ob_str(b, ")</title><rect x=\"");
	ob_fixed2(b, x);
	ob_str(b, "\" y=\"");
	ob_fixed2(b, y);
	ob_str(b, "\" width=\"");
	ob_fixed2(b, w);
	ob_str(b, "\" height=\"");
	ob_fixed2(b, c->o->frame_height - 1);
	snprintf(rgb, sizeof(rgb), "\" fill=\"rgb(%u,%u,%u)\"/>", col.r, col.g, col.b);
	ob_str(b, rgb);
	ob_str(b, "<text x=\"");
	ob_fixed2(b, x + 3);
	ob_str(b, "\" y=\"");
	ob_fixed2(b, y + c->o->frame_height - 5);
	ob_str(b, "\">");
	room = (w - 6) / (FONT_SIZE * CHAR_WIDTH);
	fit = room > 0 ? (size_t)room : 0;
	if (fit >= 3) {
		chars = utf8_chars(name, len);
		if (chars <= fit) {
			ob_escaped(b, name, len, chars);
		} else {
			ob_escaped(b, name, len, fit - 2);
			ob_str(b, "..");
		}
	}
	ob_str(b, "</text></g>\n");
	c->frames++;
}

/* The script: zoom, reset, search and the details line.  Frames are read
 * once from the DOM; their original geometry is kept in plain arrays. */
static const char svg_script[] =
"\"use strict\";\n"
"var frames = [], zoomed = null, searching = null;\n"
"var details, matched, unzoom, unsearch;\n"
"function byId(id) { return document.getElementById(id); }\n"
"function init() {\n"
"	var gs = byId(\"frames\").children;\n"
"	details = byId(\"details\").firstChild;\n"
"	matched = byId(\"matched\");\n"
"	unzoom = byId(\"unzoom\");\n"
"	unsearch = byId(\"unsearch\");\n"
"	for (var i = 0; i < gs.length; i++) {\n"
"		var g = gs[i], title = g.children[0].textContent, r = g.children[1];\n"
"		var y = +r.getAttribute(\"y\"), f = {\n"
"			g: g, rect: r, text: g.children[2],\n"
"			x: +r.getAttribute(\"x\"), w: +r.getAttribute(\"width\"),\n"
"			depth: Math.round(ICICLE ? (y - TOP) / FRAME_H : (BASE_Y - y) / FRAME_H),\n"
"			name: title.slice(0, title.lastIndexOf(\" (\")), title: title,\n"
"			fill: r.getAttribute(\"fill\")\n"
"		};\n"
"		g.frameIndex = i;\n"
"		frames.push(f);\n"
"	}\n"
"	var fg = byId(\"frames\");\n"
"	fg.addEventListener(\"click\", function (e) {\n"
"		var f = frameOf(e.target);\n"
"		if (f) zoom(f);\n"
"	});\n"
"	fg.addEventListener(\"mouseover\", function (e) {\n"
"		var f = frameOf(e.target);\n"
"		if (f) details.nodeValue = f.title;\n"
"	});\n"
"	fg.addEventListener(\"mouseout\", function () { details.nodeValue = \" \"; });\n"
"	unzoom.addEventListener(\"click\", resetZoom);\n"
"	byId(\"search\").addEventListener(\"click\", askSearch);\n"
"	unsearch.addEventListener(\"click\", resetSearch);\n"
"	window.addEventListener(\"keydown\", function (e) {\n"
"		if ((e.ctrlKey && e.key === \"f\") || e.key === \"F3\") {\n"
"			e.preventDefault();\n"
"			askSearch();\n"
"		} else if (e.key === \"Escape\") {\n"
"			resetZoom();\n"
"		}\n"
"	});\n"
"}\n"
"function frameOf(node) {\n"
"	while (node && node.frameIndex === undefined) node = node.parentNode;\n"
"	return node ? frames[node.frameIndex] : null;\n"
"}\n"
"function label(name, w) {\n"
"	var fit = Math.floor((w - 6) / (FONT_SIZE * CHAR_WIDTH));\n"
"	if (fit < 3) return \"\";\n"
"	var chars = Array.from(name);\n"
"	return chars.length <= fit ? name : chars.slice(0, fit - 2).join(\"\") + \"..\";\n"
"}\n"
"function place(f, x, w) {\n"
"	f.rect.setAttribute(\"x\", x.toFixed(2));\n"
"	f.rect.setAttribute(\"width\", w.toFixed(2));\n"
"	f.text.setAttribute(\"x\", (x + 3).toFixed(2));\n"
"	f.text.textContent = label(f.name, w);\n"
"}\n"
"/* Makes f fill the width: its descendants scale with it, its ancestors\n"
"   span the width faded, everything else hides. */\n"
"function zoom(f) {\n"
"	var scale = FRAME_W / f.w, lo = f.x - 0.006, hi = f.x + f.w + 0.011;\n"
"	zoomed = f;\n"
"	for (var i = 0; i < frames.length; i++) {\n"
"		var o = frames[i], show = false;\n"
"		if (o.depth < f.depth) {\n"
"			show = o.x <= f.x + 0.006 && o.x + o.w >= f.x + f.w - 0.011;\n"
"			if (show) place(o, XPAD, FRAME_W);\n"
"			o.g.classList.toggle(\"parent\", show);\n"
"		} else {\n"
"			show = o.x >= lo && o.x + o.w <= hi;\n"
"			if (show) place(o, XPAD + (o.x - f.x) * scale, o.w * scale);\n"
"			o.g.classList.remove(\"parent\");\n"
"		}\n"
"		o.g.classList.toggle(\"hide\", !show);\n"
"	}\n"
"	unzoom.classList.remove(\"hide\");\n"
"	if (searching !== null) search(searching);\n"
"}\n"
"function resetZoom() {\n"
"	if (!zoomed) return;\n"
"	zoomed = null;\n"
"	for (var i = 0; i < frames.length; i++) {\n"
"		var o = frames[i];\n"
"		place(o, o.x, o.w);\n"
"		o.g.classList.remove(\"hide\", \"parent\");\n"
"	}\n"
"	unzoom.classList.add(\"hide\");\n"
"	if (searching !== null) search(searching);\n"
"}\n"
"function askSearch() {\n"
"	var term = prompt(\"Search frames (regular expression):\", searching || \"\");\n"
"	if (term) search(term);\n"
"}\n"
"/* Highlights the frames whose name matches term and shows the share of\n"
"   the samples under them (overlapping frames counted once). */\n"
"function search(term) {\n"
"	var re, spans = [], sum = 0, end = -1, base = zoomed || frames[0];\n"
"	try { re = new RegExp(term); }\n"
"	catch (e) { re = new RegExp(term.replace(/[.*+?^${}()|[\\]\\\\]/g, \"\\\\$&\")); }\n"
"	searching = term;\n"
"	for (var i = 0; i < frames.length; i++) {\n"
"		var o = frames[i], hit = re.test(o.name);\n"
"		o.rect.setAttribute(\"fill\", hit ? HIT_FILL : o.fill);\n"
"		if (hit && !o.g.classList.contains(\"hide\") && o.depth >= base.depth)\n"
"			spans.push(o);\n"
"	}\n"
"	spans.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"	for (var j = 0; j < spans.length; j++) {\n"
"		var s = spans[j];\n"
"		if (s.x + s.w <= end) continue;\n"
"		sum += s.x + s.w - Math.max(s.x, end);\n"
"		end = s.x + s.w;\n"
"	}\n"
"	matched.textContent = \"Matched: \" + (100 * Math.min(1, sum / base.w)).toFixed(2) + \"%\";\n"
"	matched.classList.remove(\"hide\");\n"
"	unsearch.classList.remove(\"hide\");\n"
"}\n"
"function resetSearch() {\n"
"	searching = null;\n"
"	for (var i = 0; i < frames.length; i++)\n"
"		frames[i].rect.setAttribute(\"fill\", frames[i].fill);\n"
"	matched.classList.add(\"hide\");\n"
"	unsearch.classList.add(\"hide\");\n"
"}\n"
"init();\n";

static void write_text(struct obuf *b, double x, double y, const char *attrs, const char *s)
{
	ob_str(b, "<text x=\"");
	ob_fixed2(b, x);
	ob_str(b, "\" y=\"");
	ob_fixed2(b, y);
	ob_str(b, "\"");
	ob_str(b, attrs);
	ob_str(b, ">");
	ob_escaped(b, s, strlen(s), (size_t)-1);
	ob_str(b, "</text>\n");
}

int flame_write_svg(FILE *out, const struct flame *fl, const struct flame_svg_opts *o)
{
	struct svg_ctx c = { .b = { .out = out }, .fl = fl, .o = o };
	struct obuf *b = &c.b;
	u32 max_depth = 0;
	double frame_w = o->width - 2 * XPAD;
	char consts[512];

	c.in = fl->nr_inputs - 1;
	c.scale = fl->total[c.in][0] ? frame_w / fl->total[c.in][0] : 0;
	c.top = FONT_SIZE * 3 + (o->subtitle ? FONT_SIZE * 1.5 : 0);
	c.bottom = FONT_SIZE * 2 + 10;
	walk_drawn(fl, c.in, c.scale, o->min_width, max_depth_fn, &max_depth);
	c.height = c.top + c.bottom + (max_depth + 1) * o->frame_height;
	if (fl->nr_inputs == 2)
		walk_drawn(fl, c.in, c.scale, o->min_width, max_change_fn, &c);

	b->buf = xmalloc(OUT_BUF);
	ob_str(b, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		  "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	ob_fixed2(b, o->width);
	ob_str(b, "\" height=\"");
	ob_fixed2(b, c.height);
	ob_str(b, "\" viewBox=\"0 0 ");
	ob_fixed2(b, o->width);
	ob_str(b, " ");
	ob_fixed2(b, c.height);
	ob_str(b, "\">\n<style type=\"text/css\">\n"
		  "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
		  "#frames text { pointer-events: none; }\n"
		  "#frames g { cursor: pointer; }\n"
		  "#frames g:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		  "#title { font-size: 17px; text-anchor: middle; }\n"
		  "#subtitle { text-anchor: middle; fill: #555; }\n"
		  ".button { cursor: pointer; text-decoration: underline; }\n"
		  ".hide { display: none; }\n"
		  ".parent { opacity: 0.5; }\n"
		  "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	snprintf(consts, sizeof(consts),
		 "var XPAD = %g, FRAME_W = %.6f, FRAME_H = %g, TOP = %g, BASE_Y = %g, "
		 "ICICLE = %d, FONT_SIZE = %g, CHAR_WIDTH = %g, HIT_FILL = \"rgb(230,0,230)\";\n",
		 XPAD, frame_w, o->frame_height, c.top, c.height - c.bottom - o->frame_height,
		 o->icicle ? 1 : 0, FONT_SIZE, CHAR_WIDTH);
	ob_str(b, "window.addEventListener(\"load\", function () {\n");
	ob_str(b, consts);
	ob_str(b, svg_script);
	ob_str(b, "});\n]]></script>\n");
	ob_str(b, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f4\"/>\n");
	write_text(b, o->width / 2, FONT_SIZE * 2, " id=\"title\"", o->title);
	if (o->subtitle)
		write_text(b, o->width / 2, FONT_SIZE * 3.5, " id=\"subtitle\"", o->subtitle);
	write_text(b, XPAD, FONT_SIZE * 2, " id=\"unzoom\" class=\"button hide\"", "Reset Zoom");
	write_text(b, o->width - XPAD - 100, FONT_SIZE * 2, " id=\"search\" class=\"button\"",
		   "Search");
	write_text(b, o->width - XPAD - 200, FONT_SIZE * 2, " id=\"unsearch\" class=\"button hide\"",
		   "Reset Search");
	write_text(b, XPAD, c.height - FONT_SIZE, " id=\"details\"", " ");
	write_text(b, o->width - XPAD - 160, c.height - FONT_SIZE, " id=\"matched\" class=\"hide\"",
		   " ");
	ob_str(b, "<g id=\"frames\">\n");
	walk_drawn(fl, c.in, c.scale, o->min_width, write_frame, &c);
	ob_str(b, "</g>\n</svg>\n");
	ob_flush(b);
	free(b->buf);
	return b->failed ? -1 : 0;
}

/* ---- folded stacks ---------------------------------------------------------- */

int flame_write_folded(FILE *out, const struct flame *fl)
{
	struct obuf b = { .out = out, .buf = xmalloc(OUT_BUF) };
	size_t path_len = 0, path_room = 4096;
	char *path = xmalloc(path_room);
	u32 room = 64, depth = 0;
	/* the stack: node and next child, and where its name starts in path */
	struct { u32 node, next; size_t at; } *stack = xmalloc(room * sizeof(*stack));

	stack[0].node = 0;
	stack[0].next = fl->first[0];
	stack[0].at = 0;
	for (;;) {
		u32 c, id;
		size_t len;

		if (stack[depth].next == fl->first[stack[depth].node + 1]) {
			if (!depth--)
				break;
			continue;
		}
		c = fl->child[stack[depth].next++];
		id = fl->name[c];
		len = fl->name_len[id];
		path_len = stack[depth].at;
		if (path_len + len + 2 > path_room) {
			while (path_len + len + 2 > path_room)
				path_room *= 2;
			path = xrealloc(path, path_room);
		}
		if (depth)
			path[path_len++] = ';';
		memcpy(path + path_len, fl->names[id], len);
		path_len += len;
		if (fl->self[0][c] || (fl->nr_inputs == 2 && fl->self[1][c])) {
			ob_put(&b, path, path_len);
			for (int in = 0; in < fl->nr_inputs; in++) {
				ob_put(&b, " ", 1);
				ob_u64(&b, fl->self[in][c]);
			}
			ob_put(&b, "\n", 1);
		}
		if (fl->first[c] == fl->first[c + 1])
			continue;
		if (++depth == room) {
			room *= 2;
			stack = xrealloc(stack, room * sizeof(*stack));
		}
		stack[depth].node = c;
		stack[depth].next = fl->first[c];
		stack[depth].at = path_len;
	}
	ob_flush(&b);
	free(b.buf);
	free(path);
	free(stack);
	return b.failed ? -1 : 0;
}
