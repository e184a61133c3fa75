// Command apicount counts the exported identifiers of one Go package: its
// exported constants, variables, functions and types, the exported methods of
// its exported types, the exported fields of its exported structs and the
// methods of its exported interfaces. Test files are skipped.
//
// Usage, from the repository root:
//
//	go run ./internal/apicount engine
//
// It prints one line per kind and a total. With -list it prints every name.
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
	list := flag.Bool("list", false, "print every exported name, one a line")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: apicount [-list] DIR")
		os.Exit(2)
	}
	names, err := count(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(1)
	}
	kinds := map[string]int{}
	for _, n := range names {
		kinds[n[:strings.IndexByte(n, ' ')]]++
	}
	if *list {
		for _, n := range names {
			fmt.Println(n)
		}
		return
	}
	order := []string{"const", "var", "func", "type", "method", "field"}
	for _, k := range order {
		fmt.Printf("%-7s %d\n", k, kinds[k])
	}
	fmt.Printf("%-7s %d\n", "total", len(names))
}

func count(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	var names []string
	add := func(kind, name string) { names = append(names, kind+" "+name) }
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					add("func", d.Name.Name)
					continue
				}
				recv := receiverName(d.Recv.List[0].Type)
				if ast.IsExported(recv) {
					add("method", recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						kind := "var"
						if d.Tok == token.CONST {
							kind = "const"
						}
						for _, n := range s.Names {
							if n.IsExported() {
								add(kind, n.Name)
							}
						}
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						add("type", s.Name.Name)
						members(s, add)
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

func members(s *ast.TypeSpec, add func(kind, name string)) {
	switch t := s.Type.(type) {
	case *ast.StructType:
		for _, fl := range t.Fields.List {
			if len(fl.Names) == 0 {
				if n := receiverName(fl.Type); ast.IsExported(n) {
					add("field", s.Name.Name+"."+n)
				}
			}
			for _, n := range fl.Names {
				if n.IsExported() {
					add("field", s.Name.Name+"."+n.Name)
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				if n.IsExported() {
					add("method", s.Name.Name+"."+n.Name)
				}
			}
		}
	}
}

func receiverName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverName(t.X)
	case *ast.IndexExpr:
		return receiverName(t.X)
	case *ast.IndexListExpr:
		return receiverName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return ""
}
