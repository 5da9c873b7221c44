#!/usr/bin/env bash
# Checks that request spans reach an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set,
# and that the rendering sidecar's spans join the app's trace.
set -euo pipefail
bin=$(realpath "${1:-target/debug/agora}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=$(mktemp -d /tmp/agora-otel.XXXXXX)
# Both at once: asked for one by one, they may be the same.
read -r sink_port port < <(scripts/free-ports.py 2)
python3 scripts/otlp-sink.py "$dir/exports" "$sink_port" "$dir/spans.jsonl" &
sink=$!
app=""
for _ in $(seq 1 50); do
  python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $sink_port), 0.2)" 2>/dev/null && break
  sleep 0.1
done
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null && wait "$app" 2>/dev/null
  kill "$sink" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

DATA_DIR=$dir/data PORT=$port DATABASE_URL=sqlite://$dir/data/agora.db \
  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$sink_port OTEL_BSP_SCHEDULE_DELAY=200 \
  "$bin" serve >"$dir/app.log" 2>&1 &
app=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$port/api/v1/articles" >/dev/null
# A caller that is traced itself (a proxy, another service): the request continues its trace.
caller_trace=4bf92f3577b34da6a3ce929d0e0e4736 caller_span=00f067aa0ba902b7
curl -fs -H "traceparent: 00-$caller_trace-$caller_span-01" \
  "http://127.0.0.1:$port/api/v1/articles?limit=1" >/dev/null
# The first is rendered by the sidecar (a cache miss), in the request's trace; the second is
# answered from the page cache, before routing: its span is trace-only.
curl -fs "http://127.0.0.1:$port/about" >/dev/null
curl -fs "http://127.0.0.1:$port/about" >/dev/null
# SIGTERM flushes the exporter (the app's, and the sidecar's when the app stops it).
kill -TERM "$app"; wait "$app"; app=""
# A span attribute in OTLP protobuf: key "cache", string value "hit".
if grep -q "^/v1/traces" "$dir/exports" 2>/dev/null && grep -aq "/api/v1/articles" "$dir/exports" \
  && python3 -c 'import sys; sys.exit(b"cache\x12\x05\n\x03hit" not in open(sys.argv[1], "rb").read())' "$dir/exports"; then
  echo "OpenTelemetry: request spans exported over OTLP/HTTP (routed, and answered from the page cache)"
else
  echo "OpenTelemetry: no request span reached the collector"; tail -20 "$dir/app.log"; exit 1
fi
# The request that came with a traceparent is a child of the caller's span.
if python3 - "$dir/spans.jsonl" "$caller_trace" "$caller_span" <<'PY'
import json, os, sys
path, trace, parent = sys.argv[1:4]
spans = [json.loads(line) for line in open(path)] if os.path.exists(path) else []
found = [s for s in spans if s["service"] == "agora" and s["trace_id"] == trace
         and s["parent_span_id"] == parent and s["name"] == "request"]
sys.exit(0 if found else 1)
PY
then
  echo "OpenTelemetry: an incoming traceparent is continued"
else
  echo "OpenTelemetry: the request with a traceparent started a trace of its own"; exit 1
fi
# Store calls are spans of the request that made them (every store method, "Trait.method").
if python3 - "$dir/spans.jsonl" <<'PY'
import json, os, sys
path = sys.argv[1]
spans = [json.loads(line) for line in open(path)] if os.path.exists(path) else []
requests = {s["trace_id"] for s in spans if s["service"] == "agora" and s["name"] == "request"}
store = [s for s in spans if s["service"] == "agora" and s["name"] == "ContentStore.list_published"
         and s["trace_id"] in requests]
sys.exit(0 if store else 1)
PY
then
  echo "OpenTelemetry: store calls are spans within their request's trace"
else
  echo "OpenTelemetry: no store span in a request's trace"; exit 1
fi
# One trace: a sidecar span ("agora-ssr") whose parent is an app span ("agora") of its trace.
if python3 - "$dir/spans.jsonl" <<'PY'
import json, os, sys
path = sys.argv[1]
spans = [json.loads(line) for line in open(path)] if os.path.exists(path) else []
app = {(s["trace_id"], s["span_id"]): s for s in spans if s["service"] == "agora"}
joined = [
    (app[(s["trace_id"], s["parent_span_id"])], s)
    for s in spans
    if s["service"] == "agora-ssr" and s["name"] == "ssr render"
    and (s["trace_id"], s["parent_span_id"]) in app
]
if not joined:
    services = sorted({str(s["service"]) for s in spans})
    print(f"spans seen: {len(spans)} from {services}", file=sys.stderr)
    sys.exit(1)
parent, child = joined[0]
print(f'trace {child["trace_id"]}: "{child["name"]}" (agora-ssr) under "{parent["name"]}" (agora)')
PY
then
  echo "OpenTelemetry: the sidecar's render spans continue the app's trace"
else
  echo "OpenTelemetry: no sidecar span in an app trace"; tail -20 "$dir/app.log"; exit 1
fi
