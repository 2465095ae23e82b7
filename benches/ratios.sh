#!/usr/bin/env bash
# The budget of docs/performance.md from one run, each command a fresh process, the
# commands interleaved round by round so that each sees the same machine:
#
#   bash benches/ratios.sh                 # 5 rounds
#   ROUNDS=3 bash benches/ratios.sh
#   ROUNDS=3 SKIP_PYTHON=1 bash benches/ratios.sh   # without the Python reference
#
# Measured on two generated manifests (`examples/generate`, seed 1) of about
# 4 MB (15,000 components) and 20 MB (76,000 components), written to
# $CARGO_TARGET_DIR/scale-bench (default target/scale-bench):
#
# - floor:   target/release/examples/parse_floor FILE (serde-saphyr into
#            serde_json::Value, no budget: examples/parse_floor.rs)
# - check:   replay-audit check FILE --format json
# - python:  python3 benches/reference.py FILE (PyYAML C loader + networkx)
# - at 20 MB also `report --format html`, `graph`, `horizon` and
#   `check --format human` (a snippet per finding), against check
# - small:   SMALL_RUNS (default 200) runs of `check --format json` on
#            fixtures/incident-dlq-redrive.yaml (58 lines), against as many
#            of `replay-audit --version`
#
# Wall time from `date +%s%N` around each run; peak RSS from GNU time
# (`/usr/bin/time -f %M`, every large run goes through it so that each
# pays the same). Needs GNU time (apt-get install time), python3 with
# PyYAML built with libyaml and networkx (pip install 'PyYAML==6.0.3'
# 'networkx==3.6.1'). Prints Markdown tables: per command the best and the
# median, then each ratio, with its budget where it has one (issue #37),
# from medians and from bests.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="$target/scale-bench"
rounds="${ROUNDS:-5}"
small_runs="${SMALL_RUNS:-200}"
small=fixtures/incident-dlq-redrive.yaml
mkdir -p "$dir"

if [ ! -x /usr/bin/time ]; then
  echo "ratios.sh needs GNU time (/usr/bin/time): apt-get install time" >&2
  exit 2
fi
if [ -z "${SKIP_PYTHON:-}" ] && ! python3 -c 'import yaml, networkx; assert yaml.__with_libyaml__' 2>/dev/null; then
  echo "ratios.sh needs python3 with PyYAML (libyaml) and networkx: pip install 'PyYAML==6.0.3' 'networkx==3.6.1' (or SKIP_PYTHON=1)" >&2
  exit 2
fi

cargo build --release --quiet --bin replay-audit --example generate --example parse_floor
bin="$target/release/replay-audit"
floor="$target/release/examples/parse_floor"
gen="$target/release/examples/generate"

declare -A file=([4mb]="$dir/m15000.yaml" [20mb]="$dir/m76000.yaml")
[ -f "${file[4mb]}" ] || "$gen" --components 15000 --seed 1 --out "${file[4mb]}" 2>/dev/null
[ -f "${file[20mb]}" ] || "$gen" --components 76000 --seed 1 --out "${file[20mb]}" 2>/dev/null

samples=$(mktemp)
rss=$(mktemp)
trap 'rm -f "$samples" "$rss"' EXIT

# sample NAME CMD...: one fresh run, its wall seconds appended to the
# samples as "NAME seconds peak-RSS-bytes". Exit 1 (findings) is expected
# of check; anything above 1 stops the script.
sample() {
  local name=$1 t0 t1 code=0
  shift
  t0=$(date +%s%N)
  /usr/bin/time -f %M -o "$rss" "$@" >/dev/null || code=$?
  t1=$(date +%s%N)
  if [ "$code" -gt 1 ]; then
    echo "ratios.sh: \`$*\` exited $code" >&2
    exit 2
  fi
  echo "$name $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $(($(tail -1 "$rss") * 1024))" >>"$samples"
}

# loop NAME CMD...: SMALL_RUNS runs in a row, the seconds per run.
loop() {
  local name=$1 t0 t1 i
  shift
  t0=$(date +%s%N)
  for ((i = 0; i < small_runs; i++)); do "$@" >/dev/null || [ $? -eq 1 ]; done
  t1=$(date +%s%N)
  echo "$name $(awk -v a="$t0" -v b="$t1" -v n="$small_runs" 'BEGIN { printf "%.6f", (b - a) / 1e9 / n }') 0" >>"$samples"
}

for ((r = 1; r <= rounds; r++)); do
  echo "round $r of $rounds" >&2
  for size in 4mb 20mb; do
    f=${file[$size]}
    sample "floor-$size" "$floor" "$f"
    sample "check-$size" "$bin" check "$f" --format json
    [ -n "${SKIP_PYTHON:-}" ] || sample "python-$size" python3 benches/reference.py "$f"
  done
  f=${file[20mb]}
  sample html-20mb "$bin" report "$f" --format html
  sample graph-20mb "$bin" graph "$f"
  sample horizon-20mb "$bin" horizon "$f"
  sample human-20mb "$bin" check "$f" --format human
  loop version "$bin" --version
  loop small "$bin" check "$small" --format json
done

# pick NAME best|median: over the wall seconds of NAME's samples.
pick() {
  awk -v n="$1" '$1 == n { print $2 }' "$samples" | sort -g | awk -v w="$2" '
    { v[NR] = $1 }
    END {
      if (NR == 0) print "nan"
      else if (w == "best") print v[1]
      else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.2f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { if (s == "nan") print "-"; else if (s < 0.1) printf "%.2f ms", s * 1000; else printf "%.3f s", s }'; }

echo
echo "Inputs: ${file[4mb]} ($(stat -c %s "${file[4mb]}") bytes), ${file[20mb]} ($(stat -c %s "${file[20mb]}") bytes), $small ($(wc -l <"$small") lines); $rounds rounds; $(nproc) CPUs; $(date -u +%F)"
echo
echo "| run | best | median |"
echo "|---|---:|---:|"
for name in floor-4mb check-4mb python-4mb floor-20mb check-20mb python-20mb html-20mb graph-20mb horizon-20mb human-20mb version small; do
  echo "| $name | $(ms "$(pick $name best)") | $(ms "$(pick $name median)") |"
done

bytes4=$(stat -c %s "${file[4mb]}")
bytes20=$(stat -c %s "${file[20mb]}")
rss4=$(awk '$1 == "check-4mb" { print $3 }' "$samples" | sort -n | tail -1)
rss20=$(awk '$1 == "check-20mb" { print $3 }' "$samples" | sort -n | tail -1)
row() { # label budget numerator denominator
  echo "| $1 | $2 | $(ratio "$(pick "$3" median)" "$(pick "$4" median)") | $(ratio "$(pick "$3" best)" "$(pick "$4" best)") |"
}
echo
echo "| ratio | budget | of medians | of bests |"
echo "|---|---|---:|---:|"
row "check / floor, 4 MB" "≤ 2" check-4mb floor-4mb
row "check / floor, 20 MB" "-" check-20mb floor-20mb
row "python / check, 4 MB" "-" python-4mb check-4mb
row "python / check, 20 MB" "-" python-20mb check-20mb
row "report --format html / check, 20 MB" "-" html-20mb check-20mb
row "graph / check, 20 MB" "-" graph-20mb check-20mb
row "horizon / check, 20 MB" "-" horizon-20mb check-20mb
row "check --format human / check, 20 MB (a snippet per finding)" "-" human-20mb check-20mb
row "check of $small / --version" "-" small version
echo "| peak RSS of check / file bytes, 4 MB | ≤ 10 | $(ratio "$rss4" "$bytes4") (highest of the rounds: $rss4 bytes) | |"
echo "| peak RSS of check / file bytes, 20 MB | ≤ 10 | $(ratio "$rss20" "$bytes20") (highest of the rounds: $rss20 bytes) | |"
