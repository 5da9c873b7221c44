#!/usr/bin/env bash
# Runs a command with a local S3-compatible server (moto, in its own virtualenv under target/)
# and the variables the S3 storage backend and its tests read: TEST_S3_ENDPOINT, the AWS_*
# credentials, region and endpoint, and a bucket `agora-test`. With TEST_S3_ENDPOINT already
# set, the command runs against that server. REQUIRE_S3=1 fails when none can be started.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${TEST_S3_ENDPOINT:-}" ]; then
  exec "$@"
fi
venv=$root/target/s3-venv
if [ ! -x "$venv/bin/moto_server" ] || [ "$root/scripts/s3-requirements.txt" -nt "$venv/bin/moto_server" ]; then
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check \
      -r "$root/scripts/s3-requirements.txt" && touch "$venv/bin/moto_server"; }; then
    if [ -n "${REQUIRE_S3:-}" ]; then
      echo "error: cannot install the local S3 server (moto) and REQUIRE_S3 is set" >&2
      exit 1
    fi
    printf '\n*** No local S3 server: the S3 storage tests are skipped. ***\n\n' >&2
    exec "$@"
  fi
fi
log=$(mktemp /tmp/agora-s3.XXXXXX)
moto=
trap '[ -n "$moto" ] && { kill $moto 2>/dev/null; wait $moto 2>/dev/null; }; rm -f "$log"' EXIT
# A free port is free when asked for, not when the server binds it (checks starting at the
# same moment may be given the same one): a server that exits before it answers is started
# again on another port.
for attempt in 1 2 3 4 5; do
  port=$("$(dirname "$0")/free-ports.py")
  "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
  moto=$!
  export TEST_S3_ENDPOINT=http://127.0.0.1:$port
  for _ in $(seq 1 300); do
    curl -fs "$TEST_S3_ENDPOINT/" >/dev/null 2>&1 && break 2
    kill -0 $moto 2>/dev/null || break
    sleep 0.1
  done
  kill $moto 2>/dev/null || true; wait $moto 2>/dev/null || true
  moto=
  echo "with-s3: the S3 server did not start on port $port (attempt $attempt):" >&2
  tail -n 5 "$log" >&2
done
[ -n "$moto" ] || { echo "with-s3: no S3 server could be started" >&2; exit 1; }
curl -fs -X PUT "$TEST_S3_ENDPOINT/agora-test" >/dev/null
export AWS_ENDPOINT_URL=$TEST_S3_ENDPOINT AWS_ALLOW_HTTP=true AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
echo "S3-compatible test server: $TEST_S3_ENDPOINT (bucket agora-test)" >&2
"$@"
