#!/usr/bin/env bash
# Measures the engine's speed aims (issue 12; the README's "Speed of the rules
# engine") and prints them as a table: per preset, the median of RUNS runs of
# each measure with the slowest and fastest, and whether the median meets its aim.
#
#   scripts/speed.sh [--runs N] [--json FILE] [--presets "chaupar chausar classic"]
#                    [--instructions]
#
# The measures, each run on one pinned core (the last one, by `taskset` where
# there is one), the presets alternated so that a busy spell falls on all:
#   games     whole random games a second, each play drawn uniformly among the
#             turn's distinct plays (`random_games PRESET 2000`); aim 2,000
#   playouts  fast playouts a second (`random_games PRESET 20000 playout`);
#             aim 50,000 in `chaupar`, 25,000 in the others
#   midgame   µs to list every play of a mid-game position and read each
#             (`random_games PRESET 1500 midgame`); aim under 8
#   sim       CPU time of `chaupar sim --team-a random --team-b random --jobs 1`
#             over the example's, 600 games each; aim at most 1.25
# The machine's load moves every number but the instructions (see the README);
# compare medians of many runs, not single runs. The processor is printed with
# the table (and written in the JSON): the same engine runs a fifth slower on
# one than on another, so compare figures of one processor.
#   --instructions  also counts the instructions of `random_games PRESET 40`
#                   (cachegrind; the same on any load, and nearly the same on
#                   any processor), once a preset, if valgrind is installed
set -euo pipefail
cd "$(dirname "$0")/.."

runs=7
json=""
instructions=""
presets="chaupar chausar classic"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --presets) presets=$2; shift 2 ;;
    --instructions) instructions=1; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "speed.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$runs" in
  ''|*[!0-9]*|0) echo "speed.sh: --runs wants a whole number of runs above 0, not '$runs'" >&2; exit 2 ;;
esac
for p in $presets; do
  case "$p" in
    chaupar|chausar|classic) ;;
    *) echo "speed.sh: unknown preset '$p' (chaupar, chausar or classic)" >&2; exit 2 ;;
  esac
done
if [ -n "$instructions" ] && ! command -v valgrind >/dev/null; then
  echo "speed.sh: --instructions needs valgrind (apt-get install valgrind)" >&2
  exit 2
fi

echo "building the example and the command line (release)..." >&2
cargo build --release --quiet -p chaupar-core --example random_games
cargo build --release --quiet --bin chaupar
example=target/release/examples/random_games
chaupar=target/release/chaupar

pin=()
if command -v taskset >/dev/null && command -v nproc >/dev/null; then
  pin=(taskset -c "$(($(nproc) - 1))")
fi

# The processor, as the kernel names it: vendor's name, family and model.
processor() {
  if [ -r /proc/cpuinfo ]; then
    awk -F': *' '
      /^model name/ && !n { n = $2 } /^cpu family/ && !f { f = $2 } /^model\t/ && !m { m = $2 }
      END { if (n == "") n = "unknown"; printf "%s (family %s, model %s)", n, f == "" ? "?" : f, m == "" ? "?" : m }' /proc/cpuinfo
  else
    uname -m
  fi
}
cpu_name=$(processor)

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

# The CPU seconds (user + system) of a command, its output thrown away; a
# command that fails stops the script (its time would say nothing).
cpu() {
  local TIMEFORMAT='%U %S' times
  if ! times=$({ time "$@" >/dev/null 2>&1; } 2>&1); then
    echo "speed.sh: \`$*\` failed" >&2
    exit 1
  fi
  awk '{ print $1 + $2 }' <<<"$times"
}

# Runs the example for measure $1 in preset $2 with the arguments after the
# third, and keeps the number the sed expression $3 reads from what it prints.
measure() {
  local name=$1 p=$2 read=$3 out value
  shift 3
  out=$("${pin[@]}" "$example" "$p" "$@")
  value=$(sed -n "$read" <<<"$out")
  if [ -z "$value" ]; then
    echo "speed.sh: no number in what \`random_games $p $*\` printed: $out" >&2
    exit 1
  fi
  echo "$value" >>"$data/$name.$p"
}

for r in $(seq 1 "$runs"); do
  for p in $presets; do
    echo "run $r of $runs: $p" >&2
    measure games "$p" 's/.*= \([0-9.]*\) games\/s.*/\1/p' 2000
    measure playouts "$p" 's/.*= \([0-9.]*\) games\/s.*/\1/p' 20000 playout
    measure midgame "$p" 's/.* \([0-9.]*\) µs a listing.*/\1/p' 1500 midgame
    a=$(cpu "${pin[@]}" "$example" "$p" 600)
    b=$(cpu "${pin[@]}" "$chaupar" sim --rules "$p" --games 600 --team-a random --team-b random --jobs 1 --seed 5 --json)
    if ! awk -v a="$a" -v b="$b" 'BEGIN { if (a <= 0) exit 1; printf "%.3f\n", b / a }' >>"$data/sim.$p"; then
      echo "speed.sh: the example's 600 games took no measurable CPU time" >&2
      exit 1
    fi
  done
done

# "median min max" of the numbers in a file.
stats() {
  sort -g "$1" | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    print m, v[1], v[NR] }'
}

# The aim of a measure in a preset, and whether more is better.
aim() {
  case "$1" in
    games) echo "2000 more" ;;
    playouts) if [ "$2" = chaupar ]; then echo "50000 more"; else echo "25000 more"; fi ;;
    midgame) echo "8 under" ;;
    sim) echo "1.25 less" ;;
  esac
}

measures="games playouts midgame sim"
header="| measure | aim |"
rule="| --- | --- |"
for p in $presets; do
  header="$header \`$p\` |"
  rule="$rule ---: |"
done
echo
echo "Processor: $cpu_name, $([ ${#pin[@]} -gt 0 ] && echo "core ${pin[2]} pinned" || echo "no core pinned (no taskset)"). Median of $runs runs (slowest-fastest);"
echo "'short' where the median misses the aim."
echo
echo "$header"
echo "$rule"
json_rows=""
for m in $measures; do
  case "$m" in
    games) line="| random games a second | at least 2000 |" ;;
    playouts) line="| playouts a second | at least 50000 (chaupar), 25000 |" ;;
    midgame) line="| µs a mid-game listing | under 8 |" ;;
    sim) line="| simulator's CPU time over the example's | at most 1.25 |" ;;
  esac
  for p in $presets; do
    read -r median low high <<<"$(stats "$data/$m.$p")"
    read -r target way <<<"$(aim "$m" "$p")"
    met=$(awk -v m="$median" -v t="$target" -v w="$way" 'BEGIN { print ((w == "more" && m >= t) || (w == "less" && m <= t) || (w == "under" && m < t)) ? "true" : "false" }')
    mark=""
    [ "$met" = true ] || mark=" short"
    line="$line $median ($low-$high)$mark |"
    json_rows="$json_rows${json_rows:+,}{\"measure\":\"$m\",\"preset\":\"$p\",\"aim\":$target,\"more_is_better\":$([ "$way" = more ] && echo true || echo false),\"median\":$median,\"min\":$low,\"max\":$high,\"met\":$met,\"runs\":$runs}"
  done
  echo "$line"
done
json_counts=""
if [ -n "$instructions" ]; then
  echo
  echo "| instructions of \`random_games PRESET 40\` | millions |"
  echo "| --- | ---: |"
  for p in $presets; do
    count=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
      "$example" "$p" 40 2>&1 >/dev/null | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
    if [ -z "$count" ]; then
      echo "speed.sh: valgrind counted no instructions for \`random_games $p 40\`" >&2
      exit 1
    fi
    echo "| \`$p\` | $(awk -v c="$count" 'BEGIN { printf "%.1f", c / 1e6 }') |"
    json_counts="$json_counts${json_counts:+,}\"$p\":$count"
  done
fi
if [ -n "$json" ]; then
  printf '{"commit":"%s","processor":"%s","runs":%d,"results":[%s],"instructions":{%s}}\n' \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "${cpu_name//\"/\'}" "$runs" "$json_rows" "$json_counts" >"$json"
  echo >&2
  echo "wrote $json" >&2
fi
