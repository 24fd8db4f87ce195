package docsnippets

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// fakeTB records the failures Check reports.
type fakeTB struct {
	testing.TB
	errors []string
	fatal  bool
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	f.fatal = true
	panic(f)
}

func (f *fakeTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

// check runs Check on a fake test and returns its failures.
func check(docs, sources []string) (errs []string, fatal bool, n int) {
	f := &fakeTB{}
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
		errs, fatal = f.errors, f.fatal
	}()
	n = Check(f, docs, sources)
	return f.errors, f.fatal, n
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := write("a_test.go", "func A() {\n\tx := 1\n\t_ = x\n}\n")
	write("b_test.go", "func B() {\n\ty := 2\n}\n")
	glob := filepath.Join(dir, "*_test.go")
	tests := []struct {
		name   string
		doc    string
		srcs   []string
		errs   int
		fatal  bool
		checks int
	}{
		{"in one file", "```go\nx := 1\n_ = x\n```\n", []string{glob}, 0, false, 1},
		{"two snippets", "```go\nx := 1\n```\ntext\n```go\ny := 2\n```\n", []string{glob}, 0, false, 2},
		{"not there", "```go\nx := 2\n```\n", []string{glob}, 1, false, 1},
		{"out of order", "```go\n_ = x\nx := 1\n```\n", []string{src}, 1, false, 1},
		{"across two files", "```go\n}\nfunc B() {\n```\n", []string{glob}, 1, false, 1},
		{"no snippet", "```sh\ngo test\n```\n", []string{glob}, 1, false, 0},
		{"no source", "```go\nx := 1\n```\n", []string{filepath.Join(dir, "none*.go")}, 1, true, 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := write(fmt.Sprintf("doc%d.md", i), tt.doc)
			errs, fatal, n := check([]string{doc}, tt.srcs)
			if len(errs) != tt.errs || fatal != tt.fatal || n != tt.checks {
				t.Errorf("Check: errors %q, fatal %v, %d checked; want %d errors, fatal %v, %d checked", errs, fatal, n, tt.errs, tt.fatal, tt.checks)
			}
		})
	}
}
