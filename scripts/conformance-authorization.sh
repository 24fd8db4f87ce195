#!/usr/bin/env bash
# Runs the conformance suite's authorization-server mode
# (`conformance authorization`, scenarios authorization-server-metadata-endpoint
# and authorization-code-grant) against examples/authorization-server, the
# standalone authorization server of module oauthserver. Used by CI after
# scripts/conformance.sh, which installs Node and the suite.
#
# It starts the example on a free loopback port with a pre-registered public
# client whose redirect URI is the suite's callback, and runs the suite under
# oauthserver/internal/asdriver, which follows the authorization URL the
# suite prints through the demo login and consent pages (plain HTTP: the
# pages need no JavaScript) so that the redirect reaches the callback.
#
# The verdict comes from the results (checks.json of each scenario): both
# scenarios must have results, every check SUCCESS (a SKIPPED check, as
# without --client-id, fails the run).
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
AS_PID=
cleanup() {
	if [ -n "$AS_PID" ]; then
		kill "$AS_PID" 2>/dev/null || true
		wait "$AS_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building examples/authorization-server and the driver"
(cd "$ROOT/examples/authorization-server" && "$GO" build -o "$WORK/as" .)
(cd "$ROOT/oauthserver" && "$GO" build -o "$WORK/asdriver" ./internal/asdriver)

free_port() { "$NODE" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
AS_PORT=$(free_port)
CB_PORT=$(free_port)
[ "$AS_PORT" != "$CB_PORT" ] || CB_PORT=$(free_port)
ISSUER=http://127.0.0.1:$AS_PORT

mkdir -p "$OUT_DIR"
RESULTS=$OUT_DIR/authorization
rm -rf "$RESULTS"
"$WORK/as" -addr "127.0.0.1:$AS_PORT" -client "conformance=http://127.0.0.1:$CB_PORT/callback" 2>"$OUT_DIR/authorization-server.log" &
AS_PID=$!
for _ in $(seq 1 100); do
	if "$NODE" -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$ISSUER/.well-known/oauth-authorization-server"; then
		break
	fi
	kill -0 "$AS_PID" 2>/dev/null || die "the authorization server exited: $(cat "$OUT_DIR/authorization-server.log")"
	sleep 0.1
done

echo "== conformance authorization --url $ISSUER --client-id conformance --port $CB_PORT"
rc=0
"$WORK/asdriver" -- "$NODE" "$SUITE" authorization --url "$ISSUER" --client-id conformance --port "$CB_PORT" -o "$RESULTS" || rc=$?
echo "(suite exit code $rc)"

# The verdict: every scenario has results and only SUCCESS checks.
"$NODE" - "$RESULTS" "$OUT_DIR/summary-authorization.txt" $SCENARIOS <<'JS'
const fs = require("fs"), path = require("path");
const [dir, summary, ...want] = process.argv.slice(2);
let pass = 0, bad = [];
for (const s of want) {
	const d = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => n.endsWith("-" + s + n.slice(n.length - 25)) || n.includes("-" + s + "-")) : undefined;
	if (!d) { bad.push(s + ": no results"); continue; }
	const checks = JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"));
	const notOK = checks.filter((c) => c.status !== "SUCCESS");
	if (checks.length === 0 || notOK.length > 0) bad.push(s + ": " + (notOK.map((c) => c.id + " " + c.status + (c.errorMessage ? " (" + c.errorMessage + ")" : "")).join("; ") || "no checks"));
	else pass++;
}
const line = `authorization (examples/authorization-server): ${pass}/${want.length} scenarios passed, 0 skipped` + (bad.length ? `; FAILED: ${bad.join(" | ")}` : "");
console.log(line);
fs.writeFileSync(summary, line + "\n");
process.exit(bad.length ? 1 : 0);
JS
