#!/usr/bin/env bash
# Load benchmarks for the release build, on loopback only, with bounded durations. In one run,
# alternating target by target over several rounds so that every figure has its baseline from
# the same minutes:
#   - the cached article and home page from the app, as browsers ask for them (identity, gzip,
#     brotli, and a revalidation answered 304), with a browser's User-Agent;
#   - nginx serving the same bytes (sendfile, open_file_cache; gzip_static for gzip);
#   - a bare hyper server returning the same bytes from memory (bench/ceiling): the ceiling of
#     the app's own stack;
#   - the listing API and uncached renders through the sidecar, on SQLite and PostgreSQL;
# then resident memory, Lighthouse (mobile) on `/` and the article, and the gzipped JavaScript
# an article page ships. Prints a results table and writes it to bench/results/latest.md.
# Exits 0 when a goal falls short (this is a report, not a test) and non-zero when a step
# itself fails.
#
# Usage: bench/run.sh [path/to/agora] [path/to/bench-ceiling]
#   (defaults target/release/agora and target/release/bench-ceiling; `make bench` builds both)
# Environment: CHROME_PATH (default /usr/bin/chromium), WRK_DURATION (5s), WRK_WARMUP (1s),
#   ROUNDS (5: each figure is the median of this many alternating runs; one round in five
#   can be off by a fifth on a shared 2-core machine, and the median of five ignores two),
#   BENCH_POSTGRES (auto: a throwaway PostgreSQL cluster when the server is installed; 0 skips).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-target/release/agora}
ceiling_bin=${2:-target/release/bench-ceiling}
cd "$root"
[ -x "$bin" ] || { echo "bench: $bin is not an executable (run 'make build')" >&2; exit 1; }
[ -x "$ceiling_bin" ] || { echo "bench: $ceiling_bin is not an executable (cargo build --release -p bench-ceiling)" >&2; exit 1; }
bin=$(realpath "$bin")
ceiling_bin=$(realpath "$ceiling_bin")

export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
duration=${WRK_DURATION:-5s}
warmup=${WRK_WARMUP:-1s}
rounds=${ROUNDS:-5}
# What a phone's browser sends (the commonest reader): its User-Agent, and Accept-Encoding.
UA='Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
AE_BROWSER='gzip, deflate, br, zstd'

threads=2
connections=50

say() { echo "bench: $*" >&2; }
fail() { echo "bench: $*" >&2; exit 1; }

# ---------------------------------------------------------------------------- prerequisites
missing=()
for tool in nginx wrk curl node npm; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  fail "missing: ${missing[*]}. Install the Debian packages, e.g. 'apt-get install -y nginx wrk' (node and npm: 'apt-get install -y nodejs npm')."
fi
[ -x "$CHROME_PATH" ] || fail "no Chromium at $CHROME_PATH: 'apt-get install -y chromium' or set CHROME_PATH (no browser is downloaded)."
{ [ -f web-client/dist/client/index.html ] && [ -f ssr-renderer/dist/server.js ]; } \
  || fail "web-client/dist or ssr-renderer/dist is missing: run 'make build'."

# Lighthouse, pinned in bench/package.json + bench/package-lock.json. It drives the system
# Chromium through CHROME_PATH; nothing may download a browser.
if [ ! -d bench/node_modules/lighthouse ]; then
  say "installing Lighthouse (npm ci --prefix bench)"
  PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 \
    npm ci --prefix "$root/bench" --no-audit --no-fund >&2
fi
lighthouse_cli=$root/bench/node_modules/lighthouse/cli/index.js
[ -f "$lighthouse_cli" ] || fail "Lighthouse is not installed under bench/node_modules"

# ---------------------------------------------------------------------------- workspace
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agora-bench.XXXXXX")
# nginx workers may run as another user (nobody, when started as root): they need to reach
# $tmp/www, nothing else.
chmod 711 "$tmp"
mkdir -p "$tmp/www" "$tmp/nginx" "$tmp/lighthouse"
chmod 755 "$tmp/www"

pids=()        # processes this script started, stopped in reverse order on exit
sidecars=()    # the sidecars the app instances started (stopped by the app; checked too)

stop_pid() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pid "${pids[$i]}"; done
  for p in "${sidecars[@]}"; do stop_pid "$p"; done
  [ -z "${pg_dir:-}" ] || "$root/scripts/pg-cluster.sh" stop "$pg_dir"
  if [ "$status" -ne 0 ]; then
    for log in "$tmp"/app-*.log "$tmp/nginx/error.log"; do
      [ -s "$log" ] || continue
      echo "--- ${log#"$tmp"/} (last 20 lines) ---" >&2
      tail -20 "$log" >&2
    done
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Free loopback ports, distinct from one another.
read -r port_app port_uncached port_nginx port_ceiling port_pg port_pg_uncached port_ceiling_hdr < <(node -e '
  const net = require("net");
  const servers = [0, 1, 2, 3, 4, 5, 6].map(() => net.createServer());
  let n = 0;
  for (const s of servers) s.listen(0, "127.0.0.1", () => {
    if (++n < servers.length) return;
    console.log(servers.map((x) => x.address().port).join(" "));
    servers.forEach((x) => x.close());
  });')
[ -n "${port_ceiling_hdr:-}" ] || fail "could not find free ports"

# ---------------------------------------------------------------------------- the app
export RUST_LOG=warn
unset SSR_URL SSR_PORT OTEL_EXPORTER_OTLP_ENDPOINT PAGE_CACHE DATABASE_URL DATA_DIR

# setup_db NAME DATABASE_URL: migrates and seeds the demo content.
setup_db() {
  local name=$1 url=$2
  mkdir -p "$tmp/data-$name"
  chmod 700 "$tmp/data-$name"
  say "migrating and seeding a fresh $name database"
  DATA_DIR=$tmp/data-$name DATABASE_URL=$url SITE_URL=http://127.0.0.1:$port_app \
    "$bin" migrate >"$tmp/setup-$name.log" 2>&1 \
    || { cat "$tmp/setup-$name.log" >&2; fail "agora migrate failed ($name)"; }
  DATA_DIR=$tmp/data-$name DATABASE_URL=$url SITE_URL=http://127.0.0.1:$port_app \
    "$bin" seed --demo >>"$tmp/setup-$name.log" 2>&1 \
    || { cat "$tmp/setup-$name.log" >&2; fail "agora seed --demo failed ($name)"; }
}

# start_app NAME PORT DB_NAME DATABASE_URL [ENV=VALUE...]: serves in the background; sets $app_pid.
start_app() {
  local name=$1 port=$2 db=$3 url=$4
  shift 4
  env PORT="$port" SITE_URL="http://127.0.0.1:$port" DATA_DIR="$tmp/data-$db" DATABASE_URL="$url" \
    "$@" "$bin" serve >"$tmp/app-$name.log" 2>&1 &
  app_pid=$!
  pids+=("$app_pid")
  local ok=
  for _ in $(seq 1 150); do
    if curl -fs --max-time 2 "http://127.0.0.1:$port/readyz" >/dev/null; then ok=1; break; fi
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.2
  done
  [ -n "$ok" ] || fail "the app ($name) did not become ready on port $port"
  local child
  for child in $(pgrep -P "$app_pid" || true); do sidecars+=("$child"); done
}

sqlite_url=sqlite://$tmp/data-sqlite/agora.db
setup_db sqlite "$sqlite_url"
# A copy for the cold starts below, which run beside the other instances.
cp -a "$tmp/data-sqlite" "$tmp/data-cold"
say "starting the app (SQLite, page cache on) on 127.0.0.1:$port_app"
start_app cached "$port_app" sqlite "$sqlite_url"
pid_cached=$app_pid
base=http://127.0.0.1:$port_app

# PostgreSQL: a throwaway cluster (fsync off, as in the test suite) when the server is there.
pg_url=
if [ "${BENCH_POSTGRES:-auto}" != 0 ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  pg_url=$("$root/scripts/pg-cluster.sh" start "$tmp/pg") || fail "cannot start PostgreSQL"
  pg_dir=$tmp/pg
  setup_db postgres "$pg_url"
  say "starting the app (PostgreSQL, page cache on) on 127.0.0.1:$port_pg"
  start_app pg "$port_pg" postgres "$pg_url"
  pid_pg=$app_pid
else
  say "PostgreSQL is not installed (or BENCH_POSTGRES=0): SQLite only"
fi

slug=$(curl -fsS --max-time 10 "$base/api/v1/articles?limit=1" | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const items = JSON.parse(s).items || [];
    if (!items.length || !items[0].slug) process.exit(1);
    console.log(items[0].slug);
  });') || fail "no article in GET /api/v1/articles?limit=1"
article_path=/article/$slug
say "article: $article_path"

# fetch PATH FILE [ACCEPT_ENCODING]: the bytes as sent (not decoded); prints the ETag.
fetch() {
  local path=$1 out=$2 ae=${3:-}
  local args=(-fsS --max-time 10 -o "$out" -A "$UA" -D "$out.headers")
  [ -n "$ae" ] && args+=(-H "Accept-Encoding: $ae")
  curl "${args[@]}" "$base$path" || fail "GET $path failed"
  chmod 644 "$out"
  awk 'tolower($1) == "etag:" { sub(/\r$/, "", $2); print $2 }' "$out.headers"
}
# settle PATH: a page is first sent compressed quickly (its tags end in -fast) and compressed
# at the best settings in the background; measure what is served once that is done.
settle() {
  local i
  for i in $(seq 1 250); do
    fetch "$1" "$tmp/settle" "$AE_BROWSER" | grep -q -- '-fast"$' || return 0
    sleep 0.04
  done
  fail "$1 was never compressed at the best settings"
}
settle "$article_path"
settle /

# ---------------------------------------------------------------------------- cold start
# From exec of `agora serve` (SQLite, a migrated database, the sidecar to start) to the first
# server-rendered article a browser gets (brotli), polling every 5 ms; COLD_RUNS times.
cold_ms=()
for run in $(seq 1 "${COLD_RUNS:-5}"); do
  say "cold start $run"
  t0=$(date +%s%N)
  env PORT="$port_uncached" SITE_URL="http://127.0.0.1:$port_uncached" DATA_DIR="$tmp/data-cold" \
    DATABASE_URL="sqlite://$tmp/data-cold/agora.db" "$bin" serve >"$tmp/app-cold.log" 2>&1 &
  cold_pid=$!
  until curl -fs --compressed -A "$UA" -H "Accept-Encoding: $AE_BROWSER" -o "$tmp/cold.html" \
    "http://127.0.0.1:$port_uncached$article_path" 2>/dev/null && grep -q '<div id="root"><' "$tmp/cold.html"; do
    kill -0 "$cold_pid" 2>/dev/null || { cat "$tmp/app-cold.log" >&2; fail "the cold-start instance exited"; }
    [ $(($(date +%s%N) - t0)) -lt 20000000000 ] || fail "no server-rendered article 20 s after start"
    sleep 0.005
  done
  cold_ms+=($((($(date +%s%N) - t0) / 1000000)))
  kill "$cold_pid"
  wait "$cold_pid" 2>/dev/null || true
done
cold_median=$(printf '%s\n' "${cold_ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
fetch "$article_path" "$tmp/www/article.html" >/dev/null
grep -q '<div id="root"><' "$tmp/www/article.html" \
  || fail "$article_path was not server-rendered (empty #root): is the sidecar running?"
fetch "$article_path" "$tmp/www/article.html.gz" gzip >/dev/null
article_br_etag=$(fetch "$article_path" "$tmp/article.br" "$AE_BROWSER")
fetch / "$tmp/www/index.html" >/dev/null
fetch / "$tmp/www/index.html.gz" gzip >/dev/null
home_br_etag=$(fetch / "$tmp/home.br" "$AE_BROWSER")
grep -qi '^content-encoding: br' "$tmp/article.br.headers" || fail "the app did not answer brotli"
grep -qi '^content-encoding: gzip' "$tmp/www/article.html.gz.headers" || fail "the app did not answer gzip"
{ [ -n "$article_br_etag" ] && [ -n "$home_br_etag" ]; } || fail "the app sent no ETag"
cp "$tmp/www/article.html.headers" "$tmp/article.headers"
page_bytes=$(wc -c <"$tmp/www/article.html")
gz_bytes=$(wc -c <"$tmp/www/article.html.gz")
br_bytes=$(wc -c <"$tmp/article.br")
home_bytes=$(wc -c <"$tmp/www/index.html")
home_gz_bytes=$(wc -c <"$tmp/www/index.html.gz")
home_br_bytes=$(wc -c <"$tmp/home.br")
rm -f "$tmp"/www/*.headers

# ---------------------------------------------------------------------------- baselines
# nginx as one would set it up to serve static files fast: all cores, sendfile, an open file
# cache, long keep-alive, and precompressed files for gzip (the app's own gzip bytes).
cat >"$tmp/nginx/nginx.conf" <<NGINX
daemon off;
worker_processes auto;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/client_body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  default_type text/html;
  sendfile on;
  keepalive_requests 100000;
  open_file_cache max=100;
  gzip_static on;
  server {
    listen 127.0.0.1:$port_nginx;
    root $tmp/www;
    location = "$article_path" { try_files /article.html =404; }
    location = / { try_files /index.html =404; }
  }
}
NGINX
say "starting nginx on 127.0.0.1:$port_nginx"
nginx -p "$tmp/nginx" -e "$tmp/nginx/error.log" -c "$tmp/nginx/nginx.conf" &
pids+=("$!")
nginx_base=http://127.0.0.1:$port_nginx
for _ in $(seq 1 50); do
  curl -fs --max-time 2 -o /dev/null "$nginx_base$article_path" && break
  sleep 0.1
done
say "starting the bare hyper ceiling on 127.0.0.1:$port_ceiling"
"$ceiling_bin" "$port_ceiling" "$tmp/www/article.html" >"$tmp/ceiling.log" 2>&1 &
pids+=("$!")
ceiling_base=http://127.0.0.1:$port_ceiling
# The same ceiling sending the app's own response headers for the article (identity).
"$ceiling_bin" "$port_ceiling_hdr" "$tmp/www/article.html" "$tmp/article.headers" \
  >"$tmp/ceiling-hdr.log" 2>&1 &
pids+=("$!")
ceiling_hdr_base=http://127.0.0.1:$port_ceiling_hdr
for base_url in "$ceiling_base" "$ceiling_hdr_base"; do
  for _ in $(seq 1 50); do
    curl -fs --max-time 2 -o /dev/null "$base_url$article_path" && break
    sleep 0.1
  done
done

# Every server must send the same bytes for the same request.
same_size() { # URL ACCEPT_ENCODING EXPECTED_BYTES
  local got args=(-fsS --max-time 5 -A "$UA" -o /dev/null -w '%{size_download}')
  [ -n "$2" ] && args+=(-H "Accept-Encoding: $2")
  got=$(curl "${args[@]}" "$1") || fail "cannot fetch $1"
  [ "$got" -eq "$3" ] || fail "$1 (Accept-Encoding: ${2:-none}) sends $got bytes, expected $3"
}
same_size "$nginx_base$article_path" "" "$page_bytes"
same_size "$nginx_base$article_path" gzip "$gz_bytes"
same_size "$nginx_base/" gzip "$home_gz_bytes"
same_size "$ceiling_base$article_path" "" "$page_bytes"
same_size "$ceiling_hdr_base$article_path" "" "$page_bytes"
code=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -H "Accept-Encoding: $AE_BROWSER" \
  -H "If-None-Match: $article_br_etag" "$base$article_path")
[ "$code" = 304 ] || fail "a matching If-None-Match got $code, not 304"

# ---------------------------------------------------------------------------- wrk
# Targets: NAME|URL|Accept-Encoding|If-None-Match. Run in rounds, one after the other, so a
# drift of the machine touches all of them alike; each figure is the median round.
targets=(
  "ceiling|$ceiling_base$article_path||"
  "ceiling_hdr|$ceiling_hdr_base$article_path||"
  "nginx_id|$nginx_base$article_path||"
  "app_id|$base$article_path||"
  "nginx_gz|$nginx_base$article_path|gzip|"
  "app_gz|$base$article_path|gzip|"
  "app_br|$base$article_path|$AE_BROWSER|"
  "app_304|$base$article_path|$AE_BROWSER|$article_br_etag"
  "nginx_home_gz|$nginx_base/|gzip|"
  "app_home_id|$base/||"
  "app_home_gz|$base/|gzip|"
  "app_home_br|$base/|$AE_BROWSER|"
  "app_home_304|$base/|$AE_BROWSER|$home_br_etag"
  "api|$base/api/v1/articles|$AE_BROWSER|"
)
if [ -n "$pg_url" ]; then
  pg_base=http://127.0.0.1:$port_pg
  targets+=(
    "pg_id|$pg_base$article_path||"
    "pg_gz|$pg_base$article_path|gzip|"
    "pg_br|$pg_base$article_path|$AE_BROWSER|"
    "pg_api|$pg_base/api/v1/articles|$AE_BROWSER|"
  )
fi

# run_wrk FILE URL AE INM [APP_LOG]: warm-up, then the measured run into FILE. With APP_LOG,
# counts that app's fallbacks and sidecar restarts during the measured run into
# $measured_fb and $measured_rs.
run_wrk() {
  local out=$1 url=$2 ae=$3 inm=$4 log=${5:-} fb0=0 rs0=0
  local hdr=(-H "User-Agent: $UA")
  [ -n "$ae" ] && hdr+=(-H "Accept-Encoding: $ae")
  [ -n "$inm" ] && hdr+=(-H "If-None-Match: $inm")
  timeout 60 wrk -t"$threads" -c"$connections" -d"$warmup" --timeout 2s "${hdr[@]}" "$url" >/dev/null \
    || fail "wrk warm-up failed for $url"
  if [ -n "$log" ]; then fb0=$(fallbacks "$log") rs0=$(restarts "$log"); fi
  timeout 120 wrk -t"$threads" -c"$connections" -d"$duration" --timeout 2s --latency "${hdr[@]}" "$url" \
    >"$out" || fail "wrk failed for $url"
  if [ -n "$log" ]; then
    measured_fb=$(($(fallbacks "$log") - fb0)) measured_rs=$(($(restarts "$log") - rs0))
  fi
}

# wrk_stats FILE → "req/s p50_ms p99_ms requests non2xx socket_errors seconds"
wrk_stats() {
  awk '
    function ms(v) {
      if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
      if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
      if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000
      if (v ~ /m$/) return substr(v, 1, length(v) - 1) * 60000
      return v + 0
    }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    $1 == "Requests/sec:" { rps = $2 }
    / requests in / { n = $1; secs = $4 + 0 }
    /Non-2xx or 3xx responses:/ { non2xx = $NF }
    /Socket errors:/ { errs = $4 + $6 + $8 + $10 }
    END {
      if (rps == "" || p50 == "" || p99 == "") exit 1
      printf "%.0f %.3f %.3f %d %d %d %.2f\n", rps, p50, p99, n, non2xx, errs, secs
    }' "$1" || fail "cannot read wrk's output $1: $(cat "$1")"
}

# Requests the app answered with the client-rendered shell (the sidecar failed or missed its
# deadline), and supervised restarts of the sidecar, from an app's log (RUST_LOG=warn).
fallbacks() { grep -c "server render failed" "$1" || true; }
restarts() { grep -c "rendering sidecar .*restarting" "$1" || true; }

declare -A RPS P50 P99 BAD ERR ALL
for round in $(seq 1 "$rounds"); do
  for t in "${targets[@]}"; do
    IFS='|' read -r name url ae inm <<<"$t"
    say "round $round/$rounds: $name"
    run_wrk "$tmp/wrk-$name-$round.txt" "$url" "$ae" "$inm"
  done
done
# The median round of each target (by req/s), with its latencies; every round's req/s too.
for t in "${targets[@]}"; do
  IFS='|' read -r name _ <<<"$t"
  median=$(for round in $(seq 1 "$rounds"); do wrk_stats "$tmp/wrk-$name-$round.txt"; done \
    | sort -n -k1,1 | awk -v n="$rounds" 'NR == int((n + 1) / 2)')
  read -r RPS[$name] P50[$name] P99[$name] _ BAD[$name] ERR[$name] _ <<<"$median"
  ALL[$name]=$(for round in $(seq 1 "$rounds"); do
    wrk_stats "$tmp/wrk-$name-$round.txt" | awk '{ print $1 }'
  done | paste -sd/)
done

# ---------------------------------------------------------------------------- memory
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# Sum over the node children of an app (normally exactly one sidecar).
sidecar_kb() {
  local total=0 child
  for child in $(pgrep -P "$1" || true); do total=$((total + $(rss_kb "$child"))); done
  echo "$total"
}
app_kb=$(rss_kb "$pid_cached")
side_kb=$(sidecar_kb "$pid_cached")
[ "$app_kb" -gt 0 ] || fail "cannot read the app's resident memory"
side_note=''
[ "$(restarts "$tmp/app-cached.log")" -eq 0 ] || side_note=" (restarted during the run: a fresh process)"
[ "$side_kb" -gt 0 ] || side_note=" (no sidecar running)"
pg_app_kb=0
if [ -n "$pg_url" ]; then
  pg_app_kb=$(rss_kb "$pid_pg")
  # Done with it: it should not share the CPU with the uncached renders.
  stop_pid "$pid_pg"
fi

# ---------------------------------------------------------------------------- uncached renders
# A second instance per engine with PAGE_CACHE=false (same database): every request loads the
# article and renders it through the sidecar, compressed quickly for the one response.
# Server-rendered pages per second: wrk's requests less the client-rendered fallbacks.
rendered_rate() { awk -v n="$1" -v fb="$2" -v s="$3" 'BEGIN { r = (n - fb) / s; if (r < 0) r = 0; printf "%.0f", r }'; }
declare -A UNC UNC8 UNC_APP_KB UNC_SIDE_KB
# uncached ENGINE PORT URL → UNC[ENGINE]="pages/s req/s fallbacks restarts p50 p99", UNC8 likewise.
uncached() {
  local engine=$1 port=$2 url=$3
  say "starting an instance without page cache ($engine) on 127.0.0.1:$port"
  start_app "uncached-$engine" "$port" "$engine" "$url" PAGE_CACHE=false
  local pid=$app_pid unc_url=http://127.0.0.1:$port$article_path log=$tmp/app-uncached-$engine.log
  local r p50 p99 n s fb rs
  connections=8 run_wrk "$tmp/wrk-unc8-$engine.txt" "$unc_url" "$AE_BROWSER" "" "$log"
  fb=$measured_fb rs=$measured_rs
  read -r r p50 p99 n _ _ s < <(wrk_stats "$tmp/wrk-unc8-$engine.txt")
  [ "$fb" -le "$n" ] || fb=$n   # requests in flight when wrk stops are logged, not counted
  UNC8[$engine]="$(rendered_rate "$n" "$fb" "$s") $r $fb $rs $p50 $p99"
  run_wrk "$tmp/wrk-unc-$engine.txt" "$unc_url" "$AE_BROWSER" "" "$log"
  fb=$measured_fb rs=$measured_rs
  read -r r p50 p99 n _ _ s < <(wrk_stats "$tmp/wrk-unc-$engine.txt")
  [ "$fb" -le "$n" ] || fb=$n
  UNC[$engine]="$(rendered_rate "$n" "$fb" "$s") $r $fb $rs $p50 $p99"
  UNC_APP_KB[$engine]=$(rss_kb "$pid")
  UNC_SIDE_KB[$engine]=$(sidecar_kb "$pid")
  stop_pid "$pid"
}
uncached sqlite "$port_uncached" "$sqlite_url"
[ -z "$pg_url" ] || uncached postgres "$port_pg_uncached" "$pg_url"

# ---------------------------------------------------------------------------- Lighthouse
chrome_flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic"
# lighthouse NAME URL → "performance accessibility best-practices seo" (×100, "err" if unscored)
lighthouse() {
  local name=$1 url=$2 out=$tmp/lighthouse/$1.json
  say "Lighthouse (mobile) $url"
  timeout 300 node "$lighthouse_cli" "$url" --quiet --output=json --output-path="$out" \
    --only-categories=performance,accessibility,best-practices,seo \
    --chrome-flags="$chrome_flags" >"$tmp/lighthouse/$name.log" 2>&1 \
    || { cat "$tmp/lighthouse/$name.log" >&2; fail "Lighthouse failed for $url"; }
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const s = (k) => (r.categories[k] && typeof r.categories[k].score === "number"
      ? Math.round(r.categories[k].score * 100) : "err");
    console.log(["performance", "accessibility", "best-practices", "seo"].map(s).join(" "));
    // Audits that cost points, for the details section.
    const lost = [];
    for (const cat of Object.values(r.categories)) {
      for (const ref of cat.auditRefs) {
        const a = r.audits[ref.id];
        if (!(ref.weight > 0 && a && typeof a.score === "number" && a.score < 1)) continue;
        lost.push(`${cat.id}: ${a.id} (${a.score.toFixed(2)}${a.displayValue ? ", " + a.displayValue : ""})`);
        // What it points at (elements, URLs), up to three, outside performance.
        const items = (cat.id !== "performance" && a.details && a.details.items) || [];
        for (const it of items.slice(0, 3)) {
          const what = (it.node && [it.node.selector, it.node.snippet].filter(Boolean).join(" ")) || it.url ||
            (it.source && it.source.url) || it.description;
          if (what) lost.push(`  ${String(what).replace(/\s+/g, " ").slice(0, 160)}`);
        }
      }
    }
    require("fs").writeFileSync(process.argv[2], lost.join("\n") + (lost.length ? "\n" : ""));
  ' "$out" "$tmp/lighthouse/$name.lost" || fail "cannot read Lighthouse's report for $url"
}
# Every page LH_RUNS times (scores move by a point or two between runs): the verdict is on the
# worst run.
lh_runs=${LH_RUNS:-3}
lh_pages=(home listing article)
declare -A LH_URL=([home]="$base/" [listing]="$base/articles" [article]="$base$article_path")
declare -A LH_P LH_A LH_B LH_S
for page in "${lh_pages[@]}"; do
  for run in $(seq 1 "$lh_runs"); do
    read -r p a b s < <(lighthouse "$page-$run" "${LH_URL[$page]}")
    LH_P[$page]+="$p " LH_A[$page]+="$a " LH_B[$page]+="$b " LH_S[$page]+="$s "
  done
done
# worst "S1 S2 …" → the lowest score ("err" if a run was unscored)
worst() { tr ' ' '\n' <<<"$1" | awk 'NF { if ($1 == "err") e = 1; else if (m == "" || $1 < m) m = $1 } END { print (e || m == "" ? "err" : m) }'; }
# scores "S1 S2 …" → "S1, S2, …"
scores() { local v=${1% }; echo "${v// /, }"; }

# ---------------------------------------------------------------------------- JavaScript
# Every script the article HTML references (<script src>, <link rel=modulepreload>), fetched
# with Accept-Encoding: gzip; counted as bytes on the wire (compressed bodies).
mapfile -t scripts < <(node -e '
  const html = require("fs").readFileSync(process.argv[1], "utf8");
  const urls = new Set();
  for (const m of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = m[0].match(/\bsrc\s*=\s*["\x27]?([^"\x27\s>]+)/i);
    if (src) urls.add(src[1]);
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    if (!/\brel\s*=\s*["\x27]?modulepreload\b/i.test(m[0])) continue;
    const href = m[0].match(/\bhref\s*=\s*["\x27]?([^"\x27\s>]+)/i);
    if (href) urls.add(href[1]);
  }
  for (const u of urls) console.log(u);' "$tmp/www/article.html")
[ ${#scripts[@]} -gt 0 ] || fail "the article HTML references no script"
js_bytes=0
js_lines=()
for src in "${scripts[@]}"; do
  case $src in
    http://* | https://*) url=$src ;;
    //*) url=http:$src ;;
    /*) url=$base$src ;;
    *) url=$base/$src ;;
  esac
  read -r size encoding < <(curl -fsS --max-time 10 -H 'Accept-Encoding: gzip' -o /dev/null \
    -w '%{size_download} %header{content-encoding}\n' "$url") || fail "cannot fetch $url"
  js_bytes=$((js_bytes + size))
  js_lines+=("$src: $size bytes (${encoding:-identity})")
done

# ---------------------------------------------------------------------------- report
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
verdict() { if "$@"; then echo PASS; else echo SHORT; fi; }
# renders_ok PAGES_PER_S P99_MS: issue 33's goal for uncached renders.
renders_ok() { ge "$1" 1600 && lt "$2" 60; }
# fmt NUMBER [DECIMALS]: with thousands separators.
fmt() {
  awk -v v="$1" -v d="${2:-0}" 'BEGIN {
    s = sprintf("%." d "f", v); frac = ""; out = ""
    if (i = index(s, ".")) { frac = substr(s, i); s = substr(s, 1, i - 1) }
    while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    print s out frac
  }'
}
# Resident memory in decimal megabytes (VmRSS is in KiB).
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
under_mb() { awk -v k="$1" -v lim="$2" 'BEGIN { exit !(k > 0 && k * 1024 <= lim * 1e6) }'; }
score_ok() { [ "$1" != err ] && ge "$1" "$2"; }
# ratio A B → A/B with two decimals; times F X → F×X rounded
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
times() { awk -v f="$1" -v x="$2" 'BEGIN { printf "%.0f", f * x }'; }

js_kb=$(awk -v b="$js_bytes" 'BEGIN { printf "%.1f", b / 1000 }')
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
cpu=${cpu:-$(uname -m)}
mem_total=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
rev=unknown
if command -v git >/dev/null && rev=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD 2>/dev/null || rev="$rev (with uncommitted changes)"
fi
lh_version=$(node -p 'require(process.argv[1]).version' "$root/bench/node_modules/lighthouse/package.json")
chrome_version=$("$CHROME_PATH" --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1 || true)
pg_version=
[ -z "$pg_url" ] || pg_version=$(psql "$pg_url" -Atc 'show server_version' 2>/dev/null | awk '{ print $1 }')

row() { printf '| %s | %s | %s | %s |\n' "$@"; }
# rps NAME → "12,345 req/s (p99 1.23 ms)"
rps() { echo "$(fmt "${RPS[$1]}") req/s (p99 $(fmt "${P99[$1]}" 2) ms)"; }
# vs NAME BASE FACTOR LABEL → a table row: NAME's rate against FACTOR × BASE's rate
vs() {
  local name=$1 base=$2 factor=$3 label=$4 what=$5
  local need
  need=$(times "$factor" "${RPS[$base]}")
  row "$label" "$(rps "$name") — $(ratio "${RPS[$name]}" "${RPS[$base]}")× $what" \
    "≥ ${factor}× $what (≥ $(fmt "$need") req/s)" "$(verdict ge "${RPS[$name]}" "$need")"
}
br_goal=7560   # 30% below the 10.8 KB the page had when it was compressed per request

report=$tmp/report.md
{
  echo "# The Agora — benchmark results"
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) CPUs ($cpu), $mem_total; $(uname -sr)"
  echo "- Build: agora $rev; nginx $(nginx -v 2>&1 | sed 's|.*nginx/||'); wrk $(wrk -v 2>&1 | awk 'NR == 1 { print $2 }'); node $(node --version); PostgreSQL ${pg_version:-not run}; Lighthouse $lh_version, Chromium ${chrome_version:-?}"
  echo "- Load: wrk -t$threads -c$connections -d$duration --latency after a $warmup warm-up, on loopback, with a phone browser's User-Agent; $rounds rounds, every target once per round in turn, each figure the median round; wrk and the servers share the same CPUs"
  echo "- Article: \`$article_path\` — $(fmt "$page_bytes") bytes identity, $(fmt "$gz_bytes") gzip, $(fmt "$br_bytes") brotli. Home \`/\`: $(fmt "$home_bytes") / $(fmt "$home_gz_bytes") / $(fmt "$home_br_bytes")"
  echo "- Baselines: nginx \`worker_processes auto; sendfile on; keepalive_requests 100000; open_file_cache max=100; gzip_static on;\` serving the app's own identity and gzip bytes as files; the ceiling is \`bench/ceiling\` (Tokio + hyper, the app's versions and connection builder) answering every request with the identity article from memory, alone and with the app's response headers"
  echo "- Requests: identity = no Accept-Encoding; gzip = \`Accept-Encoding: gzip\`; br = \`Accept-Encoding: $AE_BROWSER\` (what Chrome and Safari send); 304 = br plus \`If-None-Match\` with the ETag the app gave"
  echo
  echo "| Measure | Result | Goal | Verdict |"
  echo "|---|---|---|---|"
  row "Ceiling: bare hyper, article from memory (identity)" "$(rps ceiling)" "—" "—"
  row "Ceiling sending the app's response headers (identity; diagnostic)" "$(rps ceiling_hdr) — $(ratio "${RPS[ceiling_hdr]}" "${RPS[ceiling]}")× the bare ceiling" "—" "—"
  row "nginx, article (identity)" "$(rps nginx_id)" "—" "—"
  row "nginx, article (gzip_static)" "$(rps nginx_gz)" "—" "—"
  vs app_id ceiling 0.95 "Cached article, identity" "the ceiling"
  row "Cached article, identity, against the ceiling with its headers (diagnostic)" "$(ratio "${RPS[app_id]}" "${RPS[ceiling_hdr]}")×" "—" "—"
  vs app_gz nginx_gz 1 "Cached article, gzip" "nginx gzip_static"
  vs app_br nginx_gz 1 "Cached article, br" "nginx gzip_static"
  vs app_304 ceiling 1 "Cached article, 304 (If-None-Match)" "the ceiling"
  row "Cached article, p99 latency (br)" "$(fmt "${P99[app_br]}" 2) ms" "< 10 ms" "$(verdict lt "${P99[app_br]}" 10)"
  row "Brotli article on the wire" "$(fmt "$br_bytes") bytes (gzip $(fmt "$gz_bytes"))" "≤ $(fmt "$br_goal") bytes" "$(verdict ge "$br_goal" "$br_bytes")"
  row "nginx, home (gzip_static)" "$(rps nginx_home_gz)" "—" "—"
  row "Cached home, identity" "$(rps app_home_id) — $(ratio "${RPS[app_home_id]}" "${RPS[ceiling]}")× the ceiling" "—" "—"
  vs app_home_gz nginx_home_gz 0.9 "Cached home, gzip" "nginx gzip_static"
  vs app_home_br nginx_home_gz 1 "Cached home, br" "nginx gzip_static"
  row "Cached home, 304" "$(rps app_home_304) — $(ratio "${RPS[app_home_304]}" "${RPS[ceiling]}")× the ceiling" "—" "—"
  if [ -n "$pg_url" ]; then
    vs pg_id ceiling 0.95 "PostgreSQL: cached article, identity" "the ceiling"
    vs pg_gz nginx_gz 1 "PostgreSQL: cached article, gzip" "nginx gzip_static"
    vs pg_br nginx_gz 1 "PostgreSQL: cached article, br" "nginx gzip_static"
  fi
  for engine in sqlite postgres; do
    [ -n "${UNC[$engine]:-}" ] || continue
    read -r pages r fb rs p50 p99 <<<"${UNC[$engine]}"
    read -r pages8 r8 fb8 rs8 p50_8 p99_8 <<<"${UNC8[$engine]}"
    row "Uncached render through the sidecar, $engine ($connections connections, br)" "$(fmt "$pages") server-rendered pages/s (wrk: $(fmt "$r") req/s, of which $(fmt "$fb") client-rendered fallbacks; sidecar restarts: $rs), p50 $(fmt "$p50" 2) ms, p99 $(fmt "$p99" 2) ms" "≥ 1,600 pages/s, p99 < 60 ms" "$(verdict renders_ok "$pages" "$p99")"
    row "Uncached render, $engine, 8 connections (diagnostic)" "$(fmt "$pages8") pages/s (fallbacks: $(fmt "$fb8"); restarts: $rs8), p50 $(fmt "$p50_8" 2) ms, p99 $(fmt "$p99_8" 2) ms" "—" "—"
  done
  row "Listing API \`/api/v1/articles\`, SQLite" "$(rps api)" "≥ 20,000 req/s" "$(verdict ge "${RPS[api]}" 20000)"
  [ -z "$pg_url" ] || row "Listing API, PostgreSQL" "$(rps pg_api)" "≥ 20,000 req/s" "$(verdict ge "${RPS[pg_api]}" 20000)"
  row "App RSS after load (cached, SQLite)" "$(mb "$app_kb") MB" "≤ 100 MB" "$(verdict under_mb "$app_kb" 100)"
  [ -z "$pg_url" ] || row "App RSS after load (cached, PostgreSQL)" "$(mb "$pg_app_kb") MB" "≤ 100 MB" "$(verdict under_mb "$pg_app_kb" 100)"
  row "Sidecar RSS after load (cached instance)" "$(mb "$side_kb") MB$side_note" "≤ 150 MB" "$(verdict under_mb "$side_kb" 150)"
  for engine in sqlite postgres; do
    [ -n "${UNC_APP_KB[$engine]:-}" ] || continue
    row "App RSS after uncached renders ($engine)" "$(mb "${UNC_APP_KB[$engine]}") MB" "≤ 100 MB" "$(verdict under_mb "${UNC_APP_KB[$engine]}" 100)"
    row "Sidecar RSS after uncached renders ($engine)" "$(mb "${UNC_SIDE_KB[$engine]}") MB" "≤ 150 MB" "$(verdict under_mb "${UNC_SIDE_KB[$engine]}" 150)"
  done
  for page in "${lh_pages[@]}"; do
    case $page in
      home) label="\`/\`" ;;
      listing) label="\`/articles\`" ;;
      *) label=article ;;
    esac
    row "Lighthouse $label, performance (mobile; $lh_runs runs)" "$(scores "${LH_P[$page]}")" "≥ 95" "$(verdict score_ok "$(worst "${LH_P[$page]}")" 95)"
    row "Lighthouse $label, accessibility" "$(scores "${LH_A[$page]}")" "100" "$(verdict score_ok "$(worst "${LH_A[$page]}")" 100)"
    row "Lighthouse $label, best practices" "$(scores "${LH_B[$page]}")" "100" "$(verdict score_ok "$(worst "${LH_B[$page]}")" 100)"
    row "Lighthouse $label, SEO" "$(scores "${LH_S[$page]}")" "100" "$(verdict score_ok "$(worst "${LH_S[$page]}")" 100)"
  done
  row "Cold start to the first server-rendered article (SQLite, br; median of ${#cold_ms[@]})" "$cold_median ms (every run: $(printf '%s ms, ' "${cold_ms[@]}" | sed 's/, $//'))" "≤ 300 ms" "$(verdict ge 300 "$cold_median")"
  row "JavaScript shipped to an article page (gzip, on the wire)" "$js_kb KB ($(fmt "$js_bytes") bytes, ${#scripts[@]} file(s))" "≤ 100 KB" "$(verdict ge 100000 "$js_bytes")"
  echo
  echo "## Details"
  echo
  echo "| wrk target | req/s (median) | every round | p50 | p99 | non-2xx/3xx | socket errors |"
  echo "|---|---|---|---|---|---|---|"
  for t in "${targets[@]}"; do
    IFS='|' read -r name _ <<<"$t"
    printf '| %s | %s | %s | %s ms | %s ms | %s | %s |\n' "$name" "$(fmt "${RPS[$name]}")" "${ALL[$name]}" \
      "$(fmt "${P50[$name]}" 2)" "$(fmt "${P99[$name]}" 2)" "${BAD[$name]}" "${ERR[$name]}"
  done
  echo
  echo "- Client-rendered fallbacks (the sidecar failed or missed its deadline; the app answered 200 with the shell) during the cached runs: $(fallbacks "$tmp/app-cached.log"). wrk counts them as requests; the server-rendered rates above leave them out."
  echo "- Supervised sidecar restarts over the whole run (warm-ups included): cached instance $(restarts "$tmp/app-cached.log")."
  js_list=$(printf '%s; ' "${js_lines[@]}")
  echo "- Scripts of the article page: ${js_list%; }."
  for page in "${lh_pages[@]}"; do
    cat "$tmp/lighthouse/$page"-*.lost 2>/dev/null | awk '!seen[$0]++' >"$tmp/lighthouse/$page.lost"
    if [ -s "$tmp/lighthouse/$page.lost" ]; then
      echo "- Lighthouse audits below full score ($page, any run):"
      sed -e 's/^  \(.*\)/    - `\1`/' -e 't' -e 's/^/  - /' "$tmp/lighthouse/$page.lost"
    else
      echo "- Lighthouse audits below full score ($page): none"
    fi
  done
} >"$report"

mkdir -p bench/results
cp "$report" bench/results/latest.md
cat "$report"
say "written to bench/results/latest.md"
