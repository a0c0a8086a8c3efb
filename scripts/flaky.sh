#!/usr/bin/env bash
# `make flaky`: runs the suite of `make test` (go test -race -short -count=1,
# both modules) FLAKY_RUNS times (3 by default) while a CPU-bound load runs
# beside it (FLAKY_LOAD busy loops, 1 by default: on a 2-core machine, half
# of it), then names every test that failed at least once and in how many
# runs. Exits 1 if any did. The go test -json output of each run is kept in
# FLAKY_DIR (a new temporary directory by default) for the failures' logs.
# FLAKY_PKGS (./... and the example module by default) narrows the packages.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
runs=${FLAKY_RUNS:-3}
load=${FLAKY_LOAD:-1}
pkgs=${FLAKY_PKGS:-./...}
out=${FLAKY_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/skills-mcp-flaky.XXXXXX")}
mkdir -p "$out"

busy=()
stop_load() {
  local pid
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${busy[@]}"; do wait "$pid" 2>/dev/null || true; done
  busy=()
}
trap stop_load EXIT
# start_load: FLAKY_LOAD busy loops, each bounded to 30 minutes in case this
# script is killed before it stops them.
start_load() {
  local i
  for ((i = 0; i < load; i++)); do
    bash -c 'end=$((SECONDS + 1800)); while ((SECONDS < end)); do :; done' &
    busy+=("$!")
  done
}

echo "flaky: $runs runs of go test -race -short -count=1 $pkgs beside $load busy loop(s); logs in $out"
for ((run = 1; run <= runs; run++)); do
  start_load
  start=$SECONDS
  status=0
  # shellcheck disable=SC2086 # pkgs is a list
  "$GO" test -race -short -count=1 -json $pkgs >"$out/run$run.json" 2>"$out/run$run.stderr" || status=$?
  : >"$out/run$run-example.json"
  if [[ -z ${FLAKY_PKGS:-} ]]; then
    (cd examples/custom-plugins && "$GO" test -race -short -count=1 -json ./...) >"$out/run$run-example.json" 2>>"$out/run$run.stderr" || status=$?
  fi
  stop_load
  echo "flaky: run $run/$runs: exit $status after $((SECONDS - start)) s (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?))"
  if [[ $status != 0 ]] && ! grep -q '"Action":"fail"' "$out/run$run.json" "$out/run$run-example.json"; then
    echo "flaky: run $run failed outside any test:" >&2
    tail -20 "$out/run$run.stderr" >&2
    echo "build-or-setup failure (run $run)" >>"$out/failed.txt"
  fi
  # A failed test (or a package whose binary failed: no test named) is one
  # line of test2json: {"Time":…,"Action":"fail","Package":…[,"Test":…]…}.
  sed -n 's/^{"Time":"[^"]*","Action":"fail","Package":"\([^"]*\)"\(,"Test":"\([^"]*\)"\)\{0,1\}.*/\1 \3/p' \
    "$out/run$run.json" "$out/run$run-example.json" | sort -u |
    awk '{ if (NF > 1) { named[$1] = 1; print } else pkg[$1] = 1 }
      END { for (p in pkg) if (!(p in named)) print p " (the test binary failed: see the log)" }' >>"$out/failed.txt"
done

touch "$out/failed.txt"
if [[ ! -s $out/failed.txt ]]; then
  echo "flaky: no test failed in $runs runs"
  exit 0
fi
echo "flaky: failed at least once (runs failed, package, test):"
sort "$out/failed.txt" | uniq -c | sort -rn | sed 's/^/  /'
exit 1
