"""Check what an ended job delivered and was charged: python3 examples/manifest.py <job_id>"""

import sys

from taskplatform import Client, Verifier

client = Client()
manifest = Verifier(client.base_url).verify_manifest(client.manifest(sys.argv[1]))
print(f"{manifest['job_id']} {manifest['outcome']}: {len(manifest['outputs'])} output(s), charged "
      f"{manifest['credits']['charged']} {manifest['credits']['credit_type']}")
for o in manifest["outputs"]:
    print(o["index"], o["media_type"], o["bytes"], o["sha256"])
