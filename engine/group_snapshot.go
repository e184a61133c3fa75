package engine

import "fmt"

// groupSnap is one group in a snapshot: its name, scope, board and the
// IDs of its members among the saved agents.
type groupSnap struct {
	Name    string    `json:"name"`
	Scope   string    `json:"scope"`
	Vars    []varSnap `json:"vars"`
	Members []int     `json:"members"`
}

// saveGroups returns the world's groups that have a member among agents,
// each with only those members.
func (w *World) saveGroups(agents []*Agent) []groupSnap {
	var out []groupSnap
	for _, g := range w.groups {
		var ids []int
		for _, m := range g.members {
			for _, a := range agents {
				if a == m.a {
					ids = append(ids, a.ID)
					break
				}
			}
		}
		if ids == nil && len(agents) != len(w.Agents) {
			continue // not a group of the agents moved (SnapshotAgents)
		}
		s := groupSnap{Name: g.name, Scope: g.scope, Members: ids}
		for i, v := range g.vars {
			s.Vars = append(s.Vars, saveValue(v, g.board[i]))
		}
		out = append(out, s)
	}
	return out
}

// loadGroups puts the restored agents (in the snapshot's order) back in
// their groups: a group of w with the saved name keeps its own board (the
// world the agents join knows better); a group w lacks is made with the
// saved board. On error the groups it made are removed again.
func (w *World) loadGroups(s *worldSnap, agents []*Agent) (err error) {
	var made []*Group
	defer func() {
		if err != nil {
			for _, g := range made {
				w.RemoveGroup(g)
			}
		}
	}()
	byID := make(map[int]*Agent, len(agents))
	for i, a := range agents {
		byID[s.Agents[i].ID] = a
	}
	for _, gs := range s.Groups {
		g := w.Group(gs.Name)
		if g == nil {
			spec := GroupSpec{Scope: gs.Scope}
			for _, vs := range gs.Vars {
				v, err := vs.value()
				if err != nil {
					return fmt.Errorf("engine: restore: group %s: variable %s: %w", gs.Name, vs.Name, err)
				}
				spec.Vars = append(spec.Vars, Var{Name: vs.Name, Value: v})
			}
			if g, err = w.NewGroup(gs.Name, spec); err != nil {
				return fmt.Errorf("engine: restore: %w", err)
			}
			made = append(made, g)
		}
		for _, id := range gs.Members {
			a := byID[id]
			if a == nil {
				return fmt.Errorf("engine: restore: group %s: no saved agent has ID %d", gs.Name, id)
			}
			if err := g.Join(a); err != nil {
				return fmt.Errorf("engine: restore: %w", err)
			}
		}
	}
	return nil
}
