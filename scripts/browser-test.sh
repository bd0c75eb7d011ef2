#!/usr/bin/env bash
# Browser test of the web board: builds the release binary, starts `chaupar serve`
# on a free port with a temporary database, and plays a whole game in headless
# Chromium (scripts/browser/play.mjs). Prints `browser: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -x /usr/bin/chromium ]; then
  echo "browser: installing chromium" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
  (cd scripts/browser && npm ci --no-audit --no-fund --silent 2>/dev/null || npm install --no-audit --no-fund --silent)
fi

cargo build --release -p chaupar --quiet
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$root/target/release/chaupar" serve --addr "127.0.0.1:$port" --db "$tmp/games.db" --delay-ms 0 \
  --create-burst 100000 --create-every-ms 1 --action-burst 100000 --action-every-ms 1 --connections-per-ip 10000 >"$tmp/serve.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  if curl -fs "http://127.0.0.1:$port/api/meta" >/dev/null 2>&1; then break; fi
  sleep 0.1
done
mkdir -p target/browser
status=0
# play.mjs, then every other test file (*.e2e.mjs), each on the same server.
for t in scripts/browser/play.mjs scripts/browser/*.e2e.mjs; do
  [ -f "$t" ] || continue
  node "$t" "http://127.0.0.1:$port" target/browser || status=$?
done
if [ "$status" -ne 0 ]; then
  echo "--- server log ---" >&2
  tail -n 30 "$tmp/serve.log" >&2 || true
fi
exit "$status"
