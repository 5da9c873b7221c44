"""A minimal OTLP/HTTP trace receiver for tests: records each export's path and body.

Usage: otlp-sink.py EXPORTS PORT [SPANS]. With SPANS, each span of a protobuf export is also
appended there as a JSON line {service, trace_id, span_id, parent_span_id, name} (ids in hex),
decoded by the small protobuf walker below (no dependencies).
"""
import gzip
import http.server
import json
import sys

out_path, port = sys.argv[1], int(sys.argv[2])
spans_path = sys.argv[3] if len(sys.argv) > 3 else None


def fields(buf):
    """Yields (field number, wire type, value) of a protobuf message: value is an int for
    varints and fixed-width numbers, bytes for length-delimited fields."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 1:
            value, i = int.from_bytes(buf[i : i + 8], "little"), i + 8
        elif wire == 2:
            size, i = varint(buf, i)
            value, i = buf[i : i + size], i + size
        elif wire == 5:
            value, i = int.from_bytes(buf[i : i + 4], "little"), i + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def varint(buf, i):
    shift = result = 0
    while True:
        byte = buf[i]
        i += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, i
        shift += 7


def sub(buf, number):
    """The length-delimited fields `number` of a message."""
    return [v for n, w, v in fields(buf) if n == number and w == 2]


def service_of(resource):
    # Resource.attributes(1): KeyValue{key(1), value(2): AnyValue{string_value(1)}}.
    for kv in sub(resource, 1):
        key = b"".join(sub(kv, 1))
        if key == b"service.name":
            for value in sub(kv, 2):
                return b"".join(sub(value, 1)).decode()
    return None


def spans_of(body):
    """ExportTraceServiceRequest: resource_spans(1) → resource(1), scope_spans(2) →
    spans(2) → trace_id(1), span_id(2), parent_span_id(4), name(5)."""
    for resource_spans in sub(body, 1):
        service = None
        for resource in sub(resource_spans, 1):
            service = service_of(resource)
        for scope_spans in sub(resource_spans, 2):
            for span in sub(scope_spans, 2):
                one = lambda n: b"".join(sub(span, n))  # noqa: E731
                yield {
                    "service": service,
                    "trace_id": one(1).hex(),
                    "span_id": one(2).hex(),
                    "parent_span_id": one(4).hex(),
                    "name": one(5).decode(),
                }


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.read_body()
        if self.headers.get("content-encoding", "").lower() == "gzip":
            body = gzip.decompress(body)
        with open(out_path, "ab") as out:
            out.write(self.path.encode() + b"\n" + body + b"\n")
        protobuf = self.headers.get("content-type", "").startswith("application/x-protobuf")
        if spans_path and self.path == "/v1/traces" and protobuf:
            try:
                lines = [json.dumps(span) + "\n" for span in spans_of(body)]
            except (ValueError, IndexError, UnicodeDecodeError) as e:
                print(f"otlp-sink: cannot decode an export: {e!r}", file=sys.stderr)
                lines = []
            with open(spans_path, "a") as out:
                out.writelines(lines)
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()

    def read_body(self):
        # The app's exporter sends a Content-Length; Node's streams the body in chunks.
        if "chunked" not in self.headers.get("transfer-encoding", "").lower():
            return self.rfile.read(int(self.headers.get("content-length", 0)))
        body = b""
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline().strip():  # trailers, then the blank line
                    pass
                return body
            body += self.rfile.read(size)
            self.rfile.readline()

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
