"""What the cluster and fault checks (scripts/cluster-check.py, scripts/fault-check.py) share."""
import json
import re
import struct
import time
import urllib.error
import urllib.request
import zlib


def png(w=8, h=8):
    """A small, valid PNG (a cover the server accepts)."""
    rows = b"".join(b"\x00" + b"\xc8\x30\x40" * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def call(method, url, body=None, cookie=None, headers=None, raw=None, timeout=60):
    """(status, headers, body, seconds); status 0 when no answer came (refused, cut, timed out).
    A JSON `body` is sent as JSON, `raw` as it is; writes carry the same-origin `Origin` a
    browser sends."""
    data, hdrs = None, dict(headers or {})
    if body is not None:
        data = json.dumps(body).encode()
        hdrs["content-type"] = "application/json"
    if raw is not None:
        data = raw
    if cookie:
        hdrs["cookie"] = cookie
    if method != "GET":
        hdrs["origin"] = re.match(r"https?://[^/]+", url).group(0)
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read(), time.monotonic() - started
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read(), time.monotonic() - started
    except (urllib.error.URLError, OSError):
        return 0, None, b"", time.monotonic() - started


def metric(base, token, name, labels=None):
    """The value of metric `name` (with exactly `labels`, as written between the braces) on
    `/metrics` of `base`; 0 when it is not there yet. Exits when `/metrics` does not answer."""
    status, _, text, _ = call("GET", f"{base}/metrics", headers={"authorization": f"Bearer {token}"})
    if status != 200:
        raise SystemExit(f"/metrics on {base}: {status}")
    series = re.escape(name) + (r"\{" + re.escape(labels) + r"\}" if labels else "")
    found = re.search(r"^" + series + r" (\S+)$", text.decode(), re.M)
    return float(found.group(1)) if found else 0.0
