package luabind

import (
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// HostCall is one call of a game-provided npc method, npc:name(args...).
// A HostCall belongs to one agent's running call and is used only from the
// goroutine that ticks that agent; do not keep or share it.
type HostCall struct {
	Agent   *engine.Agent
	Name    string       // the method name
	Args    []expr.Value // the Lua arguments after npc; the slice is reused once the call returns, so keep a copy (slices.Clone) of what outlives it, in Memo say
	First   bool         // true on the first call of one invocation
	DT      float64      // seconds of this tick; 0 on the first call
	Results []expr.Value // set by the function; returned to Lua when done
	Memo    any          // kept across the calls of one invocation
}

// HostFunc is an npc method provided by the game. It is called once when
// the script calls it and then once per tick until it reports done; the
// Lua body waits meanwhile, so a method such as move_to can span many
// ticks. An error fails the running action with the message.
// It is called on the goroutine that ticks the agent (a worker when
// World.Workers is above 1): a HostFunc that the runtimes of several workers
// share must be safe for concurrent use.
type HostFunc func(c *HostCall) (done bool, err error)

// Options configures a Runtime. The zero value is usable: no host methods,
// scripts resolved relative to the working directory, the default budgets.
// It is plain data: safe to read from many goroutines at once, not to change
// while another goroutine reads it. NewRuntime copies what it needs.
type Options struct {
	// ScriptsDir is the folder role files are read from when a path is
	// relative, and the only folder require may read. Empty means ".".
	ScriptsDir string
	// Host are the npc methods the game provides, by name.
	Host map[string]HostFunc
	// InstructionBudget is the most work units that one resume of an
	// action body, one call of a sensor, condition, consideration or
	// on_interrupt, or the top level of one role file may spend: a Lua VM
	// instruction is one unit, and built-ins charge the work they do
	// (see the package documentation, "Limits and what they cost"). A
	// script that spends more is stopped with an error naming its file
	// and line; the action fails and the world goes on. Zero means
	// DefaultInstructionBudget; negative means no limit (and, without a
	// TimeBudget, no per-instruction check: about 5-10% faster Lua, for
	// trusted scripts only; the memory watchdog then runs only in
	// built-ins). Counting work keeps runs deterministic.
	InstructionBudget int64
	// TimeBudget, when positive, also stops a resume or callback that runs
	// longer than this wall-clock time (checked every 1024 instructions).
	// Zero means no time limit: a time limit makes runs depend on the
	// machine, so prefer InstructionBudget.
	TimeBudget time.Duration
	// TickBudget is the most work units that all of one agent's scripts
	// may spend in one tick (engine.Agent.Ticks), on top of each call's own
	// InstructionBudget: its sensors, named conditions, reactive plans'
	// triggers and guards, wait_event filters, consideration functions,
	// its body's resume, its intentions and on_interrupt. Once it is spent
	// the call running is stopped with "tick budget exceeded", the agent's
	// other calls that tick fail at once with an error saying they were
	// not run (a body or intention is not resumed: it waits for the next
	// tick), and one tick-budget record says what was cut and where the
	// work went; the next tick starts afresh. It counts work units, like
	// InstructionBudget, so it is deterministic and the same with any
	// number of workers; another agent's budget is never touched.
	// Zero means DefaultTickBudgetCalls × InstructionBudget; negative
	// means no tick budget. It needs an InstructionBudget: without one
	// (InstructionBudget < 0) there is none either. A call the game makes
	// through Runtime.Call and a role file's top level are not charged.
	TickBudget int64
	// MaxStringBytes is the longest string, in bytes, that string.rep,
	// string.format, string.gsub, table.concat and the .. operator may
	// build. Zero means
	// DefaultMaxStringBytes.
	MaxStringBytes int
	// MemoryLimit is the most memory, in bytes, that one agent's running
	// action body may hold (and that built-ins may build in one resume);
	// a body past it fails its action with "memory limit exceeded (N
	// MiB)" and its file and line, its memory is dropped, and every other
	// agent goes on. See sandbox_memory.go for how it is measured and how
	// precisely. Zero means DefaultMemoryLimit; negative means no limit.
	MemoryLimit int64
	// RuntimeMemoryLimit is the most memory, in bytes, that the running
	// bodies of one Runtime may hold together; the body whose measurement
	// passes it fails. Zero means DefaultRuntimeMemoryLimit; negative
	// means no limit.
	RuntimeMemoryLimit int64
	// Print receives the text of each print(...) call, tab-separated as in
	// Lua, prefixed with "file:line: ". Nil discards it.
	Print func(line string)
}

// Runtime is one Lua state that loads role scripts and runs their action
// bodies as coroutines, one coroutine per running action; every script
// compiles once and is shared by the agents that carry its role. A Runtime
// is not safe for concurrent use: give each worker goroutine its own.
type Runtime struct {
	L    *lua.LState
	opts Options
	// closed is set by Close: every later call into Lua fails with
	// errClosed instead of reaching the freed state.
	closed bool
	// scriptErrors counts the errors scripts raised while agents ran (see
	// ScriptErrors).
	scriptErrors int

	budget  *budget
	current *engine.Agent // the agent whose body or callback runs now
	// tickLimit is the tick budget (Options.TickBudget; 0 for none); site
	// is the script the next budgeted call runs and tickSite the one the
	// armed call runs (see sandbox_tickbudget.go); scorer is the agent whose
	// utility planner scores actions now (engine.Domain.Scoring).
	tickLimit int64
	site      callSite
	tickSite  callSite
	armedTick *tickWork     // the tick the armed call is charged to (Runtime.begin), or nil
	tickAgent *engine.Agent // whose tick armedTick is
	scorer    *engine.Agent
	scoreWork *tickWork  // scorer's tick, while it has a tick budget
	nconsider int        // consideration functions bound so far (their ids)
	rand      *rand.Rand // math.random outside an agent (see openRandom)
	// requiring is the stack of modules being loaded, to name a require cycle.
	requiring []string
	mode      mode
	reading   map[string]bool   // files read by the load in progress, for Reload
	goCalls   []goCall          // Go functions that called back into Lua, innermost last
	framePCs  map[uintptr]uint8 // Go return addresses classified by frameOf

	proxies map[*lua.LTable]*lua.LUserData // read-only views of module tables (see readOnlyValue)
	frozen  map[*lua.Upvalue]frozenLocal   // role files' top-level locals, constants after loading (freezeRole)
	// frozenTables are the tables frozen locals reach (freezeRole).
	frozenTables map[*lua.LTable]frozenLocal
	roMeta       *lua.LTable
	ids          map[*engine.Agent]map[lua.LValue]int // tostring's names of reference values, per agent (nil: outside one)
	held         int64                                // bytes the running bodies hold, by their last walks
	// pcall's workers (sandbox_pcall.go): the idle ones, the prelude's loop they
	// run, the marker of a function that returned, and the unchecked
	// coroutine.resume.
	pool      []*lua.LState
	threads   threadPool   // idle body coroutines (body_threadpool.go)
	rets      []lua.LValue // the last resume's results (resumeStarted)
	waitArgs  []lua.LValue // a finished host call's results (coTask.waitOver)
	runWorker *lua.LFunction
	doneToken lua.LValue
	coResume  lua.LGFunction
	running   *lua.LState // the coroutine of the body being resumed, or nil
	// errorWhere is where error() last raised a value that is not a
	// message (error(nil), error({})), which carries no position.
	errorWhere string

	base      *lua.LTable // the real globals; scripts see them through envMeta
	envMeta   *lua.LTable
	protected map[*lua.LTable]bool // tables rawset must not write
	modules   map[string]*module   // require's cache, by moduleKey
	// envRoot is, for the environment of each role file and module, the
	// role file its code belongs to (see moduleKey).
	envRoot map[*lua.LTable]string
	roles   map[string]*loadedRole
	domains map[*engine.Domain]*domainRecord // for Reload

	npcs    map[*engine.Agent]*lua.LUserData
	npcMeta *lua.LTable
	// The fast npc object (see promote): its metatable, lookup table and
	// the latter's metatable, and the npc object that is fast now.
	fastMeta, fastIndex, fastMiss *lua.LTable
	fast                          *lua.LUserData
	fastRef                       *npcRef
	stMeta                        *lua.LTable
	// The fast npc.state (npc_statemirror.go): its metatable, the mirrors'
	// metatable, the mirror table that is its __index now (only
	// promoteState sets it), a mirror per schema and the last one used.
	stFastMeta, stMirrorMiss *lua.LTable
	stFastIndex              *lua.LTable
	mirrors                  map[*expr.Schema]*stateMirror
	lastMirror               *stateMirror
	fMeta                    *lua.LTable // npc.facts
	sqMeta                   *lua.LTable // npc.squad
	callMeta                 *lua.LTable
	// sleepToken and hostToken mark what a body yields: npc:wait and a host
	// method that is not done yet (see the prelude in npc.go).
	sleepToken, hostToken *lua.LUserData
	methods               *lua.LTable
	// hostFirst is the handle a host method's first call runs in, when no
	// other first call is using it (hostStart); nil while one is.
	hostFirst *hostHandle
	// hostName and hostFn are the host method hostStart looked up last
	// in opts.Host, which NewRuntime copied and nothing changes.
	hostName  string
	hostFn    HostFunc
	walkSpare *sizer   // the memory walk's spare set and work list (sizeOf)
	bdi       bdiState // reactive plans (body_bdi.go)
	// objectSets are the smart objects each role file read declares, its
	// parent's merged in, by file (load_objects.go).
	objectSets map[string][]*objectDecl
}

// Lua state sizes. A coroutine starts with a small value stack and call
// stack that grow on demand, so a waiting body costs a few KB; the maxima
// let table.concat and unpack handle tens of thousands of values, and
// running past them is an ordinary, catchable Lua error.
const (
	registrySize     = 128             // initial value-stack slots per coroutine
	registryMaxSize  = 1 << 15         // value-stack slots per coroutine, at most
	maxUnpackCount   = registryMaxSize // values one unpack returns, at most
	registryGrowStep = 1024            // slots added at each growth (growth copies the stack)
	callStackSize    = 200             // nested Lua calls per coroutine, at most
)

// NewRuntime returns a Runtime with a sandboxed Lua state: the base
// library without dofile, loadfile, load, loadstring, getfenv, setfenv,
// collectgarbage, module and newproxy; the table, string (without dump),
// math and coroutine libraries, read-only; a yield-safe pcall and xpcall;
// and a require that reads only Options.ScriptsDir (see Runtime.Require).
// There is no os, io, debug or package library.
func NewRuntime(opts Options) *Runtime {
	if opts.InstructionBudget == 0 {
		opts.InstructionBudget = DefaultInstructionBudget
	}
	if opts.MaxStringBytes <= 0 {
		opts.MaxStringBytes = DefaultMaxStringBytes
	}
	if opts.MemoryLimit == 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	}
	if opts.RuntimeMemoryLimit == 0 {
		opts.RuntimeMemoryLimit = DefaultRuntimeMemoryLimit
	}
	// The host methods are copied: the caller may change its map later
	// (hostStart's one-entry cache relies on this copy never changing).
	opts.Host = maps.Clone(opts.Host)
	startGCWatch()
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registryGrowStep,
		CallStackSize:       callStackSize,
		MinimizeStackMemory: true,
	})
	r := &Runtime{
		L: L, opts: opts,
		budget:    &budget{limit: opts.InstructionBudget, callLimit: opts.InstructionBudget, timeLimit: opts.TimeBudget},
		protected: map[*lua.LTable]bool{},
		modules:   map[string]*module{},
		envRoot:   map[*lua.LTable]string{},
		roles:     map[string]*loadedRole{},
		domains:   map[*engine.Domain]*domainRecord{},
		npcs:      map[*engine.Agent]*lua.LUserData{},
		ids:       map[*engine.Agent]map[lua.LValue]int{},
		hostFirst: &hostHandle{},
	}
	switch {
	case opts.InstructionBudget <= 0 || opts.TickBudget < 0:
	case opts.TickBudget == 0:
		r.tickLimit = DefaultTickBudgetCalls * opts.InstructionBudget
	default:
		r.tickLimit = opts.TickBudget
	}
	r.budget.mem.limit = r.memoryLimit()
	r.budget.measure = r.measureRunning
	r.budget.modeOf = &r.mode
	r.budget.where = r.runningWhere
	r.budget.main = L
	r.initReadOnly()
	r.frozen = map[*lua.Upvalue]frozenLocal{}
	r.frozenTables = map[*lua.LTable]frozenLocal{}
	r.budget.raiseShared = func(th *lua.LState, loc frozenLocal) {
		r.raise(th, "%s", sharedLocalError(loc.name, loc.file))
	}
	r.openSandbox()
	r.initNPC()
	r.initBDI()
	r.initMemory()
	r.freeze()
	if r.budgeted() {
		L.SetContext(r.budget)
	}
	return r
}

// ScriptErrors is how many errors the runtime's scripts have raised while
// its agents ran: in action bodies, on_interrupt handlers, sensors, named
// conditions, considerations, and reactive plans' triggers, guards and
// wait_event filters, a script stopped for running past its instruction
// or memory budget among them. Each failed run counts, a consideration
// once a tick; the agent's records say where (fail, sensor-failed,
// condition-failed and consideration-failed records; a sensor that fails
// tick after tick is recorded once).
//
// Not counted, since they are how the game goes and not a broken script:
// an action body that fails by returning false, reason; a reactive plan's
// body that raises an error (its goal fails, and a goal_failed plan may
// take over); and a script the agent's tick budget (Options.TickBudget)
// stopped or put off to the next tick. Nor are a role file that does not
// load (LoadDomain returns its error) and a function a host calls (Call
// returns its error). Not safe to call while the runtime's agents tick.
func (r *Runtime) ScriptErrors() int { return r.scriptErrors }

// Close releases the Lua state. Agents whose domains it loaded should be
// removed from the world first: if they tick afterwards, their bodies,
// intentions, sensors, conditions and considerations fail with
// "luabind: the runtime is closed" (recorded like any failure) and the rest
// of the world ticks on. LoadRole, LoadDomain, Reload and Call on a closed
// runtime return that error too. A second Close does nothing.
func (r *Runtime) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.L.Close()
}

// errClosed is what every call into the Lua state of a closed Runtime
// returns.
var errClosed = errors.New("luabind: the runtime is closed (Runtime.Close); load into a new one")

// budgeted reports whether scripts run under a budget; without one the VM
// skips the per-instruction check entirely.
func (r *Runtime) budgeted() bool { return r.budget.limit > 0 || r.budget.timeLimit > 0 }

func (r *Runtime) resolve(path string) string {
	if filepath.IsAbs(path) || r.opts.ScriptsDir == "" {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	return filepath.Join(r.opts.ScriptsDir, path)
}

var syntaxEOF = regexp.MustCompile(`^(.*?) at EOF:\s*syntax error\s*$`)

// errorText is the message of a Lua error value: a string or a number as
// it is; any other value (error({}) or error(nil)) by its type, never by
// its address, so traces stay the same from run to run.
func errorText(v lua.LValue) string {
	switch v.(type) {
	case lua.LString, lua.LNumber:
		return scrubAddresses(clipError(v.String()))
	}
	return "an error value that is a " + v.Type().String() + ", not a message (raise errors with a string)"
}

// maxErrorBytes is the longest error message a script's failure carries
// out of Lua (into a fail record, a trace, an error a Go caller gets): a
// longer one is cut to its first maxErrorBytes bytes and says how much was
// cut. A failing sensor's 15 MiB message, formatted into a record every
// tick, took seconds a tick; 8 KiB takes microseconds. pcall hands the
// script its own error value whole.
const maxErrorBytes = 8 << 10

// clipNoteBytes is room for the note clipError appends.
const clipNoteBytes = 64

// clipError cuts msg to maxErrorBytes (at a UTF-8 boundary when there is
// one close by) and notes how many bytes were cut.
func clipError(msg string) string {
	if len(msg) <= maxErrorBytes+clipNoteBytes { // a clipped message stays as it is
		return msg
	}
	n := maxErrorBytes
	for i := 0; i < utf8.UTFMax && n > 0 && !utf8.RuneStart(msg[n]); i++ {
		n--
	}
	return msg[:n] + " ... (" + itoa(len(msg)-n) + " more bytes cut)"
}

var compileLimit = regexp.MustCompile(`^compile error near line\((\d+)\) (.*?): (.*)$`)

var syntaxErr = regexp.MustCompile(`^(.*?) line:(\d+)\(column:(\d+)\) near '(.*?)':\s*(.*?)\s*$`)

// luaError turns a gopher-lua error into "file:line:col: message" (or
// "file:line: message") without the stack traceback.
func luaError(err error) error {
	var ae *lua.ApiError
	msg := err.Error()
	syntax := false
	if errors.As(err, &ae) && ae.Object != nil {
		// A syntax error of a role file is shown whole (the file's size
		// bounds it); a run-time error is the script's message, clipped.
		syntax = ae.Type == lua.ApiErrorSyntax
		if syntax {
			msg = scrubAddresses(ae.Object.String())
		} else {
			msg = errorText(ae.Object)
		}
	}
	msg = strings.TrimSpace(msg)
	if strings.HasSuffix(msg, "lua callstack overflow") {
		// gopher-lua panics with this text when the call stack is full.
		msg = strings.TrimSuffix(msg, "lua callstack overflow") + "stack overflow: more than " + itoa(callStackSize) +
			" nested Lua calls (a recursion that never ends?)"
	}
	if !syntax && len(msg) > 2*maxErrorBytes {
		// Only a traceback makes a run-time message this long here; the
		// forms below never match one (their lines have no newline).
		m, trace := splitTrace(msg, ae)
		return errors.New(scrubAddresses(locate(clipError(m), trace)))
	}
	if m := compileLimit.FindStringSubmatch(msg); m != nil {
		return errors.New(m[2] + ":" + m[1] + ": " + m[3] + " (a Lua function has at most 200 local variables and 255 registers)")
	}
	if m := syntaxEOF.FindStringSubmatch(msg); m != nil {
		return errors.New(m[1] + ": syntax error at the end of the file (a missing \"end\", \"}\" or \")\"?)")
	}
	if m := syntaxErr.FindStringSubmatch(msg); m != nil {
		near := ""
		if m[4] != "" {
			near = " near '" + m[4] + "'"
		}
		return errors.New(m[1] + ":" + m[2] + ":" + m[3] + ": " + m[5] + near)
	}
	msg, trace := splitTrace(msg, ae)
	if !syntax {
		msg = clipError(msg)
	}
	return errors.New(scrubAddresses(locate(msg, trace)))
}

// splitTrace cuts the stack traceback off an error message and returns
// the message and the whole traceback (with ae's, when ae is not nil).
func splitTrace(msg string, ae *lua.ApiError) (string, string) {
	trace := ""
	if ae != nil {
		trace = ae.StackTrace
	}
	if i := strings.Index(msg, "\nstack traceback:"); i >= 0 {
		trace = msg[i:] + trace
		msg = msg[:i]
	}
	return msg, trace
}

func itoa(i int) string { return strconv.Itoa(i) }

var (
	preludeWhere = regexp.MustCompile(`^(` + preludeName + `:\d+: ?)+`)
	plainWhere   = regexp.MustCompile(`^([^\s:\[]+):(\d+):`)
)

// oddChunks holds the chunk names (script paths) of every runtime that
// plainWhere cannot end, those with a space or a colon in them
// ("my scripts/guard.lua"): leadingWhere looks for them by name. Names
// are only added (a path is one string however often it loads); errors
// read them, so the lock is taken on error paths and at compile only.
var oddChunks struct {
	sync.RWMutex
	names []string
}

// noteChunk records a chunk name whose positions plainWhere cannot read.
func noteChunk(name string) {
	if m := plainWhere.FindStringSubmatch(name + ":1:"); m != nil && m[1] == name {
		return
	}
	oddChunks.Lock()
	defer oddChunks.Unlock()
	if !slices.Contains(oddChunks.names, name) {
		oddChunks.names = append(oddChunks.names, name)
	}
}

// leadingWhere reads the position "file:line:" that s begins with: the
// file and the line, and ok false when s begins with none. A file is a
// name without spaces or colons, or a chunk name noteChunk recorded.
func leadingWhere(s string) (file, line string, ok bool) {
	if m := plainWhere.FindStringSubmatch(s); m != nil {
		return m[1], m[2], true
	}
	oddChunks.RLock()
	defer oddChunks.RUnlock()
	for _, name := range oddChunks.names {
		rest, found := strings.CutPrefix(s, name+":")
		if !found {
			continue
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n > 0 && n < len(rest) && rest[n] == ':' && len(name) > len(file) {
			file, line, ok = name, rest[:n], true // the longest name that fits
		}
	}
	return file, line, ok
}

// locate names the script's line in an error message: a position in this
// package's own Lua code (the prelude) is replaced by the innermost
// script frame of the traceback, and a message with no position at all
// (error(nil), a call stack overflow) gets that frame's position.
func locate(msg, trace string) string {
	where := ""
	for line := range strings.Lines(trace) {
		if file, n, ok := leadingWhere(strings.TrimLeft(line, " \t")); ok && file != preludeName {
			where = file + ":" + n + ": "
			break
		}
	}
	return locateAt(msg, where)
}

// locateAt is locate with the script's position given ("file:line: "):
// a message that already begins with a position (any script path, with
// spaces or not) keeps it and gets no second one.
func locateAt(msg, where string) string {
	if p := preludeWhere.FindString(msg); p != "" {
		return where + msg[len(p):]
	}
	if _, _, ok := leadingWhere(msg); !ok {
		return where + msg
	}
	return msg
}
