import hashlib, json, os, zipfile

src, dst = os.environ["SKILL_ARG_INPUT"], os.environ["SKILL_ARG_OUTPUT"]
tmp = os.path.join(os.environ["TMPDIR"], "pack.zip")
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in sorted(os.walk(src)):
        for f in sorted(files):
            path = os.path.join(root, f)
            z.write(path, os.path.relpath(path, src))
with open(tmp, "rb") as f:
    data = f.read()
with open(dst, "wb") as f:
    f.write(data)
print(json.dumps({"packed": dst, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()[:12]}))
