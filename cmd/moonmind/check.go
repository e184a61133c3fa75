package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/bdi"
	"github.com/moonmind-ai/moonmind/luabind"
)

func init() {
	commands["check"] = command{what: "load role files and report every problem at its field, or a one-line summary",
		usage: "check FILE|DIR... [--json] [--verbose]", run: checkCmd}
}

// checkCmd loads each role file (each .lua file of a directory, but for
// the modules another file of it requires) and reports every problem as
// file:line:col: severity: message, or a one-line summary of a sound role.
// Exit 1 when there is an error or a warning (notes alone are sound), 2
// on a bad argument.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	asJSON := fs.Bool("json", false, "print the findings as a JSON list of {file, line, col, severity, message, id}")
	verbose := fs.Bool("verbose", false, "name each finding (the name check_ignore takes) and print the findings a role silences, with its reasons")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "moonmind check: expected one or more role files or directories")
		return 2
	}
	files, ok := expandPaths("check", pos, roleFilesIn, stderr)
	if !ok {
		return 2
	}
	var all []finding
	for _, p := range files {
		rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(p)})
		d, err := rt.LoadDomain(p)
		var objs []*engine.Object
		if err == nil {
			objs, err = rt.Objects(d) // an offers function that fails on its data
		}
		rt.Close()
		if err != nil {
			all = append(all, loadFindings(p, err)...)
			var ce *engine.CompileError
			if errors.As(err, &ce) {
				found, _ := applyIgnores(p, luaFindingsOfBroken(p))
				all = append(all, found...)
			}
			continue
		}
		src := readSource(p)
		found := append(analyse(d, src), objectFindings(d, objs, fieldFinder{src: src})...)
		for i := range found {
			if found[i].Pos.File == "" {
				found[i].Pos.File = p
			}
		}
		found, ignored := applyIgnores(p, found)
		all = append(all, found...)
		if *verbose && !*asJSON {
			for _, ig := range ignored {
				fmt.Fprintf(stdout, "%s: ignored [%s]: %s\n", ig.f.Pos, ig.f.ID, ig.reason)
			}
		}
		if !*asJSON && !failing(found) {
			fmt.Fprintf(stdout, "%s: ok: role %s, %d state variables, %d goals, %d actions, %d sensors, %d plans, decide %s\n",
				p, d.Name, d.Schema.Len(), len(d.Goals), len(d.Actions), len(d.Sensors), planCount(d), d.Decide)
		}
	}
	if *asJSON {
		out := make([]findingJSON, 0, len(all))
		for _, f := range all {
			out = append(out, findingJSON{File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col, Severity: f.Severity, Message: f.Msg, ID: f.ID})
		}
		writeJSON(stdout, out)
	} else {
		colour := colourFor(stdout)
		for _, f := range all {
			line := f.format(colour)
			if *verbose && f.ID != "" {
				line += " [" + f.ID + "]"
			}
			fmt.Fprintln(stdout, line)
		}
	}
	if failing(all) {
		return 1
	}
	return 0
}

// ignoredFinding is a finding a role's check_ignore silences, with the
// reason it gives.
type ignoredFinding struct {
	f      finding
	reason string
}

// applyIgnores removes from found the findings the role file at path
// silences by name in its check_ignore, and returns them apart. A name
// that silences nothing is a warning of its own, so a stale entry does not
// hide the next fault of that name.
func applyIgnores(path string, found []finding) (kept []finding, ignored []ignoredFinding) {
	sc, err := luabind.ScanFile(path)
	if err != nil {
		return found, nil
	}
	ignore := sc.CheckIgnore()
	if len(ignore) == 0 {
		return found, nil
	}
	used := map[string]bool{}
	for _, f := range found {
		reason, ok := ignore[f.ID]
		if !ok || f.ID == "" {
			kept = append(kept, f)
			continue
		}
		used[f.ID] = true
		if reason == "" {
			reason = "(no reason given: write check_ignore = { [\"" + f.ID + "\"] = \"why\" })"
		}
		ignored = append(ignored, ignoredFinding{f, reason})
	}
	var ids []string
	for id := range ignore {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var names []string
	for _, f := range found {
		if f.ID != "" {
			names = append(names, f.ID)
		}
	}
	for _, id := range ids {
		if !used[id] {
			at := engine.Pos{File: path, Line: 1, Col: 1}
			src := readSource(path)
			if i := strings.Index(src, `"`+id+`"`); i >= 0 {
				at.Line = 1 + strings.Count(src[:i], "\n")
				at.Col = i - strings.LastIndexByte(src[:i], '\n')
			}
			kept = append(kept, finding{at, "warning", fmt.Sprintf("check_ignore names %q, which no finding of this role has%s", id, engine.DidYouMean(id, names)), ""})
		}
	}
	return kept, ignored
}

// luaFindingsOfBroken returns, for a role file whose declarations do not
// compile (a goal or a precondition reads a misspelt variable, say), what
// check finds in its Lua functions: the state variables its action
// bodies, sensors and named conditions misspell or read without anything
// writing them (undeclaredInLua). Those findings do not depend on the
// goals and preconditions, so the role is compiled again without them; a
// role that does not compile even so (its state or its effects are at
// fault), or does not load, gets none.
func luaFindingsOfBroken(path string) []finding {
	rt := luabind.NewRuntime(luabind.Options{ScriptsDir: filepath.Dir(path)})
	defer rt.Close()
	spec, _ := rt.LoadRole(path)
	if spec.File == "" {
		return nil // the file does not load at all: a syntax error, say
	}
	spec.Goals = nil
	spec.Actions = slices.Clone(spec.Actions)
	for i := range spec.Actions {
		spec.Actions[i].Pre, spec.Actions[i].Fulfills = "", nil
	}
	d, err := engine.Compile(spec)
	if err != nil {
		return nil
	}
	found := undeclaredInLua(d, readSource(path), newScans())
	for i := range found {
		if found[i].Pos.File == "" {
			found[i].Pos.File = path
		}
	}
	return found
}

// failing reports whether findings hold an error or a warning: notes
// alone leave a role sound.
func failing(findings []finding) bool {
	for _, f := range findings {
		if f.Severity != "note" {
			return true
		}
	}
	return false
}

var requireCall = regexp.MustCompile(`require\s*\(?\s*["']([\w./-]+)["']`)

// roleFilesIn lists the .lua files directly in dir, sorted, leaving out
// those another file of dir requires (modules, not roles).
func roleFilesIn(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.lua"))
	if err != nil {
		return nil, err
	}
	required := map[string]bool{}
	for _, p := range paths {
		for _, m := range requireCall.FindAllStringSubmatch(readSource(p), -1) {
			required[strings.TrimSuffix(m[1], ".lua")] = true
		}
	}
	var out []string
	for _, p := range paths {
		if !required[strings.TrimSuffix(filepath.Base(p), ".lua")] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// planCount is the number of reactive plans in a role's library (0 for a
// role without plans), for check's summary line.
func planCount(d *engine.Domain) int {
	if d.NewReactive == nil {
		return 0
	}
	m := bdi.Of(engine.NewAgent("check", d))
	if m == nil || m.Config().Library == nil {
		return 0
	}
	return len(m.Config().Library.Plans())
}

// expandPaths turns a command's arguments into files: a file stays as it
// is, a directory becomes the files inDir finds in it. A path that does
// not exist or a directory that cannot be read is reported on stderr
// under the command's name, and ok is false.
func expandPaths(cmd string, pos []string, inDir func(dir string) ([]string, error), stderr io.Writer) (files []string, ok bool) {
	for _, p := range pos {
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "moonmind %s: %v\n", cmd, err)
			return nil, false
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := inDir(p)
		if err != nil {
			fmt.Fprintf(stderr, "moonmind %s: %v\n", cmd, err)
			return nil, false
		}
		files = append(files, found...)
	}
	return files, true
}
