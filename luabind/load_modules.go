package luabind

import (
	_ "embed"
	"errors"
	"path/filepath"
	"regexp"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// moonmindModule is the source of require("moonmind"), the DSL helpers.
//
//go:embed moonmind.lua
var moonmindModule string

// module is one entry of require's cache.
type module struct {
	value   lua.LValue
	path    string
	loading bool
}

var moduleName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// ModulePath returns the file that require(name) reads: name's dots
// become folders under Options.ScriptsDir, plus ".lua" ("squad.common" is
// squad/common.lua). A name that is not dot-separated identifiers (so
// holds no "..", slash or drive) is an error, and so is a file that,
// after following symbolic links, lies outside the scripts folder.
func (r *Runtime) ModulePath(name string) (string, error) {
	if !moduleName.MatchString(name) {
		return "", errors.New("luabind: require " + quote(name) + ": a module name is identifiers separated by dots, such as \"squad.common\" (no paths)")
	}
	dir := r.opts.ScriptsDir
	if dir == "" {
		dir = "."
	}
	p := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(name, ".", "/"))+".lua")
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", errors.New("luabind: require " + quote(name) + ": " + err.Error())
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", errors.New("luabind: require " + quote(name) + ": no module file " + p)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errors.New("luabind: require " + quote(name) + ": " + p + " leads outside the scripts folder")
	}
	return p, nil
}

// require(name) loads a module once per role file (see moduleKey) and
// returns its value:
// "moonmind" is the built-in DSL module; any other name is a file under
// the scripts folder (see ModulePath). The module runs in its own
// environment, under the caller's budget.
func (r *Runtime) require(L *lua.LState) int {
	name := L.CheckString(1)
	defer r.enterGo(L, "require")()
	v, err := r.requireModule(L, name)
	if err != nil {
		L.RaiseError("%s", strings.TrimPrefix(err.Error(), "luabind: "))
	}
	L.Push(v)
	return 1
}

// moduleKey is the key of require's cache: a module is loaded once per
// role file that requires it (directly, through its parent roles or
// through other modules), so its top-level locals are shared only by the
// agents of that role, like the role file's own, and one role cannot
// reach another role's agents through a module's state. "moonmind", this
// package's own stateless module, is loaded once per runtime.
func (r *Runtime) moduleKey(L *lua.LState, name string) string {
	if name == "moonmind" {
		return "\x00moonmind"
	}
	return r.callerRoot(L) + "\x00" + name
}

// callerRoot is the role file whose code called the running Go function:
// the root of the innermost Lua function on L's stack whose environment
// is a role file's or module's; "" when there is none.
func (r *Runtime) callerRoot(L *lua.LState) string {
	for level := 1; level < callStackSize+2; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		fn, err := L.GetInfo("f", dbg, lua.LNil)
		if err != nil {
			break
		}
		if f, ok := fn.(*lua.LFunction); ok && f.Env != nil {
			if root, ok := r.envRoot[f.Env]; ok {
				return root
			}
		}
	}
	return ""
}

func (r *Runtime) requireModule(L *lua.LState, name string) (lua.LValue, error) {
	key := r.moduleKey(L, name)
	root, _, _ := strings.Cut(key, "\x00")
	if m, ok := r.modules[key]; ok {
		if m.loading {
			chain := []string{}
			for i, n := range r.requiring {
				if n == name {
					chain = append(chain, r.requiring[i:]...)
					break
				}
			}
			chain = append(chain, name)
			return nil, errors.New("luabind: require " + quote(name) + ": a require cycle: " + strings.Join(chain, " requires "))
		}
		if r.reading != nil {
			r.reading[m.path] = true
		}
		return m.value, nil
	}
	var src, path string
	if name == "moonmind" {
		src, path = moonmindModule, "moonmind.lua"
	} else {
		p, err := r.ModulePath(name)
		if err != nil {
			return nil, err
		}
		b, err := readScript(p)
		if err != nil {
			return nil, errors.New("luabind: require " + quote(name) + ": " + err.Error())
		}
		src, path = string(b), p
		if r.reading != nil {
			r.reading[p] = true
		}
	}
	m := &module{path: path, loading: true}
	r.modules[key] = m
	fn, err := r.compile(strings.NewReader(src), path)
	if err != nil {
		delete(r.modules, key)
		return nil, luaError(err)
	}
	r.envRoot[fn.Env] = root
	L.Push(fn)
	L.Push(lua.LString(name))
	r.requiring = append(r.requiring, name)
	err = L.PCall(1, 1, nil)
	r.requiring = r.requiring[:len(r.requiring)-1]
	if err != nil {
		delete(r.modules, key)
		return nil, luaError(err)
	}
	m.value = L.Get(-1)
	L.Pop(1)
	// A module is shared by every role of the runtime: scripts get it
	// read-only, nested tables too (see readOnlyValue).
	m.value = r.readOnlyValue(m.value, name)
	if m.value == lua.LNil {
		m.value = lua.LTrue
	}
	m.loading = false
	return m.value, nil
}
