#!/usr/bin/env bash
# Makes sure a local PostgreSQL server runs with a database for the storage tests:
# user chaupar (password chaupar), database chaupar_test, on 127.0.0.1:5432.
# Installs Debian's postgresql when it is missing (needs root).
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || exit 1
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
ver=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
  pg_createcluster "$ver" main >/dev/null
fi
cluster=$(pg_lsclusters -h | head -n 1)
set -- $cluster
pg_ctlcluster "$1" "$2" start 2>/dev/null || true
for _ in $(seq 1 50); do
  if su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
su postgres -c "psql -qAtc \"select 1 from pg_roles where rolname='chaupar'\"" | grep -q 1 \
  || su postgres -c "psql -qc \"create user chaupar password 'chaupar' createdb\"" >/dev/null
su postgres -c "psql -qAtc \"select 1 from pg_database where datname='chaupar_test'\"" | grep -q 1 \
  || su postgres -c "createdb -O chaupar chaupar_test"
