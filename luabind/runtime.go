package luabind

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	lua "github.com/yuin/gopher-lua"
)

// HostCall is one call of a game-provided npc method, npc:name(args...).
type HostCall struct {
	Agent   *engine.Agent
	Name    string         // the method name
	Args    []engine.Value // the Lua arguments after npc
	First   bool           // true on the first call of one invocation
	DT      float64        // seconds of this tick; 0 on the first call
	Results []engine.Value // set by the function; returned to Lua when done
	Memo    any            // kept across the calls of one invocation
}

// HostFunc is an npc method provided by the game. It is called once when
// the script calls it and then once per tick until it reports done; the
// Lua body waits meanwhile, so a method such as move_to can span many
// ticks. An error fails the running action with the message.
type HostFunc func(c *HostCall) (done bool, err error)

// Options configures a Runtime. The zero value is usable: no host methods,
// scripts resolved relative to the working directory.
type Options struct {
	// ScriptsDir is the folder role files are read from when a path is
	// relative, and the only folder require may read. Empty means ".".
	ScriptsDir string
	// Host are the npc methods the game provides, by name.
	Host map[string]HostFunc
}

// Runtime is one Lua state that loads role scripts and runs their action
// bodies as coroutines, one coroutine per running action. A Runtime is not
// safe for concurrent use: give each worker goroutine its own.
type Runtime struct {
	L    *lua.LState
	opts Options

	npcs     map[*engine.Agent]*lua.LUserData
	npcMeta  *lua.LTable
	stMeta   *lua.LTable
	callMeta *lua.LTable
	methods  *lua.LTable
}

// NewRuntime returns a Runtime with a sandboxed Lua state: only the base,
// table, string, math and coroutine libraries, without dofile, loadfile,
// load and loadstring.
func NewRuntime(opts Options) *Runtime {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
	} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "getfenv", "setfenv", "collectgarbage", "newproxy"} {
		L.SetGlobal(name, lua.LNil)
	}
	if s, ok := L.GetGlobal("string").(*lua.LTable); ok {
		s.RawSetString("dump", lua.LNil)
	}
	r := &Runtime{L: L, opts: opts, npcs: map[*engine.Agent]*lua.LUserData{}}
	r.initNPC()
	return r
}

// Close releases the Lua state. Agents whose bodies run in it must not
// tick afterwards.
func (r *Runtime) Close() { r.L.Close() }

func (r *Runtime) resolve(path string) string {
	if filepath.IsAbs(path) || r.opts.ScriptsDir == "" {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	return filepath.Join(r.opts.ScriptsDir, path)
}

var syntaxErr = regexp.MustCompile(`^(.*?) line:(\d+)\(column:(\d+)\) near '(.*?)':\s*(.*?)\s*$`)

// luaError turns a gopher-lua error into "file:line:col: message" (or
// "file:line: message") without the stack traceback.
func luaError(err error) error {
	var ae *lua.ApiError
	msg := err.Error()
	if errors.As(err, &ae) && ae.Object != nil {
		msg = ae.Object.String()
	}
	msg = strings.TrimSpace(msg)
	if m := syntaxErr.FindStringSubmatch(msg); m != nil {
		near := ""
		if m[4] != "" {
			near = " near '" + m[4] + "'"
		}
		return errors.New(m[1] + ":" + m[2] + ":" + m[3] + ": " + m[5] + near)
	}
	if i := strings.Index(msg, "\nstack traceback:"); i >= 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}

func itoa(i int) string { return strconv.Itoa(i) }
