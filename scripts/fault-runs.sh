#!/usr/bin/env bash
# The fault runs: two instances, each with its rendering sidecar, on a PostgreSQL cluster of
# their own and an S3-compatible server of their own (both are stopped on purpose), pages
# rendered on every request (PAGE_CACHE=false). scripts/fault-check.py then saturates the
# sidecars, takes PostgreSQL down under load, and freezes and stops S3, checking what readers,
# writers and health checks see. Run under scripts/with-s3.sh (for the S3 server's virtualenv
# and credentials): `make test-cluster` does.
#   usage: fault-runs.sh path/to/agora
# Environment: SATURATE_SECONDS (60), STORAGE_TIMEOUT_SECONDS (10: how long a frozen S3 holds an
# upload), FAULT_REPORT (a file for the figures as JSON).
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
say() { echo "faults: $*" >&2; }
moto_bin=$root/target/s3-venv/bin/moto_server
[ -x "$moto_bin" ] || { say "no S3 server (run under scripts/with-s3.sh)"; exit 1; }
[ -f ssr-renderer/dist/server.js ] || { say "the sidecar is not built (make build-web)"; exit 1; }

dir=$(mktemp -d /tmp/agora-faults.XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -f "$dir/moto.pid" ] && kill "$(cat "$dir/moto.pid")" 2>/dev/null || true
  scripts/pg-cluster.sh stop "$dir/pg" || true
  if [ -n "${keep:-}" ]; then say "logs kept in $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
free_port() { scripts/free-ports.py; }

# S3, started again by the check after it is stopped (an empty bucket, as after a restore).
s3_port=$(free_port)
s3_start="\"$moto_bin\" -H 127.0.0.1 -p $s3_port >>\"$dir/moto.log\" 2>&1 & echo \$! >\"$dir/moto.pid\";
  for i in \$(seq 1 100); do curl -fs http://127.0.0.1:$s3_port/ >/dev/null 2>&1 && break; sleep 0.1; done;
  curl -fs -X PUT http://127.0.0.1:$s3_port/agora-test >/dev/null"
sh -c "$s3_start"
curl -fs "http://127.0.0.1:$s3_port/agora-test" >/dev/null || { say "the S3 server did not start"; exit 1; }

database_url=$(scripts/pg-cluster.sh start "$dir/pg")
# Both ports at once: asked for one by one, they may be the same.
read -r port_a port_b < <(scripts/free-ports.py 2)
export DATABASE_URL=$database_url KEY_SECRET=fault-runs-secret AWS_ENDPOINT_URL=http://127.0.0.1:$s3_port \
  STORAGE_URL="s3://agora-test/faults" SITE_URL="http://127.0.0.1:$port_a" PAGE_CACHE=false \
  METRICS_TOKEN=fault-metrics FORM_LIMIT_PER_ADDRESS=100000 LOGIN_FAILURES_PER_MINUTE=1000 \
  STORAGE_TIMEOUT_SECONDS=${STORAGE_TIMEOUT_SECONDS:-10} RUST_LOG=warn
DATA_DIR=$dir/a "$bin" migrate >"$dir/setup.log" 2>&1
DATA_DIR=$dir/a "$bin" seed --demo >>"$dir/setup.log" 2>&1
admin_key=$(DATA_DIR=$dir/a "$bin" staff add --name "Fault Admin" --role admin | tail -n 1)
writer_key=$(DATA_DIR=$dir/a "$bin" staff add --name "Fault Writer" --role writer | tail -n 1)
for name in a b; do
  port=$port_a; [ $name = b ] && port=$port_b
  DATA_DIR=$dir/$name PORT=$port "$bin" serve >"$dir/$name.log" 2>&1 &
  pids+=($!)
done
for port in $port_a $port_b; do
  for _ in $(seq 1 150); do
    curl -fs "http://127.0.0.1:$port/readyz" | grep -q '"sidecar":"ok"' && break
    sleep 0.2
  done
  curl -fs "http://127.0.0.1:$port/readyz" | grep -q '"sidecar":"ok"' || {
    keep=1; say "instance on $port not ready"; tail -n 20 "$dir"/a.log "$dir"/b.log; exit 1; }
done

if ! python3 scripts/fault-check.py --a "http://127.0.0.1:$port_a" --b "http://127.0.0.1:$port_b" \
    --key "$admin_key" --writer-key "$writer_key" --metrics-token "$METRICS_TOKEN" \
    --pg-dir "$dir/pg" --s3-pid "$(cat "$dir/moto.pid")" --s3-restart "$s3_start" \
    --saturate-seconds "${SATURATE_SECONDS:-60}" --storage-timeout "$STORAGE_TIMEOUT_SECONDS" ${FAULT_REPORT:+--report "$FAULT_REPORT"} 2>&1 \
    | tee "$dir/check.log"; then
  keep=1
  for log in "$dir/a.log" "$dir/b.log"; do echo "--- $log"; tail -n 30 "$log" || true; done
  # What failed, last: a CI log shows its end.
  echo "--- what failed"; grep -E '^(FAIL|Traceback|[A-Za-z]*Error)' "$dir/check.log" || tail -n 5 "$dir/check.log"
  exit 1
fi
