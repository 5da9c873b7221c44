#!/usr/bin/env bash
# Mail once through crashes. Three instances on one PostgreSQL database send an issue's
# announcement to COUNT (2,000) magazine subscribers through an SMTP sink; meanwhile KILLS (3)
# times an instance picked at random is killed with SIGKILL at a random point of the send and
# started again. Then:
# - every subscriber got the announcement (0 missing);
# - duplicates are at most the messages in flight at the kills: an instance holds at most
#   OUTBOX_IN_FLIGHT (4) claimed messages, so 4 per kill, and a duplicate carries the same
#   Message-ID as the first copy (a mail client can tell);
# - the last message arrived within 60 s of the last kill (a dead instance's claims lapse
#   after JOB_CLAIM_SECONDS: 10 s here, 30 s by default);
# - a killed instance's rendering sidecar ends with it (within 5 s).
# MODE=digest sends the weekly digest to COUNT readers instead, due now. Its first kill takes
# every instance down while the run is queuing (at a tenth of the readers) and starts them
# again: the run must be taken over within 60 s, and everything arrive within 90 s of the last
# kill.
# Run under scripts/with-postgres.sh (`make test-cluster` does).
#   usage: mail-crash-check.sh path/to/agora
# Environment: MODE (announcement, digest), COUNT, KILLS, SEED (the random points; printed,
# to run a failure again), JOB_CLAIM_SECONDS (10: how long a dead instance's claims last).
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${MODE:-announcement}
count=${COUNT:-2000}
kills=${KILLS:-3}
seed=${SEED:-$RANDOM}
in_flight=4
say() { echo "mail-crash ($mode): $*" >&2; }
[ -n "${TEST_DATABASE_URL:-}" ] || { say "TEST_DATABASE_URL is not set (run under scripts/with-postgres.sh)"; exit 1; }

dir=$(mktemp -d /tmp/agora-mail-crash.XXXXXX)
declare -A pid
others=()
cleanup() {
  for p in "${pid[@]}" "${others[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "${keep:-}" ]; then say "logs kept in $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
free_port() { scripts/free-ports.py; }

db="agora_mail_crash_$$"
psql -q "$TEST_DATABASE_URL" -c "CREATE DATABASE $db"
smtp=$(free_port)
inbox=$dir/inbox
/usr/bin/python3 scripts/smtp-sink.py "$smtp" "$inbox" >"$dir/smtp.log" 2>&1 &
others+=($!)
for _ in $(seq 1 50); do grep -qs ready "$dir/smtp.log" && break; sleep 0.1; done
grep -qs ready "$dir/smtp.log" || { say "the SMTP sink did not start (python3-aiosmtpd)"; exit 1; }

declare -A port
# All three at once: asked for one by one, two of them may be the same.
read -r "port[a]" "port[b]" "port[c]" < <(scripts/free-ports.py 3)
export DATABASE_URL="${TEST_DATABASE_URL%/*}/$db" KEY_SECRET=mail-crash-secret \
  SMTP_URL="smtp://127.0.0.1:$smtp" SITE_URL="http://127.0.0.1:${port[a]}" \
  OUTBOX_POLL_SECONDS=1 ANNOUNCEMENT_RATE_PER_MINUTE=600000 RUST_LOG=warn \
  JOB_CLAIM_SECONDS=${JOB_CLAIM_SECONDS:-10}
DATA_DIR=$dir/a "$bin" migrate >"$dir/setup.log" 2>&1
key=$(DATA_DIR=$dir/a "$bin" staff add --name "Crash Admin" --role admin 2>>"$dir/setup.log" | tail -n 1)
if [ "$mode" = digest ]; then
  # Due now (this hour of this UTC day); the demo's pieces went live yesterday; every reader
  # confirmed and follows every category.
  export DIGEST_DAY=$(date -u +%A | tr 'A-Z' 'a-z') DIGEST_HOUR=$(date -u +%-H)
  DATA_DIR=$dir/a "$bin" seed --demo >>"$dir/setup.log" 2>&1
  psql -q "$DATABASE_URL" -c "UPDATE articles SET first_published_at = now() - interval '1 day'
    WHERE status = 'published'"
  psql -q "$DATABASE_URL" -c "INSERT INTO accounts (id, first_name, last_name, email, password_hash,
      interests, created_at, confirmed_at, digest_since, digest_unsubscribe_hash)
    SELECT 'crash-' || i, 'Reader', 'Number' || i, 'reader' || lpad(i::text, 5, '0') || '@example.org',
      'x', (SELECT json_agg(DISTINCT category)::text FROM articles), now(), now(), now(), md5('crash' || i)
    FROM generate_series(1, $count) AS i"
  subject="this week on"
else
  psql -q "$DATABASE_URL" -c "INSERT INTO magazine_notifications (id, email, unsubscribe_hash, created_at)
    SELECT 'crash-' || i, 'reader' || lpad(i::text, 5, '0') || '@example.org', md5('crash' || i), now()
    FROM generate_series(1, $count) AS i"
  subject="Crash Issue"
fi

start() {
  DATA_DIR=$dir/$1 PORT=${port[$1]} "$bin" serve >>"$dir/$1.log" 2>&1 &
  pid[$1]=$!
  for _ in $(seq 1 150); do
    curl -fs "http://127.0.0.1:${port[$1]}/readyz" >/dev/null && return 0
    sleep 0.1
  done
  keep=1; say "instance $1 did not start"; tail -n 20 "$dir/$1.log"; exit 1
}
for name in a b c; do start "$name"; done

base="http://127.0.0.1:${port[a]}"
if [ "$mode" = announcement ]; then
  . scripts/issue-helpers.sh
  staff_publish_issue "$base" "$key" "$dir" "Crash Issue"
fi

# The kills: at random numbers of messages in the sink (between 5% and 85% of the send), each
# of a random instance.
mapfile -t plan < <(python3 - "$seed" "$count" "$kills" <<'PY'
import random, sys
seed, count, kills = map(int, sys.argv[1:])
rng = random.Random(seed)
for at in sorted(rng.randint(count // 20, count * 85 // 100) for _ in range(kills)):
    print(at, rng.choice("abc"))
PY
)
say "seed $seed: kills at ${plan[*]}"
in_sink() { find "$inbox" -name '*.eml' | wc -l; }
# Kills instance $1 with SIGKILL; its rendering sidecar must end with it, not live on.
kill_instance() {
  local sidecars
  sidecars=$(pgrep -P "${pid[$1]}" || true)
  kill -9 "${pid[$1]}"
  wait "${pid[$1]}" 2>/dev/null || true
  for _ in $(seq 1 50); do
    local alive=0
    for p in $sidecars; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return 0
    sleep 0.1
  done
  keep=1; say "instance $1 was killed but its sidecar ($sidecars) lived on"; exit 1
}

sent_at=$(date +%s)
last_kill=$sent_at
killed=0
if [ "$mode" = announcement ]; then
  curl -fs -o /dev/null -X POST -H "Origin: $base" -b "$cookie" "$base/api/v1/staff/magazines/$issue/announcement"
else
  # The run starts at the job's next look (every few seconds); while it queues, every
  # instance dies at once and comes back.
  queued() { psql -tAq "$DATABASE_URL" -c "SELECT count(*) FROM digest_deliveries"; }
  until [ "$(queued)" -ge $(( count / 10 )) ]; do
    sleep 0.05
    [ $(( $(date +%s) - sent_at )) -lt 120 ] || { keep=1; say "the digest run did not start"; exit 1; }
  done
  for name in a b c; do kill_instance "$name"; done
  last_kill=$(date +%s)
  at_kill=$(queued)
  say "killed every instance with $at_kill of $count readers queued"
  for name in a b c; do start "$name"; done
  killed=3
  # The run is not heard from any more: an instance takes it over within a minute.
  until [ "$(queued)" -gt "$at_kill" ]; do
    sleep 0.2
    [ $(( $(date +%s) - last_kill )) -le 60 ] || { keep=1; say "the run was not taken over within 60 s"; exit 1; }
  done
  say "the run was taken over $(( $(date +%s) - last_kill )) s after the kill"

fi
for step in "${plan[@]}"; do
  read -r at name <<<"$step"
  until [ "$(in_sink)" -ge "$at" ]; do
    sleep 0.05
    [ $(( $(date +%s) - sent_at )) -lt 300 ] || { keep=1; say "stuck at $(in_sink) messages before a kill"; exit 1; }
  done
  kill_instance "$name"
  last_kill=$(date +%s)
  say "killed $name at $(in_sink) messages"
  killed=$(( killed + 1 ))
  start "$name"
done

# Every subscriber's copy, then a little longer for late duplicates.
reached() { find "$inbox" -name '*.eml' -exec grep -h '^X-Envelope-To:' {} + | sort -u | wc -l; }
within=60; [ "$mode" = digest ] && within=90
until [ "$(reached)" -ge "$count" ] || [ $(( $(date +%s) - last_kill )) -gt $(( within + 30 )) ]; do sleep 0.5; done
done_in=$(( $(date +%s) - last_kill ))
# A killed instance's claims lapse JOB_CLAIM_SECONDS after they were taken or renewed:
# whatever it had handed to the mail server but not marked sent goes again then. Wait for
# those copies too.
while [ $(( $(date +%s) - last_kill )) -lt $(( JOB_CLAIM_SECONDS + 6 )) ]; do sleep 1; done
python3 - "$inbox" "$subject" "$count" "$killed" "$in_flight" "$done_in" "$within" <<'PY' || { keep=1; exit 1; }
import collections, email, glob, os, sys
inbox, subject = sys.argv[1:3]
count, kills, in_flight, done_in, within = map(int, sys.argv[3:])
copies = collections.defaultdict(list)
for path in glob.glob(os.path.join(inbox, "*.eml")):
    with open(path, "rb") as fh:
        msg = email.message_from_binary_file(fh)
    if subject in str(msg["Subject"]):
        copies[msg["X-Envelope-To"]].append(msg["Message-ID"])
missing = count - len(copies)
duplicates = sum(len(ids) - 1 for ids in copies.values())
unrecognisable = sum(1 for ids in copies.values() if len(set(ids)) > 1)
bound = kills * in_flight
print(f"mail-crash: {count} readers, {kills} instances killed: {len(copies)} reached, {missing} missing, "
      f"{duplicates} duplicates (bound {bound}), each with its first copy's Message-ID: "
      f"{'yes' if not unrecognisable else 'NO'}; all in {done_in} s after the last kill")
ok = missing == 0 and duplicates <= bound and not unrecognisable and done_in <= within
sys.exit(0 if ok else 1)
PY
