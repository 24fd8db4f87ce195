// Command funclen lists the library functions longer than a limit (80 lines
// by default) whose doc comment does not say why: issue 30's rule is that a
// function over the limit is split, or its doc comment has a sentence
// beginning "It is long because" that gives the reason.
//
//	go run ./internal/tools/funclen [-max 80] [dir ...]
//
// With no directory it walks the module from the current directory, nested
// modules included. Library code only: test files (_test.go) and the
// directories examples/, bench/, interop/, internal/tools/ and testdata/
// (and hidden ones) are skipped. A function's length counts the lines from
// its func keyword to its closing brace. Each finding is printed as
// "lines file:line name", longest first; the exit status is 1 when there is
// any, 2 on an error, 0 otherwise.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// reason is the phrase a long function's doc comment carries to say why it
// is long.
const reason = "It is long because"

// skipDirs are the directories, relative to a walked root, that hold no
// library code.
var skipDirs = []string{"examples", "bench", "interop", "internal/tools", "testdata"}

// finding is one function over the limit without a reason.
type finding struct {
	lines int
	pos   token.Position
	name  string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and output passed in; it returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("funclen", flag.ContinueOnError)
	flags.SetOutput(stderr)
	limit := flags.Int("max", 80, "the longest a function may be, in lines, without a reason in its doc comment")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	roots := flags.Args()
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var all []finding
	for _, root := range roots {
		found, err := check(root, *limit)
		if err != nil {
			fmt.Fprintln(stderr, "funclen:", err)
			return 2
		}
		all = append(all, found...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].lines > all[j].lines })
	for _, f := range all {
		fmt.Fprintf(stdout, "%4d %s:%d %s\n", f.lines, f.pos.Filename, f.pos.Line, f.name)
	}
	if len(all) > 0 {
		fmt.Fprintf(stderr, "funclen: %d functions over %d lines without %q in their doc comment: split them, or say why\n", len(all), *limit, reason)
		return 1
	}
	return 0
}

// check walks root and returns the functions of its library code longer
// than limit lines whose doc comment lacks the reason, in file order.
func check(root string, limit int) ([]finding, error) {
	var found []finding
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipped(root, path) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		found = append(found, longFuncs(fset, f, limit)...)
		return nil
	})
	return found, err
}

// skipped reports whether the directory dir, found under root, holds no
// library code.
func skipped(root, dir string) bool {
	if strings.HasPrefix(filepath.Base(dir), ".") {
		return true
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, s := range skipDirs {
		if rel == s || strings.HasSuffix(rel, "/"+s) {
			return true
		}
	}
	return false
}

// longFuncs returns the functions and methods of f longer than limit lines
// whose doc comment lacks the reason.
func longFuncs(fset *token.FileSet, f *ast.File, limit int) []finding {
	var found []finding
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start := fset.Position(fn.Pos())
		lines := fset.Position(fn.End()).Line - start.Line + 1
		if lines <= limit || strings.Contains(fn.Doc.Text(), reason) {
			continue
		}
		found = append(found, finding{lines: lines, pos: start, name: funcName(fn)})
	}
	return found
}

// funcName is fn's name, with its receiver's type for a method
// (Server.handle).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}
