"""A webhook endpoint that verifies each delivery before trusting it (http.server, port 4242)."""

import os
from http.server import BaseHTTPRequestHandler, HTTPServer

from taskplatform import VerificationError, Verifier

verifier = Verifier(os.environ.get("TP_BASE_URL", "http://127.0.0.1:8080"))
seen = set()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the raw bytes, as received
        try:
            delivery = verifier.verify(self.headers, body)
        except VerificationError:
            self.send_response(401)  # the service does not retry a 4xx
        except OSError:
            self.send_response(503)  # keys unreadable: ask for a retry
        else:
            if delivery.event["id"] not in seen:  # deliveries come at least once: dedupe by the event id
                seen.add(delivery.event["id"])
                print(delivery.event["event"], delivery.event.get("job_id"), delivery.event.get("outcome"))
            self.send_response(204)
        self.end_headers()


HTTPServer(("", 4242), Receiver).serve_forever()
