#!/usr/bin/env bash
# Growth of the output commands on the hostile shapes of tests/hostile_sizes.rs
# (examples/hostile_gen.rs writes them): each command is timed at sizes N,
# 2N and 4N, each run a fresh process, and the ratio of each doubling is
# printed. Near-linear work shows ratios near 2; quadratic work near 4.
#
#   bash benches/hostile_growth.sh
#
# Builds the release binary and the generator; manifests go to
# $CARGO_TARGET_DIR/hostile-growth (default target/hostile-growth).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="$target/hostile-growth"
mkdir -p "$dir"
cargo build --release --quiet --bin replay-audit --example hostile_gen
bin="$target/release/replay-audit"
gen="$target/release/examples/hostile_gen"

# Wall seconds of one run of "$@" (output discarded), via bash's own clock.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

# case: name, shape, base size, then the command's arguments before the file.
cases=(
  "horizon|relays|1250|horizon"
  "horizon json|relays|1250|horizon --format json"
  "horizon --required|ring|1250|horizon --required"
  "horizon --required json|ring|1250|horizon --required --format json"
  "report html (chain)|chain|5000|report --format html"
  "report markdown (chain)|chain|5000|report --format markdown"
  "graph dot (chain)|chain|25000|graph --format dot"
  "report html (hub)|hub|2000|report --format html"
  "report markdown (hub)|hub|2000|report --format markdown"
  "check table (word bytes)|word|400000|check --format table"
)

echo "| command | shape | N | t(N) s | t(2N) s | t(4N) s | t(2N)/t(N) | t(4N)/t(2N) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name shape n args <<<"$c"
  times=()
  for k in 1 2 4; do
    size=$((n * k))
    m="$dir/$shape-$size.yaml"
    [ -f "$m" ] || "$gen" "$shape" "$size" >"$m"
    # shellcheck disable=SC2086
    times+=("$(seconds "$bin" $args "$m")")
  done
  r1=$(echo "${times[1]} / ${times[0]}" | bc -l)
  r2=$(echo "${times[2]} / ${times[1]}" | bc -l)
  printf '| %s | %s | %d | %.3f | %.3f | %.3f | %.2f | %.2f |\n' \
    "$name" "$shape" "$n" "${times[0]}" "${times[1]}" "${times[2]}" "$r1" "$r2"
done
