#!/usr/bin/env bash
# Validates an OAuth client configuration passed as SKILL_ARG_* variables.
set -u
status=0
if [[ -z "${SKILL_ARG_CLIENT_ID:-}" ]]; then
  echo "Error: client_id is empty" >&2
  status=1
fi
if [[ -n "${SKILL_ARG_REDIRECT_URL:-}" && "${SKILL_ARG_REDIRECT_URL}" != https://* ]]; then
  echo "Error: redirect_url must use https: ${SKILL_ARG_REDIRECT_URL}" >&2
  status=1
fi
if [[ $status -eq 0 ]]; then
  echo "Auth config is valid (client_id=${SKILL_ARG_CLIENT_ID})"
fi
exit $status
