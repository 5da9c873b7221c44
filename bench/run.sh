#!/usr/bin/env bash
# Load benchmarks for the release build, on loopback only, with bounded durations:
#   wrk against nginx serving an article as a static file (the baseline), the app's cached
#   article page, the listing API and uncached renders through the sidecar (a second instance
#   with PAGE_CACHE=false); then resident memory, Lighthouse (mobile) on `/` and the article,
#   and the gzipped JavaScript an article page ships.
# Prints a results table and writes it to bench/results/latest.md. Exits 0 when a goal falls
# short (this is a report, not a test) and non-zero when a step itself fails.
#
# Usage: bench/run.sh [path/to/agora]   (default target/release/agora; `make bench` builds it)
# Environment: CHROME_PATH (default /usr/bin/chromium), WRK_DURATION (10s), WRK_WARMUP (2s).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-target/release/agora}
cd "$root"
[ -x "$bin" ] || { echo "bench: $bin is not an executable (run 'make build')" >&2; exit 1; }
bin=$(realpath "$bin")

export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
duration=${WRK_DURATION:-10s}
warmup=${WRK_WARMUP:-2s}
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
mkdir -p "$tmp/data" "$tmp/www" "$tmp/nginx" "$tmp/lighthouse"
chmod 700 "$tmp/data"
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
read -r port_app port_uncached port_nginx < <(node -e '
  const net = require("net");
  const servers = [0, 1, 2].map(() => net.createServer());
  let n = 0;
  for (const s of servers) s.listen(0, "127.0.0.1", () => {
    if (++n < servers.length) return;
    console.log(servers.map((x) => x.address().port).join(" "));
    servers.forEach((x) => x.close());
  });')
[ -n "${port_nginx:-}" ] || fail "could not find free ports"

# ---------------------------------------------------------------------------- the app
export DATA_DIR=$tmp/data DATABASE_URL=sqlite://$tmp/data/agora.db RUST_LOG=warn
unset SSR_URL SSR_PORT OTEL_EXPORTER_OTLP_ENDPOINT PAGE_CACHE

say "migrating and seeding a fresh SQLite database"
PORT=$port_app SITE_URL=http://127.0.0.1:$port_app "$bin" migrate >"$tmp/setup.log" 2>&1 \
  || { cat "$tmp/setup.log" >&2; fail "agora migrate failed"; }
PORT=$port_app SITE_URL=http://127.0.0.1:$port_app "$bin" seed --demo >>"$tmp/setup.log" 2>&1 \
  || { cat "$tmp/setup.log" >&2; fail "agora seed --demo failed"; }

# start_app NAME PORT [ENV=VALUE...]: serves in the background; sets $app_pid.
start_app() {
  local name=$1 port=$2
  shift 2
  env PORT="$port" SITE_URL="http://127.0.0.1:$port" "$@" "$bin" serve >"$tmp/app-$name.log" 2>&1 &
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

say "starting the app (page cache on) on 127.0.0.1:$port_app"
start_app cached "$port_app"
pid_cached=$app_pid
base=http://127.0.0.1:$port_app

slug=$(curl -fsS --max-time 10 "$base/api/v1/articles?limit=1" | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const items = JSON.parse(s).items || [];
    if (!items.length || !items[0].slug) process.exit(1);
    console.log(items[0].slug);
  });') || fail "no article in GET /api/v1/articles?limit=1"
article_path=/article/$slug
say "article: $article_path"

curl -fsS --max-time 10 -o "$tmp/www/article.html" "$base$article_path" \
  || fail "GET $article_path failed"
chmod 644 "$tmp/www/article.html"
grep -q '<div id="root"><' "$tmp/www/article.html" \
  || fail "$article_path was not server-rendered (empty #root): is the sidecar running?"
page_bytes=$(wc -c <"$tmp/www/article.html")

# ---------------------------------------------------------------------------- nginx baseline
cat >"$tmp/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 2;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/client_body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  default_type text/html;
  charset utf-8;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port_nginx;
    root $tmp/www;
    location = "$article_path" { try_files /article.html =404; }
  }
}
EOF
say "starting nginx on 127.0.0.1:$port_nginx"
nginx -p "$tmp/nginx" -e "$tmp/nginx/error.log" -c "$tmp/nginx/nginx.conf" &
pids+=("$!")
nginx_url=http://127.0.0.1:$port_nginx$article_path
for _ in $(seq 1 50); do
  curl -fs --max-time 2 -o /dev/null "$nginx_url" && break
  sleep 0.1
done
nginx_bytes=$(curl -fsS --max-time 5 "$nginx_url" | wc -c) || fail "nginx does not serve the article"
[ "$nginx_bytes" -eq "$page_bytes" ] || fail "nginx serves $nginx_bytes bytes, the app $page_bytes"

# ---------------------------------------------------------------------------- wrk
# run_wrk NAME URL [APP_LOG]: warm-up, then the measured run; leaves wrk's output in
# $tmp/wrk-NAME.txt. With APP_LOG, counts that app's fallbacks and sidecar restarts during
# the measured run into $measured_fb and $measured_rs.
run_wrk() {
  local name=$1 url=$2 log=${3:-} fb0=0 rs0=0
  say "wrk $name: $url ($connections connections; warm-up $warmup, then $duration)"
  timeout 60 wrk -t"$threads" -c"$connections" -d"$warmup" --timeout 2s "$url" >/dev/null \
    || fail "wrk warm-up failed for $url"
  if [ -n "$log" ]; then fb0=$(fallbacks "$log") rs0=$(restarts "$log"); fi
  timeout 120 wrk -t"$threads" -c"$connections" -d"$duration" --timeout 2s --latency "$url" \
    >"$tmp/wrk-$name.txt" || fail "wrk failed for $url"
  if [ -n "$log" ]; then
    measured_fb=$(($(fallbacks "$log") - fb0)) measured_rs=$(($(restarts "$log") - rs0))
  fi
}

# wrk_stats NAME → "req/s p50_ms p99_ms requests non2xx socket_errors seconds"
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
    }' "$tmp/wrk-$1.txt" || fail "cannot read wrk's output for $1: $(cat "$tmp/wrk-$1.txt")"
}

# Requests the app answered with the client-rendered shell (the sidecar failed or missed its
# deadline), and supervised restarts of the sidecar, from an app's log (RUST_LOG=warn).
fallbacks() { grep -c "server render failed" "$1" || true; }
restarts() { grep -c "rendering sidecar .*restarting" "$1" || true; }

run_wrk nginx "$nginx_url"
read -r nginx_rps nginx_p50 nginx_p99 nginx_n nginx_bad nginx_err _ < <(wrk_stats nginx)

run_wrk cached "$base$article_path" "$tmp/app-cached.log"
read -r cached_rps cached_p50 cached_p99 cached_n cached_bad cached_err _ < <(wrk_stats cached)
cached_fb=$measured_fb

run_wrk api "$base/api/v1/articles"
read -r api_rps api_p50 api_p99 api_n api_bad api_err _ < <(wrk_stats api)

say "starting a second app instance (PAGE_CACHE=false) on 127.0.0.1:$port_uncached"
start_app uncached "$port_uncached" PAGE_CACHE=false
pid_uncached=$app_pid
unc_url=http://127.0.0.1:$port_uncached$article_path
# First at low concurrency (no goal: the sidecar's capacity without a deep queue), then the
# measured run with the same 50 connections as the other targets.
connections=8 run_wrk uncached8 "$unc_url" "$tmp/app-uncached.log"
read -r u8_rps u8_p50 u8_p99 u8_n u8_bad u8_err u8_secs < <(wrk_stats uncached8)
u8_fb=$measured_fb u8_rs=$measured_rs
run_wrk uncached "$unc_url" "$tmp/app-uncached.log"
read -r unc_rps unc_p50 unc_p99 unc_n unc_bad unc_err unc_secs < <(wrk_stats uncached)
unc_fb=$measured_fb unc_rs=$measured_rs
# Requests still in flight when wrk stops are logged but not counted by wrk.
[ "$u8_fb" -le "$u8_n" ] || u8_fb=$u8_n
[ "$unc_fb" -le "$unc_n" ] || unc_fb=$unc_n
# Server-rendered pages per second: wrk's requests less the client-rendered fallbacks.
rendered_rate() { awk -v n="$1" -v fb="$2" -v s="$3" 'BEGIN { r = (n - fb) / s; if (r < 0) r = 0; printf "%.0f", r }'; }
u8_rendered=$(rendered_rate "$u8_n" "$u8_fb" "$u8_secs")
unc_rendered=$(rendered_rate "$unc_n" "$unc_fb" "$unc_secs")

# ---------------------------------------------------------------------------- memory
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# Sum over the node children of an app (normally exactly one sidecar).
sidecar_kb() {
  local total=0 child
  for child in $(pgrep -P "$1" || true); do total=$((total + $(rss_kb "$child"))); done
  echo "$total"
}
# A sidecar may be between restarts right after the load: wait (bounded) for it to be back,
# and say so in the report.
side_note='' unc_side_note=''
for i in $(seq 1 100); do
  [ -n "$(pgrep -P "$pid_cached")" ] && [ -n "$(pgrep -P "$pid_uncached")" ] && break
  [ "$i" -eq 1 ] && say "waiting for a restarting sidecar to be back before reading memory"
  sleep 0.2
done
app_kb=$(rss_kb "$pid_cached")
side_kb=$(sidecar_kb "$pid_cached")
unc_app_kb=$(rss_kb "$pid_uncached")
unc_side_kb=$(sidecar_kb "$pid_uncached")
{ [ "$app_kb" -gt 0 ] && [ "$unc_app_kb" -gt 0 ]; } \
  || fail "cannot read the apps' resident memory ($app_kb / $unc_app_kb kB)"
[ "$(restarts "$tmp/app-cached.log")" -eq 0 ] || side_note=" (restarted during the run: a fresh process)"
[ "$(restarts "$tmp/app-uncached.log")" -eq 0 ] || unc_side_note=" (restarted during the run: a fresh process)"
[ "$side_kb" -gt 0 ] || side_note=" (no sidecar running)"
[ "$unc_side_kb" -gt 0 ] || unc_side_note=" (no sidecar running)"
# Stop the uncached instance before Lighthouse so it does not share the CPU.
stop_pid "$pid_uncached"

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
read -r lh_home_perf lh_home_a11y lh_home_bp lh_home_seo < <(lighthouse home "$base/")
read -r lh_art_perf lh_art_a11y lh_art_bp lh_art_seo < <(lighthouse article "$base$article_path")

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

half_nginx=$(awk -v n="$nginx_rps" 'BEGIN { printf "%.0f", n / 2 }')
ratio=$(awk -v a="$cached_rps" -v n="$nginx_rps" 'BEGIN { printf "%.2f", a / n }')
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

row() { printf '| %s | %s | %s | %s |\n' "$@"; }
wrk_row() { # name rps p50 p99 n non2xx errs
  printf '| %s | %s | %s ms | %s ms | %s | %s | %s |\n' "$1" "$(fmt "$2")" "$(fmt "$3" 2)" \
    "$(fmt "$4" 2)" "$(fmt "$5")" "$6" "$7"
}

report=$tmp/report.md
{
  echo "# The Agora — benchmark results"
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) CPUs ($cpu), $mem_total; $(uname -sr)"
  echo "- Build: agora $rev; nginx $(nginx -v 2>&1 | sed 's|.*nginx/||'); wrk $(wrk -v 2>&1 | awk 'NR == 1 { print $2 }'); node $(node --version); Lighthouse $lh_version, Chromium ${chrome_version:-?}"
  echo "- Load: wrk -t$threads -c$connections -d$duration --latency after a $warmup warm-up, on loopback; wrk and the servers share the same CPUs"
  echo "- Article: \`$article_path\` ($(fmt "$page_bytes") bytes of HTML, uncompressed as wrk asks for it)"
  echo
  echo "| Measure | Result | Goal | Verdict |"
  echo "|---|---|---|---|"
  row "nginx, static article (baseline)" "$(fmt "$nginx_rps") req/s, p50 $(fmt "$nginx_p50" 2) ms, p99 $(fmt "$nginx_p99" 2) ms" "—" "—"
  row "Cached article \`/article/{slug}\`, throughput" "$(fmt "$cached_rps") req/s (${ratio}× nginx)" "≥ 0.5× nginx (≥ $(fmt "$half_nginx") req/s)" "$(verdict ge "$cached_rps" "$half_nginx")"
  row "Cached article, p99 latency" "$(fmt "$cached_p99" 2) ms (p50 $(fmt "$cached_p50" 2) ms)" "< 10 ms" "$(verdict lt "$cached_p99" 10)"
  row "Uncached render through the sidecar ($connections connections)" "$(fmt "$unc_rendered") server-rendered pages/s (wrk: $(fmt "$unc_rps") req/s, of which $(fmt "$unc_fb") client-rendered fallbacks; sidecar restarts: $unc_rs), p50 $(fmt "$unc_p50" 2) ms, p99 $(fmt "$unc_p99" 2) ms" "≥ 500 pages/s" "$(verdict ge "$unc_rendered" 500)"
  row "Uncached render, 8 connections (diagnostic)" "$(fmt "$u8_rendered") server-rendered pages/s (fallbacks: $(fmt "$u8_fb"); restarts: $u8_rs), p50 $(fmt "$u8_p50" 2) ms, p99 $(fmt "$u8_p99" 2) ms" "—" "—"
  row "Listing API \`/api/v1/articles\`" "$(fmt "$api_rps") req/s, p50 $(fmt "$api_p50" 2) ms, p99 $(fmt "$api_p99" 2) ms" "≥ 20,000 req/s" "$(verdict ge "$api_rps" 20000)"
  row "App RSS after load (cached instance)" "$(mb "$app_kb") MB" "≤ 100 MB" "$(verdict under_mb "$app_kb" 100)"
  row "Sidecar RSS after load (cached instance)" "$(mb "$side_kb") MB$side_note" "≤ 150 MB" "$(verdict under_mb "$side_kb" 150)"
  row "App RSS after load (uncached instance)" "$(mb "$unc_app_kb") MB" "≤ 100 MB" "$(verdict under_mb "$unc_app_kb" 100)"
  row "Sidecar RSS after load (uncached instance, did the renders)" "$(mb "$unc_side_kb") MB$unc_side_note" "≤ 150 MB" "$(verdict under_mb "$unc_side_kb" 150)"
  for page in home article; do
    if [ "$page" = home ]; then
      label="\`/\`"; p=$lh_home_perf a=$lh_home_a11y b=$lh_home_bp s=$lh_home_seo
    else
      label="article"; p=$lh_art_perf a=$lh_art_a11y b=$lh_art_bp s=$lh_art_seo
    fi
    row "Lighthouse $label, performance (mobile)" "$p" "≥ 95" "$(verdict score_ok "$p" 95)"
    row "Lighthouse $label, accessibility" "$a" "100" "$(verdict score_ok "$a" 100)"
    row "Lighthouse $label, best practices" "$b" "100" "$(verdict score_ok "$b" 100)"
    row "Lighthouse $label, SEO" "$s" "100" "$(verdict score_ok "$s" 100)"
  done
  row "JavaScript shipped to an article page (gzip, on the wire)" "$js_kb KB ($(fmt "$js_bytes") bytes, ${#scripts[@]} file(s))" "≤ 100 KB" "$(verdict ge 100000 "$js_bytes")"
  echo
  echo "## Details"
  echo
  echo "| wrk target | req/s | p50 | p99 | requests | non-2xx/3xx | socket errors |"
  echo "|---|---|---|---|---|---|---|"
  wrk_row "nginx static" "$nginx_rps" "$nginx_p50" "$nginx_p99" "$nginx_n" "$nginx_bad" "$nginx_err"
  wrk_row "cached article" "$cached_rps" "$cached_p50" "$cached_p99" "$cached_n" "$cached_bad" "$cached_err"
  wrk_row "listing API" "$api_rps" "$api_p50" "$api_p99" "$api_n" "$api_bad" "$api_err"
  wrk_row "uncached render, 8 connections" "$u8_rps" "$u8_p50" "$u8_p99" "$u8_n" "$u8_bad" "$u8_err"
  wrk_row "uncached render" "$unc_rps" "$unc_p50" "$unc_p99" "$unc_n" "$unc_bad" "$unc_err"
  echo
  echo "- Client-rendered fallbacks (the sidecar failed or missed its deadline; the app answered 200 with the shell) during the measured runs: cached article $(fmt "$cached_fb"); uncached $(fmt "$u8_fb") at 8 connections, $(fmt "$unc_fb") at $connections. wrk counts them as requests; the server-rendered rates above leave them out."
  echo "- Supervised sidecar restarts over the whole run (warm-ups included): cached instance $(restarts "$tmp/app-cached.log"), uncached instance $(restarts "$tmp/app-uncached.log")."
  js_list=$(printf '%s; ' "${js_lines[@]}")
  echo "- Scripts of the article page: ${js_list%; }."
  for page in home article; do
    if [ -s "$tmp/lighthouse/$page.lost" ]; then
      echo "- Lighthouse audits below full score ($page):"
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
