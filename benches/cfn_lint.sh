#!/usr/bin/env bash
# Issue #37's CloudFormation budget: `replay-audit check TEMPLATE --format
# json` against `cfn-lint TEMPLATE` on the same file, at least 100x faster.
#
#   bash benches/cfn_lint.sh                     # the default templates, 5 rounds
#   ROUNDS=9 bash benches/cfn_lint.sh a.yaml b.json
#
# Without arguments it measures three CloudFormation fixtures of the
# project: a CDK-synthesised JSON template (11 resources), a YAML template
# (9 resources) and a SAM template (cfn-lint runs the SAM transform first).
# The budget is about real public templates: pass them as arguments.
#
# Builds the release binary, then per round and per template runs each tool
# once, a fresh process each, the two in alternating order from round to
# round; one untimed run of each first (page cache, Python bytecode).
# Timed from outside by python3: wall seconds from time.perf_counter around
# spawn and wait, and the child's CPU seconds (user + system) from wait4's
# rusage (the machine is shared: CPU time moves less with the load than
# wall time does). Prints, per template, the best and the median of each
# and the ratio cfn-lint / replay-audit of the medians and of the bests,
# against the budget (>= 100). Exit 0 whether the budget is met or not.
#
# Exit codes: check's 1 (findings) and cfn-lint's 2, 4, 8 and their sums
# (lint findings) are expected; anything else, or cfn-lint failing to read
# or transform the file (E0000-E0003) or finding no `Resources` in it
# (E1001: no template; it would have linted nothing), stops the script
# with exit 2. Without cfn-lint (pip install cfn-lint) it says so and
# exits 0: CI does not run it.
set -euo pipefail
# The templates are named from where the script is called; the repository
# is where the script is.
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
rounds="${ROUNDS:-5}"
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "cfn_lint.sh: ROUNDS must be a positive whole number, not '$rounds'" >&2
  exit 2
fi

if ! command -v cfn-lint >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  echo "cfn_lint.sh: cfn-lint (or python3) is not installed, nothing measured; pip install cfn-lint to run it" >&2
  exit 0
fi
if [ "$#" -eq 0 ]; then
  cd "$root"
  set -- fixtures/import/cdk-app/cdk.out/Payouts.template.json \
    fixtures/drift/code/template.yaml \
    fixtures/import/sam-function-events.yaml
fi
for t in "$@"; do
  if [ ! -f "$t" ]; then
    echo "cfn_lint.sh: no template at $t" >&2
    exit 2
  fi
done

cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin replay-audit
bin="$target/release/replay-audit"

echo "replay-audit $("$bin" --version | awk '{ print $NF }') at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(cfn-lint --version); $rounds rounds; $(nproc) CPUs; $(date -u '+%F %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$bin" "$rounds" "$@" <<'PY'
import os, re, statistics, subprocess, sys, time

binary, rounds, templates = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
BUDGET = 100
# cfn-lint could not read or transform the file, or it is no template.
NOT_LINTED = r"^E000[0-3] |^E1001 'Resources' is a required property"


def commands(template):
    return {
        "replay-audit": [binary, "check", template, "--format", "json"],
        "cfn-lint": ["cfn-lint", template],
    }


def expected(tool, code):
    if tool == "replay-audit":
        return code in (0, 1)
    return code in range(0, 16, 2)  # 2 error, 4 warning, 8 informational, summed


def warm_up(template):
    """One untimed run of each tool, which also checks that each read the file."""
    for tool, argv in commands(template).items():
        run = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        unread = tool == "cfn-lint" and re.search(NOT_LINTED, run.stdout, re.M)
        if not expected(tool, run.returncode) or unread:
            sys.stderr.write(f"cfn_lint.sh: `{' '.join(argv)}` exited {run.returncode}"
                             f"{', not linting it as a template' if unread else ''}:\n"
                             f"{run.stdout[-2000:]}{run.stderr[-2000:]}")
            sys.exit(2)


def timed(tool, argv):
    """(wall seconds, CPU seconds) of one fresh process, its output discarded."""
    null = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, null, fd) for fd in (0, 1, 2)]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    os.close(null)
    code = os.waitstatus_to_exitcode(status)
    if not expected(tool, code):
        sys.stderr.write(f"cfn_lint.sh: `{' '.join(argv)}` exited {code}\n")
        sys.exit(2)
    return wall, usage.ru_utime + usage.ru_stime


samples = {(t, tool): [] for t in templates for tool in ("replay-audit", "cfn-lint")}
for template in templates:
    warm_up(template)
for r in range(rounds):
    print(f"round {r + 1} of {rounds}", file=sys.stderr)
    for template in templates:
        order = list(commands(template).items())
        for tool, argv in order if r % 2 == 0 else reversed(order):
            samples[(template, tool)].append(timed(tool, argv))


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.3f} s"


for kind, index in (("wall", 0), ("CPU (user + system)", 1)):
    print(f"\n{kind} time, best / median of {rounds}:\n")
    print("| template | bytes | replay-audit | cfn-lint | ratio of medians | ratio of bests | budget >= 100 |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for template in templates:
        ours = sorted(s[index] for s in samples[(template, "replay-audit")])
        theirs = sorted(s[index] for s in samples[(template, "cfn-lint")])
        ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
        by_median = theirs_median / ours_median if ours_median else float("inf")
        by_best = theirs[0] / ours[0] if ours[0] else float("inf")
        verdict = "met" if min(by_median, by_best) >= BUDGET else "NOT met"
        print(f"| {template} | {os.path.getsize(template)} | {ms(ours[0])} / {ms(ours_median)} "
              f"| {ms(theirs[0])} / {ms(theirs_median)} | {by_median:.0f}x | {by_best:.0f}x | {verdict} |")
PY
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
