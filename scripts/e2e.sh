#!/usr/bin/env bash
# End-to-end: start the built app (fresh SQLite database + demo content, supervised sidecar)
# on a free port, run the Playwright suite in Debian's Chromium against it, then check that
# SIGTERM drains, stops the sidecar and exits 0.
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

dir=$(mktemp -d /tmp/agora-e2e.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export DATA_DIR=$dir/data PORT=$port SITE_URL=http://127.0.0.1:$port
export DATABASE_URL=sqlite://$dir/data/agora.db RUST_LOG=${RUST_LOG:-info}
# Every browser test comes from one address; the per-address form limit has its own API test.
export FORM_LIMIT_PER_ADDRESS=${FORM_LIMIT_PER_ADDRESS:-1000}
export VIEW_BEACONS_PER_MINUTE=${VIEW_BEACONS_PER_MINUTE:-10000}
# Email is written as files (no SMTP_URL), which the reader tests open; deliver them promptly.
export OUTBOX_POLL_SECONDS=${OUTBOX_POLL_SECONDS:-1}
# The tests read server-rendered markup. In production a render slower than 300 ms gives the
# reader the client-rendered shell; on a CI box busy with other test suites the sidecar's first
# renders can take longer than that, which would fail those tests for a reason that is not theirs.
export SSR_DEADLINE_MS=${SSR_DEADLINE_MS:-5000}

"$bin" migrate >"$dir/setup.log" 2>&1
"$bin" seed --demo >>"$dir/setup.log" 2>&1
"$bin" serve >"$dir/app.log" 2>&1 &
pid=$!
# A second app whose newsroom requires review (its own database), for the specs of that mode.
review_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
review_db=sqlite://$dir/review/agora.db
mkdir -p "$dir/review"
(export DATA_DIR=$dir/review PORT=$review_port SITE_URL=http://127.0.0.1:$review_port \
   DATABASE_URL=$review_db REVIEW_REQUIRED=true
 "$bin" migrate >>"$dir/setup.log" 2>&1
 exec "$bin" serve >"$dir/review.log" 2>&1) &
review_pid=$!
cleanup() {
  kill "$pid" "$review_pid" 2>/dev/null || true
  wait "$pid" "$review_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { echo "app did not become ready"; cat "$dir/app.log"; exit 1; }
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$review_port/readyz" >/dev/null && break
  sleep 0.2
done
curl -fs "http://127.0.0.1:$review_port/readyz" >/dev/null || { echo "the review-required app did not become ready"; cat "$dir/review.log"; exit 1; }

status=0
BASE_URL=http://127.0.0.1:$port AGORA_PID=$pid AGORA_BIN="$bin" MAIL_DIR=$DATA_DIR/outbox \
  REVIEW_BASE_URL=http://127.0.0.1:$review_port REVIEW_DATABASE_URL=$review_db REVIEW_DATA_DIR=$dir/review \
  npm exec -w web-client -- playwright test "${@:2}" 2>&1 | tee "$dir/playwright.log" || status=$?
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
  plain() { sed 's/\x1b\[[0-9;]*m//g' "$dir/app.log"; }
  echo "--- app log: warnings and errors (last 20) ---"; plain | grep -E ' (WARN|ERROR) ' | tail -20 || true
  echo "--- app log (last 20 lines) ---"; plain | tail -20
  # Last, so that an output cut to its tail still says what failed and why.
  echo "--- failed tests ---"; failures
  grep -E '✘' "$dir/playwright.log" | tail -20 || true
  exit 1
fi

# The sidecar names, once, each kind of page it met with elements the build's samples lack
# (web-client/src/entry-samples.ts): their CSS was found as they were rendered. The pages
# readers and crawlers open most (home, listing, article, issue, 404) must never be among them;
# a form's rarer states (answered with an error) may.
if grep -q "critical CSS: a " "$dir/app.log"; then
  echo "--- pages unlike the build's samples (their CSS was found as they were rendered) ---"
  sed 's/ (web-client[^)]*)//' "$dir/app.log" | grep "critical CSS: a " | cut -c1-300
  if grep -qE "critical CSS: a (/|/articles|/article/\*|/magazine/\*|404) page" "$dir/app.log"; then
    echo "the build's samples must cover the home, listing, article, issue and 404 pages"
    exit 1
  fi
fi

# Graceful stop: SIGTERM ends the app with status 0 and takes the sidecar with it.
sidecar_pids=$(pgrep -P "$pid" || true)
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
if [ "$status" -ne 0 ]; then echo "SIGTERM: app exited with $status"; tail -20 "$dir/app.log"; exit 1; fi
for p in $sidecar_pids; do
  if kill -0 "$p" 2>/dev/null; then echo "SIGTERM: sidecar $p still running"; exit 1; fi
done
echo "SIGTERM: app exited 0 and stopped the sidecar"
