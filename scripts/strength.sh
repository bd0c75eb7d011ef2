#!/usr/bin/env bash
# Re-measures the strength tables of docs/ai.md and the README: every run of
# `chaupar sim` behind them, each writing its JSON to target/strength/.
# Takes about four hours on 2 cores (the runs at 100 ms of work, added on
# 2026-12-02, about 70 minutes of it; those of 2026-12-03 about 80 more, one
# job a core). Usage: scripts/strength.sh [NAME...]
# (NAME filters the runs, e.g. `scripts/strength.sh expert-greedy-chaupar`).
set -euo pipefail
cd "$(dirname "$0")/.."
# CHAUPAR_BIN runs another build (e.g. a copy kept while the tree changes).
bin=${CHAUPAR_BIN:-./target/release/chaupar}
[ -n "${CHAUPAR_BIN:-}" ] || cargo build --release --quiet
out=${CHAUPAR_STRENGTH_OUT:-target/strength}
mkdir -p "$out"
sim() {
  local name=$1
  shift
  if [ "${#filters[@]}" -gt 0 ] && ! printf '%s\n' "${filters[@]}" | grep -qx "$name"; then
    return
  fi
  echo "== $name: chaupar sim $*" >&2
  "$bin" sim "$@" --json >"$out/$name.json"
  cat "$out/$name.json"
}
filters=("$@")
# greedy against random: 2,000 games per preset.
for p in chaupar chausar classic; do
  sim "greedy-random-$p" --rules "$p" --games 2000 --team-a greedy --team-b random --seed 1
done
sim greedy-random-chausar2 --rules chausar --players 2 --games 2000 --team-a greedy --team-b random --seed 1
# The expert with the linear model (`expert` until 2026-12-03, `expert-linear`
# since; the JSON of these runs reads team_a "expert") against greedy: 1,000 games per preset.
sim expert-greedy-chaupar --rules chaupar --games 1000 --team-a expert-linear --team-b greedy --seed 12 --budget 50
sim expert-greedy-classic --rules classic --games 1000 --team-a expert-linear --team-b greedy --seed 12 --budget 50
sim expert-greedy-chausar --rules chausar --games 1000 --team-a expert-linear --team-b greedy --seed 12 --budget 30
sim expert-greedy-chausar2 --rules chausar --players 2 --games 1000 --team-a expert-linear --team-b greedy --seed 12 --budget 30
# expert against UCT at the same budget: 200 games per preset.
for p in chaupar chausar classic; do
  sim "expert-uct-$p" --rules "$p" --games 200 --team-a expert-linear --team-b uct --seed 21 --budget 30 --max-turns 600
done
sim expert-uct-chausar2 --rules chausar --players 2 --games 200 --team-a expert-linear --team-b uct --seed 21 --budget 30 --max-turns 600
# The expert with the network against the expert with the linear model.
# (Rows of `chaupar` and `classic` measured before 2026-12-03 were run as
# `expert-net` or `level5` while its rollouts took the network's plays, the
# bot named expertr4_2-net here; their JSON's team_a reads expert-net/level5.
# Since then its rollouts there take the linear model's: RolloutPlays::Tuned.)
sim expert-net-expert-linear --rules chaupar --games 400 --team-a expertr4_2-net --team-b expert-linear --seed 62 --budget 20
sim expert-net-expert-linear-b --rules chaupar --games 600 --team-a expertr4_2-net --team-b expert-linear --seed 64 --budget 20
sim expert-net-expert-linear-classic --rules classic --games 200 --team-a expertr4_2-net --team-b expert-linear --seed 63 --budget 20
sim expert-net-expert-linear-classic-b --rules classic --games 400 --team-a expertr4_2-net --team-b expert-linear --seed 79 --budget 20
sim expert-net-expert-linear-classic-c --rules classic --games 400 --team-a expertr4_2-net --team-b expert-linear --seed 80 --budget 20
# The expert with the network against greedy (the linear model), issue 13's aims.
sim expert-net-greedy-chaupar --rules chaupar --games 300 --team-a expertr4_2-net --team-b greedy --seed 66 --budget 50
sim expert-net-greedy-chaupar-b --rules chaupar --games 700 --team-a expertr4_2-net --team-b greedy --seed 67 --budget 50
sim expert-net-greedy-classic --rules classic --games 300 --team-a expertr4_2-net --team-b greedy --seed 66 --budget 50
sim expert-net-greedy-chausar --rules chausar --games 200 --team-a expert-net --team-b greedy --seed 66 --budget 30
# (The two-player rows here and below were run as `expert-net` while its
# rollouts were two rounds (expertr4_2-net), then eight rounds chosen by the
# network (expertr4_8-net); the names say which, the JSON's team_a expert-net.)
sim expert-net-greedy-chausar2 --rules chausar --players 2 --games 400 --team-a expertr4_2-net --team-b greedy --seed 66 --budget 30
# The same at the expert's default budget since 2026-12-02 (100 ms of work).
sim expert-net-greedy-classic-100 --rules classic --games 300 --team-a expertr4_2-net --team-b greedy --seed 68 --budget 100
sim expert-net-greedy-classic-100-b --rules classic --games 350 --team-a expertr4_2-net --team-b greedy --seed 69 --budget 100
sim expert-net-greedy-classic-100-c --rules classic --games 350 --team-a expertr4_2-net --team-b greedy --seed 70 --budget 100
sim expert-net-greedy-chausar-100 --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 68 --budget 100
sim expert-net-greedy-chausar-100-b --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 69 --budget 100
sim expert-net-greedy-chausar2-100 --rules chausar --players 2 --games 400 --team-a expertr4_2-net --team-b greedy --seed 68 --budget 100
sim expert-net-greedy-chausar-100-c --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 71 --budget 100
sim expert-net-greedy-chausar-100-d --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 72 --budget 100
sim expert-net-greedy-chausar-100-e --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 73 --budget 100
sim expert-net-greedy-chausar-100-f --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 74 --budget 100
sim expert-net-greedy-chausar-100-g --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 75 --budget 100
sim expert-net-greedy-chausar-100-h --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 76 --budget 100
sim expert-net-greedy-chausar-100-i --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 77 --budget 100
sim expert-net-greedy-chausar-100-j --rules chausar --games 100 --team-a expert-net --team-b greedy --seed 78 --budget 100
# Two-player games since 2026-12-02: rollouts of eight rounds (DUEL_ROUNDS),
# chosen on seed 90 with expertrK_R-net, confirmed on fresh seeds 94 to 97.
# (duel-r4_2-chausar2's JSON in docs/strength/ was run as `expert-net` before
# the change, the same bot as expertr4_2-net, so its team_a reads expert-net.)
sim duel-r4_2-chausar2 --rules chausar --players 2 --games 200 --team-a expertr4_2-net --team-b greedy --seed 90 --budget 100
sim duel-r4_4-chausar2 --rules chausar --players 2 --games 200 --team-a expertr4_4-net --team-b greedy --seed 90 --budget 100
sim duel-r4_8-chausar2 --rules chausar --players 2 --games 200 --team-a expertr4_8-net --team-b greedy --seed 90 --budget 100
sim duel-r8_4-chausar2 --rules chausar --players 2 --games 200 --team-a expertr8_4-net --team-b greedy --seed 90 --budget 100
sim duel-r8_8-chausar2 --rules chausar --players 2 --games 200 --team-a expertr8_8-net --team-b greedy --seed 90 --budget 100
sim duel-r8_4-classic --rules classic --games 200 --team-a expertr8_4-net --team-b greedy --seed 90 --budget 100
sim duel-r4_2-classic --rules classic --games 200 --team-a expertr4_2-net --team-b greedy --seed 90 --budget 100
sim expert-net-greedy-chausar2-duel --rules chausar --players 2 --games 250 --team-a expertr4_8-net --team-b greedy --seed 94 --budget 100
sim expert-net-greedy-chausar2-duel-b --rules chausar --players 2 --games 250 --team-a expertr4_8-net --team-b greedy --seed 95 --budget 100
sim expert-net-greedy-chausar2-duel-c --rules chausar --players 2 --games 250 --team-a expertr4_8-net --team-b greedy --seed 96 --budget 100
sim expert-net-greedy-chausar2-duel-d --rules chausar --players 2 --games 250 --team-a expertr4_8-net --team-b greedy --seed 97 --budget 100
# Rollouts played by the linear model and valued by the network (`-net-lin`,
# 2026-12-03): chosen on seeds 101 and 102.
for b in r4_8-net r4_8-net-lin; do
  sim "duel-$b-chausar2-101" --rules chausar --players 2 --games 200 --team-a "expert$b" --team-b greedy --seed 101 --budget 100
done
for b in r4_8-net r4_8-net-lin r4_12-net-lin r6_8-net-lin; do
  sim "duel-$b-chausar2-102" --rules chausar --players 2 --games 300 --team-a "expert$b" --team-b greedy --seed 102 --budget 100
done
# Confirmed on fresh seeds; since then the two-player default of `expert-net`
# (SearchConfig::rollout_plays, RolloutPlays::Tuned), the same bot in two-player games.
for seed in 103 104 105 106; do
  sim "duel-r4_8-net-lin-chausar2-$seed" --rules chausar --players 2 --games 250 --team-a expertr4_8-net-lin --team-b greedy --seed "$seed" --budget 100
done
# The same with four players (2026-12-03): tuned on classic seed 90, then
# fresh seeds; chausar and chaupar (its 50 ms rows' seeds) checked. Since then
# the default by preset (RolloutPlays::Tuned): `expert-net` is the -lin bot in
# classic and chaupar, expertr4_2-net in four-player chausar.
sim rollouts-lin-classic-90 --rules classic --games 200 --team-a expertr4_2-net-lin --team-b greedy --seed 90 --budget 100
for seed in 107 108 109 110; do
  sim "expert-net-greedy-classic-lin-$seed" --rules classic --games 250 --team-a expertr4_2-net-lin --team-b greedy --seed "$seed" --budget 100
done
for seed in 113 114; do
  sim "rollouts-lin-chausar-$seed" --rules chausar --games 100 --team-a expertr4_2-net-lin --team-b greedy --seed "$seed" --budget 100
done
sim rollouts-lin-chaupar-66 --rules chaupar --games 300 --team-a expertr4_2-net-lin --team-b greedy --seed 66 --budget 50
sim expert-net-greedy-chaupar-lin-67 --rules chaupar --games 700 --team-a expert-net --team-b greedy --seed 67 --budget 50
sim expert-net-expert-linear-chaupar-lin-115 --rules chaupar --games 1000 --team-a expert-net --team-b expert-linear --seed 115 --budget 20
sim expert-net-expert-linear-classic-lin-116 --rules classic --games 1000 --team-a expert-net --team-b expert-linear --seed 116 --budget 20
sim level5-level4-lin-48 --rules chaupar --games 500 --team-a level5 --team-b level4 --seed 48 --budget 100
sim level5-level4-lin-49 --rules chaupar --games 500 --team-a level5 --team-b level4 --seed 49 --budget 100
for seed in 118 119; do
  sim "expert-net-expert-linear-chausar-$seed" --rules chausar --games 400 --team-a expert-net --team-b expert-linear --seed "$seed" --budget 20
done
# Two-player chausar: the network's expert against the linear expert.
for seed in 111 112; do
  sim "expert-net-expert-linear-chausar2-$seed" --rules chausar --players 2 --games 500 --team-a expert-net --team-b expert-linear --seed "$seed" --budget 20
done
for seed in 120 121; do
  sim "expert-net-expert-linear-chausar2-100-$seed" --rules chausar --players 2 --games 500 --team-a expert-net --team-b expert-linear --seed "$seed" --budget 100
done
sim expert-net-expert-linear-chausar --rules chausar --games 200 --team-a expert-net --team-b expert-linear --seed 65 --budget 20
# Time per expert decision at the default work budget (100 ms since
# 2026-12-02; 200 ms before), one job.
sim time-chaupar --rules chaupar --games 4 --team-a expert-linear --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-classic --rules classic --games 4 --team-a expert-linear --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-chausar --rules chausar --games 2 --team-a expert-linear --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-chausar2 --rules chausar --players 2 --games 4 --team-a expert-linear --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-net-chaupar --rules chaupar --games 4 --team-a expert-net --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-net-classic --rules classic --games 4 --team-a expert-net --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-net-chausar --rules chausar --games 2 --team-a expert-net --team-b greedy --seed 31 --jobs 1 --budget 100
sim time-net-chausar2 --rules chausar --players 2 --games 4 --team-a expert-net --team-b greedy --seed 31 --jobs 1 --budget 100
# The levels for people, each against the one below (chaupar; levels 4 and 5
# at their own default work budgets).
sim level2-level1 --rules chaupar --games 1000 --team-a level2 --team-b level1 --seed 41
sim level3-level2 --rules chaupar --games 1000 --team-a level3 --team-b level2 --seed 41
sim level4-level3 --rules chaupar --games 400 --team-a level4 --team-b level3 --seed 41 --budget 50
# (The seed-41 and seed-42 JSON in docs/strength are of level 5 before it played
# with the network; level5-level4-net.json was run as expert-net, as it was then.)
# Level 5 at its default work budget since 2026-12-02 (100 ms).
sim level5-level4-100 --rules chaupar --games 500 --team-a expertr4_2-net --team-b level4 --seed 48 --budget 100
sim level5-level4-100-b --rules chaupar --games 500 --team-a expertr4_2-net --team-b level4 --seed 49 --budget 100
# Level 5 at the default budget before (200 ms).
sim level5-level4-net --rules chaupar --games 100 --team-a expertr4_2-net --team-b level4 --seed 43 --budget 200
sim level5-level4-net-b --rules chaupar --games 300 --team-a expertr4_2-net --team-b level4 --seed 44 --budget 200
sim level5-level4-net-c --rules chaupar --games 300 --team-a expertr4_2-net --team-b level4 --seed 45 --budget 200
sim level5-level4-net-d --rules chaupar --games 300 --team-a expertr4_2-net --team-b level4 --seed 47 --budget 200
sim level5-level4 --rules chaupar --games 300 --team-a level5 --team-b level4 --seed 41 --budget 200
sim level5-level4-b --rules chaupar --games 700 --team-a level5 --team-b level4 --seed 42 --budget 200
