#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at PostgreSQL: the one given, or a throwaway
# cluster started here when the server binaries are installed. Without either, SQLite only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec "$@"
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
  if [ -n "${REQUIRE_POSTGRES:-}" ]; then
    echo "error: PostgreSQL is not installed and REQUIRE_POSTGRES is set: the tests must run on both engines" >&2
    exit 1
  fi
  printf '\n*** PostgreSQL is not installed: the database tests run on SQLite ONLY. ***\n*** Install it (apt-get install postgresql) to test both engines.          ***\n\n' >&2
  exec "$@"
fi
dir=$(mktemp -d /tmp/agora-pg.XXXXXX)
rmdir "$dir"
trap '"$here/pg-cluster.sh" stop "$dir"' EXIT
TEST_DATABASE_URL=$("$here/pg-cluster.sh" start "$dir")
export TEST_DATABASE_URL
echo "PostgreSQL test cluster: $TEST_DATABASE_URL" >&2
"$@"
