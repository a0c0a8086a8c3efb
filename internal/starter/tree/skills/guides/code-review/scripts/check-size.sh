#!/usr/bin/env bash
set -eu
limit="${SKILL_ARG_LIMIT:-400}"
if (( SKILL_ARG_CHANGED_LINES > limit )); then
  echo "Change has ${SKILL_ARG_CHANGED_LINES} lines; split it (limit ${limit})." >&2
  exit 1
fi
echo "Size OK: ${SKILL_ARG_CHANGED_LINES} lines (limit ${limit})."
