#!/usr/bin/env bash
# Checks what a newcomer sees on a fresh clone with only Go installed and
# no ../shared beside it (used by `make fresh` and CI): clones HEAD into a
# temporary directory, runs the demo, builds the nested modules, and runs
# make test's race run on the packages whose tests use internal/spectest, directly or through
# internal/transcript (no other test reads ../shared). They must pass, with the tests that need the MCP schemas
# skipped cleanly and counted in one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

# The test binaries (p.test) that link internal/spectest, directly or not.
pkgs=$("$GO" list -test -f '{{.ImportPath}}{{range .Deps}} {{.}}{{end}}' ./... |
	awk '$1 ~ /\.test$/ { for (i = 2; i <= NF; i++) if ($i ~ /\/internal\/spectest$/) { sub(/\.test$/, "", $1); print $1; break } }')
if [ -z "$pkgs" ]; then
	echo "fresh-clone: no package uses internal/spectest?"; exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git clone -q . "$tmp/fastmcp" # what is committed, nothing else
else
	mkdir "$tmp/fastmcp" && tar -cf - . | tar -C "$tmp/fastmcp" -xf -
fi
cd "$tmp/fastmcp"
# A newcomer's machine: not CI, no FASTMCP_SPEC_DIR, nothing beside the clone.
export FASTMCP_REQUIRE_SPEC=0
unset FASTMCP_SPEC_DIR

echo "== fresh clone: make demo"
make -s demo >/dev/null

# The nested modules (make test's MODULES) resolve against the clone
# through their replace directives, and their go.sum files are complete.
for m in $(make -s modules-list); do
	echo "== fresh clone: go build ./... in $m"
	(cd "$m" && "$GO" build ./...)
done

echo "== fresh clone: make race PKGS=<the packages using internal/spectest>"
if ! out=$(make -s race PKGS="$(echo $pkgs)" 2>&1); then
	echo "$out"
	echo "fresh-clone: the tests fail on a clone without ../shared"
	exit 1
fi
echo "$out"
if ! grep -Eq '^== spectest: [0-9]+ tests? skipped' <<<"$out"; then
	echo "fresh-clone: no spectest skip summary: are the schemas visible from $tmp?"
	exit 1
fi
