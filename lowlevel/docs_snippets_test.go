package lowlevel_test

import (
	"os"
	"strings"
	"testing"
)

// TestDocSnippets checks that every Go snippet in docs/lowlevel.md is taken
// from a compiled, tested Example: its lines must appear, in order and
// together, in one of the example files (leading tabs aside).
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	var source []string
	for _, f := range []string{"example_test.go", "example_middleware_test.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		source = append(source, trimmedLines(string(b))...)
	}
	b, err := os.ReadFile("../docs/lowlevel.md")
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(string(b))
	if len(snippets) == 0 {
		t.Fatal("docs/lowlevel.md has no Go snippets")
	}
	for _, snip := range snippets {
		if !containsRun(source, trimmedLines(snip)) {
			t.Errorf("docs/lowlevel.md: this snippet is not in the examples:\n%s", snip)
		}
	}
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
		match := true
		for j := range run {
			if lines[i+j] != run[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
