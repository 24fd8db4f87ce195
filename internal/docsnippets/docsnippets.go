// Package docsnippets checks that the Go snippets of the pages in docs/ are
// taken from files that go test compiles and runs, so that a snippet a
// reader copies is known to build and to work.
package docsnippets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Check fails t for every ```go block of the Markdown files docs whose
// lines (leading tabs aside) do not appear together and in order in one of
// the files that the glob patterns sources match, and for a doc with no Go
// block at all. A file that cannot be read, or a pattern that matches
// nothing, fails t at once. Check returns how many snippets it checked.
func Check(t testing.TB, docs, sources []string) int {
	t.Helper()
	var files [][]string
	for _, pattern := range sources {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatalf("docsnippets: %s: %v", pattern, err)
		}
		if len(names) == 0 {
			t.Fatalf("docsnippets: %s matches no file", pattern)
		}
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, trimmedLines(string(b)))
		}
	}
	n := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		snippets := goSnippets(string(b))
		if len(snippets) == 0 {
			t.Errorf("%s has no Go snippets", doc)
		}
		for _, snip := range snippets {
			run := trimmedLines(snip)
			if !slices.ContainsFunc(files, func(lines []string) bool { return containsRun(lines, run) }) {
				t.Errorf("%s: this snippet is not in %s:\n%s", doc, strings.Join(sources, ", "), snip)
			}
		}
		n += len(snippets)
	}
	return n
}

// goSnippets returns the bodies of the ```go blocks of a Markdown text.
func goSnippets(md string) []string {
	var out []string
	var cur *strings.Builder
	for line := range strings.Lines(md) {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &strings.Builder{}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return out
}

// trimmedLines splits s into lines without their line ends and leading tabs.
func trimmedLines(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		out = append(out, strings.TrimLeft(strings.TrimRight(line, "\n"), "\t"))
	}
	return out
}

// containsRun reports whether run appears as consecutive lines of lines.
func containsRun(lines, run []string) bool {
	for i := 0; i+len(run) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
