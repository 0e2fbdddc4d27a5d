// Check what an ended job delivered and was charged: its manifest, verified against the service's keys.
import { Client, Verifier } from "@taskplatform/client";

const jobId = process.argv[2];
if (!jobId) throw new Error("usage: manifest.js <job_id>");
const client = new Client();
const manifest = await new Verifier({ baseURL: client.baseURL }).verifyManifest(await client.manifest(jobId));
console.log(`${manifest.job_id} ${manifest.outcome}: ${manifest.outputs.length} output(s), charged`,
  manifest.credits.charged, manifest.credits.credit_type);
for (const o of manifest.outputs) console.log(o.index, o.media_type, o.bytes, o.sha256);
