package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A pkg is the package whose mutants are made: its non-test files, parsed
// and type-checked.
type pkg struct {
	dir   string // absolute
	name  string
	fset  *token.FileSet
	files map[string]*ast.File // by base name
	src   map[string][]byte    // by base name
	info  *types.Info
	self  *types.Package
}

// loadPackage parses and type-checks the Go files of the package in dir
// that build on this machine, test files left out.
func loadPackage(dir string) (*pkg, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	bp, err := build.Default.ImportDir(abs, 0)
	if err != nil {
		return nil, fmt.Errorf("-pkg %s: %w", dir, err)
	}
	p := &pkg{dir: abs, name: bp.Name, fset: token.NewFileSet(),
		files: map[string]*ast.File{}, src: map[string][]byte{}}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		src, err := os.ReadFile(filepath.Join(abs, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(abs, name), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files[name], p.src[name] = f, src
		files = append(files, f)
	}
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.ForCompiler(p.fset, "source", nil)}
	p.self, err = conf.Check(bp.ImportPath, p.fset, files, p.info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", dir, err)
	}
	return p, nil
}

// A placement says how a mutant is run.
type placement int

const (
	inSchema   placement = iota // a choice in the schema build
	builtAlone                  // a build of its own, only its file changed
	notViable                   // cannot build: a + between strings made -
	notFound                    // no operator of its kind at its position
)

// A site is a mutant found in the source: its operator's offset in its
// file, the operator and its replacement, and, in the schema, its node.
type site struct {
	mutant
	place placement
	why   string // why it is not in the schema
	off   int
	from  token.Token
	to    token.Token
	node  ast.Node // *ast.BinaryExpr, *ast.UnaryExpr or *ast.IncDecStmt
	// reach is the position whose coverage says which tests run the
	// mutant: its own, or for a case condition its switch's (a coverage
	// profile's blocks start after a clause's colon, so no block holds
	// the condition, while every test that reaches the switch may
	// evaluate it).
	reach mutant
}

// locate finds the mutant's operator and decides how it is run.
func (p *pkg) locate(m mutant) site {
	s := site{mutant: m, place: notFound, reach: m}
	f := p.files[m.File]
	if f == nil {
		s.why = "no such file in the package"
		return s
	}
	tf := p.fset.File(f.Pos())
	if m.Line < 1 || m.Line > tf.LineCount() {
		s.why = "no such line"
		return s
	}
	s.off = tf.Offset(tf.LineStart(m.Line)) + m.Col - 1
	s.from = operatorAt(p.src[m.File], s.off)
	to, ok := replacement(m.Kind, s.from)
	if !ok {
		s.why = fmt.Sprintf("%s does not change %q", m.Kind, s.from)
		return s
	}
	s.to = to
	s.node = nodeAt(f, tf.Pos(s.off))
	s.place, s.why = p.placeOf(f, s)
	if sw := switchOfCase(f, tf.Pos(s.off)); sw.IsValid() {
		at := p.fset.Position(sw)
		s.reach.Line, s.reach.Col = at.Line, at.Column
	}
	return s
}

// switchOfCase returns the position of the switch or select statement
// whose case condition holds pos, or token.NoPos if no case condition
// holds it.
func switchOfCase(f *ast.File, pos token.Pos) token.Pos {
	found := token.NoPos
	var path []ast.Node // the nodes from the file down to the one visited
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			path = path[:len(path)-1]
			return false
		}
		if n.Pos() > pos || n.End() <= pos {
			return false // not entered: Inspect then calls no nil for it
		}
		var colon token.Pos
		switch n := n.(type) {
		case *ast.CaseClause:
			colon = n.Colon
		case *ast.CommClause:
			colon = n.Colon
		}
		if pos < colon {
			for i := len(path) - 1; i >= 0; i-- {
				switch path[i].(type) {
				case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
					found = path[i].Pos()
				}
				if found.IsValid() {
					break
				}
			}
		}
		path = append(path, n)
		return true
	})
	return found
}

// nodeAt returns the expression or statement whose operator is at pos.
func nodeAt(f *ast.File, pos token.Pos) ast.Node {
	var found ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.OpPos == pos {
				found = n
			}
		case *ast.UnaryExpr:
			if n.OpPos == pos {
				found = n
			}
		case *ast.IncDecStmt:
			if n.TokPos == pos {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// placeOf says whether the mutant can be a choice in the schema, and if
// not, why.
func (p *pkg) placeOf(f *ast.File, s site) (placement, string) {
	if s.node == nil {
		return builtAlone, "no expression or statement found at the operator"
	}
	e, ok := s.node.(ast.Expr)
	if !ok {
		return inSchema, "" // x++ and x--
	}
	tv := p.info.Types[e]
	if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 && s.to == token.SUB {
		return notViable, "- between strings"
	}
	if tv.Value != nil {
		return builtAlone, "a constant expression"
	}
	if p.typeName(f, tv.Type) == "" {
		return builtAlone, "its type " + tv.Type.String() + " has no name in the file"
	}
	return inSchema, ""
}

// typeName spells t as code in file f can, or returns "" if it cannot (a
// type of a package the file does not import, an untyped number).
func (p *pkg) typeName(f *ast.File, t types.Type) string {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		if b.Info()&types.IsBoolean != 0 {
			return "bool"
		}
		return ""
	}
	imported := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imported[path] = name
	}
	nameable := true
	s := types.TypeString(t, func(other *types.Package) string {
		if other == p.self {
			return ""
		}
		name, ok := imported[other.Path()]
		if !ok || name == "_" {
			nameable = false
		}
		if name == "." {
			return ""
		}
		return name
	})
	if !nameable {
		return ""
	}
	return s
}

// switchFile is the schema's file that turns one mutant on: the number in
// the environment variable MUTANT (none when unset).
const switchFile = "zz_mutant_schema.go"

func switchSource(pkgName string) string {
	return `// Code generated by internal/mutants. DO NOT EDIT.

package ` + pkgName + `

import (
	mutantSchemaOS "os"
	mutantSchemaStrconv "strconv"
)

var mutantSchemaActive, _ = mutantSchemaStrconv.Atoi(mutantSchemaOS.Getenv("MUTANT"))

func mutantSchemaOn(id int) bool { return id == mutantSchemaActive }
`
}

// schemaFile returns the text of the file with every site's node made a
// choice between the original and each of its mutants. Each node stays on
// its lines, so line numbers in test failures stay those of the source.
func (p *pkg) schemaFile(file string, sites []site) string {
	r := rewriter{src: p.src[file], tf: p.fset.File(p.files[file].Pos()), f: p.files[file], p: p, byNode: map[ast.Node][]site{}}
	for _, s := range sites {
		if _, seen := r.byNode[s.node]; !seen {
			r.nodes = append(r.nodes, s.node)
		}
		r.byNode[s.node] = append(r.byNode[s.node], s)
	}
	// Outer nodes before the nodes inside them.
	sort.SliceStable(r.nodes, func(i, j int) bool {
		a, b := r.nodes[i], r.nodes[j]
		if a.Pos() != b.Pos() {
			return a.Pos() < b.Pos()
		}
		return a.End() > b.End()
	})
	return r.span(0, len(r.src))
}

type rewriter struct {
	src    []byte
	tf     *token.File
	f      *ast.File
	p      *pkg
	nodes  []ast.Node // the mutated nodes, outer ones first
	byNode map[ast.Node][]site
}

func (r *rewriter) off(pos token.Pos) int { return r.tf.Offset(pos) }

// span returns src[start:end] with the mutated nodes in it rewritten.
func (r *rewriter) span(start, end int) string {
	var b strings.Builder
	at := start
	for _, n := range r.nodes {
		s, e := r.off(n.Pos()), r.off(n.End())
		if s < at || e > end {
			continue // before the span, inside a node done, or after
		}
		b.Write(r.src[at:s])
		b.WriteString(r.choice(n))
		at = e
	}
	b.Write(r.src[at:end])
	return b.String()
}

func (r *rewriter) text(n ast.Node) string { return r.span(r.off(n.Pos()), r.off(n.End())) }

// choice returns the node as a call that does what the mutant turned on
// does, or the original.
func (r *rewriter) choice(n ast.Node) string {
	var b strings.Builder
	switch n := n.(type) {
	case *ast.BinaryExpr:
		x, y := r.text(n.X), r.text(n.Y)
		fmt.Fprintf(&b, "func() %s { ", r.p.typeName(r.f, r.p.info.Types[n].Type))
		for _, s := range r.byNode[n] {
			fmt.Fprintf(&b, "if mutantSchemaOn(%d) { return (%s) %s (%s) }; ", s.ID, x, s.to, y)
		}
		fmt.Fprintf(&b, "return (%s) %s (%s) }()", x, n.Op, y)
	case *ast.UnaryExpr:
		x := r.text(n.X)
		fmt.Fprintf(&b, "func() %s { ", r.p.typeName(r.f, r.p.info.Types[n].Type))
		for _, s := range r.byNode[n] {
			fmt.Fprintf(&b, "if mutantSchemaOn(%d) { return %s(%s) }; ", s.ID, s.to, x)
		}
		fmt.Fprintf(&b, "return %s(%s) }()", n.Op, x)
	case *ast.IncDecStmt:
		x := r.text(n.X)
		b.WriteString("func() { ")
		for _, s := range r.byNode[n] {
			fmt.Fprintf(&b, "if mutantSchemaOn(%d) { %s%s; return }; ", s.ID, x, s.to)
		}
		fmt.Fprintf(&b, "%s%s }()", x, n.Tok)
	}
	return b.String()
}

// aloneFile returns the site's file with only its operator changed.
func (p *pkg) aloneFile(s site) string {
	src := p.src[s.File]
	return string(src[:s.off]) + s.to.String() + string(src[s.off+len(s.from.String()):])
}

// writeSchema writes the schema's files and its overlay under dir and
// returns the overlay's path.
func (p *pkg) writeSchema(dir string, sites []site) (string, error) {
	byFile := map[string][]site{}
	for _, s := range sites {
		if s.place == inSchema {
			byFile[s.File] = append(byFile[s.File], s)
		}
	}
	files := map[string]string{switchFile: switchSource(p.name)}
	for file, here := range byFile {
		files[file] = p.schemaFile(file, here)
	}
	return p.writeOverlay(dir, files)
}

// writeOverlay writes the files (base name to text) under dir and an
// overlay for go build putting them in the package, and returns its path.
func (p *pkg) writeOverlay(dir string, files map[string]string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	replace := map[string]string{}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(p.dir, name)] = path
	}
	return writeJSON(filepath.Join(dir, "overlay.json"), map[string]any{"Replace": replace})
}
