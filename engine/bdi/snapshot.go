package bdi

import "github.com/moonmind-ai/moonmind/engine/reactive"

// SavedGoals implements engine.ReactiveSaver: the top-level goals the mind
// pursues (those its live intentions serve, those handed to the GOAP
// planner) and those queued as goal_added events, oldest first, each once.
// Sub-goals are left out: the intentions that asked for them restart and
// ask again. Goals of intentions that react to belief events are not
// goals and are not saved.
func (m *Mind) SavedGoals() []reactive.Goal {
	var out []reactive.Goal
	add := func(run *goalRun) {
		if run == nil || run.waiter != nil || run.depth != 0 || run.by != 0 {
			return
		}
		for _, g := range out {
			if g.Equal(run.goal) {
				return
			}
		}
		out = append(out, run.goal)
	}
	for _, in := range m.intentions {
		if !in.done {
			add(in.run)
		}
	}
	for _, w := range m.goap {
		add(w.run)
	}
	for _, q := range m.queue[m.qhead:] {
		if q.ev.Kind == GoalAdded {
			add(q.run)
		}
	}
	return out
}

// RestoreGoals implements engine.ReactiveSaver: it queues goals as
// top-level goals, dispatched at the agent's next tick, and marks the
// mind started so that its initial goals are not added again.
func (m *Mind) RestoreGoals(goals []reactive.Goal) {
	m.started = true
	for _, g := range goals {
		m.addGoal(g, nil, 0, 0)
	}
}
