package inspect

import (
	"math"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
)

// watchFor is how long an agent stays watched (its history kept) after the
// last request about it.
const watchFor = 10 * time.Second

// mayTick reports whether the world may tick now, taking one pending step
// when it is paused.
func (a *attached) mayTick() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.paused {
		return true
	}
	if a.steps > 0 {
		a.steps--
		return true
	}
	return false
}

// after is the inspector's work after a tick, on the world's goroutine:
// breakpoints, the watched agents' history, live updates and the waiting
// requests. With no page attached to the world it is a few atomic loads.
func (a *attached) after() {
	w := a.w
	a.tick.Store(int64(w.Ticks))
	a.time.Store(int64(math.Float64bits(w.Time)))
	a.nagents.Store(int64(len(w.Agents)))
	if !a.busy() {
		return
	}
	if a.nbreak.Load() > 0 {
		a.checkBreakpoints()
	}
	if a.nwatch.Load() > 0 {
		now := time.Now()
		for name, wa := range a.watch {
			if now.Sub(wa.last) > watchFor { // a live page renews it at each push
				delete(a.watch, name)
				a.nwatch.Add(-1)
				continue
			}
			wa.record(w)
		}
	}
	if a.nsubs.Load() > 0 {
		a.push()
	}
	a.serve()
}

// watchAgent starts (or renews) keeping the history of the agent named name,
// and returns it, or nil when the world has no such agent.
func (a *attached) watchAgent(name string) *watched {
	ag := a.w.Agent(name)
	if ag == nil {
		return nil
	}
	wa := a.watch[name]
	if wa == nil || wa.agent != ag {
		if wa == nil {
			a.nwatch.Add(1)
		}
		wa = &watched{agent: ag, size: a.opts.History}
		a.watch[name] = wa
		wa.record(a.w)
	}
	wa.last = time.Now()
	return wa
}

// Frame is one tick of an agent in time travel: its state and decision
// at the end of that tick.
type Frame struct {
	Tick     int      `json:"tick"`
	Time     float64  `json:"time"`
	Goal     string   `json:"goal"`
	Action   string   `json:"action"`
	Decision string   `json:"decision"`
	Plan     []string `json:"plan"`
	// State holds the values in the order of History.Names, as literals.
	State []string `json:"state"`
}

// History is an agent's time travel: the frames kept since it was first
// watched (or, for a trace, one per tick with a record) and its flight
// recorder's records.
type History struct {
	Names   []string `json:"names"`
	Frames  []Frame  `json:"frames"`
	Records []Record `json:"records"`
}

// watched is an agent whose state and decision the inspector keeps tick by
// tick, in a bounded ring.
type watched struct {
	agent  *engine.Agent
	size   int
	frames []Frame
	next   int
	last   time.Time
}

func (wa *watched) record(w *engine.World) {
	ag := wa.agent
	if n := len(wa.frames); n > 0 {
		if prev := wa.at(n - 1); prev.Tick == ag.Ticks() {
			return
		}
	}
	f := Frame{Tick: ag.Ticks(), Time: ag.Time(), Decision: decision(ag), State: make([]string, len(ag.State))}
	if g := ag.CurrentGoal(); g != nil && f.Decision == "goap" {
		f.Goal = g.Name
	}
	if act := ag.Running(); act != nil {
		f.Action = act.Name
	}
	for _, act := range ag.CurrentPlan() {
		f.Plan = append(f.Plan, act.Name)
	}
	for k, v := range ag.State {
		f.State[k] = v.String()
	}
	if len(wa.frames) < wa.size {
		wa.frames = append(wa.frames, f)
		return
	}
	wa.frames[wa.next] = f
	wa.next = (wa.next + 1) % wa.size
}

// at returns the k-th frame, oldest first.
func (wa *watched) at(k int) *Frame {
	if len(wa.frames) < wa.size {
		return &wa.frames[k]
	}
	return &wa.frames[(wa.next+k)%wa.size]
}

// previous returns the state of the frame before tick (nil without one).
func (wa *watched) previous(tick int) []string {
	for k := len(wa.frames) - 1; k >= 0; k-- {
		if f := wa.at(k); f.Tick < tick {
			return f.State
		}
	}
	return nil
}

// current returns the state of the frame of tick (nil without one).
func (wa *watched) current(tick int) []string {
	if n := len(wa.frames); n > 0 {
		if f := wa.at(n - 1); f.Tick == tick {
			return f.State
		}
	}
	return nil
}

func (wa *watched) history() *History {
	h := &History{Names: wa.agent.Domain.Schema.Names(), Frames: make([]Frame, len(wa.frames))}
	for k := range wa.frames {
		h.Frames[k] = *wa.at(k)
	}
	h.Records, _ = records(wa.agent, 0)
	return h
}

// subscriber is a page that gets live updates of one agent.
type subscriber struct {
	agent string
	out   chan *update
}

// update is one live update: the world's status and the agent's view.
type update struct {
	World WorldStatus `json:"world"`
	Agent *AgentView  `json:"agent"`
}

// push sends each live page the view of its agent, dropping (and
// counting) an update the page has not made room for.
func (a *attached) push() {
	a.mu.Lock()
	paused := a.paused
	subs := append([]*subscriber(nil), a.subs...)
	a.mu.Unlock()
	now := time.Now()
	if !paused && now.Sub(a.lastPush) < a.opts.PushEvery {
		return
	}
	a.lastPush = now
	views := map[string]*AgentView{}
	st := a.statusHere()
	for _, s := range subs {
		v, ok := views[s.agent]
		if !ok {
			if ag := a.w.Agent(s.agent); ag != nil {
				a.watchAgent(s.agent)
				v = a.view(ag)
			}
			views[s.agent] = v
		}
		select {
		case s.out <- &update{World: st, Agent: v}:
		default:
			a.droppedPush.Add(1)
		}
	}
}
