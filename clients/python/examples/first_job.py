"""Run one task and save its files into out/: TP_API_KEY=… python3 examples/first_job.py"""

from taskplatform import Client, CreditsError

client = Client()  # TP_API_KEY, and TP_BASE_URL (default http://127.0.0.1:8080)
try:
    run = client.run("pattern.generate", {"kind": "stripes", "colors": ["#1D3557", "#F1FAEE"]}, download_dir="out",
                     on_progress=lambda job: print(job["progress"]["phase"], job["progress"]["done"]))
except CreditsError as e:
    raise SystemExit(f"top up the account first: {e.required} needed, {e.balance} left")
print(f"job {run.result['job_id']}: {len(run.result['files'])} file(s) saved as {', '.join(run.paths)}")
