#!/usr/bin/env bash
# The launch-announcement benchmark: an issue announced to COUNT (10,000) subscribers of the
# magazine list, delivered over SMTP into a local sink (scripts/smtp-sink.py); in the middle of
# it a reader registers, and the time until their confirmation email reaches the sink is the
# latency transactional mail sees during a send (goal: under 10 s). Reports total time,
# messages per second and duplicates; writes bench/results/announce.md.
#
# Usage: bench/announce.sh [path/to/agora]   (release build by default; `make bench` runs it)
# Environment: COUNT (10000), ANNOUNCEMENT_RATE_PER_MINUTE (600000: as fast as the outbox
#   takes them; production default 600), OUTBOX_POLL_SECONDS (1).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-target/release/agora}")
cd "$root"
count=${COUNT:-10000}
say() { echo "announce-bench: $*" >&2; }

dir=$(mktemp -d /tmp/agora-announce.XXXXXX)
free_port() { scripts/free-ports.py; }
port=$(free_port)
smtp=$(free_port)
inbox=$dir/inbox
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# Debian's python3 carries aiosmtpd (python3-aiosmtpd).
/usr/bin/python3 scripts/smtp-sink.py "$smtp" "$inbox" >"$dir/sink.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do grep -qs ready "$dir/sink.log" && break; sleep 0.1; done
grep -qs ready "$dir/sink.log" || { say "the SMTP sink did not start (python3-aiosmtpd)"; cat "$dir/sink.log"; exit 1; }
export DATA_DIR=$dir/data PORT=$port SITE_URL=http://127.0.0.1:$port
export DATABASE_URL=sqlite://$dir/data/agora.db SMTP_URL=smtp://127.0.0.1:$smtp
export ANNOUNCEMENT_RATE_PER_MINUTE=${ANNOUNCEMENT_RATE_PER_MINUTE:-600000}
export OUTBOX_POLL_SECONDS=${OUTBOX_POLL_SECONDS:-1} RUST_LOG=${RUST_LOG:-warn}
"$bin" migrate >"$dir/setup.log" 2>&1
key=$("$bin" staff add --name "Bench Admin" --role admin 2>>"$dir/setup.log" | tail -1)

say "adding $count subscribers"
python3 - "$dir/data/agora.db" "$count" <<'PY'
import hashlib, sqlite3, sys, uuid, datetime
db, n = sys.argv[1], int(sys.argv[2])
now = datetime.datetime.now(datetime.timezone.utc).isoformat()
con = sqlite3.connect(db)
con.executemany(
    "INSERT INTO magazine_notifications (id, email, unsubscribe_hash, created_at) VALUES (?, ?, ?, ?)",
    ((str(uuid.uuid4()), f"reader{i:05d}@example.org", hashlib.sha256(uuid.uuid4().bytes).hexdigest(), now) for i in range(n)),
)
con.commit()
PY

"$bin" serve >"$dir/app.log" 2>&1 &
pids+=($!)
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done
curl -fs "$base/readyz" >/dev/null || { say "app did not start"; tail -20 "$dir/app.log"; exit 1; }

. scripts/issue-helpers.sh
staff_publish_issue "$base" "$key" "$dir" "Bench Issue"

announced() { grep -l "Subject: New from The Agora: Bench Issue" "$inbox"/*.eml 2>/dev/null | wc -l; }
say "sending"
start=$(date +%s.%N)
curl -fs -o /dev/null -X POST -H "Origin: $base" -b "$cookie" "$base/api/v1/staff/magazines/$issue/announcement"

# In the middle of it, a reader registers: how long until their confirmation arrives.
waited=0
until [ "$(ls "$inbox" 2>/dev/null | wc -l)" -ge $((count / 2)) ]; do
  sleep 0.2; waited=$((waited + 1))
  [ "$waited" -lt 9000 ] || { say "half the messages did not arrive in 30 minutes"; tail -20 "$dir/app.log"; exit 1; }
done
reg=$(date +%s.%N)
curl -fs -o /dev/null -H "Origin: $base" -H 'content-type: application/json' \
  -d '{"first_name":"Mid","last_name":"Send","email":"mid-send@example.org","password":"correct horse","confirm_password":"correct horse","interests":[]}' \
  "$base/api/v1/accounts"
until grep -qs "To: mid-send@example.org" "$inbox"/*.eml; do
  sleep 0.05
  [ "$(date +%s)" -lt "$(( ${reg%.*} + 600 ))" ] || { say "the confirmation never arrived"; exit 1; }
done
confirmed=$(date +%s.%N)
queued_at=$(ls "$inbox" 2>/dev/null | wc -l)

deadline=$(( $(date +%s) + 1800 ))
# Every message in the sink is the announcement's but the one confirmation: count files
# while waiting (cheap), read them once at the end.
until [ "$(ls "$inbox" 2>/dev/null | wc -l)" -ge $((count + 1)) ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { say "not all delivered in 30 minutes"; break; }
  sleep 0.2
done
done_at=$(date +%s.%N)
delivered=$(announced)
distinct=$(grep -h "^X-Envelope-To:" $(grep -l "Subject: New from The Agora: Bench Issue" "$inbox"/*.eml) | sort -u | wc -l)
sleep 3
after=$(announced)

python3 - "$count" "$start" "$done_at" "$reg" "$confirmed" "$delivered" "$distinct" "$after" "$queued_at" <<'PY' | tee bench/results/announce.md
import sys
count, start, done, reg, conf, delivered, distinct, after, mid = sys.argv[1:]
count, delivered, distinct, after = int(count), int(delivered), int(distinct), int(after)
total = float(done) - float(start)
latency = float(conf) - float(reg)
print("| Announcement to %d subscribers (SMTP sink on loopback) | Measured | Goal |" % count)
print("|---|---|---|")
print("| Total time, send pressed → last message in the sink | %.1f s | — |" % total)
print("| Messages per second | %.0f | — |" % (delivered / total))
print("| Delivered / distinct recipients / duplicates | %d / %d / %d | %d / %d / 0 |" % (delivered, distinct, after - distinct, count, count))
print("| Confirmation email sent mid-send (%s messages in), registration → in the sink | %.2f s | < 10 s %s |" % (mid, latency, "met" if latency < 10 else "MISSED"))
PY
