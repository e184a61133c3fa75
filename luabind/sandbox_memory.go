package luabind

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/luabind/internal/luavm"
)

// Memory limits; see Options.MemoryLimit and Options.RuntimeMemoryLimit.
const (
	// DefaultMemoryLimit is the memory one agent's running body may hold
	// when Options.MemoryLimit is zero: 64 MiB.
	DefaultMemoryLimit = 64 << 20
	// DefaultRuntimeMemoryLimit is the memory the bodies of one Runtime
	// may hold together when Options.RuntimeMemoryLimit is zero: 512 MiB.
	DefaultRuntimeMemoryLimit = 512 << 20
	// walkUnits is how much work (work units, plus one per 64 bytes a
	// built-in allocated) a body may do between two measurements of what
	// it holds.
	walkUnits = 50_000
)

// How the memory limits work. gopher-lua has no allocator hook, so three
// measures together bound what a body can take:
//
//  1. Built-ins that build strings, tables or coroutines (string.rep, ..,
//     table.concat, string.format, gsub, coroutine.create, ...) count the
//     bytes they build, exactly and before building them; more than the
//     agent's limit within one resume fails it (deterministic).
//  2. Between resumes, what a body can reach (its coroutine's locals and
//     temporaries, the upvalues of its functions, the coroutines it made,
//     and everything reachable from those, strings counted once) is
//     measured by a walk, after every walkUnits of work or when the Go
//     heap grew by more than half the body's headroom since the last
//     walk; a body holding more than its limit fails (deterministic given
//     when it runs; the walk's figure is an estimate: 16 bytes per list
//     slot, 24 per value, 64 more per key of a hash part (keys set to
//     nil since included, see hashKeyBytes), 64 per table, function or
//     userdata, a string's length plus 16, a coroutine's value stack at
//     16 bytes a slot plus 2 KiB, the values on it). A role file's
//     top-level tables that a body can reach count for every agent that
//     can reach them; the modules (read-only) and the libraries do not.
//     The strings of the agent's state and the Lua values of its facts
//     count as if the body held them (see sizer.pushAgent).
//  3. While a body runs, a watchdog compares the Go heap's live bytes
//     after each garbage collection with their value when the resume
//     began: growth by more than the agent's limit stops the body at the
//     next instruction (this catches growth the other two miss between
//     walks, such as tables built by a long loop of assignments). It sees the
//     whole process, so in a game whose other goroutines allocate a lot
//     it may stop a body early; it is not deterministic.
//
// The per-runtime limit applies to the sum of the walks' figures of the
// running bodies. A body that fails for memory is dropped at once, with
// the pcall workers, tostring ids and spare result slices that could
// still hold its values, so the next collection frees it.

// gcWatch counts the Go runtime's garbage collections and keeps the live
// heap each one measured. It is process-wide by nature (there is one Go
// heap), started once by the first Runtime.
var gcWatch struct {
	once   sync.Once
	cycles atomic.Uint64
	live   atomic.Uint64 // bytes of live heap objects after the last collection
}

type gcSentinel struct{ _ [16]byte }

func startGCWatch() {
	gcWatch.once.Do(func() {
		readLive()
		armSentinel()
	})
}

// armSentinel makes an object whose cleanup runs after the next
// collection frees it; the cleanup records the collection and arms the
// next sentinel.
func armSentinel() {
	s := &gcSentinel{}
	runtime.AddCleanup(s, func(struct{}) {
		readLive()
		gcWatch.cycles.Add(1)
		armSentinel()
	}, struct{}{})
}

func readLive() {
	if live, ok := readMetric("/gc/heap/live:bytes"); ok {
		gcWatch.live.Store(live)
	}
}

// readMetric reads one uint64 metric of the Go runtime; ok is false when
// the runtime does not offer it.
func readMetric(name string) (v uint64, ok bool) {
	sample := []metrics.Sample{{Name: name}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return sample[0].Value.Uint64(), true
}

// memoryWatch is the part of the budget that watches memory during one
// arming.
type memoryWatch struct {
	limit  int64  // the running agent's limit in bytes; <= 0: none
	held   int64  // what the running body held at its last walk
	alloc  int64  // bytes built-ins built during this arming
	live0  uint64 // the live heap when the arming began
	cycles uint64 // collections seen so far
	// allocs0 is the Go heap's cumulative allocated bytes at the first
	// collection seen during this arming (0: none seen yet).
	allocs0 uint64
}

// allocCap is how many bytes the process may allocate during one arming,
// counted from the first collection in it, before the watchdog stops the
// running code: sixteen times the agent's limit, at least 1 GiB (building
// a list of 2.4 million numbers allocates about 200 MB as it grows). It
// stops what allocates and drops again and again (a list padded to
// millions of slots in one assignment, in a loop), which the live heap
// never shows.
func allocCap(limit int64) uint64 { return uint64(max(16*limit, 1<<30)) }

func readAllocs() uint64 {
	allocs, _ := readMetric("/gc/heap/allocs:bytes")
	return allocs
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", (n+(1<<20)-1)>>20) }

// memoryExceeded is the message of a memory limit failure.
func memoryExceeded(limit int64, what string) error {
	return errors.New("memory limit exceeded (" + mib(limit) + "): " + what + " (see luabind.Options.MemoryLimit)")
}

// watchHeap is called by the budget before each instruction: after a
// garbage collection it compares the live heap with its value when the
// arming began.
func (b *budget) watchHeap() {
	c := gcWatch.cycles.Load()
	if c == b.mem.cycles {
		return
	}
	b.mem.cycles = c
	if b.mem.limit <= 0 {
		return
	}
	if allocs := readAllocs(); b.mem.allocs0 == 0 {
		b.mem.allocs0 = allocs
	} else if allocs-b.mem.allocs0 > allocCap(b.mem.limit) {
		b.spend(memoryExceeded(b.mem.limit, "the running code allocated more than "+mib(int64(allocCap(b.mem.limit)))+" in one resume"))
		return
	}
	live := gcWatch.live.Load()
	if live <= b.mem.live0 || int64(live-b.mem.live0) <= b.mem.limit-b.mem.held || b.measure == nil {
		return
	}
	// The heap grew by more than the body may hold: measure what the
	// running code can reach, since the growth may be another goroutine's.
	b.mem.live0 = live
	if held := b.measure(b.mem.limit + 1); held > b.mem.limit {
		b.spend(memoryExceeded(b.mem.limit, "the running code holds about "+mib(held)))
	}
}

// measureRunning is the budget's measure: what the running coroutine and
// the body's own coroutine can reach, up to stop bytes.
func (r *Runtime) measureRunning(stop int64) int64 {
	return r.sizeOf(stop, r.current, r.L.G.CurrentThread, r.running)
}

// allocate counts n bytes a built-in is about to build for the running
// code and raises the memory error when they pass the agent's limit.
func (r *Runtime) allocate(L *lua.LState, n int64) {
	b := r.budget
	if !b.armed {
		return
	}
	b.mem.alloc += n
	if b.mem.limit > 0 && b.mem.held+b.mem.alloc > b.mem.limit {
		err := memoryExceeded(b.mem.limit, "built-ins would allocate "+mib(b.mem.alloc)+" in one resume, on top of the "+mib(b.mem.held)+" the body holds")
		b.spend(err)
		r.raise(L, "%s", err.Error())
	}
	if b.spent == nil {
		b.watchHeap()
		if b.spent != nil {
			r.raise(L, "%s", b.spent.Error())
		}
	}
}

// memoryLimit is the per-agent limit in bytes, or 0 for none.
func (r *Runtime) memoryLimit() int64 {
	if r.opts.MemoryLimit < 0 {
		return 0
	}
	return r.opts.MemoryLimit
}

// bodyMemory is what one running body holds, for the walk's cadence.
type bodyMemory struct {
	held     int64  // bytes at the last walk
	work     int64  // work since the last walk
	liveWalk uint64 // the Go heap's live bytes at the last walk
}

// afterResume measures a body that yielded when its work or the heap's
// growth call for it, and returns the memory error when it holds more
// than its limit or the runtime's bodies together hold more than theirs.
func (r *Runtime) afterResume(t *coTask, work, alloc int64) error {
	limit := r.memoryLimit()
	rlimit := r.opts.RuntimeMemoryLimit
	if limit <= 0 && rlimit <= 0 {
		return nil
	}
	m := &t.mem
	m.work += work + alloc/bytesPerUnit
	live := gcWatch.live.Load()
	headroom := limit - m.held
	if limit <= 0 {
		headroom = rlimit - r.held
	}
	// A work unit builds at most some tens of bytes outside the metered
	// built-ins (a table slot, a small table), so a body far below its
	// limit needs measuring only after proportionally more work.
	every := max(walkUnits, headroom/bytesPerUnit)
	if m.work < every && (live <= m.liveWalk || int64(live-m.liveWalk) < headroom/2) {
		return nil
	}
	m.work, m.liveWalk = 0, live
	held := r.sizeOf(max(limit, rlimit)+1, t.agent, t.th)
	r.held += held - m.held
	m.held = held
	if limit > 0 && held > limit {
		return memoryExceeded(limit, "the body holds about "+mib(held))
	}
	if rlimit > 0 && r.held > rlimit {
		return errors.New("memory limit exceeded (" + mib(rlimit) + " for the runtime): the running bodies hold about " + mib(r.held) +
			" together, " + mib(held) + " of it this one (see luabind.Options.RuntimeMemoryLimit)")
	}
	return nil
}

// release forgets what a finished body held; after a memory failure it
// also drops the sandbox's references that could keep its values alive.
func (r *Runtime) release(t *coTask, memoryFailure bool) {
	r.held -= t.mem.held
	t.mem = bodyMemory{}
	if t.th != nil {
		forgetWorkers(t.th)
	}
	t.th = nil
	if memoryFailure {
		delete(r.ids, t.agent)
		r.dropIdleWorkers()
		clear(r.rets) // the spare slices may hold its last values
		clear(r.waitArgs)
	}
}

// sizeOf estimates the bytes reachable from the coroutines ths (a nil one
// is skipped), stopping once it passes stop. It walks with an explicit
// work list, so a deep chain of tables needs no deep Go stack.
//
// The walk's set and work list are the runtime's spare ones (walkSpare),
// emptied after each walk but keeping their room, so a walk allocates
// only when it reaches more than an earlier one did.
func (r *Runtime) sizeOf(stop int64, a *engine.Agent, ths ...*lua.LState) int64 {
	s := r.walkSpare
	if s == nil {
		s = &sizer{r: r, seen: map[any]struct{}{}}
	} else {
		r.walkSpare = nil
	}
	defer func() {
		clear(s.seen)
		clear(s.work)
		s.work, s.n = s.work[:0], 0
		if cap(s.work) <= maxSpareWork {
			r.walkSpare = s
		}
	}()
	for _, th := range ths {
		if th != nil {
			s.push(th)
		}
	}
	if a != nil {
		s.pushAgent(a)
	}
	return s.run(stop)
}

// pushAgent adds what the agent keeps for its scripts outside Lua: the
// strings of its state (a string a body also holds is counted once) and
// the Lua values of its facts.
func (s *sizer) pushAgent(a *engine.Agent) {
	for _, v := range a.State {
		if str, ok := v.AsString(); ok {
			s.push(lua.LString(str))
		}
	}
	if a.Domain == nil {
		return
	}
	for _, typ := range a.Domain.Types() {
		if v, ok := a.Fact(typ).(lua.LValue); ok {
			s.push(v)
		}
	}
}

// hashKeyBytes is what one key of a table's hash part costs besides the
// 24 bytes the walk counts for every value a table holds: its slot in
// the key order (16 bytes) and its entry in the index of that order (24
// bytes and the map's overhead), which a key cleared since keeps too. A
// live key, also in the map of its kind, is 88 bytes in all: tables of
// 100,000 keys measured 110-130 bytes a live key of Go heap and about 70
// a cleared one, the maps being between two doublings.
const hashKeyBytes = 64

// threadBytes is what a thread holds besides its value stack: its state,
// call frames and context, about 2 KiB.
const threadBytes = 2048

// maxSpareWork is the longest work list the spare walk keeps (16 bytes
// a slot); a walk that needed more gives it back.
// The set is kept whatever its size: clear empties it and a Go map keeps
// its room once grown.
const maxSpareWork = 4096

func (s *sizer) run(stop int64) int64 {
	for len(s.work) > 0 && s.n <= stop {
		v := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		s.visit(v)
	}
	return s.n
}

type sizer struct {
	r    *Runtime
	seen map[any]struct{}
	work []lua.LValue
	n    int64
	dbg  lua.Debug // stackLevel's, reused for every frame
}

// stackLevel is th.GetStack(level) without a new lua.Debug: the sizer's
// own describes the frame (luavm.GetStack), valid until the next call.
func (s *sizer) stackLevel(th *lua.LState, level int) (*lua.Debug, bool) {
	if !luavm.GetStack(th, level, &s.dbg) {
		return nil, false
	}
	return &s.dbg, true
}

func (s *sizer) push(v lua.LValue) {
	switch x := v.(type) {
	case lua.LString:
		if len(x) >= 64 { // short strings are counted each time they appear
			p := luavm.StringData(string(x))
			if _, ok := s.seen[p]; ok {
				return
			}
			s.seen[p] = struct{}{}
		}
		s.n += int64(len(x)) + 16
	case *lua.LTable, *lua.LFunction, *lua.LUserData, *lua.LState:
		if _, ok := s.seen[x]; ok {
			return
		}
		s.seen[x] = struct{}{}
		s.work = append(s.work, x)
	}
}

func (s *sizer) visit(v lua.LValue) {
	switch x := v.(type) {
	case *lua.LTable:
		if x == s.r.base {
			return
		}
		s.n += 64 + 16*int64(len(tableArray(x))) // nils that pad the list included
		x.ForEach(func(k, v lua.LValue) {
			s.n += 24
			s.push(k)
			s.push(v)
		})
		// Every key gopher-lua keeps in the hash part, whether its value
		// is nil now or not: it never forgets one (see luavm.TableKeys),
		// so keys written and cleared again and again would otherwise
		// hold memory no walk sees, and a cleared key keeps its string or
		// table alive. (A live key was pushed above; a short string
		// costs its bytes there.)
		keys := luavm.TableKeys(x)
		s.n += hashKeyBytes * int64(len(keys))
		for _, k := range keys {
			if str, ok := k.(lua.LString); !ok || len(str) >= 64 {
				s.push(k)
			}
		}
		if x.Metatable != nil {
			s.push(x.Metatable)
		}
	case *lua.LFunction:
		s.n += 64
		for _, uv := range x.Upvalues {
			s.push(uv.Value())
		}
	case *lua.LUserData:
		switch x.Value.(type) {
		case *roProxy, *npcRef, stateProxy, *hostHandle:
			return // the runtime's own objects
		}
		s.n += 64
	case *lua.LState:
		// A thread's value stack grows with its deepest call (up to
		// registryMaxSize slots of 16 bytes): count what it has, and the
		// values in use on it, temporaries too.
		if slots, top := luavm.Stack(x); slots != nil {
			s.n += threadBytes + 16*int64(cap(slots))
			for _, v := range slots[:top] {
				if v != nil {
					s.push(v)
				}
			}
		} else {
			s.n += 4096
		}
		if c := threadCtx(x); c != nil && c.pcallWorker != nil {
			s.push(c.pcallWorker)
		}
		for level := 0; level <= callStackSize; level++ {
			dbg, ok := s.stackLevel(x, level)
			if !ok {
				break
			}
			for i := 1; ; i++ {
				name, v := x.GetLocal(dbg, i)
				if name == "" {
					break
				}
				s.push(v)
			}
			if fn, err := x.GetInfo("f", dbg, lua.LNil); err == nil {
				s.push(fn)
			}
		}
	}
}
