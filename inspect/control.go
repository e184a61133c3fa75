package inspect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/engine/expr"
	"github.com/moonmind-ai/moonmind/engine/record"
)

// Breakpoint pauses a world when it is hit: after a tick in which a
// record of Kind (any kind when empty) of Agent (any agent when empty) was
// made, or, with a Condition, after a tick at whose end the condition
// over Agent's state holds where it did not before.
type Breakpoint struct {
	ID        int    `json:"id"`
	Kind      string `json:"kind,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Hits counts how often it paused the world.
	Hits int `json:"hits"`
}

// breakpoint is a Breakpoint compiled, on the world's goroutine.
type breakpoint struct {
	Breakpoint
	kind    record.EventKind
	anyKind bool
	agent   *engine.Agent
	cond    *expr.Condition
	held    bool
}

func (b *breakpoint) String() string {
	var parts []string
	if b.Condition != "" {
		parts = append(parts, fmt.Sprintf("%s of %s", b.Condition, b.Agent))
	} else {
		kind := "any record"
		if !b.anyKind {
			kind = "a " + b.Kind + " record"
		}
		parts = append(parts, kind)
		if b.Agent != "" {
			parts = append(parts, "of "+b.Agent)
		}
	}
	return fmt.Sprintf("breakpoint %d: %s", b.ID, strings.Join(parts, " "))
}

var (
	errNoControl = errors.New("inspect: control is off (Options.Control)")
	errNotPaused = errors.New("inspect: pause the world first: state is set only between ticks of a paused world")
	errOffline   = errors.New("inspect: a trace does not tick; it can only be read")
)

// pause, resume and step change the world's run state; they take effect
// at the next Tick.
func (a *attached) pause() {
	a.mu.Lock()
	a.paused, a.steps, a.why = true, 0, "paused from the page"
	a.mu.Unlock()
}

func (a *attached) resume() {
	a.mu.Lock()
	a.paused, a.steps, a.why = false, 0, ""
	a.mu.Unlock()
}

func (a *attached) step(n int) {
	a.mu.Lock()
	if !a.paused {
		a.paused, a.why = true, "paused from the page"
	}
	a.steps += n
	a.mu.Unlock()
}

// addBreakpoint compiles b against the world and installs it; it runs
// between ticks.
func (a *attached) addBreakpoint(b Breakpoint) (Breakpoint, error) {
	bp := &breakpoint{Breakpoint: b, anyKind: b.Kind == ""}
	if b.Kind == "" && b.Agent == "" && b.Condition == "" {
		return b, errors.New("inspect: a breakpoint needs a kind, an agent or a condition")
	}
	if !bp.anyKind {
		k, ok := record.ParseEventKind(b.Kind)
		if !ok {
			return b, fmt.Errorf("inspect: no record kind %q%s", b.Kind, engine.DidYouMean(b.Kind, kindNames()))
		}
		bp.kind = k
	}
	if b.Agent != "" {
		if bp.agent = a.w.Agent(b.Agent); bp.agent == nil {
			return b, fmt.Errorf("inspect: no agent %q in world %q", b.Agent, a.name)
		}
	}
	if b.Condition != "" {
		if bp.agent == nil {
			return b, errors.New("inspect: a condition breakpoint needs an agent, whose state it reads")
		}
		c, err := expr.CompileCondition(b.Condition, bp.agent.Domain.Schema)
		if err != nil {
			return b, err
		}
		bp.cond, bp.held = c, c.Eval(bp.agent.State)
	}
	a.nextBP++
	bp.ID = a.nextBP
	a.bps = append(a.bps, bp)
	if bp.cond == nil {
		a.tap()
	}
	a.nbreak.Add(1)
	a.publishBreakpoints()
	return bp.Breakpoint, nil
}

func (a *attached) removeBreakpoint(id int) error {
	for k, bp := range a.bps {
		if bp.ID == id {
			a.bps = append(a.bps[:k:k], a.bps[k+1:]...)
			a.nbreak.Add(-1)
			taps := false
			for _, o := range a.bps {
				taps = taps || o.cond == nil
			}
			if !taps {
				a.untap()
			}
			a.publishBreakpoints()
			return nil
		}
	}
	return fmt.Errorf("inspect: no breakpoint %d", id)
}

func (a *attached) publishBreakpoints() {
	list := make([]Breakpoint, len(a.bps))
	for k, bp := range a.bps {
		list[k] = bp.Breakpoint
	}
	a.mu.Lock()
	a.bpList = list
	a.mu.Unlock()
}

// tap routes the world's records through the record breakpoints, then on
// to the OnEvent the game set (the world calls it on Tick's goroutine).
func (a *attached) tap() {
	if a.tapped {
		return
	}
	a.tapped, a.prevEvent = true, a.w.OnEvent
	prev := a.prevEvent
	a.w.OnEvent = func(e record.Event) {
		if a.hit == "" {
			for _, bp := range a.bps {
				if bp.cond == nil && (bp.anyKind || bp.kind == e.Kind) && (bp.agent == nil || bp.Agent == e.Agent) {
					bp.Hits++
					a.hit = fmt.Sprintf("%s, at tick %d: %s", bp, e.Tick, e.String())
					break
				}
			}
		}
		if prev != nil {
			prev(e)
		}
	}
}

func (a *attached) untap() {
	if a.tapped {
		a.w.OnEvent, a.tapped, a.prevEvent = a.prevEvent, false, nil
	}
}

// checkBreakpoints pauses the world when a breakpoint was hit in the tick
// that just ended.
func (a *attached) checkBreakpoints() {
	for _, bp := range a.bps {
		if bp.cond == nil {
			continue
		}
		holds := bp.cond.Eval(bp.agent.State)
		if holds && !bp.held && a.hit == "" {
			bp.Hits++
			a.hit = fmt.Sprintf("%s, at tick %d", bp, bp.agent.Ticks())
		}
		bp.held = holds
	}
	if a.hit == "" {
		return
	}
	a.publishBreakpoints()
	a.mu.Lock()
	a.paused, a.steps, a.why = true, 0, a.hit
	a.mu.Unlock()
	a.hit = ""
}

// setState sets one state variable of a paused world's agent to a literal.
func (a *attached) setState(agent, name, literal string) (*AgentView, error) {
	a.mu.Lock()
	paused := a.paused
	a.mu.Unlock()
	if !paused {
		return nil, errNotPaused
	}
	ag := a.w.Agent(agent)
	if ag == nil {
		return nil, fmt.Errorf("inspect: no agent %q in world %q", agent, a.name)
	}
	if _, ok := ag.Domain.Schema.Lookup(name); !ok {
		return nil, fmt.Errorf("inspect: agent %s has no state variable %q%s", agent, name,
			engine.DidYouMean(name, ag.Domain.Schema.Names()))
	}
	v, err := expr.ParseLiteral(literal)
	if err != nil {
		return nil, err
	}
	a.watchAgent(agent) // keeps the value before, so the view marks it changed
	ag.Set(name, v)
	return a.view(ag), nil
}

// kindNames lists the record kinds by name, for breakpoints.
func kindNames() []string {
	var out []string
	for k := 0; k < 256; k++ {
		name := record.EventKind(k).String()
		if back, ok := record.ParseEventKind(name); ok && back == record.EventKind(k) {
			out = append(out, name)
		}
	}
	return out
}
