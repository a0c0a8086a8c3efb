#!/usr/bin/env bash
# Groups commit subjects by their Conventional Commits type.
set -u
printf '%s\n' "${SKILL_ARG_SUBJECTS:-}" | awk '
  /^feat/ { feats = feats "- " $0 "\n"; next }
  /^fix/  { fixes = fixes "- " $0 "\n"; next }
  NF      { other = other "- " $0 "\n" }
  END {
    if (feats) printf "## Features\n%s\n", feats
    if (fixes) printf "## Fixes\n%s\n", fixes
    if (other) printf "## Other\n%s", other
  }'
