#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suite.
#   scripts/pg-cluster.sh start DIR   -> prints a TEST_DATABASE_URL on stdout
#   scripts/pg-cluster.sh stop DIR
#   scripts/pg-cluster.sh down DIR             -> stopped (fast shutdown), returns once it is
#   scripts/pg-cluster.sh up DIR               -> started again with the options it last had
# initdb refuses to run as root, so as root the cluster belongs to the postgres user.
set -euo pipefail
cmd=${1:?start or stop}
dir=${2:?cluster directory}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] && command -v initdb >/dev/null; then bindir=$(dirname "$(command -v initdb)"); fi
[ -n "$bindir" ] || { echo "PostgreSQL server binaries not found" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
  # A free port is free when asked for, not when the server binds it: checks that start at
  # the same moment (make test starts four clusters and several other servers at once) may
  # be given the same one. The server then stops at once saying so, and starts on another.
  for attempt in 1 2 3 4 5; do
    port=$("$(dirname "$0")/free-ports.py")
    rm -f "$dir/server.log"
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >/dev/null; then
      echo "postgres://postgres@127.0.0.1:$port/postgres"
      exit 0
    fi
    grep -q "could not bind\|could not create any TCP/IP sockets" "$dir/server.log" || break
    echo "pg-cluster: port $port was taken meanwhile (attempt $attempt); another one" >&2
  done
  echo "pg-cluster: PostgreSQL did not start; its log:" >&2
  cat "$dir/server.log" >&2
  exit 1
  ;;
stop)
  [ -d "$dir/data" ] && as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
down)
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
up)
  # `restart` starts a stopped server with the options it last ran with.
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w restart >/dev/null 2>&1
  ;;
*) echo "usage: $0 start|stop|down|up DIR" >&2; exit 2 ;;
esac
