"""Measures a running instance holding bulk data (`agora seed --bulk`): first-time (uncached)
answers of the listing and search, the admin's figures, the sitemap, and the app's memory.

usage: scale.py BASE_URL ADMIN_KEY PID --editor-key KEY [--requests N]
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
p.add_argument("--editor-key", help="a content director's access key (for the saves)")
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
for i in range(args.requests):
    offset = 12 * i
    if i % 2:
        cat = categories[i % len(categories)]
        path = f"/api/v1/articles?limit=12&offset={offset}&category={urllib.parse.quote(cat)}"
    else:
        path = f"/api/v1/articles?limit=12&offset={offset}"
    listing.append(get(path)[0])
# Search, each URL new, best match first (the default), as readers type it: a common word (in
# most articles), two common words, a quoted phrase of two common words (side by side in a few
# percent), the start of a common word (the last word matches as a prefix), a rare word (one of
# the generator's 8,000 names, in some tens of articles), and a typo (one letter changed: finds
# nothing, so the answer looks for the nearest known word and checks it finds something).
# Half on the first page, half on a deep one (one of the first 80 pages of 12).
syllables = ["ba", "ko", "ri", "mel", "sun", "ta", "vo", "lin", "dor", "pe", "an", "ki", "mo",
             "zu", "ra", "ne", "fi", "gal", "tor", "bi"]
KINDS = ["common_word", "two_words", "phrase", "prefix", "rare_word", "typo"]
by_kind = {k: [] for k in KINDS}
by_page = {"first": [], "deep": []}
seen = set()


def typo(word):
    i = rng.randrange(1, len(word))
    return word[:i] + rng.choice("qxzj") + word[i + 1:]


for i in range(args.requests):
    kind = KINDS[i % len(KINDS)]
    while True:
        if kind == "common_word":
            q = rng.choice(words)
        elif kind == "two_words":
            q = f"{rng.choice(words)} {rng.choice(words)}"
        elif kind == "phrase":
            q = f'"{rng.choice(words)} {rng.choice(words)}"'
        elif kind == "prefix":
            q = rng.choice(words)[:4]
        elif kind == "rare_word":
            q = "".join(rng.choice(syllables) for _ in range(3))
        else:
            q = typo(rng.choice(words))
        deep = (i // len(KINDS)) % 2 == 1
        offset = 12 * rng.randrange(1, 80) if deep else 0
        # A first page of 6 to 24 (a distinct URL each time, as the listing cache keys them).
        limit = 12 if deep else rng.randrange(6, 25)
        if (q, offset, limit) not in seen:
            seen.add((q, offset, limit))
            break
    path = f"/api/v1/articles?limit={limit}&offset={offset}&q={urllib.parse.quote(q)}"
    took = get(path)[0]
    search.append(took)
    by_kind[kind].append(took)
    by_page["deep" if deep else "first"].append(took)

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
# A content director's typo fix in a live piece, saved again and again (each save keeps the search index,
# the revision and the words table up to date, in one transaction).
conn.request("POST", "/api/v1/session", body=json.dumps({"access_key": args.editor_key}),
             headers={"content-type": "application/json"})
r = conn.getresponse()
r.read()
cookie = r.getheader("set-cookie").split(";")[0]
_, body, _ = get("/api/v1/articles?limit=1")
article_id = json.loads(body)["items"][0]["id"]
_, body, _ = get(f"/api/v1/staff/articles/{article_id}", {"cookie": cookie})
article = json.loads(body)
saves = []
for n in range(200):
    edit = {"title": article["title"], "subtitle": article.get("subtitle"),
            "content": article["content"] + (" " if n % 2 == 0 else ""),
            "category": article["category"], "status": "published",
            "author_id": article.get("author_id"),
            "base_version": article["version"]}
    started = time.perf_counter()
    conn.request("PUT", f"/api/v1/staff/articles/{article_id}", body=json.dumps(edit),
                 headers={"content-type": "application/json", "cookie": cookie})
    r = conn.getresponse()
    answer = r.read()
    saves.append((time.perf_counter() - started) * 1000)
    if r.status != 200:
        raise SystemExit(f"save: {r.status} {answer[:200]!r}")
    article = json.loads(answer)
with open(f"/proc/{args.pid}/status") as f:
    rss = {line.split(":")[0]: int(line.split()[1]) // 1024 for line in f
           if line.startswith(("VmRSS", "VmHWM"))}
print(json.dumps({"listing_uncached": summary(listing), "search_mix": summary(search),
                  **{f"search_{k}": summary(v) for k, v in by_kind.items()},
                  "search_first_page": summary(by_page["first"]),
                  "search_deep_page": summary(by_page["deep"]),
                  "article_save": summary(saves),
                  "admin_stats": summary(stats), "sitemap": sitemap,
                  "memory_mb": {"rss": rss.get("VmRSS"), "peak": rss.get("VmHWM")}}))
