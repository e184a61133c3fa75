package sim

import (
	"fmt"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/engine"
	"github.com/moonmind-ai/moonmind/inspect"
)

// InspectName is the name the battle's world has in the inspector.
const InspectName = "battle"

// Inspected is the battle shown in a live inspector: each round's world
// in turn, attached as InspectName. Not safe for concurrent use: call it
// from the goroutine that steps the battle.
type Inspected struct {
	ins *inspect.Inspector
	s   *Sim
	w   *engine.World
}

// NewInspector returns an inspector with the options given and a Reload
// that reloads the soldiers' script (see Sim.Reload), and the battle
// attached to it.
func (s *Sim) NewInspector(opts inspect.Options) (*inspect.Inspector, *Inspected) {
	opts.Reload = func(string, *engine.World) (string, error) {
		n, err := s.Reload()
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("reloaded %s into %d soldiers", filepath.Base(s.ScriptPath()), n), nil
	}
	ins := inspect.New(opts)
	in := &Inspected{ins: ins, s: s}
	in.attach()
	return ins, in
}

// attach follows the battle to a new round's world.
func (in *Inspected) attach() {
	if in.w == in.s.World {
		return
	}
	if in.w != nil {
		in.ins.Detach(in.w)
	}
	in.w = in.s.World
	// Detach freed the name; the new world is not attached yet.
	_ = in.ins.Attach(InspectName, in.w)
}

// Step steps the battle by dt seconds unless the inspector holds it paused
// (see inspect.Inspector.Ready), and reports whether it stepped. A paused
// battle still answers the page.
func (in *Inspected) Step(dt float64) bool {
	in.attach()
	w := in.w
	if !in.ins.Ready(w) {
		return false
	}
	in.s.Step(dt)
	in.ins.AfterTick(w)
	return true
}

// Idle answers the page without stepping (the game's own pause).
func (in *Inspected) Idle() {
	in.attach()
	in.ins.Idle(in.w)
}
