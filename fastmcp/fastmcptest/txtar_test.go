package fastmcptest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestArchiveRoundTrip: every golden transcript of the repository parses
// into its comment and files and formats back to the same bytes.
func TestArchiveRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../*/testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../*/*/testdata/*.txtar")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found only %d .txtar files: %v", len(files), files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(data)
		if len(a.Files) == 0 || len(a.Comment) == 0 {
			t.Errorf("%s: comment %q, %d files; want both", f, a.Comment, len(a.Files))
		}
		if got := a.format(); string(got) != string(data) {
			t.Errorf("%s: formatted back differently:\n%s", f, got)
		}
	}
}

// TestArchiveFormat: the parts of an archive, each given a final newline
// when it lacks one; marker-like lines that are no markers stay data.
func TestArchiveFormat(t *testing.T) {
	a := parseArchive([]byte("note\n-- wire --\n> a\n--  --\n-- x\n-- b.txt --\nlast"))
	want := []archiveFile{{Name: "wire", Data: []byte("> a\n--  --\n-- x\n")}, {Name: "b.txt", Data: []byte("last")}}
	if string(a.Comment) != "note\n" || !slices.EqualFunc(a.Files, want, func(x, y archiveFile) bool {
		return x.Name == y.Name && string(x.Data) == string(y.Data)
	}) {
		t.Fatalf("parsed %q %q", a.Comment, a.Files)
	}
	if got := string(a.format()); got != "note\n-- wire --\n> a\n--  --\n-- x\n-- b.txt --\nlast\n" {
		t.Errorf("format = %q", got)
	}
	if got := string((&archive{Files: []archiveFile{{Name: "wire"}}}).format()); got != "-- wire --\n" {
		t.Errorf("empty archive = %q", got)
	}
}
