#!/usr/bin/env bash
# Peak memory (maximum resident set size, from /usr/bin/time -v) and time of
# `replay-audit check --format json` on the synthetic manifests of 1k, 10k
# and 100k components, next to the input size.
#
#   bash benches/measure.sh            # all sizes
#   SIZES="1000 10000" bash benches/measure.sh
#
# Builds the release binary and the generator, writes the manifests to
# $CARGO_TARGET_DIR/scale-bench (default target/scale-bench), and prints one
# Markdown table row per size.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="$target/scale-bench"
mkdir -p "$dir"
if [ ! -x /usr/bin/time ]; then
  echo "measure.sh needs GNU time (/usr/bin/time): apt-get install time" >&2
  exit 2
fi
cargo build --release --quiet --bin replay-audit --example generate
bin="$target/release/replay-audit"
gen="$target/release/examples/generate"

echo "| components | input bytes | peak RSS bytes | RSS / input | wall s | user+sys s | exit |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in ${SIZES:-1000 10000 100000}; do
  m="$dir/m$n.yaml"
  [ -f "$m" ] || "$gen" --components "$n" --seed 1 --out "$m" 2>/dev/null
  bytes=$(stat -c %s "$m")
  log=$(mktemp)
  set +e
  /usr/bin/time -v "$bin" check "$m" --format json >/dev/null 2>"$log"
  code=$?
  set -e
  rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  user=$(awk -F': ' '/User time/ {print $2}' "$log")
  sys=$(awk -F': ' '/System time/ {print $2}' "$log")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
  rm -f "$log"
  rss=$((rss_kb * 1024))
  ratio=$(awk -v r="$rss" -v b="$bytes" 'BEGIN { printf "%.1f", r / b }')
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "| $n | $bytes | $rss | $ratio | $wall | $cpu | $code |"
done
