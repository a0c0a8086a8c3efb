# skills-mcp — every target works on a fresh machine with Go 1.26; tools are
# fetched at pinned versions through the Go module proxy.
GO            ?= go
STATICCHECK   := honnef.co/go/tools/cmd/staticcheck@v0.8.2
PKGS          := ./...
FUZZTIME      ?= 10s
BIN           := bin/skills-mcp

.PHONY: all build run examples-wasm test vet lint fuzz bench check conformance clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/skills-mcp

## run: serve the bundled example skills over stdio (an MCP client speaks on stdin/stdout)
run: examples-wasm
	$(GO) run ./cmd/skills-mcp serve --skills-dir examples/skills

## examples-wasm: build the example WASM scripts from their Go sources
examples-wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build -o examples/skills/api/rest/scripts/slugify.wasm ./examples/wasm/slugify

## test: race-enabled tests, vet and staticcheck
test: vet lint
	$(GO) test -race -count=1 $(PKGS)

vet:
	$(GO) vet $(PKGS)

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) run $(STATICCHECK) $(PKGS)

## fuzz: a short run of every fuzz target
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## bench: benchmarks with memory figures (benchstat-friendly output)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 $(PKGS)

## check: go.mod and go.sum are tidy
check:
	$(GO) mod tidy -diff

## conformance: the official MCP conformance suite (pinned, installed from npm
## into .tools/ with the Node 22 it needs) against serve --http on 127.0.0.1
conformance:
	GO="$(GO)" scripts/conformance.sh

clean:
	rm -rf bin
