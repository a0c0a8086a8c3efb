# skills-mcp — every target works on a fresh machine with Go 1.26; tools are
# fetched at pinned versions through the Go module proxy.
GO            ?= go
STATICCHECK   := honnef.co/go/tools/cmd/staticcheck@v0.8.2
PKGS          := ./...
FUZZTIME      ?= 10s
BIN           := bin/skills-mcp
# EXAMPLE_MOD is a separate module (a custom build over skillscmd): test,
# vet, lint and check cover it too. Its go.mod lists the root module's
# dependencies as indirect ones: after changing the root go.mod, run make tidy.
EXAMPLE_MOD   := examples/custom-plugins

.PHONY: all build install run examples-wasm test test-long flaky vet lint fuzz bench check conformance harden clean routing

all: build

COMMIT        := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
# LDFLAGS_X stamps the commit (and VERSION, when given) into skills-mcp and
# its helpers alike: they refuse each other when the stamps differ
# (internal/buildinfo, internal/childproc's handshake).
VERSION       ?=
LDFLAGS_X     := -X github.com/skills-mcp/skills-mcp/internal/buildinfo.commit=$(COMMIT)$(if $(VERSION), -X github.com/skills-mcp/skills-mcp/internal/buildinfo.version=$(VERSION))

## build: static binaries without symbol tables (no C library mapped in: 1.7 MiB
## less RSS), as cmd/skills-bench builds them: skills-mcp and, next to it,
## its helpers skills-mcp-wasm (the .wasm runner, the only one linking wazero)
## and skills-mcp-git (git mode's syncs, the only one linking go-git)
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS_X)" -o $(BIN) ./cmd/skills-mcp
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS_X)" -o $(BIN)-wasm ./cmd/skills-mcp-wasm
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS_X)" -o $(BIN)-git ./cmd/skills-mcp-git

## install: the static binaries of build, installed by go install into
## $(go env GOPATH)/bin (or $GOBIN)
install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags "-s -w $(LDFLAGS_X)" ./cmd/skills-mcp
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags "-s -w $(LDFLAGS_X)" ./cmd/skills-mcp-wasm ./cmd/skills-mcp-git

## run: serve the bundled example skills over stdio (an MCP client speaks on
## stdin/stdout), from the binaries of build (the .wasm runner and git mode
## are helpers found next to skills-mcp). Nothing but the server writes to
## stdout: the builds' command lines go to stderr, so a host can launch
## `make run` as its MCP server command. Started at a terminal, the server
## says on stderr that it waits for a client and prints the `claude mcp add`
## line (absolute paths) that connects Claude Code to it.
run:
	@$(MAKE) --no-print-directory examples-wasm build >&2
	@exec $(BIN) serve --skills-dir examples/skills

## examples-wasm: build the example WASM scripts from their Go sources
examples-wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build -o examples/skills/api/rest/scripts/slugify.wasm ./examples/wasm/slugify

## test: race-enabled tests under -short, vet and staticcheck (both modules).
## -short skips the long tests (10,000-skill corpora, full property runs,
## end-to-end builds): they run in test-long.
test: vet lint
	$(GO) test -race -short -count=1 $(PKGS)
	cd $(EXAMPLE_MOD) && $(GO) test -race -short -count=1 ./...

## test-long: the long tests that test skips under -short, with the race
## detector: every Test function calling testing.Short() or testenv.Long
## (scripts/test-long.sh finds them; TEST_LONG_LIST=1 lists them). CI runs it
## once after test.
test-long:
	GO="$(GO)" scripts/test-long.sh

## flaky: the suite of test, FLAKY_RUNS times (3) beside a CPU-bound load
## (FLAKY_LOAD busy loops, 1), then the name of every test that failed at
## least once; exits 1 if any did (scripts/flaky.sh; FLAKY_PKGS=./cmd/skillscmd/ narrows it)
FLAKY_RUNS    ?= 3
FLAKY_LOAD    ?= 1
flaky:
	GO="$(GO)" FLAKY_RUNS=$(FLAKY_RUNS) FLAKY_LOAD=$(FLAKY_LOAD) FLAKY_PKGS="$(FLAKY_PKGS)" scripts/flaky.sh

vet:
	$(GO) vet $(PKGS)
	cd $(EXAMPLE_MOD) && $(GO) vet ./...

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) run $(STATICCHECK) $(PKGS)
	cd $(EXAMPLE_MOD) && $(GO) run $(STATICCHECK) ./...

## harden: the long attacks of the hardening issue (16) on the built binary:
## hundreds of connections, thousands of sessions, memory peaks. Each is a
## TestHarden* test that skips unless SKILLS_HARDEN is set; CI runs this target
## after `make test`. docs/SECURITY.md lists what each one holds.
harden:
	SKILLS_HARDEN=1 $(GO) test -race -count=1 -run '^TestHarden' $(PKGS)

## fuzz: a short run of every fuzz target
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## bench: the benchmarks of issue 9 on generated corpora of 100, 1,000 and
## 10,000 skills (benchstat-friendly output, see docs/PERFORMANCE.md): Go
## benchmarks with memory figures, then the end-to-end benchmark of the built
## binary over stdio. BENCH_SIZES and BENCH_RUNS tune the end-to-end part.
BENCH_SIZES ?= 100,1000,10000
BENCH_RUNS  ?= 5
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 100ms -count 5 ./plugins/matcher/keyword/
	$(GO) test -run '^$$' -bench 'GetSkill|Tree|GetAsset|Digest' -benchmem -benchtime 100ms -count 5 ./internal/index/
	$(GO) test -run '^$$' -bench 'Build|BuildRanked|RebuildUnderReads' -benchmem -benchtime 2x -count 3 ./internal/index/
	$(GO) test -run '^$$' -bench 'GetSkillHandler|GetSkillHandlerRanked|SkillsSearchHandlerRanked|SkillToolHandlerRanked|GetSkillSession|ListSkillsHandler|GetAssetHandler' -benchmem -benchtime 100ms -count 5 ./internal/server/
	$(GO) test -run '^$$' -bench 'GetSkillStdio|SkillsSearchStdio|SkillToolStdio' -benchmem -benchtime 100ms -count 5 ./internal/server/
	$(GO) test -run '^$$' -bench 'SearchShownHits' -benchmem -benchtime 100ms -count 5 ./internal/search/
	$(GO) test -run '^$$' -bench 'SearchIndexBuild' -benchmem -benchtime 2x -count 3 ./internal/search/
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 100ms -count 5 ./plugins/matcher/ranked/
	$(GO) test -run '^$$' -bench 'RefreshSkillsHandler' -benchmem -benchtime 2x -count 3 ./internal/server/
	$(GO) test -run '^$$' -bench 'BenchmarkRun' -benchmem -benchtime 3x -count 3 ./runners/exec/ ./runners/wasm/
	$(GO) test -run '^$$' -bench 'Telemetry|ChildSpanOff' -benchmem -benchtime 200ms -count 5 ./internal/otelsetup/
	$(GO) run ./cmd/skills-bench -skills $(BENCH_SIZES) -runs $(BENCH_RUNS)

## routing: routing figures on the corpus of testdata/routing (issues 14, 30):
## each miss, then per file get_skill top-1 and top-3, no_match on answerable
## queries, skills_search top-3 and off-topic requests answered no_match, for
## the tuning set, the held-out set and the off-topic set; then every skill's
## exact name. TestRoutingCorpus holds the floor.
routing:
	$(GO) run ./cmd/skills-mcp eval --skills-dir testdata/routing/skills testdata/routing/queries.jsonl testdata/routing/heldout.jsonl testdata/routing/offtopic.jsonl
	$(GO) run ./cmd/skills-mcp eval --skills-dir testdata/routing/skills --min-top1 1 testdata/routing/names.jsonl

## tidy: go mod tidy in both modules
tidy:
	$(GO) mod tidy
	cd $(EXAMPLE_MOD) && $(GO) mod tidy

## check: go.mod and go.sum are tidy, and everything builds for every
## supported OS (Linux, macOS, FreeBSD, Windows)
CROSS_OS      := linux darwin freebsd windows
check:
	$(GO) mod tidy -diff
	cd $(EXAMPLE_MOD) && $(GO) mod tidy -diff
	@for os in $(CROSS_OS); do echo "build GOOS=$$os"; GOOS=$$os GOARCH=amd64 $(GO) build ./... || exit 1; done

## conformance: every server scenario of the official MCP conformance suite
## (pinned, installed from npm into .tools/ with the Node 22 it needs) against
## serve --http on 127.0.0.1, with sessions, stateless, and stateless at
## 2026-07-28; one line per scenario (scripts/conformance/not-applicable.txt
## lists those that do not apply, with the reason)
conformance:
	GO="$(GO)" scripts/conformance.sh

clean:
	rm -rf bin
