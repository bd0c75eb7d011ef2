#!/usr/bin/env bash
# Every check and test of the project, as CI runs it:
#   formatting and lints, the whole Rust test suite (rules engine, computer players,
#   server API, restart and PostgreSQL storage), then the browser test in headless
#   Chromium. Installs what it needs (Debian's chromium, postgresql) where missing.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== formatting and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== PostgreSQL for the storage tests"
if [ -z "${CHAUPAR_TEST_POSTGRES:-}" ]; then
  if bash scripts/postgres.sh; then
    export CHAUPAR_TEST_POSTGRES="postgres://chaupar:chaupar@127.0.0.1:5432/chaupar_test"
  else
    echo "PostgreSQL could not be started here: its storage test will be skipped" >&2
  fi
fi

echo "== Rust tests"
cargo test --workspace --release

echo "== page modules (node)"
node --experimental-detect-module --test scripts/browser/*.test.mjs

echo "== browser test"
bash scripts/browser-test.sh
