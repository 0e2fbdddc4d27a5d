// Submit, follow and page: every job of the account, and each file of the newest.
import { Client, ConflictError } from "@taskplatform/client";

const client = new Client();
const sub = await client.submit("pattern.generate", { kind: "dots", colors: ["#264653", "#E9C46A"] });
try {
  const job = await client.wait(sub.jobId);
  console.log(job.job_id, job.outcome);
} catch (err) {
  if (err instanceof ConflictError && err.code === "cancelled") console.log("cancelled");
  else throw err;
}
for await (const job of client.jobs({ pageSize: 50 })) {
  console.log(job.job_id, job.task, job.lifecycle, job.outcome ?? "");
}
for await (const file of client.files(sub.jobId)) {
  console.log(file.url, file.media_type, file.bytes);
}
