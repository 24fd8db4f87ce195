package fastmcp_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every alias package fastmcp declares of a name package lowlevel also
// exports (Handler, HandlerFunc, Request, Middleware) comes from lowlevel,
// not from session or transport underneath it, so go doc sends a reader
// to one package for all of them.
func TestLowlevelAliasesComeFromLowlevel(t *testing.T) {
	lowlevel := map[string]bool{}
	for _, f := range parseNonTest(t, "../lowlevel") {
		for _, spec := range typeSpecs(f) {
			if spec.Name.IsExported() {
				lowlevel[spec.Name.Name] = true
			}
		}
	}
	if !lowlevel["HandlerFunc"] {
		t.Fatal("package lowlevel exports no HandlerFunc: the test reads the wrong directory")
	}
	checked := 0
	for _, f := range parseNonTest(t, ".") {
		imports := map[string]string{} // local name -> import path
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = path
		}
		for _, spec := range typeSpecs(f) {
			sel, ok := spec.Type.(*ast.SelectorExpr)
			if !spec.Assign.IsValid() || !ok || !lowlevel[sel.Sel.Name] {
				continue
			}
			pkg, _ := sel.X.(*ast.Ident)
			if pkg == nil {
				continue
			}
			checked++
			if path := imports[pkg.Name]; !strings.HasSuffix(path, "/lowlevel") {
				t.Errorf("fastmcp.%s = %s.%s: alias lowlevel.%s instead (lowlevel documents it)", spec.Name.Name, pkg.Name, sel.Sel.Name, sel.Sel.Name)
			}
		}
	}
	if checked < 4 {
		t.Errorf("checked %d aliases of lowlevel names, want at least 4 (Handler, HandlerFunc, Request, Middleware)", checked)
	}
}

func parseNonTest(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func typeSpecs(f *ast.File) []*ast.TypeSpec {
	var specs []*ast.TypeSpec
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, s := range gd.Specs {
				specs = append(specs, s.(*ast.TypeSpec))
			}
		}
	}
	return specs
}
