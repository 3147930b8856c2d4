#!/bin/bash
# tests/browser/flame.sh - the SVG of "prof flame" works in a browser:
# headless Chromium (Debian's chromium package) loads it in a test page,
# whose script clicks a frame, the reset button and the search button as a
# user would (the search's prompt answered by the page) and writes what
# the graph then shows into the page, which --dump-dom prints.
#
# Checks: the graph's script runs (every frame read); clicking a frame
# zooms (the frame spans the width, its ancestors span it faded, frames
# outside it hide, its children scale with it, "Reset Zoom" appears);
# "Reset Zoom" restores every frame; a search highlights the matching
# frames and shows their share, which must be perf's share of the samples
# with such a frame (perf script folded by ../perf/folded-ref.pl).
# Without chromium every check is skipped.

# run-all: cost 5
. "$(dirname "$0")/../lib.sh"
set -o pipefail

REF=$(cd "$(dirname "$0")/../perf" && pwd)/folded-ref.pl
names=(
	"flame svg in chromium: the script reads every frame"
	"flame svg in chromium: a click zooms to the frame"
	"flame svg in chromium: ancestors span the width, faded"
	"flame svg in chromium: children scale with the zoom"
	"flame svg in chromium: Reset Zoom restores every frame"
	"flame svg in chromium: search shows perf's share of the matches"
)

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	for n in "${names[@]}"; do
		skip "$n" "no chromium"
	done
	exit 0
fi
if ! record_workload spin -g; then
	not_ok "record the workload"
	exit 1
fi
if ! run_prof "$TMP/flame.svg" "$TMP/prof.err" flame -q -i "$TMP/spin.data" -o -; then
	not_ok "prof flame" "$(failure_detail "$TMP/prof.err")"
	exit 1
fi

# perf's share of the samples with a frame named leaf, in percent
perf script -F comm,pid,tid,event,ip,sym,dso -i "$TMP/spin.data" 2>/dev/null |
	perl "$REF" >"$TMP/spin.folded"
want_share=$(awk '{
		total += $NF
		if ((";" substr($0, 1, length($0) - length($NF) - 1) ";") ~ /;leaf;/)
			hit += $NF
	}
	END { printf "%.2f\n", total ? 100 * hit / total : 0 }' "$TMP/spin.folded")

cat >"$TMP/harness.html" <<'EOF'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>flame harness</title></head>
<body><pre id="result">not run</pre>
<iframe id="graph" src="flame.svg" width="1300" height="900"></iframe>
<script>
"use strict";
function click(el) {
	el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
}
document.getElementById("graph").addEventListener("load", function () {
	var out = [], doc = this.contentDocument, win = this.contentWindow;
	function say(k, v) { out.push(k + "=" + v); }
	try {
		var gs = doc.getElementById("frames").children, target = null, child = null;
		var name = function (g) {
			var t = g.children[0].textContent;
			return t.slice(0, t.lastIndexOf(" ("));
		};
		var width = function (g) { return +g.children[1].getAttribute("width"); };
		var orig = [];
		var y = function (g) { return +g.children[1].getAttribute("y"); };
		/* the target: the first frame narrower than its parent whose
		   first child (the next frame, one level up) is narrower still */
		for (var i = 0; i < gs.length; i++) {
			orig.push(width(gs[i]));
			if (!target && i > 0 && i + 1 < gs.length && width(gs[i]) < width(gs[0]) &&
			    y(gs[i + 1]) < y(gs[i]) && width(gs[i + 1]) < width(gs[i])) {
				target = gs[i];
				child = gs[i + 1];
			}
		}
		say("frames", gs.length);
		say("target", name(target));
		var tw = width(target), cw = width(child);
		say("target_width_before", tw);
		click(target.children[1]);
		say("target_width_after", width(target));
		say("target_x_after", target.children[1].getAttribute("x"));
		say("hidden", doc.querySelectorAll("#frames g.hide").length);
		say("faded", doc.querySelectorAll("#frames g.parent").length);
		var faded_full = 0;
		doc.querySelectorAll("#frames g.parent").forEach(function (g) {
			if (width(g) === width(target))
				faded_full++;
		});
		say("faded_full", faded_full);
		say("child_ratio_before", (cw / tw).toFixed(4));
		say("child_ratio_after", (width(child) / width(target)).toFixed(4));
		say("unzoom_shown", !doc.getElementById("unzoom").classList.contains("hide"));
		click(doc.getElementById("unzoom"));
		var restored = 0;
		for (var k = 0; k < gs.length; k++)
			if (width(gs[k]) === orig[k] && !gs[k].classList.contains("hide") &&
			    !gs[k].classList.contains("parent"))
				restored++;
		say("restored", restored);
		win.prompt = function () { return "^leaf$"; };
		click(doc.getElementById("search"));
		say("matched", doc.getElementById("matched").textContent);
		say("highlighted", doc.querySelectorAll('#frames rect[fill="rgb(230,0,230)"]').length);
	} catch (e) {
		say("error", e);
	}
	document.getElementById("result").textContent = out.join("\n");
});
</script></body></html>
EOF

timeout -k 5 90 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--allow-file-access-from-files --user-data-dir="$TMP/profile" \
	--virtual-time-budget=10000 --dump-dom "file://$TMP/harness.html" \
	>"$TMP/dom.html" 2>"$TMP/chromium.err"
rc=$?
sed -n '/<pre id="result">/,/<\/pre>/p' "$TMP/dom.html" |
	sed -e 's/.*<pre id="result">//' -e 's/<\/pre>.*//' >"$TMP/result"
if [ $rc -ne 0 ] || ! grep -q '^frames=' "$TMP/result"; then
	for n in "${names[@]}"; do
		not_ok "$n" "chromium exited with $rc" "$(head -n 3 "$TMP/result")" \
			"$(tail -n 3 "$TMP/chromium.err")"
	done
	exit 1
fi
get() { sed -n "s/^$1=//p" "$TMP/result"; }
if grep -q '^error=' "$TMP/result"; then
	not_ok "flame svg in chromium: the page's script ran" "$(get error)"
fi

svg_frames=$(grep -c '<g><title>' "$TMP/flame.svg")
if [ "$(get frames)" = "$svg_frames" ]; then
	ok "${names[0]} ($svg_frames)"
else
	not_ok "${names[0]}" "the page saw $(get frames) of $svg_frames"
fi
frame_w=$(awk '/<rect/ && /width=/ { sub(/.*width="/, ""); sub(/".*/, ""); print; exit }' \
	<(sed -n '/<g id="frames">/,$p' "$TMP/flame.svg"))
if [ "$(get target_x_after)" = 10.00 ] && [ "$(get hidden)" -gt 0 ] &&
	[ "$(get unzoom_shown)" = true ] &&
	awk -v b="$(get target_width_before)" -v a="$(get target_width_after)" -v w="$frame_w" \
		'BEGIN { exit !(b < w && a == w) }'; then
	ok "${names[1]} ($(get target))"
else
	not_ok "${names[1]}" "$(cat "$TMP/result")"
fi
if [ "$(get faded)" -ge 1 ] && [ "$(get faded)" = "$(get faded_full)" ]; then
	ok "${names[2]} ($(get faded))"
else
	not_ok "${names[2]}" "faded $(get faded), full width $(get faded_full)"
fi
if awk -v a="$(get child_ratio_before)" -v b="$(get child_ratio_after)" \
	'BEGIN { d = a - b; exit !(a > 0 && d < 0.002 && d > -0.002) }'; then
	ok "${names[3]}"
else
	not_ok "${names[3]}" "child/frame width $(get child_ratio_before) before, $(get child_ratio_after) after"
fi
if [ "$(get restored)" = "$svg_frames" ]; then
	ok "${names[4]}"
else
	not_ok "${names[4]}" "$(get restored) of $svg_frames restored"
fi
got_share=$(get matched | sed -n 's/^Matched: \([0-9.]*\)%$/\1/p')
if [ -n "$got_share" ] && [ "$(get highlighted)" -gt 0 ] &&
	awk -v a="$got_share" -v b="$want_share" 'BEGIN { d = a - b; exit !(d < 0.1 && d > -0.1) }'; then
	ok "${names[5]} ($got_share%)"
else
	not_ok "${names[5]}" "shown: '$(get matched)', perf: $want_share%, highlighted $(get highlighted)"
fi
