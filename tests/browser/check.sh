#!/usr/bin/env bash
# Browser check of the HTML review report.
#
# Builds replay-audit, renders the report of fixtures/incident-dlq-redrive.yaml,
# opens it in headless Chromium, checks the rendered DOM (twelve questions per
# intent, an inline <svg>, nothing loaded from outside) and writes a screenshot
# to target/report.png. Renders the report of tests/browser/regions.yaml and
# checks that no region frame is drawn over a component outside it. Then renders the report of tests/browser/large.yaml
# (67 components, 11 intents) and measures it as laid out at 100 % zoom in a
# 1280 px window: one drawing per intent plus the whole architecture, every
# node label at least 10 px high, and the architecture wider than the page
# (so it scrolls sideways instead of shrinking). The measuring script runs in
# a copy of the report (target/report-large.measure.html); the report itself
# has no script.
#
# Needs the Debian package `chromium`. When it is missing the script tries
# `apt-get install -y chromium` (as root); only when that is impossible does it
# skip, with a message, and exit 0. Any other failure exits 1.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
out="$root/target"
mkdir -p "$out"

find_chromium() {
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  return 1
}

if ! browser="$(find_chromium)"; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "browser check: chromium not found, installing it with apt-get" >&2
    (apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }) >&2 || true
  fi
  if ! browser="$(find_chromium)"; then
    echo "browser check: SKIPPED: chromium is not installed and could not be installed (apt-get install -y chromium, as root)" >&2
    exit 0
  fi
fi

cargo build --quiet --bin replay-audit
bin="$target/debug/replay-audit"
html="$out/report.html"
"$bin" report fixtures/incident-dlq-redrive.yaml --format html -o "$html"

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
       --disable-component-update --disable-sync --no-first-run
       --user-data-dir="$profile")

dom="$out/report.dom.html"
"$browser" "${flags[@]}" --dump-dom "file://$html" >"$dom" 2>"$out/chromium.log"

fail=0
check() { # description, command...
  local what="$1"; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what" >&2; fail=1; fi
}

intents=$(grep -c '<section class="intent"' "$dom" || true)
answers=$(grep -o 'class="answer [a-z]*" id="[^"]*-q[0-9]*"' "$dom" | wc -l)
check "the DOM holds at least one intent (found $intents)" test "$intents" -ge 1
check "twelve questions per intent ($answers answers for $intents intent(s))" test "$answers" -eq $((12 * intents))
for n in $(seq 1 12); do
  check "question $n of seller-payout" grep -q "id=\"seller-payout-q$n\"" "$dom"
done
check "an inline <svg> graph" grep -q '<svg[^>]*class="graph"' "$dom"
check "an ASSUMED badge" grep -q 'class="badge assumed"' "$dom"
check "no external resource" bash -c '! grep -Eq "(src|href)=\"(https?:)?//" "$1"' _ "$dom"
check "no script" bash -c '! grep -qi "<script" "$1"' _ "$dom"

"$browser" "${flags[@]}" --hide-scrollbars --window-size=1280,2000 --screenshot="$out/report.png" "file://$html" >>"$out/chromium.log" 2>&1
check "screenshot written to target/report.png" test -s "$out/report.png"

large="$out/report-large.html"
"$bin" report tests/browser/large.yaml --format html -o "$large"
# The measuring script, added to a copy of a report: per drawing, its
# components, smallest label and whether it scrolls; and every region
# frame drawn over a component outside it ("crossing ...").
instrument() { # report, copy with the script
  sed 's#</body>#<script>\
addEventListener("load", function () {\
  var rows = [];\
  document.querySelectorAll("figure").forEach(function (fig) {\
    var svg = fig.querySelector("svg.graph");\
    if (!svg) return;\
    var min = Infinity, n = svg.querySelectorAll(".node").length;\
    svg.querySelectorAll(".node text").forEach(function (t) {\
      min = Math.min(min, t.getBoundingClientRect().height);\
    });\
    var where = fig.closest("section").id;\
    rows.push(where + " " + n + " " + min.toFixed(1) + " " + (fig.scrollWidth > fig.clientWidth ? "scrolls" : "fits"));\
    svg.querySelectorAll(".cluster").forEach(function (c) {\
      var f = c.querySelector("rect").getBoundingClientRect();\
      svg.querySelectorAll(".node").forEach(function (nd) {\
        if (nd.getAttribute("data-cluster") === c.getAttribute("data-region")) return;\
        var b = nd.querySelector("rect, path, ellipse, polygon").getBoundingClientRect();\
        if (f.left < b.right \&\& b.left < f.right \&\& f.top < b.bottom \&\& b.top < f.bottom)\
          rows.push("crossing " + where + " " + c.getAttribute("data-region") + " " + nd.getAttribute("data-id"));\
      });\
    });\
  });\
  var pre = document.createElement("pre");\
  pre.id = "measured"; pre.textContent = "\\n" + rows.join("\\n") + "\\n";\
  document.body.appendChild(pre);\
});\
</script></body>#' "$1" >"$2"
}
measure="$out/report-large.measure.html"
instrument "$large" "$measure"
measured="$out/report-large.measured.html"
"$browser" "${flags[@]}" --window-size=1280,2000 --virtual-time-budget=5000 --dump-dom "file://$measure" >"$measured" 2>>"$out/chromium.log"
rows="$(sed -n '/<pre id="measured">/,/<\/pre>/p' "$measured" | grep -E '^[a-z0-9-]+ [0-9]+ ' || true)"
regional="$out/report-regional.html"
"$bin" report tests/browser/regions.yaml --format html -o "$regional"
instrument "$regional" "$out/report-regional.measure.html"
"$browser" "${flags[@]}" --window-size=1280,2000 --virtual-time-budget=5000 --dump-dom "file://$out/report-regional.measure.html" >>"$measured" 2>>"$out/chromium.log"
crossings="$(sed -n '/<pre id="measured">/,/<\/pre>/p' "$measured" | grep -E '^crossing ' || true)"
echo "$crossings" | grep . | sed 's/^/  /' || true
echo "$rows" | sed 's/^/  measured: /'
drawings=$(echo "$rows" | grep -c . || true)
check "large manifest: a drawing per intent and one of the architecture (found $drawings)" test "$drawings" -eq 12
check "large manifest: the architecture draws all 67 components" bash -c 'echo "$1" | grep -Eq "^graph 67 "' _ "$rows"
check "large manifest: every drawing's node labels are at least 10 px high" \
  bash -c 'echo "$1" | awk "\$3 < 10 { bad = 1 } END { exit bad }"' _ "$rows"
check "large manifest: the architecture scrolls sideways rather than shrinking" \
  bash -c 'echo "$1" | grep -Eq "^graph .* scrolls$"' _ "$rows"
check "regions: no region frame is drawn through a component outside it" test -z "$crossings"
check "regions: components without a region have their own labelled frame" \
  grep -q 'data-region="no region"' "$regional"
check "large manifest: each intent's drawing shows its own part" \
  bash -c 'echo "$1" | grep -Eq "^intent-payouts-run [0-9]+ "' _ "$rows"

if [ "$fail" != 0 ]; then
  echo "browser check failed; DOM in $dom, Chromium log in $out/chromium.log" >&2
  exit 1
fi
echo "browser check passed: $html, screenshot $out/report.png"
