#!/usr/bin/env bash
# A publish under load, on both engines: wrk asks for ARTICLES (default 600) cached article
# pages plus every other page of the sitemap, one after the other, as phones ask for them; a
# quiet 10 s run, a 10 s run in which a writer publishes a new piece at second 3, and a quiet
# run again. The publish run is compared with the mean of the quiet runs around it, so a host
# whose speed drifts over the minute (shared machines do, by a tenth or more) moves both
# sides. Prints p99 and req/s of each; writes bench/results/publish.md.
# usage: bench/publish.sh [path/to/agora]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-target/release/agora}")
cd "$root"
articles=${ARTICLES:-600}
duration=${WRK_DURATION:-10}
publish_at=${PUBLISH_AT:-3}
AE='gzip, deflate, br, zstd'
command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/agora-publish.XXXXXX)
chmod 755 "$tmp"
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null && wait "$app" 2>/dev/null
  [ -d "$tmp/pg" ] && scripts/pg-cluster.sh stop "$tmp/pg"
  rm -rf "$tmp"
}
trap cleanup EXIT
say() { echo "bench: $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now_s() { date +%s.%N; }
mkdir -p bench/results
out=bench/results/publish.md
{
  echo "# A publish under load: $articles generated articles, ${duration} s runs"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; \`bench/publish.sh\` (${bin#"$root"/})."
  echo "wrk -t2 -c50 over every page of the sitemap in turn; the second run publishes a piece at second $publish_at;"
  echo "the quiet runs are the one before it and the one after it, and the ratios are against their mean."
  echo
  echo "| engine | pages | quiet p99 (before / after) | quiet req/s (before / after) | publish p99 | publish req/s | p99 ratio | req/s ratio | publish API |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$out"

run_engine() {
  local engine=$1 url=$2
  local data=$tmp/$engine
  mkdir -p "$data"
  export DATABASE_URL=$url DATA_DIR=$data KEY_SECRET=publish-bench RUST_LOG=warn
  "$bin" migrate >/dev/null
  "$bin" seed --bulk "$articles" >/dev/null
  local key
  key=$("$bin" staff add --name "Bench Writer" --role writer | tail -n 1)
  local port
  port=$(free_port)
  PORT=$port SITE_URL=http://127.0.0.1:$port "$bin" serve >"$tmp/$engine.log" 2>&1 &
  app=$!
  local base=http://127.0.0.1:$port
  for _ in $(seq 1 200); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done
  # Every page of the sitemap (an index past 50,000 URLs is not expected here).
  curl -fsS "$base/sitemap.xml" | grep -o '<loc>[^<]*</loc>' | sed -e 's|<loc>http://[^/]*||' -e 's|</loc>||' \
    >"$tmp/paths"
  local pages
  pages=$(wc -l <"$tmp/paths")
  say "$engine: $pages pages; rendering and compressing each"
  local started
  started=$(now_s)
  # Rendered, then compressed at the best settings in the background: wait until no page is
  # sent with the quick compression any more.
  local left=1 tries=0
  while [ "$left" -gt 0 ]; do
    left=0
    while read -r path; do
      etag=$(curl -fsS -o /dev/null -H "Accept-Encoding: $AE" -w '%header{etag}' "$base$path")
      case "$etag" in *-fast\"*) left=$((left + 1)) ;; esac
    done <"$tmp/paths"
    tries=$((tries + 1))
    [ "$tries" -lt 30 ] || { say "$engine: $left pages never compressed at the best settings"; break; }
    [ "$left" -eq 0 ] || sleep 1
  done
  say "$engine: cached in $(python3 -c "print(round($(now_s) - $started, 1))") s"
  local cookie
  cookie=$(curl -fsS -D - -o /dev/null -H 'content-type: application/json' \
    -d "{\"access_key\": \"$key\"}" "$base/api/v1/session" | awk -F'[ ;]' 'tolower($1) == "set-cookie:" { print $2 }')
  export PATHS_FILE=$tmp/paths
  wrk -t2 -c50 -d1s -s bench/publish.lua "$base" >/dev/null
  local quiet publish after
  quiet=$(wrk -t2 -c50 -d"${duration}s" -s bench/publish.lua "$base" | tail -n 1)
  wrk -t2 -c50 -d"${duration}s" -s bench/publish.lua "$base" >"$tmp/wrk-publish" &
  local wrk_pid=$!
  sleep "$publish_at"
  local took
  took=$(curl -fsS -o "$tmp/published.json" -w '%{time_total}' -H "cookie: $cookie" \
    -H 'content-type: application/json' \
    -d '{"title": "Published under load", "content": "A new piece while readers read.", "status": "published", "category": "Youth Activism"}' \
    "$base/api/v1/staff/articles")
  wait "$wrk_pid"
  publish=$(tail -n 1 "$tmp/wrk-publish")
  # The new piece is live, and the listing (sent stale at first) shows it soon.
  grep -q '"slug"' "$tmp/published.json" || { say "the publish failed: $(cat "$tmp/published.json")"; exit 1; }
  local shown=
  for _ in $(seq 1 50); do
    if curl -fsS "$base/articles" | grep -q "Published under load"; then shown=1; break; fi
    sleep 0.1
  done
  [ -n "$shown" ] || { say "$engine: the listing never showed the new piece"; exit 1; }
  after=$(wrk -t2 -c50 -d"${duration}s" -s bench/publish.lua "$base" | tail -n 1)
  kill "$app"; wait "$app" 2>/dev/null || true; app=""
  say "$engine quiet: $quiet"
  say "$engine publish: $publish"
  say "$engine quiet after: $after"
  python3 - "$engine" "$pages" "$quiet" "$publish" "$after" "$took" >>"$out" <<'PY'
import json, sys
engine, pages = sys.argv[1], sys.argv[2]
quiet, publish, after = (json.loads(a) for a in sys.argv[3:6])
took = float(sys.argv[6])
for run in (quiet, publish, after):
    if run["errors"]:
        sys.exit(f"{engine}: {run['errors']} failed requests")
p99 = (quiet["p99_ms"] + after["p99_ms"]) / 2
rps = (quiet["rps"] + after["rps"]) / 2
print(f"| {engine} | {pages} | {quiet['p99_ms']:.1f} / {after['p99_ms']:.1f} ms "
      f"| {quiet['rps']:,.0f} / {after['rps']:,.0f} | {publish['p99_ms']:.1f} ms "
      f"| {publish['rps']:,.0f} | {publish['p99_ms'] / p99:.2f}× | {publish['rps'] / rps:.2f}× "
      f"| {took * 1000:.0f} ms |")
PY
}

run_engine sqlite "sqlite://$tmp/sqlite/agora.db"
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "${BENCH_POSTGRES:-auto}" != 0 ]; then
  pg=$(scripts/pg-cluster.sh start "$tmp/pg")
  run_engine postgres "$pg"
fi
{
  echo
  echo "Goals: the publish run's p99 at most 2× the quiet runs', its req/s at least 0.9× (issue 33)."
} >>"$out"
cat "$out"
