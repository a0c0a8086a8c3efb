import json, os, sys, zipfile

src, dst = os.environ["SKILL_ARG_INPUT"], os.environ["SKILL_ARG_OUTPUT"]
with zipfile.ZipFile(src) as z:
    names = z.namelist()
    for name in names:
        if name.startswith("/") or ".." in name.split("/"):
            sys.exit(f"refusing the member {name!r}")
    z.extractall(dst)
print(json.dumps({"unpacked": sorted(names), "into": dst}))
