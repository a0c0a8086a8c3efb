#!/usr/bin/env bash
# `make test-long`: the long tests that `make test` skips under -short, with
# the race detector, in both modules. A long test is a top-level Test
# function whose body calls testing.Short() or testenv.Long(t, …) (the
# 10,000-skill corpora, the full property runs, the end-to-end builds); this
# script finds them in the sources, so a new one needs no change here.
# Subtests of a long test that also run under -short run again: cheap.
#
# TEST_LONG_LIST=1 prints the tests found (package directory, then names).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

# long_tests DIR prints "pkgdir<TAB>TestName" for each long test under DIR.
long_tests() {
  find "$1" -name '*_test.go' -not -path '*/testdata/*' -not -path '*/.tools/*' | sort |
    xargs awk '
      FNR == 1 { name = "" }
      /^func / { name = ""; if (match($0, /^func (Test|Fuzz)[A-Za-z0-9_]*\(/)) name = substr($0, 6, RLENGTH - 6) }
      name != "" && /testing\.Short\(\)|testenv\.Long\(/ {
        dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
        if (!seen[dir "\t" name]++) print dir "\t" name
      }'
}

# run_module DIR EXCLUDE: the long tests of the module at DIR (EXCLUDE is a
# nested module's directory to leave out), in one go test run.
run_module() {
  local mod=$1 exclude=${2:-} list pkgs names
  list=$(cd "$mod" && long_tests . | { if [[ -n $exclude ]]; then grep -v "^\./$exclude/" || true; else cat; fi })
  if [[ ${TEST_LONG_LIST:-} == 1 ]]; then
    [[ -n $list ]] && printf '%s\n' "$list" | sed "s|^\./|$mod/|"
    return 0
  fi
  if [[ -z $list ]]; then
    echo "test-long: no long tests in $mod"
    return 0
  fi
  pkgs=$(printf '%s\n' "$list" | cut -f1 | sort -u | tr '\n' ' ')
  names=$(printf '%s\n' "$list" | cut -f2 | sort -u | paste -sd'|')
  echo "test-long: $mod: $(printf '%s\n' "$list" | wc -l | tr -d ' ') tests in $(wc -w <<<"$pkgs" | tr -d ' ') packages"
  # Names are matched in every listed package: a test of the same name in
  # another of them runs too (harmless).
  (cd "$mod" && set -x && "$GO" test -race -count=1 -run "^($names)\$" $pkgs)
}

run_module . examples/custom-plugins
run_module examples/custom-plugins
