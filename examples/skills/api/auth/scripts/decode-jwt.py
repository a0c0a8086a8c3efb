import base64, json, os

token = os.environ.get("SKILL_ARG_TOKEN", "")
for part in token.split(".")[:2]:
    padded = part + "=" * (-len(part) % 4)
    print(json.dumps(json.loads(base64.urlsafe_b64decode(padded)), indent=2))
