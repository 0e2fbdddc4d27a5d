// A webhook endpoint that verifies each delivery before trusting it (Node's http server).
import { createServer } from "node:http";
import { VerificationError, Verifier } from "@taskplatform/client";

const verifier = new Verifier({ baseURL: process.env["TP_BASE_URL"] ?? "http://127.0.0.1:8080" });
const seen = new Set<string>();

createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    // The raw bytes, exactly as received.
    const delivery = await verifier.verify(req.headers, Buffer.concat(chunks));
    if (!seen.has(delivery.event.id)) {
      seen.add(delivery.event.id); // deliveries come at least once: dedupe by the event id
      console.log(delivery.event.event, delivery.event.job_id, delivery.event.outcome);
    }
    res.writeHead(204).end();
  } catch (err) {
    // 401: the service does not retry a 4xx; anything else (keys unreadable) asks for a retry.
    res.writeHead(err instanceof VerificationError ? 401 : 503).end();
  }
}).listen(4242);
