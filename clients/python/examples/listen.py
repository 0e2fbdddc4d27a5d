"""Without a public URL: read the account's events as signed deliveries and verify each."""

from taskplatform import Client, Verifier

client = Client()
verifier = Verifier(client.base_url)
for d in client.listen():
    delivery = verifier.verify(d.headers, d.body)
    print(delivery.event["event"], delivery.event.get("job_id"))
