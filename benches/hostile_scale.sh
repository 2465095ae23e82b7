#!/usr/bin/env bash
# Hostile scale in fresh processes (issue #14, items 12-13): time of
# `check` with W, 2W and 4W waivers, time and peak RSS of `shell` with S and
# 2S piped `set` lines, and the ratio for each doubling (about 2 when the
# work is linear, 4 when quadratic).
#
#   bash benches/hostile_scale.sh                 # W=20000 S=5000, release
#   W=5000 S=1000 PROFILE=debug bash benches/hostile_scale.sh
#
# Then `check` on R, 2R and 4R links retrying `attempts: 9223372036854775807`
# times with `multiplier: 1.0000000000000002` (R=500; each under `timeout
# ${RETRY_TIMEOUT:-120}` seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
profile="${PROFILE:-release}"
W="${W:-20000}"
S="${S:-5000}"
R="${R:-500}"
dir="$target/hostile-scale"
mkdir -p "$dir"
if [ "$profile" = release ]; then
  cargo build --release --quiet --bin replay-audit
else
  cargo build --quiet --bin replay-audit
fi
bin="$target/$profile/replay-audit"
fixture=tests/data/whatif-incident.yaml

# Peak RSS in KiB of the last command run by `measure`.
measure() {
  local out="$dir/time.txt"
  local start end
  start=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$out" "$@" >/dev/null 2>&1 || true
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out")
  else
    "$@" >/dev/null 2>&1 || true
    rss="n/a"
  fi
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "n/a" }'; }

# A policy of N waivers: even ones name an intent of the fixture's findings
# by glob, odd ones intents no finding has; every seventh has expired.
policy() {
  awk -v n="$1" 'BEGIN {
    for (k = 0; k < n; k++) {
      printf "[[waiver]]\ncode = \"RH00%d\"\nreason = \"r%d\"\n", k % 5 + 1, k
      if (k % 2 == 0) printf "intent = \"seller-*\"\n"; else printf "intent = \"none-%d\"\n", k
      if (k % 7 == 3) printf "expires = 2020-01-01\n"
    }
  }'
}

echo "| case | size | wall s | peak RSS KiB | ratio to half size |"
echo "|---|---:|---:|---:|---:|"
prev=""
for n in "$W" $((2 * W)) $((4 * W)); do
  d="$dir/w$n"
  mkdir -p "$d"
  cp "$fixture" "$d/m.yaml"
  policy "$n" >"$d/replay-audit.toml"
  measure env REPLAY_AUDIT_TODAY=2026-01-01 "$bin" check "$d/m.yaml"
  echo "| check, waivers | $n | $secs | $rss | ${prev:+$(ratio "$prev" "$secs")} |"
  prev="$secs"
done

prev=""
for n in "$S" $((2 * S)); do
  f="$dir/s$n.txt"
  awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++) printf "set payout-idempotency.retention=%dh\n", i % 40 + 1
    print "changes"; print "undo"; print "changes"
  }' >"$f"
  measure sh -c "\"$bin\" shell \"$fixture\" <\"$f\""
  echo "| shell, set lines | $n | $secs | $rss | ${prev:+$(ratio "$prev" "$secs")} |"
  prev="$secs"
done

# R, 2R and 4R links, each retrying 2^63 - 1 times with a multiplier just
# above 1 (the span is computed in closed form; the old loop never ended).
prev=""
for n in "$R" $((2 * R)) $((4 * R)); do
  r="$dir/retry$n.yaml"
  awk -v n="$n" 'BEGIN {
    print "version: 1"; print "components:"
    for (i = 0; i < n; i++) {
      printf "  a%d:\n    kind: service\n    sends_to:\n", i
      printf "      - to: b\n        retry: {attempts: 9223372036854775807, multiplier: 1.0000000000000002, backoff: 1s}\n"
    }
    print "  b:"; print "    kind: function"
  }' >"$r"
  measure timeout "${RETRY_TIMEOUT:-120}" "$bin" check "$r"
  echo "| check, retry-heavy links | $n | $secs | $rss | ${prev:+$(ratio "$prev" "$secs")} |"
  prev="$secs"
done
