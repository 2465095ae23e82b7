#!/usr/bin/env bash
# Growth of the commands on fan-out shapes (benches/fanout_gen.py writes
# them): a chain, bounded hubs (four producers to a hub, an intent each)
# and one topic with an intent per subscriber. Each command is timed at
# sizes N, 2N and 4N, each run a fresh process, and the ratio of each
# doubling is printed: near 2 when linear, near 4 when quadratic. For the
# topic, the peak RSS and the bytes written too.
#
#   bash benches/fanout_growth.sh
#   BEFORE=/path/to/old/replay-audit bash benches/fanout_growth.sh
#
# With BEFORE, that binary runs each case too, interleaved with this one
# (size by size, the same manifests), so the two are measured in one run.
# Builds the release binary; manifests go to $CARGO_TARGET_DIR/fanout-growth
# (default target/fanout-growth). Needs GNU time (apt-get install time).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="$target/fanout-growth"
mkdir -p "$dir"
cargo build --release --quiet --bin replay-audit
bins=("after|$target/release/replay-audit")
if [ -n "${BEFORE:-}" ]; then
  bins=("before|$BEFORE" "${bins[@]}")
fi

# "seconds peak-KiB bytes" of one run of "$@" (output counted, not kept):
# wall seconds by bash's clock, the peak RSS by GNU time.
measure() {
  local stats="$dir/time.txt" bytes start end
  start=$(date +%s.%N)
  bytes=$( { /usr/bin/time -f '%M' -o "$stats" "$@" 2>/dev/null || true; } | wc -c)
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc -l) $(tail -1 "$stats") $bytes"
}

# case: command name, shape, base size, the command's arguments before the
# file, and which binaries run it (`all`, or `after` where the quadratic
# before would take minutes).
cases=()
for cmd in "check --format json" "horizon" "report --format html" "report --format markdown" "graph"; do
  cases+=("$cmd|chain|5000|$cmd|all" "$cmd|hubs|2000|$cmd|all" "$cmd|topic|250|$cmd|all"
    "$cmd|topic|2000|$cmd|after")
done

ratio() { echo "$1 / $2" | bc -l; }
times_table="| command | shape | binary | N | t(N) s | t(2N) s | t(4N) s | t(2N)/t(N) | t(4N)/t(2N) |
|---|---|---|---:|---:|---:|---:|---:|---:|"
topic_table="| command | binary | N | RSS(N) MB | RSS(4N) MB | bytes(N) | bytes(2N) | bytes(4N) | bytes(4N)/bytes(2N) |
|---|---|---:|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name shape n args who <<<"$c"
  run=("${bins[@]}")
  [ "$who" = all ] || run=("${bins[-1]}")
  declare -A t=() rss=() out=()
  for k in 1 2 4; do
    size=$((n * k))
    m="$dir/$shape-$size.yaml"
    [ -f "$m" ] || python3 benches/fanout_gen.py "$shape" "$size" >"$m"
    for b in "${run[@]}"; do
      IFS='|' read -r label bin <<<"$b"
      # shellcheck disable=SC2086
      read -r secs kib bytes < <(measure "$bin" $args "$m")
      t[$label$k]=$secs
      rss[$label$k]=$kib
      out[$label$k]=$bytes
    done
  done
  for b in "${run[@]}"; do
    label=${b%%|*}
    times_table+=$'\n'$(printf '| %s | %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |' \
      "$name" "$shape" "$label" "$n" "${t[${label}1]}" "${t[${label}2]}" "${t[${label}4]}" \
      "$(ratio "${t[${label}2]}" "${t[${label}1]}")" "$(ratio "${t[${label}4]}" "${t[${label}2]}")")
    if [ "$shape" = topic ]; then
      topic_table+=$'\n'$(printf '| %s | %s | %d | %.1f | %.1f | %d | %d | %d | %.2f |' \
        "$name" "$label" "$n" "$(ratio "${rss[${label}1]}*1024" 1000000)" \
        "$(ratio "${rss[${label}4]}*1024" 1000000)" "${out[${label}1]}" "${out[${label}2]}" \
        "${out[${label}4]}" "$(ratio "${out[${label}4]}" "${out[${label}2]}")")
    fi
  done
  unset t rss out
done
echo "$times_table"
echo
echo "Topic with N subscribers, N intents (peak RSS; bytes written to standard output):"
echo
echo "$topic_table"
