#!/usr/bin/env python3
"""The fault runs on two instances (scripts/fault-runs.sh starts them): the sidecar saturated,
PostgreSQL restarted under load, the S3 server frozen and then stopped. Each run prints what
readers, writers and a load balancer's health checks saw, and fails when a promise breaks:

- saturation: no sidecar restart, /readyz 200 on every poll, every request answered 200;
- PostgreSQL down: a signed-in writer is never told 401, nothing answers 500, writes work
  again within 10 s of the database, the session holds;
- S3 frozen or stopped: uploads answer 503 with Retry-After within their deadline (never
  hang), pages keep being served, /readyz stays 200 and answers within 2 s, saying
  "unreachable"; uploads work again within 10 s of the store.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import threading
import time

from check_support import call, png
from check_support import metric as shared_metric

parser = argparse.ArgumentParser()
parser.add_argument("--a", required=True)
parser.add_argument("--b", required=True)
parser.add_argument("--key", required=True, help="an admin's access key")
parser.add_argument("--writer-key", required=True)
parser.add_argument("--metrics-token", required=True)
parser.add_argument("--pg-dir", required=True, help="the cluster directory (pg-cluster.sh)")
parser.add_argument("--s3-pid", type=int, required=True)
parser.add_argument("--s3-restart", required=True, help="a command that starts the S3 server again")
parser.add_argument("--saturate-seconds", type=float, default=60)
parser.add_argument("--storage-timeout", type=float, default=30,
                    help="STORAGE_TIMEOUT_SECONDS of the instances: how long a frozen S3 holds an upload")
parser.add_argument("--readers", type=int, default=24)
parser.add_argument("--report", help="write the figures here as JSON")
args = parser.parse_args()
bases = [args.a, args.b]
report = {}
failures = []


def fail(what):
    print(f"FAIL: {what}", flush=True)
    failures.append(what)


def ok(what):
    print(f"ok: {what}", flush=True)


def sign_in(base, key):
    status, headers, _, _ = call("POST", f"{base}/api/v1/session", {"access_key": key})
    if status != 200:
        raise SystemExit(f"sign-in on {base} answered {status}")
    return headers["set-cookie"].split(";")[0]


def metric(base, name):
    return shared_metric(base, args.metrics_token, name)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else 0.0


class Background:
    """Runs `work(stop)` on `n` threads until stopped; each appends to `results`."""

    def __init__(self, n, work):
        self.stop = threading.Event()
        self.results = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(work, i), daemon=True)
                        for i in range(n)]

    def _run(self, work, i):
        while not self.stop.is_set():
            got = work(i)
            with self.lock:
                self.results.append((time.monotonic(), *got))

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join()


def readyz_poll(i):
    base = bases[i % 2]
    started = time.monotonic()
    status, _, body, took = call("GET", f"{base}/readyz", timeout=10)
    time.sleep(0.5)
    try:
        state = json.loads(body)
    except ValueError:
        state = {}
    return base, status, took, state, started


def draft(base, cookie, title):
    status, _, _, took = call("POST", f"{base}/api/v1/staff/articles",
                              {"title": title, "content": "Saved under faults.", "status": "draft"},
                              cookie=cookie, timeout=30)
    return status, took


def upload_cover(base, cookie, timeout=90):
    boundary = "----faults"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.png\"\r\n"
            f"Content-Type: image/png\r\n\r\n").encode() + png() + f"\r\n--{boundary}--\r\n".encode()
    return call("POST", f"{base}/api/v1/staff/covers", cookie=cookie, raw=body, timeout=timeout,
                headers={"content-type": f"multipart/form-data; boundary={boundary}"})


admin = {b: sign_in(b, args.key) for b in bases}
writer = {b: sign_in(b, args.writer_key) for b in bases}
_, _, listing, _ = call("GET", f"{args.a}/api/v1/articles?limit=12")
slugs = [a["slug"] for a in json.loads(listing)["items"]]
pages = ["/", "/articles", "/about"] + [f"/article/{s}" for s in slugs]

# --- 1. The sidecar saturated: every page is rendered (PAGE_CACHE=false), by readers on both
# instances, while writers save.
counters = ["agora_sidecar_restarts_total", "agora_sidecar_busy_renders_total",
            "agora_sidecar_health_checks_missed_total", "agora_sidecar_failed_renders_total"]
before = {b: {c: metric(b, c) for c in counters} for b in bases}


def reader(i):
    base = bases[i % 2]
    path = pages[(i + int(time.monotonic() * 1000)) % len(pages)]
    status, _, _, took = call("GET", f"{base}{path}", timeout=30)
    return base, status, took


def saving(i):
    base = bases[i % 2]
    got = draft(base, writer[base], f"Saturation draft {i}")
    time.sleep(0.5)
    return (base, *got)


started = time.monotonic()
with Background(2, readyz_poll) as polls, Background(args.readers, reader) as reads, \
        Background(2, saving) as saves:
    time.sleep(args.saturate_seconds)
elapsed = time.monotonic() - started
after = {b: {c: metric(b, c) for c in counters} for b in bases}
delta = {c: sum(after[b][c] - before[b][c] for b in bases) for c in counters}
statuses = [r[2] for r in reads.results]
took = [r[3] for r in reads.results]
unanswered = [s for s in statuses if s != 200]
ready = [r[2] for r in polls.results]
states = sorted({r[4].get("sidecar", "?") for r in polls.results})
saved = [r[2] for r in saves.results]
report["saturation"] = {
    "seconds": round(elapsed), "readers": args.readers, "requests": len(statuses),
    "per_second": round(len(statuses) / elapsed), "median_ms": round(statistics.median(took) * 1000),
    "p99_ms": round(pct(took, 0.99) * 1000), "not_200": len(unanswered),
    "busy_renders": int(delta[counters[1]]), "health_checks_missed": int(delta[counters[2]]),
    "late_renders": int(delta[counters[3]]),
    "restarts": int(delta[counters[0]]), "readyz_polls": len(ready),
    "readyz_not_200": sum(1 for s in ready if s != 200), "sidecar_states": states,
    "saves": len(saved), "saves_failed": sum(1 for s in saved if s not in (200, 201)),
}
r = report["saturation"]
print(f"saturation: {r}", flush=True)
if r["restarts"]:
    fail(f"the sidecar was restarted {r['restarts']} times under load")
if r["readyz_not_200"]:
    fail(f"/readyz answered other than 200 on {r['readyz_not_200']} of {r['readyz_polls']} polls")
if unanswered:
    fail(f"{len(unanswered)} of {len(statuses)} page requests not answered 200: "
         f"{sorted(set(unanswered))}")
if r["saves_failed"]:
    fail(f"{r['saves_failed']} of {r['saves']} saves failed under load")
if not failures:
    ok(f"{args.saturate_seconds:.0f} s of {args.readers} readers and 2 writers on two instances: "
       f"{r['requests']} pages all answered (p99 {r['p99_ms']} ms; the shell served for "
       f"{r['busy_renders']} renders waiting for a slot and {r['late_renders']} late ones), "
       f"0 restarts, /readyz 200 on {r['readyz_polls']} polls")

# --- 2. PostgreSQL down for 5 s under load.
count_before = len(failures)


def listing_reader(i):
    base = bases[i % 2]
    path = ["/api/v1/articles?limit=12", "/articles", pages[-1]][i % 3]
    status, _, _, took = call("GET", f"{base}{path}", timeout=30)
    time.sleep(0.05)
    return base, status, took


def writing(i):
    base = bases[i % 2]
    got = draft(base, writer[base], f"Outage draft {i}")
    time.sleep(0.2)
    return (base, *got)


with Background(2, readyz_poll) as polls, Background(6, listing_reader) as reads, \
        Background(2, writing) as writes:
    time.sleep(4)
    # Timed from when the server is down (a shutdown under load takes a while on a slow
    # machine) until it is back.
    subprocess.run(["scripts/pg-cluster.sh", "down", args.pg_dir], check=True)
    down_at = time.monotonic()
    time.sleep(5)
    # The server can answer from here on: `up` returns only some time after it does (it
    # waits for the server by polling, slowly on a loaded machine).
    up_at = time.monotonic()
    subprocess.run(["scripts/pg-cluster.sh", "up", args.pg_dir], check=True)
    back_at = time.monotonic()
    # Until a write has worked again on each instance (12 s at most; more than 10 is a
    # failure below), then 2 s more of load: nothing may answer 500 as the pool refills.
    while time.monotonic() < back_at + 12:
        with writes.lock:
            ok_again = {r[1] for r in writes.results if r[0] > back_at and r[2] in (200, 201)}
        if len(ok_again) == len(bases):
            time.sleep(2)
            break
        time.sleep(0.1)
writes_seen = sorted({r[2] for r in writes.results})
reads_seen = sorted({r[2] for r in reads.results})
after_back = [r for r in writes.results if r[0] > back_at and r[2] in (200, 201)]
recovered = (after_back[0][0] - back_at) if after_back else None
# Polls asked and answered while the database was down: asked a second after it stopped,
# answered before it was started again (a poll waiting meanwhile may see it back).
during = [r for r in polls.results if down_at + 1 < r[5] and r[5] + r[3] < up_at]
report["postgres_outage"] = {
    "down_seconds": round(back_at - down_at, 1), "writes": len(writes.results),
    "write_statuses": writes_seen, "read_statuses": reads_seen,
    "writes_ok_again_after_s": None if recovered is None else round(recovered, 1),
    "readyz_during": sorted({r[2] for r in during}), "readyz_polls_during": len(during),
    "readyz_during_max_s": round(max((r[3] for r in during), default=0), 1),
    "writes_503": sum(1 for r in writes.results if r[2] == 503),
}
r = report["postgres_outage"]
print(f"postgres outage: {r}", flush=True)
if 401 in writes_seen:
    fail("a signed-in writer was told 401 while the database was down")
if 500 in writes_seen or 500 in reads_seen:
    fail("a request answered 500 while the database was down")
if recovered is None or recovered > 10:
    fail(f"writes did not work again within 10 s of the database ({recovered})")
if r["readyz_during"] != [503] or r["readyz_during_max_s"] > 2:
    fail(f"/readyz during the outage: {r['readyz_during']}, slowest {r['readyz_during_max_s']} s")
for b in bases:
    status, _, _, _ = call("GET", f"{b}/api/v1/me", cookie=writer[b])
    if status != 200:
        fail(f"the writer's session on {b} after the outage: {status}")
if len(failures) == count_before:
    ok(f"PostgreSQL down {r['down_seconds']} s under load: writes answered {writes_seen} "
       f"(never 401 or 500), readers {reads_seen}, /readyz {r['readyz_during']} meanwhile; "
       f"writes worked again {r['writes_ok_again_after_s']} s after, sessions kept")

# --- 3. S3 frozen (accepts connections, never answers), then stopped.
count_before = len(failures)
status, _, answer, _ = upload_cover(args.a, admin[args.a])
if status not in (200, 201):
    raise SystemExit(f"a cover upload before the faults answered {status}: {answer[:200]!r}")
cover = json.loads(answer)["url"]


def readyz_until_unreachable():
    """Polls /readyz on A every half second until it says the store is unreachable (15 s at
    most): (statuses seen, slowest answer in s, last storage state, seconds until it said so)."""
    started, seen, slowest, state = time.monotonic(), set(), 0.0, None
    while time.monotonic() - started < 15:
        status, _, body, took = call("GET", f"{args.a}/readyz", timeout=30)
        seen.add(status)
        slowest = max(slowest, took)
        state = json.loads(body).get("storage") if status == 200 else None
        if state == "unreachable":
            break
        time.sleep(0.5)
    return sorted(seen), slowest, state, time.monotonic() - started


def storage_fault(name):
    results = {}

    def timed(key, fn):
        results[key] = fn()

    jobs = [
        ("upload", lambda: upload_cover(args.a, admin[args.a])),
        ("cover", lambda: call("GET", f"{args.b}{cover}?fault={name}", timeout=90)),
        ("page", lambda: call("GET", f"{args.b}/articles", timeout=30)),
        ("readyz", readyz_until_unreachable),
    ]
    threads = [threading.Thread(target=timed, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses, took, state, said_in = results["readyz"]
    figures = {
        "upload": [results["upload"][0], round(results["upload"][3], 1)],
        "upload_retry_after": (results["upload"][1] or {}).get("retry-after"),
        "cover_read": [results["cover"][0], round(results["cover"][3], 1)],
        "page": [results["page"][0], round(results["page"][3], 1)],
        "readyz": [statuses, round(took, 1), state, round(said_in, 1)],
    }
    print(f"S3 {name}: {figures}", flush=True)
    if figures["upload"][0] != 503 or not figures["upload_retry_after"]:
        fail(f"S3 {name}: a cover upload answered {figures['upload']}, "
             f"Retry-After {figures['upload_retry_after']}")
    if figures["upload"][1] > args.storage_timeout + 10:
        fail(f"S3 {name}: the upload took {figures['upload'][1]} s")
    if figures["cover_read"][0] == 200 or figures["cover_read"][1] > 10:
        fail(f"S3 {name}: reading a stored cover answered {figures['cover_read']}")
    if figures["page"][0] != 200:
        fail(f"S3 {name}: /articles answered {figures['page']}")
    if statuses != [200] or took > 2 or state != "unreachable":
        fail(f"S3 {name}: /readyz answered {figures['readyz']} (statuses, slowest s, storage, "
             "seconds until it said so)")
    return figures


def recovered_in():
    started = time.monotonic()
    while time.monotonic() - started < 30:
        status, _, _, _ = upload_cover(args.a, admin[args.a], timeout=30)
        if status in (200, 201):
            return round(time.monotonic() - started, 1)
        time.sleep(0.5)
    return None


os.kill(args.s3_pid, signal.SIGSTOP)
frozen = storage_fault("frozen")
os.kill(args.s3_pid, signal.SIGCONT)
frozen["uploads_again_after_s"] = recovered_in()
os.kill(args.s3_pid, signal.SIGKILL)
stopped = storage_fault("stopped")
subprocess.Popen(args.s3_restart, shell=True)
stopped["uploads_again_after_s"] = recovered_in()
report["s3"] = {"frozen": frozen, "stopped": stopped}
for name, figures in report["s3"].items():
    if figures["uploads_again_after_s"] is None or figures["uploads_again_after_s"] > 10:
        fail(f"S3 {name}: uploads did not work again within 10 s ({figures['uploads_again_after_s']})")
if len(failures) == count_before:
    ok(f"S3 frozen: upload {frozen['upload'][0]} in {frozen['upload'][1]} s, cover read "
       f"{frozen['cover_read']}, pages 200, /readyz 200 within {frozen['readyz'][1]} s, saying "
       f"'{frozen['readyz'][2]}' after {frozen['readyz'][3]} s, uploads again "
       f"{frozen['uploads_again_after_s']} s after; "
       f"stopped: upload {stopped['upload'][0]} in {stopped['upload'][1]} s, again "
       f"{stopped['uploads_again_after_s']} s after it was back")

if args.report:
    with open(args.report, "w") as fh:
        json.dump(report, fh, indent=2)
raise SystemExit(1 if failures else 0)
