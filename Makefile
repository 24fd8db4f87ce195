# fastmcp developer targets. `make test` is what CI runs.
GO ?= go
FUZZTIME ?= 10s
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test vet race otel fresh cross bench bench-smoke bench-compare bench-replicas lint fuzz conformance demo

test: vet race otel

vet:
	$(GO) vet ./...

# Packages `make race` tests (e.g. `make race PKGS=./transport/`).
PKGS = ./...

# Tests that need the MCP schemas (../shared/mcp-spec) skip on a clone
# without them; scripts/gotest.sh then says how many, once.
race:
	@GO=$(GO) bash scripts/gotest.sh -race -count=1 $(PKGS)

# The OpenTelemetry instrumentation is the nested module otel/ (its own
# go.mod, so that the root module does not depend on OpenTelemetry): check
# that the root module's graph stays free of it, vet the module and run its
# tests with the race detector, against this tree.
otel:
	@! $(GO) mod graph | grep -q 'go.opentelemetry.io' || (echo "the root module depends on OpenTelemetry; only otel/ may"; exit 1)
	cd otel && $(GO) vet ./... && $(GO) test -race -count=1 ./...

# What a newcomer sees: the demo and the schema-dependent tests on a fresh
# clone of HEAD with no ../shared beside it (CI; commit first).
fresh:
	@GO=$(GO) bash scripts/fresh-clone.sh

# Every package builds, vets and links its tests for macOS and Windows,
# where the tests cannot run here (CI). `go test -exec true` builds each
# test binary and "runs" it with true(1).
CROSS ?= darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
cross:
	@for p in $(CROSS); do \
		echo "== $$p"; \
		export GOOS=$${p%/*} GOARCH=$${p#*/}; \
		$(GO) vet ./... || exit 1; \
		out=$$($(GO) test -count=1 -exec true ./... 2>&1) || { echo "$$out"; exit 1; }; \
	done

# Benchmarks print the hand-written floor beside each fastmcp path.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

# The whole-process comparison with a hand-written floor, the go-sdk and
# mcp-go (docs/performance.md): a few minutes on 2 cores. It lives in the
# nested module bench/compare, which downloads those SDKs, so it is in no
# other target and not in CI. Flags: make bench-compare ARGS='-rounds 9'.
bench-compare:
	cd bench/compare && $(GO) run ./cmd/driver $(ARGS)

# Calls/s and p99 of one process and of replicas on Redis behind a proxy
# (docs/scale.md); needs redis-server. Flags: make bench-replicas ARGS='-rounds 5'.
bench-replicas:
	$(GO) run ./bench/replicas $(ARGS)

# Every benchmark once, as a test that they still run (CI); no timings.
bench-smoke:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 5m ./...
	cd otel && $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 5m ./...

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	cd otel && $(GO) run $(STATICCHECK) ./...

# Runs every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

conformance:
	bash scripts/conformance.sh

demo:
	$(GO) run ./examples/hello

# The interop matrix against the TypeScript SDKs and the MCP Inspector CLI
# (installs them with npm into ~/.cache/fastmcp-interop): docs/interop.md.
.PHONY: interop
interop:
	bash scripts/interop.sh
