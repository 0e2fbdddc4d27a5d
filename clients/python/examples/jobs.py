"""Submit, follow and page: every job of the account, and each file of the newest."""

from taskplatform import Client, ConflictError

client = Client()
sub = client.submit("pattern.generate", {"kind": "dots", "colors": ["#264653", "#E9C46A"]})
try:
    job = client.wait(sub.job_id, on_progress=lambda j: print(j["progress"]["phase"], j["progress"]["done"]))
    print(job["job_id"], job["outcome"])
except ConflictError as e:
    if e.code != "cancelled":
        raise
    print("cancelled")
for job in client.jobs(page_size=50):
    print(job["job_id"], job["task"], job["lifecycle"], job["outcome"] or "")
for f in client.files(sub.job_id):
    print(f["url"], f["media_type"], f["bytes"])
