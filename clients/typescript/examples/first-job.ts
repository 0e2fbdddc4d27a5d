// Run one task and save its files into out/: TP_API_KEY=… node dist-examples/first-job.js
import { Client, isCode } from "@taskplatform/client";

const client = new Client(); // TP_API_KEY, and TP_BASE_URL (default http://127.0.0.1:8080)
try {
  const { result, paths } = await client.run(
    "pattern.generate",
    { kind: "stripes", colors: ["#1D3557", "#F1FAEE"] },
    { downloadDir: "out", onProgress: (job) => console.log(job.progress.phase, job.progress.done) },
  );
  console.log(`job ${result.job_id}: ${result.files.length} file(s) saved as ${paths.join(", ")}`);
} catch (err) {
  if (isCode(err, "insufficient_credits")) console.error("top up the account first");
  throw err;
}
