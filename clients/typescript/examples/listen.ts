// Without a public URL: read the account's events as signed deliveries and verify each.
import { Client, Verifier } from "@taskplatform/client";

const client = new Client();
const verifier = new Verifier({ baseURL: client.baseURL });
for await (const d of client.listen()) {
  const delivery = await verifier.verify(d.headers, d.body);
  console.log(delivery.event.event, delivery.event.job_id);
}
