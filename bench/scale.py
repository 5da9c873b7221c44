"""Measures a running instance holding bulk data (`agora seed --bulk`): first-time (uncached)
answers of the listing and search, the admin's figures, the sitemap, and the app's memory.

usage: scale.py BASE_URL ADMIN_KEY PID [--requests N]
Prints one JSON object. Every listing and search URL is asked once (a distinct query each
time, so none is answered from the listing cache); latencies are measured by the client over
one kept-alive connection, each request sent with a browser's Accept-Encoding (so the answer's
compression is part of the time).
"""
import argparse
import http.client
import json
import random
import statistics
import time
import urllib.parse
import gzip

p = argparse.ArgumentParser()
p.add_argument("base")
p.add_argument("key")
p.add_argument("pid", type=int)
p.add_argument("--requests", type=int, default=400)
args = p.parse_args()
url = urllib.parse.urlparse(args.base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
rng = random.Random(7)


BROWSER = "gzip, deflate, br, zstd"


def get(path, headers=None, encoding=BROWSER):
    started = time.perf_counter()
    conn.request("GET", path, headers={"accept-encoding": encoding, **(headers or {})})
    r = conn.getresponse()
    body = r.read()
    took = (time.perf_counter() - started) * 1000
    if r.status != 200:
        raise SystemExit(f"{path}: {r.status} {body[:200]!r}")
    if r.getheader("content-encoding") == "gzip":
        body = gzip.decompress(body)
    return took, body, r


def pct(values, q):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * q))], 2)


def summary(values):
    return {"median_ms": round(statistics.median(values), 2), "p99_ms": pct(values, 0.99),
            "max_ms": round(max(values), 2), "requests": len(values)}


categories = ["International Affairs", "Climate Justice", "Culture & Politics", "Human Rights",
              "Youth Activism", "Digital Democracy"]
words = ["vote", "climate", "school", "rights", "budget", "energy", "treaty", "wages",
         "museum", "privacy", "floods", "courts", "peace", "trade", "teachers", "history"]
# Listing: pages of the newest and of one category, each offset asked once.
listing, search = [], []
by_kind = {0: [], 1: [], 2: [], 3: [], 4: []}
for i in range(args.requests):
    offset = 12 * i
    if i % 2:
        cat = categories[i % len(categories)]
        path = f"/api/v1/articles?limit=12&offset={offset}&category={urllib.parse.quote(cat)}"
    else:
        path = f"/api/v1/articles?limit=12&offset={offset}"
    listing.append(get(path)[0])
# Search, each URL new: a rare term (one of the generator's 8,000, in some tens of articles),
# a common word (in most articles), a piece of a word; each on one of its first 50 pages.
# Reported apart (not in the overall figure, which keeps the mix above): four letters
# common in English in an uncommon order, which a trigram index finds hardest (each of
# their trigrams is in most articles, the four together in few); and a phrase of two common
# words ("climate vote"), each word in most articles, the two side by side in a few percent.
syllables = ["ba", "ko", "ri", "mel", "sun", "ta", "vo", "lin", "dor", "pe", "an", "ki", "mo",
             "zu", "ra", "ne", "fi", "gal", "tor", "bi"]
seen = set()
apart = args.requests // 4
for i in range(args.requests + 2 * apart):
    kind = i % 3 if i < args.requests else 3 if i < args.requests + apart else 4
    while True:
        if kind == 0:
            q = "".join(rng.choice(syllables) for _ in range(3))
        elif kind == 1:
            q = rng.choice(words)
        elif kind == 2:
            q = rng.choice(words)[1:5]
        elif kind == 3:
            q = "".join(rng.choice("etaoinsr") for _ in range(4))
        else:
            q = f"{rng.choice(words)} {rng.choice(words)}"
        offset = 12 * rng.randrange(0, 50)
        if (q, offset) not in seen:
            seen.add((q, offset))
            break
    path = f"/api/v1/articles?limit=12&offset={offset}&q={urllib.parse.quote(q)}"
    took = get(path)[0]
    if kind < 3:
        search.append(took)
    by_kind[kind].append(took)

conn.request("POST", "/api/v1/session", body=json.dumps({"access_key": args.key}),
             headers={"content-type": "application/json"})
r = conn.getresponse()
r.read()
cookie = r.getheader("set-cookie").split(";")[0]
stats = [get("/api/v1/staff/stats", {"cookie": cookie})[0] for _ in range(100)]
took, body, _ = get("/sitemap.xml", encoding="gzip")
sitemap = {"index_ms": round(took, 1), "is_index": b"<sitemapindex" in body,
           "parts": body.count(b"<sitemap>")}
if sitemap["is_index"]:
    took, part, _ = get("/sitemap-1.xml", encoding="gzip")
    sitemap.update({"part1_ms": round(took, 1), "part1_urls": part.count(b"<url>"),
                    "part1_bytes": len(part)})
with open(f"/proc/{args.pid}/status") as f:
    rss = {line.split(":")[0]: int(line.split()[1]) // 1024 for line in f
           if line.startswith(("VmRSS", "VmHWM"))}
print(json.dumps({"listing_uncached": summary(listing), "search_uncached": summary(search),
                  "search_rare_term": summary(by_kind[0]),
                  "search_common_word": summary(by_kind[1]),
                  "search_piece_of_word": summary(by_kind[2]),
                  "search_common_letters_rare_order": summary(by_kind[3]),
                  "search_phrase_of_two_common_words": summary(by_kind[4]),
                  "admin_stats": summary(stats), "sitemap": sitemap,
                  "memory_mb": {"rss": rss.get("VmRSS"), "peak": rss.get("VmHWM")}}))
