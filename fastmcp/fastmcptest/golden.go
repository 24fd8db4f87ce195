package fastmcptest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A golden transcript is a txtar archive (golang.org/x/tools/txtar; see txtar.go): its
// comment describes it and names the protocol revision spoken in a line
// "revision: 2025-11-25"; its file "wire" holds the lines of the exchange,
// "> " for what the client sends and "< " for what the server sends, with
// "#" comment lines and blank lines between them. Record writes such files
// (CheckGolden) and Replay plays them back.

// golden is a parsed golden transcript.
type golden struct {
	ar       *archive
	wire     *archiveFile
	revision string
}

// readGolden parses a golden transcript.
func readGolden(file string) (*golden, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	g := &golden{ar: parseArchive(data)}
	for line := range strings.Lines(string(g.ar.Comment)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "revision:"); ok {
			g.revision = strings.TrimSpace(v)
		}
	}
	for i := range g.ar.Files {
		if g.ar.Files[i].Name == "wire" {
			g.wire = &g.ar.Files[i]
		}
	}
	if g.wire == nil {
		return nil, fmt.Errorf("%s has no wire file", file)
	}
	return g, nil
}

// write rewrites the golden file with wire as its exchange.
func (g *golden) write(file, wire string) error {
	g.wire.Data = []byte(wire)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, g.ar.format(), 0o644)
}

// CheckGolden compares the transcript with the golden transcript file (see
// Replay for the format), ignoring its comment lines. They must be equal
// line for line; a difference fails the test, listing the lines that
// differ. With update set (from the test's -update flag, say), it writes
// the transcript to the file instead, creating it and its directory if
// needed; the archive's comment is kept, "#" lines in the wire file are not.
//
//	var update = flag.Bool("update", false, "rewrite the golden files")
//	...
//	tr.CheckGolden(t, "testdata/add.txtar", *update)
func (tr *Transcript) CheckGolden(t testing.TB, file string, update bool) {
	t.Helper()
	got := tr.String()
	tr.mu.Lock()
	version := tr.version
	tr.mu.Unlock()
	g, err := readGolden(file)
	if errors.Is(err, fs.ErrNotExist) && update {
		g = &golden{ar: &archive{
			Comment: []byte("Recorded by fastmcptest.\n\nrevision: " + version + "\n"),
			Files:   []archiveFile{{Name: "wire"}},
		}}
		g.wire = &g.ar.Files[0]
		g.revision = version
	} else if err != nil {
		t.Fatalf("fastmcptest: reading the golden transcript (run with -update to create it): %v", err)
	}
	want := string(g.wire.Data)
	if stripComments(want) == got && g.revision == version {
		return
	}
	if update {
		if err := g.write(file, got); err != nil {
			t.Fatalf("fastmcptest: %v", err)
		}
		if g.revision != version {
			t.Errorf("fastmcptest: %s names revision %q but the client spoke %s; edit its comment", file, g.revision, version)
		}
		t.Logf("fastmcptest: updated %s", file)
		return
	}
	if g.revision != version {
		t.Errorf("fastmcptest: %s names revision %q but the client spoke %s", file, g.revision, version)
	}
	if d := lineDiff(stripComments(want), got); d != "" {
		t.Errorf("fastmcptest: the exchange differs from %s (run with -update to accept):\n%s", file, d)
	}
}

// stripComments drops the comment and blank lines of a wire file.
func stripComments(wire string) string {
	var b strings.Builder
	for line := range strings.Lines(wire) {
		if strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "< ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// lineDiff shows the lines of want and got that differ, by position.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
