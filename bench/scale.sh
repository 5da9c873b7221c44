#!/usr/bin/env bash
# 100× the demo, on both engines: `agora seed --bulk` (ARTICLES, default 100000, and VIEWS page
# views, default 5000000) into a fresh SQLite file and a fresh PostgreSQL database, timed; then
# each served by the release build and measured by bench/scale.py (first-time listing and
# search answers, the admin's figures, the sitemap, memory). Prints a table; writes
# bench/results/scale.md.
# usage: bench/scale.sh [path/to/agora]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-target/release/agora}")
cd "$root"
articles=${ARTICLES:-100000}
views=${VIEWS:-5000000}
tmp=$(mktemp -d /tmp/agora-scale.XXXXXX)
chmod 755 "$tmp"
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null && wait "$app" 2>/dev/null
  [ -d "$tmp/pg" ] && scripts/pg-cluster.sh stop "$tmp/pg"
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p bench/results
out=bench/results/scale.md
{
  echo "# 100× the demo: $articles articles, $views page views"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; \`bench/scale.sh\` (${bin#"$root"/})."
  echo
} >"$out"

run_engine() {
  local engine=$1 url=$2
  local data=$tmp/$engine
  mkdir -p "$data"
  export DATABASE_URL=$url DATA_DIR=$data KEY_SECRET=scale-bench
  "$bin" migrate >/dev/null
  local key
  key=$("$bin" staff add --name "Scale Admin" --role admin | tail -n 1)
  local editor
  editor=$("$bin" staff add --name "Scale Editor" --role content-director | tail -n 1)
  local started seeded
  started=$(date +%s.%N)
  seeded=$("$bin" seed --bulk "$articles" --views "$views" | tail -n 1)
  local took
  took=$(python3 -c "import time; print(round(time.time() - $started, 1))")
  echo "bench: $engine: $seeded (command: $took s)" >&2
  local port
  port=$(free_port)
  PORT=$port "$bin" serve >"$tmp/$engine.log" 2>&1 &
  app=$!
  for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
  local result
  result=$(python3 bench/scale.py "http://127.0.0.1:$port" "$key" "$app" --editor-key "$editor")
  kill "$app"; wait "$app" 2>/dev/null || true; app=""
  python3 - "$engine" "$seeded" "$took" "$result" >>"$out" <<'PY'
import json, sys
engine, seeded, took, result = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
print(f"## {engine}\n\n- seed: {seeded} (whole command {took} s)")
for name in ("listing_uncached", "search_mix", "search_first_page", "search_deep_page",
             "search_common_word", "search_two_words", "search_phrase", "search_prefix",
             "search_rare_word", "search_typo", "article_save", "admin_stats"):
    if name not in result:
        continue
    r = result[name]
    print(f"- {name.replace('_', ' ')}: median {r['median_ms']} ms, p99 {r['p99_ms']} ms, "
          f"max {r['max_ms']} ms ({r['requests']} requests)")
s = result["sitemap"]
print(f"- sitemap: /sitemap.xml {s['index_ms']} ms, "
      + (f"an index of {s['parts']} parts; /sitemap-1.xml {s['part1_urls']} URLs, "
         f"{s['part1_bytes']} bytes, {s['part1_ms']} ms" if s["is_index"] else "one file"))
m = result["memory_mb"]
print(f"- app memory after the run: {m['rss']} MB resident (peak {m['peak']} MB)\n")
PY
}

run_engine sqlite "sqlite://$tmp/sqlite/agora.db"
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "${BENCH_POSTGRES:-auto}" != 0 ]; then
  pg=$(scripts/pg-cluster.sh start "$tmp/pg")
  run_engine postgres "$pg"
fi
cat "$out"
