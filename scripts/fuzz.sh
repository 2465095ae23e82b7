#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for a bounded time and prints how many
# executions each made.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Environment: JOBS (targets run at once, default 2), FUZZ_MAX_LEN (largest
# input in bytes, default 4096), CARGO_TARGET_DIR
# (build directory, default fuzz/target).
#
# cargo-fuzz needs nightly-only rustc flags (-Zsanitizer, coverage
# instrumentation). With only a stable toolchain, RUSTC_BOOTSTRAP=1 lets
# stable rustc accept them; that is what this script does. Install the tool
# once with `cargo install cargo-fuzz`.
#
# The targets are built without a sanitizer (`-s none`): replay-audit has no
# `unsafe`, so AddressSanitizer adds cost and finds nothing that a panic or a
# stack overflow does not already report. Debug assertions are on (`-a`), so
# an arithmetic overflow panics instead of wrapping (durations must saturate),
# and dead code is stripped (fewer coverage counters to scan per run).
# FUZZ_BUILD_FLAGS overrides these flags.
#
# Each corpus is fuzz/corpus/<target>: the committed seeds (taken from
# fixtures/), plus what libFuzzer adds (ignored by git). Crashes land in
# fuzz/artifacts/<target>/ and make the script exit 1; an interrupted run
# (Ctrl-C) reports its executions and `interrupted`.
set -euo pipefail

cd "$(dirname "$0")/../fuzz"
SECONDS_PER_TARGET="${1:-60}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(manifest analysis import whatif)
fi
JOBS="${JOBS:-2}"
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
LOGS="$(mktemp -d)"
export RUSTC_BOOTSTRAP=1
read -r -a FLAGS <<<"${FUZZ_BUILD_FLAGS:--s none -a --strip-dead-code}"

# Build once, then run.
for t in "${TARGETS[@]}"; do
    cargo fuzz build "${FLAGS[@]}" --target-dir "$TARGET_DIR" "$t"
done

run() {
    local t="$1"
    mkdir -p "corpus/$t" "artifacts/$t"
    # -rss_limit_mb: the parser thread reserves a large (mostly untouched)
    # stack; resident memory stays far below this.
    cargo fuzz run "${FLAGS[@]}" --target-dir "$TARGET_DIR" "$t" "corpus/$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
        -max_len="${FUZZ_MAX_LEN:-4096}" -print_final_stats=1 >"$LOGS/$t.log" 2>&1
    echo $? >"$LOGS/$t.rc"
}

running=0
for t in "${TARGETS[@]}"; do
    run "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

status=0
printf '%-10s %14s %10s %8s\n' target executions exec/s result
for t in "${TARGETS[@]}"; do
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOGS/$t.log" | grep -o '[0-9]*$' || echo 0)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$LOGS/$t.log" | grep -o '[0-9]*$' || echo 0)
    rc=$(cat "$LOGS/$t.rc" 2>/dev/null || echo 1)
    if [ "$rc" = 0 ]; then
        result=ok
    elif grep -q 'run interrupted' "$LOGS/$t.log"; then
        result=interrupted
    else
        result="CRASH (rc $rc)"
        status=1
    fi
    printf '%-10s %14s %10s %8s\n' "$t" "$runs" "$speed" "$result"
    if [ "$rc" != 0 ]; then
        grep -E 'panicked|ERROR|Test unit written' "$LOGS/$t.log" | head -5
    fi
done
echo "logs: $LOGS"
exit "$status"
