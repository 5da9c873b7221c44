#!/usr/bin/env bash
# `make test-cluster`: two app instances on a throwaway PostgreSQL and a local S3-compatible
# server (run under scripts/with-s3.sh), behind nginx configured from deploy/nginx.conf, and an
# SMTP sink; scripts/cluster-check.py then checks the cluster through the balancer and each
# instance. usage: test-cluster.sh path/to/agora
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
missing=()
for tool in nginx curl python3 psql; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
  missing+=(postgresql)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ -n "${REQUIRE_POSTGRES:-}" ]; then
    echo "test-cluster: missing ${missing[*]} and REQUIRE_POSTGRES is set" >&2; exit 1
  fi
  printf '\n*** test-cluster skipped: %s not installed ***\n\n' "${missing[*]}" >&2
  exit 0
fi
if [ -z "${TEST_S3_ENDPOINT:-}" ]; then
  echo "test-cluster: no S3-compatible server (run it under scripts/with-s3.sh)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/agora-cluster.XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -f "$dir/nginx/nginx.pid" ] && kill "$(cat "$dir/nginx/nginx.pid")" 2>/dev/null || true
  if [ -n "${pg_dir:-}" ]; then scripts/pg-cluster.sh stop "$pg_dir" || true; fi
  if [ -n "${keep:-}" ]; then echo "logs kept in $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
free_port() { scripts/free-ports.py; }

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  base_url=$TEST_DATABASE_URL
else
  pg_dir=$dir/pg
  base_url=$(scripts/pg-cluster.sh start "$pg_dir")
fi
db_name="agora_cluster_$$"
psql -q "$base_url" -c "CREATE DATABASE $db_name"
database_url="${base_url%/*}/$db_name"

smtp_port=$(free_port)
# The system's Python, which has aiosmtpd (Debian: python3-aiosmtpd).
/usr/bin/python3 scripts/smtp-sink.py "$smtp_port" "$dir/mail" >"$dir/smtp.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do grep -q ready "$dir/smtp.log" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$dir/smtp.log" || { cat "$dir/smtp.log"; echo "test-cluster: the SMTP sink did not start" >&2; exit 1; }
# Three ports at once: asked for one by one, two of them may be the same.
read -r port_a port_b port_lb < <(scripts/free-ports.py 3)
export DATABASE_URL=$database_url KEY_SECRET=cluster-test-secret \
  STORAGE_URL="s3://agora-test/cluster-$$" SMTP_URL="smtp://127.0.0.1:$smtp_port" \
  SITE_URL="http://127.0.0.1:$port_lb" OUTBOX_POLL_SECONDS=1 FORM_LIMIT_PER_ADDRESS=1000 \
  METRICS_TOKEN=cluster-metrics TRUST_PROXY=true
DATA_DIR=$dir/a "$bin" migrate >/dev/null
admin_key=$(DATA_DIR=$dir/a "$bin" staff add --name "Cluster Admin" --role admin | tail -n 1)
writer_key=$(DATA_DIR=$dir/a "$bin" staff add --name "Cluster Writer" --role writer | tail -n 1)
for name in a b; do
  port=$port_a; [ $name = b ] && port=$port_b
  DATA_DIR=$dir/$name PORT=$port "$bin" serve >"$dir/$name.log" 2>&1 &
  pids+=($!)
done

# nginx with the deployment's own server block: the upstream pointed at the two instances,
# listening on a local port.
mkdir -p "$dir/nginx"
sed -e "s/server 127.0.0.1:8081 /server 127.0.0.1:$port_a /" \
    -e "s/server 127.0.0.1:8082 /server 127.0.0.1:$port_b /" \
    -e "s/listen 80;/listen 127.0.0.1:$port_lb;/" deploy/nginx.conf >"$dir/nginx/agora.conf"
cat >"$dir/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/nginx/client_body;
  proxy_temp_path $dir/nginx/proxy;
  fastcgi_temp_path $dir/nginx/fastcgi;
  uwsgi_temp_path $dir/nginx/uwsgi;
  scgi_temp_path $dir/nginx/scgi;
  include $dir/nginx/agora.conf;
}
NGINX
nginx -t -q -p "$dir/nginx" -e "$dir/nginx/error.log" -c "$dir/nginx/nginx.conf"
nginx -p "$dir/nginx" -e "$dir/nginx/error.log" -c "$dir/nginx/nginx.conf"

for port in $port_a $port_b; do
  for _ in $(seq 1 150); do
    curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break
    sleep 0.2
  done
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || {
    keep=1; echo "test-cluster: instance on $port not ready"; tail -n 20 "$dir"/a.log "$dir"/b.log; exit 1; }
done

if ! python3 scripts/cluster-check.py --lb "http://127.0.0.1:$port_lb" \
    --a "http://127.0.0.1:$port_a" --b "http://127.0.0.1:$port_b" --key "$admin_key" --writer-key "$writer_key" \
    --mail "$dir/mail" --metrics-token "$METRICS_TOKEN" ${CLUSTER_REPORT:+--report "$CLUSTER_REPORT"} \
    ${CLUSTER_PUBLISHES:+--publishes "$CLUSTER_PUBLISHES"}; then
  keep=1
  for log in "$dir/a.log" "$dir/b.log" "$dir/nginx/error.log"; do
    echo "--- $log"; tail -n 30 "$log" || true
  done
  exit 1
fi
