#!/usr/bin/env bash
# ./clrheap bench-startup [--runs N] [--baseline REV] [--dump CORE] [--fixtures DIR]
#
# Start-up as a user sees it: whole processes of ./clrheap (the launcher, the JVM, the command), timed from the shell,
# a baseline and this tree alternately (which goes first swaps each round), N rounds; medians and ratios.
#   baseline    --baseline REV: the launcher and jar of git revision REV, unpacked into a temporary folder and built
#               there (its own launcher builds it); without it: this tree with CLRHEAP_AOT=0 (no start-up cache).
#   commands    --version; walk CORE --stat (a real dump, default golden/real/net10-svr/core.xz; its decompressed copy
#               made beforehand, so the cache is warm); walk --stat of the emulated default and large scenarios
#               (generated into --fixtures DIR, or a temporary folder); large's marginal over default in objects/s.
# Output: a Markdown table on stdout (BENCHMARKS.md's "Start-up" section), progress and uptime on stderr.
set -euo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)"
RUNS=15
BASELINE_REV=""
DUMP="$ROOT/golden/real/net10-svr/core.xz"
FIXTURES=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --baseline) BASELINE_REV="$2"; shift 2 ;;
    --dump) DUMP="$(readlink -f "$2")"; shift 2 ;;
    --fixtures) FIXTURES="$(readlink -f "$2")"; shift 2 ;;
    *) echo "usage: ./clrheap bench-startup [--runs N] [--baseline REV] [--dump CORE] [--fixtures DIR]" >&2; exit 2 ;;
  esac
done
say() { printf 'bench-startup: %s\n' "$*" >&2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/clrheap-bench-startup.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
CANDIDATE=("$ROOT/clrheap")
if [ -n "$BASELINE_REV" ]; then
  say "unpacking $BASELINE_REV and building its jar (its own launcher) ..."
  mkdir -p "$WORK/baseline"
  (cd "$ROOT" && git archive "$BASELINE_REV") | tar -x -C "$WORK/baseline"
  BASELINE=("$WORK/baseline/clrheap")
  BASELINE_NAME="\`$(cd "$ROOT" && git rev-parse --short "$BASELINE_REV")\`"
else
  BASELINE=(env CLRHEAP_AOT=0 "$ROOT/clrheap")
  BASELINE_NAME="this tree, CLRHEAP_AOT=0"
fi
# first runs: builds, the start-up cache's training, the dump's decompression
"${BASELINE[@]}" --version >/dev/null
"${CANDIDATE[@]}" --version >/dev/null
if [ -z "$FIXTURES" ]; then
  FIXTURES="$WORK/fixtures"
  say "generating the default and large scenarios into $FIXTURES ..."
  for s in default large; do "${CANDIDATE[@]}" generate --scenario "$s" --runtime net8 --gc server --format elf --out "$FIXTURES" -q >/dev/null; done
fi
"${CANDIDATE[@]}" walk "$DUMP" --stat >/dev/null 2>&1

objects() { "${CANDIDATE[@]}" walk "$1" --stat -v 2>&1 >/dev/null | sed -n 's/.*walked \([0-9,]*\) objects.*/\1/p' | tr -d ,; }
LARGE_OBJECTS="$(objects "$FIXTURES/large-net8-server.core")"
DEFAULT_OBJECTS="$(objects "$FIXTURES/default-net8-server.core")"

NAMES=(version real default large)
declare -A LABEL=([version]="\`--version\`" [real]="\`walk $(basename "$(dirname "$DUMP")")/$(basename "$DUMP") --stat\`"
  [default]="\`walk default.core --stat\`" [large]="\`walk large.core --stat\`")
args() {
  case "$1" in
    version) echo --version ;;
    real) echo walk "$DUMP" --stat ;;
    default) echo walk "$FIXTURES/default-net8-server.core" --stat ;;
    large) echo walk "$FIXTURES/large-net8-server.core" --stat ;;
  esac
}
# the same output, baseline and candidate
for n in "${NAMES[@]}"; do
  # shellcheck disable=SC2046
  if ! cmp -s <("${BASELINE[@]}" $(args "$n") 2>/dev/null) <("${CANDIDATE[@]}" $(args "$n") 2>/dev/null); then
    say "note: ${LABEL[$n]} prints differently in the baseline and this tree"
  fi
done

LOAD_BEFORE="$(uptime | sed 's/.*load average: //')"
say "$RUNS rounds, load average $LOAD_BEFORE ..."
millis() {
  local side="$1" n="$2" t0 t1
  local -n cmd="$side"
  t0="$EPOCHREALTIME"
  # shellcheck disable=SC2046
  "${cmd[@]}" $(args "$n") >/dev/null 2>&1
  t1="$EPOCHREALTIME"
  echo "$t0 $t1" | awk '{printf "%.0f\n", ($2 - $1) * 1000}' >>"$WORK/$side.$n"
}
for ((i = 1; i <= RUNS; i++)); do
  for n in "${NAMES[@]}"; do
    if ((i % 2)); then millis BASELINE "$n"; millis CANDIDATE "$n"; else millis CANDIDATE "$n"; millis BASELINE "$n"; fi
  done
  printf '.' >&2
done
printf '\n' >&2
LOAD_AFTER="$(uptime | sed 's/.*load average: //')"

median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
range() { sort -n "$1" | awk 'NR == 1 {lo = $1} {hi = $1} END {print lo "–" hi}'; }
echo "| command | before: median (range) | after: median (range) | before / after |"
echo "|---|---|---|---|"
for n in "${NAMES[@]}"; do
  b="$(median "$WORK/BASELINE.$n")"; c="$(median "$WORK/CANDIDATE.$n")"
  printf '| %s | %s ms (%s) | %s ms (%s) | **%s** |\n' "${LABEL[$n]}" "$b" "$(range "$WORK/BASELINE.$n")" "$c" \
    "$(range "$WORK/CANDIDATE.$n")" "$(awk -v b="$b" -v c="$c" 'BEGIN {printf "%.2f", b / c}')"
done
# large's marginal: the median over the rounds of (large - default), each round's two runs taken together
marginal() {
  paste -d ' ' "$WORK/$1.large" "$WORK/$1.default" | awk '{print $1 - $2}' >"$WORK/$1.marginal"
  awk -v o="$((LARGE_OBJECTS - DEFAULT_OBJECTS))" -v m="$(median "$WORK/$1.marginal")" \
    'BEGIN {printf "%.1f M objects/s (%s ms)", (m > 0) ? o / m / 1000 : 0, m}'
}
b="$(marginal BASELINE)"; c="$(marginal CANDIDATE)"
printf '| `large` marginal over `default` (%s objects more), median of the rounds | %s | %s | **%s** |\n' \
  "$(echo "$((LARGE_OBJECTS - DEFAULT_OBJECTS))" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')" "$b" "$c" \
  "$(awk -v b="$(median "$WORK/BASELINE.marginal")" -v c="$(median "$WORK/CANDIDATE.marginal")" 'BEGIN {printf "%.2f", b / c}')"
echo
echo "Before: $BASELINE_NAME; after: this tree ($(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD || echo ', with changes')). $RUNS rounds, $(nproc) CPUs, load average before: $LOAD_BEFORE; after: $LOAD_AFTER."
