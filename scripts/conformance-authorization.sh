#!/usr/bin/env bash
# Runs the conformance suite's authorization-server mode
# (`conformance authorization`, scenarios authorization-server-metadata-endpoint
# and authorization-code-grant) against module oauthserver twice: the
# standalone authorization server (examples/authorization-server, its demo
# login), and the OAuth proxy (examples/oauth-proxy) in front of panva's
# oidc-provider from the interop peers (scripts/interop.sh --install), as an
# upstream without dynamic registration. Used by CI after
# scripts/conformance.sh, which installs Node and the suite.
#
# Each server gets a pre-registered public client whose redirect URI is the
# suite's callback; the suite runs under oauthserver/internal/asdriver, which
# follows the authorization URL the suite prints through the login and
# consent pages (plain HTTP: the pages need no JavaScript; the upstream's
# user is headless) so that the redirect reaches the callback.
#
# The verdict comes from the results (checks.json of each scenario): both
# scenarios must have results for both servers, every check SUCCESS (a
# SKIPPED check, as without --client-id, or a WARNING fails the run).
#
# Environment:
#   FASTMCP_CONFORMANCE_CACHE  where Node and the suite are installed (as in scripts/conformance.sh)
#   FASTMCP_CONFORMANCE_OUT    where results go (default $FASTMCP_CONFORMANCE_CACHE/results);
#                              authorization/ there holds this run's, summary-authorization.txt its line
#   GO                         the go command (default go)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE_DIR=${FASTMCP_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/fastmcp-conformance}
OUT_DIR=${FASTMCP_CONFORMANCE_OUT:-$CACHE_DIR/results}
GO=${GO:-go}
SCENARIOS="authorization-server-metadata-endpoint authorization-code-grant"

die() { printf 'conformance-authorization: %s\n' "$*" >&2; exit 1; }
NODE=$(ls "$CACHE_DIR"/node_modules/node-*/bin/node 2>/dev/null | head -n1 || true)
SUITE=$CACHE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
[ -x "$NODE" ] && [ -f "$SUITE" ] || die "Node and the suite are not in $CACHE_DIR: run scripts/conformance.sh first"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fastmcp-asconf.XXXXXX")
PIDS=()
OP_DIR=
cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$WORK" ${OP_DIR:+"$OP_DIR"}
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building examples/authorization-server, examples/oauth-proxy and the driver"
(cd "$ROOT/examples/authorization-server" && "$GO" build -o "$WORK/as" .)
(cd "$ROOT/examples/oauth-proxy" && "$GO" build -o "$WORK/proxy" .)
(cd "$ROOT/oauthserver" && "$GO" build -o "$WORK/asdriver" ./internal/asdriver)

free_port() { "$NODE" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
mkdir -p "$OUT_DIR"
: >"$OUT_DIR/summary-authorization.txt"
failed=0

# wait_metadata ISSUER PID LOG: waits until the server at ISSUER serves its
# metadata, or dies with its log.
wait_metadata() {
	for _ in $(seq 1 100); do
		if "$NODE" -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1/.well-known/oauth-authorization-server"; then
			return 0
		fi
		kill -0 "$2" 2>/dev/null || die "the server at $1 exited: $(cat "$3")"
		sleep 0.1
	done
	die "the server at $1 did not serve its metadata: $(cat "$3")"
}

# suite NAME ISSUER CB_PORT: runs the two scenarios against the
# authorization server at ISSUER, whose pre-registered client
# "conformance" has the redirect URI http://127.0.0.1:CB_PORT/callback,
# and appends the verdict to the summary.
suite() {
	local name=$1 issuer=$2 cb=$3 rc=0 results=$OUT_DIR/authorization-$1
	rm -rf "$results"
	echo "== conformance authorization --url $issuer --client-id conformance --port $cb ($name)"
	"$WORK/asdriver" -- "$NODE" "$SUITE" authorization --url "$issuer" --client-id conformance --port "$cb" -o "$results" || rc=$?
	echo "(suite exit code $rc)"
	# The verdict: every scenario has results and only SUCCESS checks.
	"$NODE" - "$name" "$results" "$OUT_DIR/summary-authorization.txt" $SCENARIOS <<'JS' || failed=1
const fs = require("fs"), path = require("path");
const [name, dir, summary, ...want] = process.argv.slice(2);
let pass = 0, bad = [];
for (const s of want) {
	const d = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => n.includes("-" + s + "-") || n.startsWith(s + "-")) : undefined;
	if (!d) { bad.push(s + ": no results"); continue; }
	const checks = JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"));
	const notOK = checks.filter((c) => c.status !== "SUCCESS");
	if (checks.length === 0 || notOK.length > 0) bad.push(s + ": " + (notOK.map((c) => c.id + " " + c.status + (c.errorMessage ? " (" + c.errorMessage + ")" : "")).join("; ") || "no checks"));
	else pass++;
}
const line = `authorization (${name}): ${pass}/${want.length} scenarios passed, 0 skipped` + (bad.length ? `; FAILED: ${bad.join(" | ")}` : "");
console.log(line);
fs.appendFileSync(summary, line + "\n");
process.exit(bad.length ? 1 : 0);
JS
}

# 1. The standalone authorization server (its demo login).
AS_PORT=$(free_port)
CB_PORT=$(free_port)
[ "$AS_PORT" != "$CB_PORT" ] || CB_PORT=$(free_port)
"$WORK/as" -addr "127.0.0.1:$AS_PORT" -client "conformance=http://127.0.0.1:$CB_PORT/callback" 2>"$OUT_DIR/authorization-server.log" &
PIDS+=($!)
wait_metadata "http://127.0.0.1:$AS_PORT" "${PIDS[-1]}" "$OUT_DIR/authorization-server.log"
suite examples/authorization-server "http://127.0.0.1:$AS_PORT" "$CB_PORT"

# 2. The OAuth proxy in front of panva's oidc-provider (the interop peers:
# no dynamic registration there, the proxy's client pre-registered), whose
# headless user signs in.
PEERS=$(bash "$ROOT/scripts/interop.sh" --install | sed -n 's/^interop: peers in \([^ ]*\).*/\1/p' | tail -n1)
[ -d "$PEERS/node_modules/oidc-provider" ] || die "the interop peers (oidc-provider) are not installed: bash scripts/interop.sh --install"
PX_PORT=$(free_port)
CB2_PORT=$(free_port)
PX=http://127.0.0.1:$PX_PORT
OP_DIR=$(mktemp -d "$PEERS/asconf.XXXXXX")
cp "$ROOT/interop/oidc/provider.mjs" "$OP_DIR/"
# provider.mjs stops when its stdin closes: this shell holds the fifo open.
mkfifo "$WORK/op.in"
"$NODE" "$OP_DIR/provider.mjs" --resource "$PX/upstream-api" --no-registration \
	--client "proxy=proxy-secret-0123456789=$PX/oauth/callback" >"$WORK/op.out" 2>"$OUT_DIR/oidc-provider.log" <"$WORK/op.in" &
PIDS+=($!)
exec 3>"$WORK/op.in"
for _ in $(seq 1 200); do
	OP_ISSUER=$(sed -n 's/^{"issuer":"\(.*\)"}$/\1/p' "$WORK/op.out" | head -n1)
	[ -n "$OP_ISSUER" ] && break
	kill -0 "${PIDS[-1]}" 2>/dev/null || die "oidc-provider exited: $(cat "$OUT_DIR/oidc-provider.log")"
	sleep 0.1
done
[ -n "$OP_ISSUER" ] || die "oidc-provider did not start"
FASTMCP_UPSTREAM_CLIENT_SECRET=proxy-secret-0123456789 "$WORK/proxy" -addr "127.0.0.1:$PX_PORT" \
	-upstream-issuer "$OP_ISSUER" -upstream-client-id proxy -client "conformance=http://127.0.0.1:$CB2_PORT/callback" 2>"$OUT_DIR/oauth-proxy.log" &
PIDS+=($!)
wait_metadata "$PX" "${PIDS[-1]}" "$OUT_DIR/oauth-proxy.log"
suite "examples/oauth-proxy in front of oidc-provider" "$PX" "$CB2_PORT"
exec 3>&-
rm -rf "$OP_DIR"
exit $failed
