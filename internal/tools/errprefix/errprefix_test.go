package errprefix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sentinel is one exported Err… variable found in the source.
type sentinel struct {
	pos      string // file:line
	pkg      string // the package's name
	internal bool   // under an internal/ directory
	msg      string // the first string literal of its value
	wraps    bool   // fmt.Errorf("%w…", SameErr…): the prefix is the wrapped one's
	alias    string // "pkg.Name" when the value is another package's variable
	wire     bool   // a protocol.Error literal: its message is the JSON-RPC one
}

// TestExportedErrorsNamePackage: every exported Err… variable of a
// non-internal package (nested modules included; commands and examples
// left out) has a message that starts with "<package>: ". One that is
// another package's variable (fastmcp.ErrTaskStoreUnavailable =
// taskrun.ErrStoreUnavailable) must have a message starting with the
// exporting package's name. protocol's JSON-RPC error values keep the
// messages the specification gives them ("Parse error"): they are sent on
// the wire as they are, and so does another package's name for one of them
// (client.ErrResourceNotFound = protocol.ErrResourceNotFound).
func TestExportedErrorsNamePackage(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	var found []sentinel
	byName := map[string]sentinel{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") || n == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		internal := strings.Contains(filepath.ToSlash(rel), "internal/")
		for _, s := range sentinels(f, fset, rel, internal) {
			found = append(found, s)
			byName[s.pkg+"."+s.name()] = s
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 20 {
		t.Fatalf("found only %d exported Err variables under %s: the walk is broken", len(found), root)
	}
	for _, s := range found {
		if s.internal || s.wire || s.wraps {
			continue
		}
		msg := s.msg
		if s.alias != "" {
			target, ok := byName[s.alias]
			if !ok || target.wire {
				continue // a variable of another module (io.EOF, …), or a JSON-RPC error's other name
			}
			msg = target.msg
		}
		if !strings.HasPrefix(msg, s.pkg+": ") {
			t.Errorf("%s: the message %q does not start with %q", s.pos, msg, s.pkg+": ")
		}
	}
}

// name is the variable's name, kept in pos after the line: "file:line Name".
func (s sentinel) name() string { return s.pos[strings.LastIndexByte(s.pos, ' ')+1:] }

// sentinels lists the exported Err… variables f declares with a value.
func sentinels(f *ast.File, fset *token.FileSet, rel string, internal bool) []sentinel {
	var out []sentinel
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Err") || i >= len(vs.Values) {
					continue
				}
				s := sentinel{pos: rel + ":" + strconv.Itoa(fset.Position(n.Pos()).Line) + " " + n.Name, pkg: f.Name.Name, internal: internal}
				describe(&s, vs.Values[i])
				out = append(out, s)
			}
		}
	}
	return out
}

// describe fills in what s's value v says.
func describe(s *sentinel, v ast.Expr) {
	if sel, ok := v.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok {
			s.alias = x.Name + "." + sel.Sel.Name
			return
		}
	}
	if u, ok := v.(*ast.UnaryExpr); ok {
		if cl, ok := u.X.(*ast.CompositeLit); ok {
			if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "Error" && s.pkg == "protocol" {
				s.wire = true
				return
			}
		}
	}
	ast.Inspect(v, func(x ast.Node) bool {
		if bl, ok := x.(*ast.BasicLit); ok && bl.Kind == token.STRING && s.msg == "" {
			s.msg, _ = strconv.Unquote(bl.Value)
		}
		return s.msg == ""
	})
	if call, ok := v.(*ast.CallExpr); ok && strings.HasPrefix(s.msg, "%w") && len(call.Args) > 1 {
		if id, ok := call.Args[1].(*ast.Ident); ok && strings.HasPrefix(id.Name, "Err") {
			s.wraps = true // the wrapped variable, of this package, is checked on its own
		}
	}
}
