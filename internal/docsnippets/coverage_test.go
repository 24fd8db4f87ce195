package docsnippets

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package.
const repoRoot = "../.."

// pages returns README.md and docs/*.md, relative to the root.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md found (%v)", err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		out = append(out, filepath.ToSlash(strings.TrimPrefix(d, repoRoot+string(filepath.Separator))))
	}
	return out
}

// TestEveryPageIsChecked: every page with a Go snippet is named by a test
// that calls Check on it (in any module of the repository), so every
// snippet a reader copies is compiled.
func TestEveryPageIsChecked(t *testing.T) {
	var checks strings.Builder // the text of the test files that call Check
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != repoRoot {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "docsnippets.Check(") {
			checks.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages(t) {
		b, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		if len(goSnippets(string(b))) == 0 {
			continue
		}
		if !strings.Contains(checks.String(), page+`"`) {
			t.Errorf("%s has Go snippets but no test checks them: call docsnippets.Check on it from the test of the package its snippets use", page)
		}
	}
}

// machinePath matches an absolute path of a developer's machine.
var machinePath = regexp.MustCompile(`(^|[\s(\x60"'])/(work|root|home|Users)/`)

// TestNoMachinePaths: the pages name no path of someone's machine.
func TestNoMachinePaths(t *testing.T) {
	for _, page := range pages(t) {
		b, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if machinePath.MatchString(line) {
				t.Errorf("%s:%d names a path of a machine: %s", page, i+1, line)
			}
		}
	}
}
