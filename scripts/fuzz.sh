#!/usr/bin/env bash
# Contract fuzzing: every operation of openapi.json, with every schemathesis check on, against a
# fresh server on SQLite and (when TEST_DATABASE_URL is set, as scripts/with-postgres.sh does) on
# PostgreSQL; the public operations anonymous, the staff ones with a signed-in admin session,
# the reader ones with a signed-in reader's.
# Operations that end that session (sign-out, key rotation, disabling a member; the reader's
# account deletion) are left out; they have their own API tests. Fails on any server error or
# contract violation.
#   scripts/fuzz.sh target/debug/agora
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
examples=${FUZZ_EXAMPLES:-40}
# A fixed seed, so a run repeats; another one (FUZZ_SEED) explores other inputs.
seed=${FUZZ_SEED:-20261123}
# The Python that has schemathesis; it runs through scripts/fuzz-st.py (one fix, said there).
python=${SCHEMATHESIS_PYTHON:-python3}
"$python" -c 'import schemathesis' 2>/dev/null ||
  { echo "schemathesis is not installed (make test-fuzz installs it)"; exit 1; }

work=$(mktemp -d /tmp/agora-fuzz.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { scripts/free-ports.py; }

# Starts a server on a fresh database of $1 (sqlite|postgres); sets $base, $admin_cookie and
# $reader_cookie.
start() {
  local engine=$1 dir=$work/$1 port
  port=$(free_port)
  mkdir -p "$dir"
  export DATA_DIR=$dir/data PORT=$port SITE_URL=http://127.0.0.1:$port RUST_LOG=warn
  # No sidecar: pages are not fuzzed here, and the shell fallback is enough for the API.
  export SSR_URL=http://127.0.0.1:9
  # The fuzzer sends thousands of requests from one address.
  export FORM_LIMIT_PER_ADDRESS=1000000 LOGIN_FAILURES_PER_MINUTE=1000000 \
    LOGIN_FAILURES_GLOBAL_PER_MINUTE=1000000 VIEW_BEACONS_PER_MINUTE=1000000 \
    READER_SIGN_IN_FAILURES=1000000
  # The reader's confirmation email, written to the outbox folder, is read at once.
  export OUTBOX_POLL_SECONDS=1
  if [ "$engine" = postgres ]; then
    local name="agora_fuzz_$(date +%s%N)"
    psql "$TEST_DATABASE_URL" -qc "CREATE DATABASE $name" >/dev/null
    export DATABASE_URL="${TEST_DATABASE_URL%/*}/$name"
  else
    export DATABASE_URL=sqlite://$dir/data/agora.db
  fi
  "$bin" migrate >"$dir/setup.log" 2>&1
  "$bin" seed --demo >>"$dir/setup.log" 2>&1
  local key
  key=$("$bin" staff add --name "Fuzz Admin" --role admin 2>>"$dir/setup.log" | tail -1)
  "$bin" serve >"$dir/app.log" 2>&1 &
  pids+=($!)
  base=http://127.0.0.1:$port
  for _ in $(seq 1 100); do
    curl -fs "$base/healthz" >/dev/null && break
    sleep 0.2
  done
  admin_cookie=$(curl -fs -D - -o /dev/null -H 'content-type: application/json' \
    -d "{\"access_key\": \"$key\"}" "$base/api/v1/session" |
    sed -n 's/^[Ss]et-[Cc]ookie: \(agora_session=[^;]*\).*/\1/p')
  [ -n "$admin_cookie" ] || { echo "fuzz: could not sign in the admin"; cat "$dir/setup.log"; exit 1; }
  reader_cookie=$("$python" scripts/fuzz-reader.py "$base" "$DATA_DIR/outbox") ||
    { echo "fuzz: could not sign in a reader"; tail -20 "$dir/app.log"; exit 1; }
}

run() {
  local label=$1 config=$2
  shift 2
  echo "--- fuzz: $label"
  if ! "$python" scripts/fuzz-st.py --config-file "$config" run "$base/api/openapi.json" --url "$base/api" \
    --max-examples "$examples" --seed "$seed" --no-color \
    --suppress-health-check all "$@"; then
    echo "fuzz: $label failed; last lines of the app log:"
    tail -30 "$DATA_DIR/../app.log"
    exit 1
  fi
}

# One engine's runs: the operations open to anyone anonymously, then those that need a staff
# session with a signed-in admin, then those that need a reader's with a signed-in reader. Each
# operation is fuzzed once: a public one with a cookie would be the same requests again. Each
# session goes through the contract's security scheme, so the fuzzer also sends its operations
# without it (ignored_auth).
STAFF='/security/0/StaffSession == []'
READER='/security/0/ReaderSession == []'
# schemathesis takes one --exclude-by (the last wins): the reader operations are left out of the
# anonymous run by their ids, read from the contract.
not_reader=$(python3 -c '
import json, sys
for path in json.load(open(sys.argv[1]))["paths"].values():
    for op in path.values():
        if any("ReaderSession" in s for s in op.get("security") or []):
            print("--exclude-operation-id", op["operationId"])
' openapi.json)
fuzz_engine() {
  start "$1"
  # shellcheck disable=SC2086 # one word per option and operation id
  run "$1, anonymous" scripts/fuzz.toml --exclude-by "$STAFF" $not_reader
  { cat scripts/fuzz.toml; printf '\n[auth.openapi.StaffSession]\napi_key = "${AGORA_FUZZ_SESSION}"\n'; } \
    >"$work/$1-admin.toml"
  AGORA_FUZZ_SESSION=${admin_cookie#agora_session=} run "$1, signed-in admin" "$work/$1-admin.toml" \
    --include-by "$STAFF" \
    --exclude-operation-id logout --exclude-operation-id rotateStaffKey \
    --exclude-operation-id setStaffActive
  # Deleting the account ends the session (it has its own API and browser tests).
  { cat scripts/fuzz.toml; printf '\n[auth.openapi.ReaderSession]\napi_key = "${AGORA_FUZZ_READER}"\n'; } \
    >"$work/$1-reader.toml"
  AGORA_FUZZ_READER=$reader_cookie run "$1, signed-in reader" "$work/$1-reader.toml" \
    --include-by "$READER" --exclude-operation-id deleteAccount
}

engines=(sqlite)
[ -n "${TEST_DATABASE_URL:-}" ] && engines+=(postgres)
# The engines are fuzzed side by side (the fuzzer takes a core each), each on its own server;
# their reports are printed one after the other.
jobs=()
for engine in "${engines[@]}"; do
  (
    pids=()
    trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
    fuzz_engine "$engine"
  ) >"$work/$engine.out" 2>&1 &
  jobs+=($!)
done
failed=0
for i in "${!engines[@]}"; do
  wait "${jobs[$i]}" || failed=1
  cat "$work/${engines[$i]}.out"
done
[ $failed = 0 ] || { echo "fuzz: failed (see above)"; exit 1; }
echo "fuzz: no server errors and no contract violations"
