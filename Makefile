# fastmcp developer targets. `make test` is what CI runs.
GO ?= go
FUZZTIME ?= 10s
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test vet race modules otel modules-list fresh cross bench bench-smoke bench-compare bench-replicas lint fuzz conformance demo

test: vet funclen race modules

# The nested modules, each with its own go.mod that points at this tree
# (replace => the root): what they need (OpenTelemetry, go-redis, chromedp,
# cobra, pty, x/term, fosite, kin-openapi) stays out of the root module's graph, which is
# what `go get github.com/fastmcp-go/fastmcp` pulls. cmd/fastmcp requires
# apps/preview, so it comes after it; examples/authorization-server
# and examples/oauth-proxy require oauthserver.
MODULES = otel store/redisstore apps/preview cmd/fastmcp oauthserver examples/authorization-server examples/oauth-proxy openapi examples/openapi
# Modules that only a nested module may have in its graph.
NESTED_ONLY = go.opentelemetry.io/ github.com/redis/ github.com/chromedp/ github.com/spf13/ github.com/creack/pty github.com/ory/ github.com/getkin/

vet:
	$(GO) vet ./...

# Packages `make race` tests (e.g. `make race PKGS=./transport/`).
PKGS = ./...

# Tests that need the MCP schemas (../shared/mcp-spec) skip on a clone
# without them; scripts/gotest.sh then says how many, once.
race:
	@GO=$(GO) bash scripts/gotest.sh -race -count=1 $(PKGS)

# Checks that the root module's graph stays free of NESTED_ONLY, then vets
# each nested module and runs its tests with the race detector, against
# this tree (`make modules MODULES=otel` for one).
modules:
	@graph=$$($(GO) mod graph) || exit 1; for m in $(NESTED_ONLY); do \
		if echo "$$graph" | grep -q " $$m"; then echo "the root module's graph has $$m; only a nested module may"; exit 1; fi; \
	done
	@set -e; for m in $(MODULES); do \
		echo "== $$m"; \
		(cd $$m && $(GO) vet ./... && GO=$(GO) bash $(CURDIR)/scripts/gotest.sh -race -count=1 ./...); \
	done

otel:
	@$(MAKE) -s modules MODULES=otel

# Prints MODULES, for the scripts (.ci/run, scripts/fresh-clone.sh).
modules-list:
	@echo $(MODULES)

# What a newcomer sees: the demo and the schema-dependent tests on a fresh
# clone of HEAD with no ../shared beside it (CI; commit first).
fresh:
	@GO=$(GO) bash scripts/fresh-clone.sh

# Every package builds and vets (test files included) for macOS and Windows
# on both architectures, where the tests cannot run here (CI); on one
# architecture per system (CROSS_LINK) every test binary is also linked:
# `go test -exec true` builds each and "runs" it with true(1). Linking is
# most of the step's time, and the code has no architecture-specific parts
# (no assembly, no unsafe layout), so the other architecture is vetted only.
CROSS ?= darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
CROSS_LINK ?= darwin/arm64 windows/amd64
# Modules oauthserver and openapi are checked on the CROSS_LINK platforms
# only, and the examples built on them not at all: they are pure Go with
# no files per system, and their dependencies (fosite, whose ory/x pulls
# grpc, protobuf and OpenTelemetry, about 70 s per platform to type-check
# from a cold cache; kin-openapi) would double the step.
CROSS_LINK_ONLY = oauthserver openapi
CROSS_SKIP = examples/authorization-server examples/oauth-proxy examples/openapi

cross:
	@for p in $(CROSS); do \
		echo "== $$p"; \
		export GOOS=$${p%/*} GOARCH=$${p#*/}; \
		for m in . $(MODULES); do \
			case " $(CROSS_SKIP) " in *" $$m "*) continue;; esac; \
			case " $(CROSS_LINK_ONLY) " in *" $$m "*) case " $(CROSS_LINK) " in *" $$p "*) ;; *) continue;; esac;; esac; \
			(cd $$m && $(GO) vet ./...) || exit 1; \
			case " $(CROSS_LINK) " in *" $$p "*) \
				out=$$(cd $$m && $(GO) test -count=1 -exec true ./... 2>&1) || { echo "$$out"; exit 1; };; \
			esac; \
		done; \
	done

# Benchmarks print the hand-written floor beside each fastmcp path.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) test -run '^$$' -bench . -benchmem -count=1 ./...); done

# The whole-process comparison with a hand-written floor, the go-sdk and
# mcp-go (docs/performance.md): a few minutes on 2 cores. It lives in the
# nested module bench/compare, which downloads those SDKs, so it is in no
# other target and not in CI. Flags: make bench-compare ARGS='-rounds 9'.
bench-compare:
	cd bench/compare && $(GO) run ./cmd/driver $(ARGS)

# Calls/s and p99 of one process and of replicas on Redis behind a proxy
# (docs/scale.md); needs redis-server. Flags: make bench-replicas ARGS='-rounds 5'.
bench-replicas:
	cd store/redisstore && $(GO) run ./internal/benchreplicas $(ARGS)

# Every benchmark once, as a test that they still run (CI); no timings.
bench-smoke:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 5m ./...
	@set -e; for m in $(MODULES); do echo "== $$m"; (cd $$m && $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 5m ./...); done

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@set -e; for m in $(MODULES); do echo "== $$m"; (cd $$m && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./...); done
	@set -e; for m in . $(MODULES) bench/compare; do (cd $$m && $(GO) mod tidy -diff) || (echo "$$m: go.mod is not tidy: run go mod tidy there"; exit 1); done

# Runs every fuzz target, of every module, for FUZZTIME each.
fuzz:
	@set -e; for m in . $(MODULES); do (cd $$m && for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done); done

conformance:
	bash scripts/conformance.sh

# Installs the fastmcp command (the nested module cmd/fastmcp) from this
# tree, built as we ship it: -tags validator_novalidatefn (docs/cli.md).
.PHONY: cli
cli:
	cd cmd/fastmcp && $(GO) install -trimpath -tags validator_novalidatefn .

demo:
	$(GO) run ./examples/hello

# The interop matrix against the TypeScript SDKs and the MCP Inspector CLI
# (installs them with npm into ~/.cache/fastmcp-interop): docs/interop.md.
.PHONY: interop
interop:
	bash scripts/interop.sh

# Lists the library functions over 80 lines whose doc comment does not say
# why ("It is long because ..."), issue 30's rule; fails when there is any
# (part of `make test`). Flags: make funclen ARGS='-max 60'.
.PHONY: funclen
funclen:
	$(GO) run ./internal/tools/funclen $(ARGS)
