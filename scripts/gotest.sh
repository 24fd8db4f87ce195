#!/usr/bin/env bash
# Runs `go test "$@"` (make test's race run) and then says once, visibly,
# how many tests were skipped, or ran without their schema checks, because
# the MCP schemas were not found (../shared/mcp-spec beside the clone, or
# FASTMCP_SPEC_DIR). `go test ./...` shows nothing of a passing package, so
# internal/spectest appends a line per such test to a file (EnvReport) and
# this script sums them. Exits with go test's status.
set -u
GO=${GO:-go}
report=$(mktemp)
trap 'rm -f "$report"' EXIT
echo "$GO test $*"
status=0
FASTMCP_SPECTEST_REPORT=$report "$GO" test "$@" || status=$?
if [ -s "$report" ]; then
	# Each line: "<skipped>\t<unchecked>\t<package directory>\t<reason>".
	awk -F '\t' '{
		n += $1; u += $2
		if (!($3 in dirs)) { dirs[$3] = 1; p++ }
		if (reason == "") reason = $4
	}
	END {
		s = n " test" (n == 1 ? "" : "s") " skipped"
		if (u > 0) s = s " and " u " ran without schema checks"
		printf "\n== spectest: %s in %d package%s (CI runs them): %s\n\n", s, p, (p == 1 ? "" : "s"), reason
	}' "$report" >&2
fi
exit "$status"
