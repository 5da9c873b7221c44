#!/usr/bin/env bash
# End-to-end: start the built app four times (below: each with a fresh SQLite database, its
# own data folder and supervised sidecar) on free ports, run the Playwright suite in Debian's
# Chromium against them, then check that SIGTERM drains, stops the sidecar and exits 0.
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

dir=$(mktemp -d /tmp/agora-e2e.XXXXXX)
free_port() { scripts/free-ports.py; }
export RUST_LOG=${RUST_LOG:-info}
# Every browser test comes from one address; the per-address form limit has its own API test.
export FORM_LIMIT_PER_ADDRESS=${FORM_LIMIT_PER_ADDRESS:-1000}
export VIEW_BEACONS_PER_MINUTE=${VIEW_BEACONS_PER_MINUTE:-10000}
# Email is written as files (no SMTP_URL), which the reader tests open; deliver them promptly.
export OUTBOX_POLL_SECONDS=${OUTBOX_POLL_SECONDS:-1}
# The tests read server-rendered markup. In production a render slower than 300 ms gives the
# reader the client-rendered shell; on a CI box busy with other test suites the sidecar's first
# renders can take longer than that, which would fail those tests for a reason that is not theirs.
export SSR_DEADLINE_MS=${SSR_DEADLINE_MS:-5000}

# One app per kind of spec (web-client/e2e/apps.ts), each with its own SQLite database, data
# folder and sidecar, so that no spec changes what another one reads:
#   reader    the public pages, forms and reader accounts (demo content)
#   newsroom  the staff dashboards, which publish and delete articles (demo content)
#   sidecar   the spec that kills the rendering sidecar (demo content)
#   review    a newsroom that requires review (empty)
# start_app NAME demo|empty [VAR=value ...]: migrates (and seeds) it, then serves it.
names=() pids=() apps_json=""
start_app() {
  local name=$1 content=$2 port data
  shift 2
  port=$(free_port)
  data=$dir/$name
  mkdir -p "$data"
  (export DATA_DIR=$data PORT=$port SITE_URL=http://127.0.0.1:$port \
     DATABASE_URL=sqlite://$data/agora.db "$@"
   "$bin" migrate >"$data/setup.log" 2>&1
   if [ "$content" = demo ]; then "$bin" seed --demo >>"$data/setup.log" 2>&1; fi
   exec "$bin" serve >"$data/app.log" 2>&1) &
  names+=("$name")
  pids+=("$!")
  apps_json+="${apps_json:+,}\"$name\":{\"url\":\"http://127.0.0.1:$port\",\"databaseUrl\":\"sqlite://$data/agora.db\",\"dataDir\":\"$data\",\"pid\":$!}"
}
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
start_app reader demo
start_app newsroom demo
start_app sidecar demo
start_app review empty REVIEW_REQUIRED=true
export E2E_APPS="{$apps_json}"
url_of() { python3 -c 'import json,os,sys; print(json.loads(os.environ["E2E_APPS"])[sys.argv[1]]["url"])' "$1"; }

for name in "${names[@]}"; do
  url=$(url_of "$name")
  for _ in $(seq 1 150); do
    curl -fs "$url/readyz" >/dev/null && break
    sleep 0.2
  done
  curl -fs "$url/readyz" >/dev/null || {
    echo "the $name app did not become ready"; cat "$dir/$name/setup.log" "$dir/$name/app.log"; exit 1; }
done
reader_pid=${pids[0]}

status=0
AGORA_BIN="$bin" npm exec -w web-client -- playwright test "${@:2}" 2>&1 | tee "$dir/playwright.log" || status=$?
# Each failure's title, error and the test line it stopped at (without the code frame and
# attachments): for failed tests, and for flaky ones (failed once, then passed on the retry).
failures() {
  awk '/^  [0-9]+\) /{on=1} /^  [0-9]+ (failed|flaky|did not run|passed|skipped)/{on=0}
       on && !/^ *([0-9]+ \||>|\||attachment|─|test-results|Error Context)/ && NF' \
    "$dir/playwright.log" | head -60 || true
}
# A flaky test (failed, then passed on the retry) fails the run (failOnFlakyTests); its first
# failure is printed with the others below, and its trace is kept in web-client/test-results.
if grep -qE '^ +[0-9]+ flaky' "$dir/playwright.log"; then
  echo "--- flaky tests (failed, then passed on the retry): a failure ---"
  [ "$status" -ne 0 ] || status=1
fi
if [ "$status" -ne 0 ]; then
  for name in "${names[@]}"; do
    plain() { sed 's/\x1b\[[0-9;]*m//g' "$dir/$name/app.log"; }
    echo "--- $name app log: warnings and errors (last 20) ---"; plain | grep -E ' (WARN|ERROR) ' | tail -20 || true
    echo "--- $name app log (last 10 lines) ---"; plain | tail -10
  done
  # Last, so that an output cut to its tail still says what failed and why.
  echo "--- failed tests ---"; failures
  grep -E '✘' "$dir/playwright.log" | tail -20 || true
  exit 1
fi

# The sidecar names, once, each kind of page it met with elements the build's samples lack
# (web-client/src/entry-samples.ts): their CSS was found as they were rendered. The pages
# readers and crawlers open most (home, listing, article, issue, 404) must never be among them;
# a form's rarer states (answered with an error) may.
logs=("$dir"/*/app.log)
if grep -qh "critical CSS: a " "${logs[@]}"; then
  echo "--- pages unlike the build's samples (their CSS was found as they were rendered) ---"
  sed 's/ (web-client[^)]*)//' "${logs[@]}" | grep "critical CSS: a " | cut -c1-300 | sort -u
  if grep -qhE "critical CSS: a (/|/articles|/article/\*|/magazine/\*|404) page" "${logs[@]}"; then
    echo "the build's samples must cover the home, listing, article, issue and 404 pages"
    exit 1
  fi
fi

# Graceful stop: SIGTERM ends the app with status 0 and takes the sidecar with it.
sidecar_pids=$(pgrep -P "$reader_pid" || true)
kill -TERM "$reader_pid"
status=0
wait "$reader_pid" || status=$?
if [ "$status" -ne 0 ]; then echo "SIGTERM: app exited with $status"; tail -20 "$dir/reader/app.log"; exit 1; fi
for p in $sidecar_pids; do
  if kill -0 "$p" 2>/dev/null; then echo "SIGTERM: sidecar $p still running"; exit 1; fi
done
echo "SIGTERM: app exited 0 and stopped the sidecar"
