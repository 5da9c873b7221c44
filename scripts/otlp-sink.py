"""A minimal OTLP/HTTP trace receiver for tests: records each export's path and body."""
import http.server
import sys

out_path, port = sys.argv[1], int(sys.argv[2])


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with open(out_path, "ab") as out:
            out.write(self.path.encode() + b"\n" + body + b"\n")
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
