#!/usr/bin/env bash
# Growth in the number of inputs (issue #38, item 5): `check` over N
# manifest files, `check --each` over N architecture folders, and `check`
# over N Terraform root folders, at N, 2N, 4N and 8N, each a fresh process.
# Prints wall seconds, peak resident memory and the ratio of each doubling:
# near 2 for linear work, near 4 for quadratic.
#
#   bash benches/input_growth.sh [BASE_N]     (default 2000: up to 16,000)
#
# Builds the release binary; inputs go to $CARGO_TARGET_DIR/input-growth.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
base="${1:-2000}"
dir="$target/input-growth"
cargo build --release --quiet --bin replay-audit
bin="$(pwd)/$target/release/replay-audit"
rm -rf "$dir" && mkdir -p "$dir"

# make SHAPE N: writes the inputs of one case under $dir/SHAPE-N.
make() {
  local shape=$1 n=$2 d="$dir/$1-$2" i
  mkdir -p "$d"
  for ((i = 0; i < n; i++)); do
    case $shape in
      files) printf 'version: 1\ncomponents:\n  s%d:\n    kind: service\n' "$i" >"$d/m$i.yaml" ;;
      each) mkdir -p "$d/a$i" && printf 'version: 1\ncomponents:\n  s:\n    kind: service\n' >"$d/a$i/m.yaml" ;;
      roots) mkdir -p "$d/r$i" && printf 'resource "aws_sqs_queue" "q" {\n  name = "q%d"\n}\n' "$i" >"$d/r$i/main.tf" ;;
    esac
  done
}

# measure SHAPE N: "seconds peak-KiB" of one run.
measure() {
  local d="$dir/$1-$2"
  case $1 in
    files) /usr/bin/time -f '%e %M' "$bin" check "$d" 2>&1 >/dev/null | tail -1 ;;
    each) /usr/bin/time -f '%e %M' "$bin" check --each "$d" 2>&1 >/dev/null | tail -1 ;;
    roots) (cd "$d" && /usr/bin/time -f '%e %M' "$bin" check r* 2>&1 >/dev/null | tail -1) ;;
  esac
}

printf '%-6s %7s %8s %10s %8s %8s\n' case N seconds peak_KiB t_ratio m_ratio
for shape in files each roots; do
  prev_t='' prev_m=''
  for n in $base $((base * 2)) $((base * 4)) $((base * 8)); do
    make "$shape" "$n"
    read -r t m < <(measure "$shape" "$n")
    if [ -n "$prev_t" ]; then
      rt=$(echo "if ($prev_t > 0) $t / $prev_t else 0" | bc -l)
      rm_=$(echo "$m / $prev_m" | bc -l)
      printf '%-6s %7d %8.2f %10d %8.2f %8.2f\n' "$shape" "$n" "$t" "$m" "$rt" "$rm_"
    else
      printf '%-6s %7d %8.2f %10d %8s %8s\n' "$shape" "$n" "$t" "$m" - -
    fi
    prev_t=$t prev_m=$m
    rm -rf "$dir/$shape-$n"
  done
done
