// Command exports counts the exported identifiers of each package of the
// module: package-level constants, variables, types and functions (methods
// and fields are not counted). Test files are skipped.
//
//	go run ./internal/tools/exports [-v] [dir ...]
//
// With no directory it counts protocol, transport, session, lowlevel,
// fastmcp and schema; -v lists the names.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the names")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"protocol", "transport", "session", "lowlevel", "fastmcp", "schema"}
	}
	total, totalM := 0, 0
	fmt.Printf("%-10s %5s %8s\n", "package", "names", "+methods")
	for _, dir := range dirs {
		names, methods, err := exported(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		total += len(names)
		totalM += len(names) + len(methods)
		fmt.Printf("%-10s %5d %8d\n", dir, len(names), len(names)+len(methods))
		if *verbose {
			for _, n := range append(names, methods...) {
				fmt.Println("\t" + n)
			}
		}
	}
	fmt.Printf("%-10s %5d %8d\n", "total", total, totalM)
}

// exported lists the exported package-level names declared in dir, and the
// exported methods of its exported types.
func exported(dir string) (names, methods []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				switch {
				case !d.Name.IsExported():
				case d.Recv == nil:
					names = append(names, "func "+d.Name.Name)
				default:
					if r := recvName(d.Recv.List[0].Type); ast.IsExported(r) {
						methods = append(methods, "method "+r+"."+d.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	sort.Strings(methods)
	return names, methods, nil
}

// recvName is the name of a method's receiver type.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
